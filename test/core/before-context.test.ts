// Before-context kept in bounded memory: the last N lines in runs, capped in bytes, and what the
// searcher prints and says when the cap cut the context of a match.
import { describe, expect, it } from 'vitest';
import { BeforeContext } from '../../src/core/before-context.js';
import { chunkedReader, LineScanner } from '../../src/core/lines.js';
import { compilePatterns } from '../../src/core/pattern.js';
import { LineSearcher } from '../../src/core/searcher.js';
import { esc } from '../helpers.js';

function kept(c: BeforeContext, first = 1): string[] {
  const out: string[] = [];
  c.each(first, (n, b, s, e) => out.push(`${n}:${esc(b.subarray(s, e))}`));
  return out;
}

describe('BeforeContext', () => {
  it('keeps the last N lines across blocks, copying only as many as the count allows', () => {
    const c = new BeforeContext(3);
    c.append(Buffer.from('a\nb\nc\nd\n'), 0, 8, 4);
    expect(kept(c)).toEqual(['2:b\\n', '3:c\\n', '4:d\\n']);
    c.append(Buffer.from('xxe\r\nf'), 2, 6, 6);
    expect(kept(c)).toEqual(['4:d\\n', '5:e\\r\\n', '6:f']);
    expect(kept(c, 5)).toEqual(['5:e\\r\\n', '6:f']);
    expect(c.oldest).toBe(4);
    c.clear();
    expect(kept(c)).toEqual([]);
    expect(c.oldest).toBeUndefined();
  });

  it('drops the oldest lines past its byte cap, and says it did', () => {
    const c = new BeforeContext(1_000_000_000, 10);
    c.append(Buffer.from('1234\n5678\nabcd\n'), 0, 15, 3);
    expect(kept(c)).toEqual(['2:5678\\n', '3:abcd\\n']);
    expect(c.dropped).toBe(true);
    const d = new BeforeContext(2, 10);
    d.append(Buffer.from('1\n2\n3\n'), 0, 6, 3);
    expect(d.dropped).toBe(false); // dropped for the count: that is -B itself, not a cut
  });
});

describe('LineSearcher with a capped before-context', () => {
  it('prints what the cap kept after a "--", and notes the cut', async () => {
    const events: string[] = [];
    const notes: string[] = [];
    const sink = {
      match: (n: number, b: Buffer, s: number, e: number) => void events.push(`${n}:${esc(b.subarray(s, e))}`),
      context: (n: number, b: Buffer, s: number, e: number) => void events.push(`${n}-${esc(b.subarray(s, e))}`),
      gap: () => void events.push('--'),
    };
    const input = Buffer.from(`${Array.from({ length: 40 }, (_, i) => `line${i + 1}`).join('\n')}\nHIT\n`);
    const s = new LineSearcher(await compilePatterns(['HIT']), sink, { before: 1_000_000_000, maxBeforeBytes: 20, onNote: (m) => void notes.push(m) });
    new LineScanner(chunkedReader(input, [7]), 16).scanBlocks(s.visitor);
    expect(events[0]).toBe('--');
    expect(events.at(-1)).toBe('41:HIT\\n');
    // every line shown is the file's own and they run without a hole up to the match
    const shown = events.slice(1, -1).map((e) => Number(e.split('-')[0]));
    expect(shown).toEqual(Array.from({ length: shown.length }, (_, i) => 41 - shown.length + i));
    expect(shown.length).toBeLessThan(40);
    expect(notes).toEqual(['the context before line 41 is cut: at most 20 bytes of it is kept']);
  });
});
