import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FoldFinder } from '../../src/core/fold-case.js';
import { FOLD_SIZE } from '../../src/core/newlines.js';
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
