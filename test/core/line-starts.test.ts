// Line starts found in bulk (core/line-starts.ts) against a naive scan: with the kernel and with
// the indexOf fallback, for any chunk size and output capacity (a line may straddle either), and
// the Float64Array kept past 4 GiB (its bound lowered here).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CAP, CHUNK, lineStarts, type StartsOptions } from '../../src/core/line-starts.js';
import { simdNewlineCounter, startWriter } from '../../src/core/newlines.js';

/** The reference: a start at 0 unless empty, one after every "\n" short of the end, then the end. */
function naive(bytes: Uint8Array): number[] {
  const starts: number[] = [];
  for (let i = 0; i < bytes.length; i++) if (i === 0 || bytes[i - 1] === 10) starts.push(i);
  starts.push(bytes.length);
  return starts;
}

/** Random bytes with "\n" (and "\r") at a chosen density, so runs of empty lines occur too. */
const texts = fc
  .tuple(fc.uint8Array({ maxLength: 6000 }), fc.constantFrom(0, 0.02, 0.3, 0.9, 1))
  .map(([raw, density]) => Uint8Array.from(raw, (x, i) => ((i * 7919) % 1000 < density * 1000 ? 10 : x === 10 ? 13 : x)));

const MODES: [string, StartsOptions][] = [
  ['the kernel', { kernel: true }],
  ['the fallback', { kernel: false }],
  ['the default choice', {}],
];

describe('lineStarts', () => {
  it('has the SIMD kernel here (else every "kernel" case below tests the fallback twice)', () => {
    expect(startWriter(simdNewlineCounter(1)!.buffer)).toBeDefined();
  });

  for (const [name, mode] of MODES) {
    it(`property: equals a naive scan, with ${name}, for any chunk size and capacity`, () => {
      fc.assert(
        fc.property(texts, fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 40 }), (bytes, chunk, cap) => {
          const want = naive(bytes);
          for (const o of [{}, { chunk }, { cap }, { chunk, cap }]) {
            const got = lineStarts(bytes, { ...mode, ...o });
            expect(got).toBeInstanceOf(Uint32Array);
            expect([...got]).toEqual(want);
          }
        }),
        { numRuns: 150 },
      );
    });
  }

  it('a Buffer at an offset of a larger ArrayBuffer (a file read into a pool slice) is scanned from its own start', () => {
    const whole = Buffer.from('xx\nyy\n' + 'a\nbb\r\n\ncc'.repeat(400));
    const text = whole.subarray(4);
    for (const [, mode] of MODES) expect([...lineStarts(text, mode)]).toEqual(naive(text));
  });

  it('the edge texts: empty, only "\\n", no final newline, a lone CR, CRLF, latin1 and a BOM', () => {
    const cases = ['', '\n', '\n\n', 'a', 'a\n', 'a\nb', '\r', 'a\rb\n', 'a\r\nb\r\n', 'a\r\nb', '\xef\xbb\xbfa\nb\n', 'caf\xe9\n\xff\r\n\xfe'];
    for (const c of cases) {
      const bytes = Buffer.from(c, 'latin1');
      for (const [, mode] of MODES) expect([c, [...lineStarts(bytes, mode)]]).toEqual([c, naive(bytes)]);
    }
  });

  it('texts over the chunk: lines straddling each 1 MiB copy and each 64K-start output area', () => {
    // a line that crosses the first chunk's end, then more "\n" in one chunk than the output area holds
    const long = Buffer.concat([Buffer.alloc(CHUNK - 3, 0x61), Buffer.from('bc\nde\n'), Buffer.alloc(CAP * 3 + 5, 10), Buffer.from('tail')]);
    const want = naive(long);
    for (const [, mode] of MODES) expect([...lineStarts(long, mode)]).toEqual(want);
    // the text ends on a chunk's last byte, a "\n"
    const exact = Buffer.alloc(2 * CHUNK, 'abc\n');
    expect(exact[exact.length - 1]).toBe(10);
    expect([...lineStarts(exact, { kernel: true })]).toEqual(naive(exact));
  });

  it('past the Uint32Array bound: a Float64Array, the same starts (the bound lowered to reach it)', () => {
    fc.assert(
      fc.property(texts, (bytes) => {
        const got = lineStarts(bytes, { u32Limit: Math.max(0, bytes.length - 1) });
        expect(got).toBeInstanceOf(bytes.length === 0 ? Uint32Array : Float64Array);
        expect([...got]).toEqual(naive(bytes));
      }),
      { numRuns: 50 },
    );
  });
});
