import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BlockFinder, BytesFinder } from '../../src/core/finders.js';
import { hits, occurrences } from './finder-hits.js';

const bytes = (alphabet: string[], max: number) => fc.array(fc.constantFrom(...alphabet), { maxLength: max }).map((p) => Buffer.from(p.join(''), 'latin1'));

describe('BytesFinder', () => {
  it('property: points at every occurrence of every literal in the block, from each literal\'s rarest byte', () => {
    const literal = bytes(['a', 'b', 'q', '='], 4).filter((b) => b.length > 0);
    fc.assert(
      fc.property(bytes(['a', 'b', 'q', '=', '\n', 'a'], 80), bytes(['q', 'b', '\n'], 40), fc.array(literal, { minLength: 1, maxLength: 3 }), fc.nat(10), (first, second, lits, cut) => {
        // anchors are chosen on the first block and kept for the next one, where they may be poor
        const f = new BytesFinder(lits, false);
        const start = Math.min(cut, first.length);
        expect(hits(f, first, start, first.length)).toEqual(occurrences(first, start, first.length, lits));
        expect(hits(f, second, 0, second.length)).toEqual(occurrences(second, 0, second.length, lits));
      }),
    );
  });

  it('checks the bytes before the anchor, at a block start too', () => {
    // "q" and "=" are on every line, "b" is rare: the search starts at "beef" and checks "req=" before it
    const buf = Buffer.from(`${'req=00\n'.repeat(5)}xeq=beef\nbeef\nreq=beef!\n`);
    const f = new BytesFinder([Buffer.from('req=beef')], true);
    expect(f.exact).toBe(true);
    expect(hits(f, buf, 0, buf.length)).toEqual([buf.indexOf('req=beef')]);
    const late = buf.indexOf('beef\n'); // a block starting at "beef": "req=" would be before it
    expect(hits(f, buf, late, buf.length)).toEqual([buf.indexOf('req=beef')]);
  });
});

describe('BlockFinder', () => {
  const lines = (s: string) => Buffer.from(s, 'latin1');

  it('runs the pattern over an ASCII block: exact without "\\r", a superset with "\\r\\n"', () => {
    const f = new BlockFinder(/b+$/gmu, undefined);
    const lf = lines('ab\nbc\nbb\n');
    expect(hits(f, lf, 0, lf.length)).toEqual([1, 6, 7]);
    expect(f.exact).toBe(true);
    const crlf = lines('ab\r\nbc\r\n');
    expect(hits(f, crlf, 0, crlf.length)).toEqual([1]);
    expect(f.exact).toBe(false);
  });

  it('a match at the very end of a block ending in "\\n" is on no line', () => {
    const f = new BlockFinder(/$/gmu, undefined);
    expect(hits(f, lines('a\n'), 0, 2)).toEqual([1]);
  });

  it('hands a block it cannot read (non-ASCII, or a lone "\\r") to the literal finder, or makes every line a candidate', () => {
    const utf8 = Buffer.from('é b\nxx\nb\n');
    const literal = new BytesFinder([Buffer.from('b')], false);
    const withFallback = new BlockFinder(/b/gmu, literal);
    expect(hits(withFallback, utf8, 0, utf8.length)).toEqual([3, 8]);
    expect(withFallback.exact).toBe(false);
    const bare = new BlockFinder(/b/gmu, undefined);
    expect(hits(bare, lines('a\rb\nc\n'), 0, 6)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('reads any block as latin1 when the pattern matches ASCII only (blockAnyBytes)', () => {
    const bin = Buffer.concat([Buffer.from([0xff, 0xe9]), Buffer.from('b\n')]);
    expect(hits(new BlockFinder(/b/gmu, undefined, true), bin, 0, bin.length)).toEqual([2]);
  });
});
