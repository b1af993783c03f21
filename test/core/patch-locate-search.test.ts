// The hunk search by bytes (FileLines.nextEqual / prevEqual, and locate's nearest and
// mostMatching built on them) against line-by-line references: the same lines, places,
// distances, ambiguities and partial matches, for files whose lines repeat and end every way.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FileLines } from '../../src/core/patch/file-lines.js';
import { anchorLine, anchorLineByLine, mostMatching, NEAR_WINDOW, nearest, nearestByLine } from '../../src/core/patch/locate.js';

/** A few line bodies (the empty one, a prefix of another, one ending "\r") and every ending. */
const BODIES = ['a', 'ab', '', 'b', 'a\r', 'caf\xe9'];
const ENDINGS = ['\n', '\r\n', '\r\r\n'];

/** A file of lines drawn from BODIES x ENDINGS, its last line with or without an ending. */
const files = fc
  .tuple(fc.array(fc.tuple(fc.nat(BODIES.length - 1), fc.nat(ENDINGS.length - 1)), { maxLength: 60 }), fc.constantFrom('', 'a', 'a\r', 'b\n'))
  .map(([lines, tail]) => Buffer.from(lines.map(([b, e]) => BODIES[b]! + ENDINGS[e]!).join('') + tail, 'latin1'));

/** Keys as a hunk gives them: what FileLines.key makes of a line, and a few that are no line's. */
const KEYS = ['a', 'ab', '', 'b', 'caf\xe9', 'a\r', 'zz', '\n'];

describe('FileLines.nextEqual and prevEqual', () => {
  it('property: the first and the last line of a range that equals a key, as comparing each line says', () => {
    fc.assert(
      fc.property(files, fc.constantFrom(...KEYS), fc.integer({ min: -2, max: 70 }), fc.integer({ min: -2, max: 70 }), (text, key, a, b) => {
        const f = new FileLines(text);
        const [from, to] = [Math.min(a, b), Math.max(a, b)];
        const hits: number[] = [];
        for (let i = Math.max(0, from); i < Math.min(to, f.length); i++) if (f.equals(i, key)) hits.push(i);
        expect(f.nextEqual(key, from, to)).toBe(hits[0] ?? -1);
        expect(f.prevEqual(key, from, to)).toBe(hits[hits.length - 1] ?? -1);
      }),
      { numRuns: 400 },
    );
  });
});

describe('the hunk search by bytes', () => {
  it('property: nearest gives what the search line by line outwards gives (place, distance, ambiguity)', () => {
    // few bodies, so a hunk's lines stand at several places; the hunk is lines of the file itself
    const repeating = fc
      .tuple(fc.array(fc.tuple(fc.constantFrom('a', 'a', '', 'a\r', 'b'), fc.constantFrom(...ENDINGS)), { maxLength: 20 }), fc.constantFrom('', 'a', 'b\n'))
      .map(([lines, tail]) => Buffer.from(lines.map(([b, e]) => b + e).join('') + tail, 'latin1'));
    const stats = { found: 0, ambiguous: 0, none: 0, atLine0: 0 };
    fc.assert(
      fc.property(repeating, fc.nat(20), fc.integer({ min: 1, max: 2 }), fc.nat(20), fc.oneof({ arbitrary: fc.constant(0), weight: 3 }, { arbitrary: fc.nat(20), weight: 1 }), (text, q, n, s, c) => {
        const f = new FileLines(text);
        const p = q % Math.max(1, f.length);
        const keys = Array.from({ length: n }, (_, k) => (p + k < f.length ? f.key(p + k, false) : 'b'));
        const cursor = Math.min(c, f.length);
        const stated = Math.max(cursor, Math.min(s, f.length));
        const want = nearestByLine(f, keys, stated, cursor, false);
        expect(nearest(f, keys, stated, cursor, false)).toEqual(want);
        if (want === undefined) stats.none++;
        else if (want.ambiguous !== undefined) stats.ambiguous++;
        else stats.found++;
        if (want?.at === 0) stats.atLine0++;
      }),
      { numRuns: 2000 },
    );
    // the runs reached every kind of answer (about 50 ambiguous ones of 2,000, the rarest kind)
    expect(Object.values(stats).every((x) => x >= 3)).toBe(true);
  });

  it('property: mostMatching gives the place a comparison at every place of the window gives', () => {
    fc.assert(
      fc.property(files, fc.array(fc.constantFrom(...KEYS), { minLength: 1, maxLength: 5 }), fc.nat(70), (text, old, stated) => {
        const f = new FileLines(text);
        let want: { at: number; matching: number } | undefined;
        for (let p = Math.max(0, stated - NEAR_WINDOW); p <= Math.min(f.length - 1, stated + NEAR_WINDOW); p++) {
          let m = 0;
          for (let k = 0; k < old.length && p + k < f.length; k++) if (f.equals(p + k, old[k]!)) m++;
          if (m > 0 && (want === undefined || m > want.matching || (m === want.matching && Math.abs(p - stated) < Math.abs(want.at - stated)))) want = { at: p, matching: m };
        }
        expect(mostMatching(f, old, stated)).toEqual(want);
      }),
      { numRuns: 500 },
    );
  });

  it('finds a hunk far from its stated line in a large file, and the nearer of two', () => {
    const lines = Array.from({ length: 50_000 }, (_, i) => `line ${i % 1000}\r\n`);
    const f = new FileLines(Buffer.from(lines.join(''), 'latin1'));
    // "line 7", "line 8" stand at 7, 1007, 2007, ...: from 30,400 the nearest is 30,007 (393 away) not 31,007
    expect(nearest(f, ['line 7', 'line 8'], 30_400, 0, false)).toEqual({ at: 30_007, distance: 393 });
    expect(nearest(f, ['line 7', 'line 8'], 30_507, 0, false)).toEqual({ at: 30_007, distance: 500, ambiguous: 31_007 });
    expect(nearest(f, ['line 7', 'line 9'], 30_400, 0, false)).toBeUndefined();
    expect(nearest(f, ['line 7', 'line 8'], 30_400, 0, false)).toEqual(nearestByLine(f, ['line 7', 'line 8'], 30_400, 0, false));
  });
});

describe("an envelope's @@ line, searched by its longest word", () => {
  it('property: the first line at or after a place that reads as the @@ line, as comparing every line says', () => {
    // words, spacing of every kind, and bytes that are not ASCII (0xa0, which trim() takes as space)
    const words = fc.constantFrom('def', 'f', 'def f', ' def  f ', '\tdef\tf', 'x\xa0y', '\xa0x', 'd\ref', '');
    const lines = fc.array(fc.tuple(words, fc.constantFrom(...ENDINGS)), { maxLength: 30 });
    fc.assert(
      fc.property(lines, words, fc.nat(32), fc.boolean(), (ls, anchor, from, ws) => {
        const f = new FileLines(Buffer.from(ls.map(([w, e]) => w + e).join(''), 'latin1'));
        expect(anchorLine(f, anchor, from, ws)).toBe(anchorLineByLine(f, anchor, from, ws));
      }),
      { numRuns: 1000 },
    );
  });
});
