// The literal watch over a line's pieces against indexOf over the whole line, for any cuts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LiteralWatch } from '../../src/core/literal-watch.js';
import { FOLD_SIZE } from '../../src/core/newlines.js';

/** Feeds `line` to a watch in pieces of the given sizes (cycled); returns whether it saw a literal. */
function watched(w: LiteralWatch, line: Buffer, sizes: number[]): boolean {
  w.reset();
  for (let at = 0, i = 0; at < line.length; i++) {
    const n = Math.min(sizes[i % sizes.length]!, line.length - at);
    w.add(line, at, at + n);
    at += n;
  }
  return w.seen;
}

describe('LiteralWatch', () => {
  it('finds a literal cut between pieces at any place, and one spread over many short pieces', () => {
    const w = new LiteralWatch([Buffer.from('needle')], false);
    for (let at = 0; at <= 20; at++) {
      const line = Buffer.from(`${'x'.repeat(at)}needle${'x'.repeat(20 - at)}`);
      for (const size of [1, 2, 3, 5, 7, 26]) expect(watched(w, line, [size])).toBe(true);
    }
    expect(watched(w, Buffer.from('needl needl eedle'), [1])).toBe(false);
  });

  it('folds ASCII case only under fold, and starts over on reset', () => {
    const fold = new LiteralWatch([Buffer.from('Needle'), Buffer.from('x=1')], true);
    expect(watched(fold, Buffer.from('..NEEDLE..'), [3])).toBe(true);
    expect(watched(fold, Buffer.from('..X=1'), [2])).toBe(true);
    expect(watched(fold, Buffer.from('..X=2'), [2])).toBe(false);
    const exact = new LiteralWatch([Buffer.from('Needle')], false);
    expect(watched(exact, Buffer.from('..NEEDLE..'), [3])).toBe(false);
  });

  it('under fold, finds a literal cut where a piece larger than the folder is folded in parts', () => {
    const w = new LiteralWatch([Buffer.from('needle')], true);
    for (const at of [FOLD_SIZE - 6, FOLD_SIZE - 3, FOLD_SIZE - 1, FOLD_SIZE, 2 * FOLD_SIZE - 2]) {
      const line = Buffer.alloc(2 * FOLD_SIZE + 100, 'x');
      line.write('NeEdLe', at, 'latin1');
      expect(watched(w, line, [line.length]), `at ${at}`).toBe(true);
    }
    expect(watched(w, Buffer.alloc(2 * FOLD_SIZE + 100, 'x'), [2 * FOLD_SIZE + 100])).toBe(false);
  });

  it('an empty literal is in every line', () => {
    expect(watched(new LiteralWatch([Buffer.alloc(0)], false), Buffer.from('abc'), [1])).toBe(true);
  });

  it('property: seen exactly when the whole line holds a literal, for any pieces', () => {
    const bytes = fc.uint8Array({ maxLength: 60 }).map((a) => Buffer.from(a.map((b) => 0x61 + (b % 3))));
    fc.assert(
      fc.property(bytes, fc.array(bytes.filter((l) => l.length > 0), { minLength: 1, maxLength: 3 }), fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 5 }), fc.boolean(), (line, lits, sizes, fold) => {
        const text = fold ? Buffer.from(line.map((b, i) => (i % 2 === 0 ? b - 0x20 : b))) : line;
        const want = lits.some((l) => line.indexOf(l) !== -1);
        expect(watched(new LiteralWatch(lits, fold), text, sizes)).toBe(want || (!fold && lits.some((l) => text.indexOf(l) !== -1)));
      }),
    );
  });
});
