import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FoldFinder } from '../../src/core/fold-case.js';
import { FOLD_SIZE, foldUser, type NewlineCounter, simdNewlineCounter } from '../../src/core/newlines.js';
import { hits, occurrences } from './finder-hits.js';

/** ASCII letters lower-cased, every other byte kept: what -i's literal search compares. */
const asciiLower = (b: Buffer) => b.map((c) => (c >= 65 && c <= 90 ? c + 32 : c)) as Buffer;

describe('FoldFinder', () => {
  it('property: finds the literals ignoring ASCII case only, in any block', () => {
    const text = fc.array(fc.constantFrom('a', 'A', 'b', 'B', '-', '\n', '\xe1', '\xc1', '\xff'), { maxLength: 80 }).map((p) => Buffer.from(p.join(''), 'latin1'));
    const literal = fc.array(fc.constantFrom('a', 'B', '-'), { minLength: 1, maxLength: 3 }).map((p) => Buffer.from(p.join(''), 'latin1'));
    fc.assert(
      fc.property(text, fc.array(literal, { minLength: 1, maxLength: 2 }), (buf, lits) => {
        expect(hits(new FoldFinder(lits), buf, 0, buf.length)).toEqual(occurrences(buf, 0, buf.length, lits, asciiLower));
      }),
    );
  });

  it('folds a block larger than the scratch buffer too (a long line)', () => {
    const buf = Buffer.alloc(FOLD_SIZE + 100, 'x');
    buf.write('NeeDle', FOLD_SIZE + 10, 'latin1');
    buf.write('needle', 5, 'latin1');
    expect(hits(new FoldFinder([Buffer.from('NEEDLE')]), buf, 0, buf.length)).toEqual([5, FOLD_SIZE + 10]);
  });

  it('two searches sharing the scratch buffer each find their own block', () => {
    const a = new FoldFinder([Buffer.from('ab')]);
    const b = new FoldFinder([Buffer.from('cd')]);
    const one = Buffer.from('xAbxxaB\n');
    const two = Buffer.from('CDxxcd\n');
    a.reset(one, 0, one.length);
    b.reset(two, 0, two.length);
    expect([a.next(0), b.next(0), a.next(2), b.next(1)]).toEqual([1, 0, 5, 4]);
  });
});

describe('FoldFinder in a kernel\'s memory (a scanner\'s buffer), once the 64 KiB sample is taken', () => {
  /** A finder of `lits` that has sampled 70,000 bytes of `filler` in a kernel's memory. */
  function sampled(kernel: NewlineCounter, lits: Buffer[], filler = 'svc=api req=ff MASK @[x] `{y}\n'): FoldFinder {
    const f = new FoldFinder(lits);
    const big = Buffer.from(filler.repeat(Math.ceil(70000 / filler.length)), 'latin1');
    kernel.buffer.set(big, 0);
    hits(f, kernel.buffer, 0, big.length);
    return f;
  }

  /** Hits in `text` written at `at` in the kernel's buffer, checking the scratch buffer is not written. */
  function inPlace(f: FoldFinder, kernel: NewlineCounter, text: Buffer, at: number): number[] {
    kernel.buffer.set(text, at);
    foldUser.current = undefined;
    const found = hits(f, kernel.buffer, at, at + text.length);
    expect(foldUser.current).toBeUndefined(); // no copy was made
    return found;
  }

  it('property: finds what the folding copy finds, without the copy, in any block at any offset', () => {
    const kernel = simdNewlineCounter(1 << 17)!;
    // bytes one 0x20 apart ("@" and "`", "[" and "{"), letters in both cases, bytes past ASCII
    const text = fc.array(fc.constantFrom('a', 'A', 'b', 'B', '@', '`', '[', '{', '-', '\n', 'req=', 'REQ=', '\xe1', '\xc1', '\xff'), { maxLength: 120, size: 'max' }).map((p) => Buffer.from(p.join(''), 'latin1'));
    const literal = fc.array(fc.constantFrom('a', 'B', '@', '`', '[', '{', '-', 'r', 'E', 'q', '='), { minLength: 1, maxLength: 5 }).map((p) => Buffer.from(p.join(''), 'latin1'));
    fc.assert(
      fc.property(fc.array(literal, { minLength: 1, maxLength: 2 }), fc.array(text, { minLength: 1, maxLength: 4 }), fc.nat(40), (lits, blocks, at) => {
        const f = sampled(kernel, lits);
        const folding = new FoldFinder(lits); // never sampled: it searches the folded copy
        for (const block of blocks) {
          const want = occurrences(block, 0, block.length, lits, asciiLower);
          expect(inPlace(f, kernel, block, at).map((p) => p - at)).toEqual(want);
          expect(hits(folding, block, 0, block.length)).toEqual(want);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('finds mixed-case hits at every place of a 16-byte vector and at the block end, and none cut off by it', () => {
    const kernel = simdNewlineCounter(1 << 17)!;
    const f = sampled(kernel, [Buffer.from('needle')]);
    for (let p = 0; p <= 58; p++) {
      const block = Buffer.alloc(64, 'x');
      block.write('NeEdLe', p, 'latin1');
      expect(inPlace(f, kernel, block, 3)).toEqual([p + 3]);
    }
    const cut = Buffer.from('xxxxxxxxxxNEEDL', 'latin1'); // the rest of it past the block's end
    kernel.buffer.write('E', 3 + cut.length, 'latin1');
    expect(inPlace(f, kernel, cut, 3)).toEqual([]);
  });

  it('folds letters only: "@" is not "`", "[" is not "{", bytes past ASCII are not folded', () => {
    const kernel = simdNewlineCounter(1 << 17)!;
    const f = sampled(kernel, [Buffer.from('`{a'), Buffer.from('@[b')]);
    expect(inPlace(f, kernel, Buffer.from('@{a `[a @[A `{A @[B', 'latin1'), 0)).toEqual([12, 16]);
    const g = sampled(kernel, [Buffer.from('x-y')]);
    expect(inPlace(g, kernel, Buffer.from('X\rY x-Y X-y x\x0dy', 'latin1'), 0)).toEqual([4, 8]);
    const h = sampled(kernel, [Buffer.from('a')]); // one byte: paired with itself
    expect(inPlace(h, kernel, Buffer.from('\xe1\xc1Aa', 'latin1'), 0)).toEqual([2, 3]);
  });

  it('searches a block larger than the scratch buffer in place too (a long line)', () => {
    const kernel = simdNewlineCounter(FOLD_SIZE + (1 << 16))!;
    const f = sampled(kernel, [Buffer.from('NEEDLE')]);
    const buf = Buffer.alloc(FOLD_SIZE + 100, 'x');
    buf.write('NeeDle', FOLD_SIZE + 10, 'latin1');
    buf.write('needle', 5, 'latin1');
    expect(inPlace(f, kernel, buf, 0)).toEqual([5, FOLD_SIZE + 10]);
  });
});
