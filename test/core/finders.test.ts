import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BlockFinder, BytesFinder } from '../../src/core/finders.js';
import { choosePair } from '../../src/core/literal-pairs.js';
import { pairSearch, simdNewlineCounter } from '../../src/core/newlines.js';
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

describe('BytesFinder in a kernel\'s memory (a scanner\'s buffer)', () => {
  it('property: a literal with no rare byte, found by two of its bytes, at every occurrence, block after block', () => {
    const kernel = simdNewlineCounter(1 << 17)!;
    // lines where every byte of the literals is common: indexOf would stop on each
    const line = fc.array(fc.constantFrom('req=', 'ff', 'f', 'e', ' ', 'q', '=', '0'), { maxLength: 12 }).map((p) => `${p.join('')}\n`);
    const text = fc.array(line, { minLength: 1, maxLength: 40 }).map((ls) => Buffer.from(ls.join(''), 'latin1'));
    const literal = fc.array(fc.constantFrom('r', 'e', 'q', '=', 'f', ' ', '0'), { minLength: 2, maxLength: 7 }).map((p) => Buffer.from(p.join('')));
    fc.assert(
      fc.property(text, text, fc.array(literal, { minLength: 1, maxLength: 2 }), (first, second, lits) => {
        const f = new BytesFinder(lits, false);
        // the first block fills the 64 KiB sample: pairs are chosen on it, and used on the second
        const big = Buffer.concat(Array.from({ length: Math.ceil(70000 / first.length) }, () => first));
        kernel.buffer.set(big, 0);
        const block = kernel.buffer.subarray(0, big.length);
        expect(hits(f, block, 0, big.length)).toEqual(occurrences(big, 0, big.length, lits));
        kernel.buffer.set(second, 0);
        expect(hits(f, kernel.buffer, 0, second.length)).toEqual(occurrences(second, 0, second.length, lits));
      }),
      { numRuns: 40 },
    );
  });

  it('chooses a pair only for a literal without a rare byte, and one that stops less often', () => {
    const kernel = simdNewlineCounter(1 << 17)!;
    const log = Buffer.from('svc=api-1 req=3c6ef362 status 125\nsvc=api-2 req=ffa0 status 253\n'.repeat(900));
    kernel.buffer.set(log, 0);
    const counts = new Uint32Array(256);
    for (const b of log) counts[b]! += 1;
    const search = pairSearch(kernel.buffer)!;
    const common = Buffer.from(' req=ff');
    const pair = choosePair(common, common.indexOf('q'), counts, log.length, kernel.buffer, 0, log.length, search);
    expect(pair).toBeDefined();
    // "f" is in place at offsets 5 and 6 on one line in two; "q" and "=" on every line
    expect([pair!.o1, pair!.o2]).not.toEqual([3, 4]);
    expect(choosePair(Buffer.from('zebra'), 0, counts, log.length, kernel.buffer, 0, log.length, search)).toBeUndefined();
  });
});

describe('choosePair under -i (fold)', () => {
  it('always gives a pair, counted on case-folded bytes, masking letters only', () => {
    const kernel = simdNewlineCounter(1 << 17)!;
    const log = Buffer.from('svc=api-1 REQ=3c6ef362 status 125\nsvc=api-2 req=ffa0 Status 253\n'.repeat(200)); // under the count's cap
    kernel.buffer.set(log, 0);
    const counts = new Uint32Array(256);
    for (const b of log) counts[b >= 0x41 && b <= 0x5a ? b | 0x20 : b]! += 1;
    const search = pairSearch(kernel.buffer)!;
    // "z" is rare: case-sensitive, indexOf searches from it; folding in place needs a pair still
    const zebra = Buffer.from('zebra=');
    expect(choosePair(zebra, 0, counts, log.length, kernel.buffer, 0, log.length, search)).toBeUndefined();
    const pair = choosePair(zebra, 0, counts, log.length, kernel.buffer, 0, log.length, search, true)!;
    expect(pair).toBeDefined();
    expect([pair.m1, pair.m2]).toEqual([pair.b1, pair.b2].map((b) => (b === 0x3d ? 0 : 0x20)));
    // " req=" on every line, in either case: the pair is counted folded, and found there
    const req = choosePair(Buffer.from(' req=f'), 1, counts, log.length, kernel.buffer, 0, log.length, search, true)!;
    expect(req.o2).toBe(5); // "f" after "req=" is on one line in two; every other pair is on every line
    // one byte, paired with itself; a block too short to count on: the two rarest bytes
    expect(choosePair(Buffer.from('q'), 0, counts, log.length, kernel.buffer, 0, log.length, search, true)).toEqual({ o1: 0, b1: 0x71, m1: 0x20, o2: 0, b2: 0x71, m2: 0x20 });
    const short = choosePair(Buffer.from('1 req'), 0, counts, log.length, kernel.buffer, 0, 3, search, true)!;
    expect([short.o1, short.o2]).toEqual([0, 2]);
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
