// The server's bounds (src/mcp/bounds.ts): what max_bytes means, and an answer cut to 8 MiB.
import { describe, expect, it } from 'vitest';
import { boundedAnswer, HARD_MAX_BYTES, MAX_ANSWER_BYTES, MAX_MESSAGE_BYTES, rowBytes } from '../../src/mcp/bounds.js';
import { SERVER_BOUNDS } from '../../src/surface/options.js';
import { OPTION_INPUT_MAX } from '../../src/io/option-input.js';

describe('the MCP server bounds', () => {
  it('max_bytes: the surface default when not given, the hard cap for 0 or more than it, else as given', () => {
    expect(rowBytes(undefined)).toBe(SERVER_BOUNDS.maxBytes);
    expect(rowBytes(0)).toBe(HARD_MAX_BYTES);
    expect(rowBytes(HARD_MAX_BYTES + 1)).toBe(HARD_MAX_BYTES);
    expect(rowBytes(1e12)).toBe(HARD_MAX_BYTES);
    expect(rowBytes(100)).toBe(100);
    // a request carries at least what the CLI takes from one option input, with room for JSON's escapes
    expect(MAX_MESSAGE_BYTES).toBeGreaterThanOrEqual(2 * OPTION_INPUT_MAX);
    // an answer stays under the 10 MiB a stock SDK client reads
    expect(MAX_ANSWER_BYTES).toBeLessThan(10 << 20);
  });

  it('leaves an answer within the bound as it is, and cuts a larger one, saying so', () => {
    const small = { content: [{ type: 'text' as const, text: 'a\n' }], structuredContent: { records: [{ type: 'line' }], status: 0 } };
    expect(boundedAnswer(small)).toBe(small);
    const big = {
      content: [{ type: 'text' as const, text: `${'é\u0001'.repeat(3 << 20)}\u{1F600}` }, { type: 'text' as const, text: 'linewise: a message' }],
      structuredContent: { records: Array.from({ length: 50_000 }, (_, i) => ({ type: 'line', line: i, text: 'x'.repeat(100) })), status: 0 },
      isError: true,
    };
    const cut = boundedAnswer(big);
    expect(Buffer.byteLength(JSON.stringify(cut))).toBeLessThanOrEqual(MAX_ANSWER_BYTES);
    expect(cut.isError).toBe(true);
    expect(cut.structuredContent.records.length).toBeGreaterThan(1000);
    expect(cut.structuredContent.records).toEqual(big.structuredContent.records.slice(0, cut.structuredContent.records.length));
    expect(big.content[0]!.text.startsWith(cut.content[0]!.text)).toBe(true);
    expect(cut.content.at(-1)!.text).toMatch(/^linewise: the answer was cut: it came to [\d.]+ MiB, more than the 8 MiB an answer holds/);
  });
});
