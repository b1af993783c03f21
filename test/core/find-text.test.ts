// The content finder, near matches, splices and receipts: checked against references built the
// simple way (the whole text in memory), over every way the scanner may cut the file into reads.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseText, type Occurrence, TextFinder, TextSearch } from '../../src/core/find-text.js';
import { AppliedTally } from '../../src/core/text-applied.js';
import { AhoCorasick, KmpMatcher, MANY_NEEDLES } from '../../src/core/text-matchers.js';
import { chunkedReader, LineScanner } from '../../src/core/lines.js';
import { NearFinder } from '../../src/core/near-text.js';
import { spliceRanges } from '../../src/core/splice.js';
import { BlockLocator } from '../../src/core/block-offsets.js';
import { referenceLines } from '../helpers.js';

/** Every occurrence (overlapping too) of `needle` in `data`, found in memory. */
function reference(data: Buffer, needle: Buffer): Occurrence[] {
  // every line as its text and "\n", an unterminated last line too (its "\n" may end a needle)
  const lines = referenceLines(data).map((l) => Buffer.concat([l.subarray(0, l.length - (l.at(-1) === 10 ? (l.at(-2) === 13 ? 2 : 1) : 0)), Buffer.from('\n')]));
  const text = Buffer.concat(lines);
  const at = (offset: number) => {
    let line = 1;
    let start = 0;
    for (const l of lines) {
      if (offset < start + l.length) break;
      start += l.length;
      line++;
    }
    return { line, col: offset - start };
  };
  const out: Occurrence[] = [];
  const open = data.length > 0 && data[data.length - 1] !== 10;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) {
    if (open && i === text.length - 1) break; // the "\n" given to a last line starts nothing
    const end = at(i + needle.length - 1);
    out.push({ start: at(i), end: { line: end.line, col: end.col + 1 } });
  }
  return out;
}

function find(data: Buffer, needle: Buffer, sizes: number[], bufferSize: number): Occurrence[] {
  const scanner = new LineScanner(chunkedReader(data, sizes), bufferSize);
  const f = new TextFinder(normaliseText(needle));
  scanner.scanBlocks((buf, start, end, ends) => f.block(buf, start, end, ends));
  f.finish();
  expect(f.count).toBe(f.found.length);
  return f.found;
}

const atom = fc.constantFrom('a', 'b', 'ab', '\n', '\r\n', '\r', 'é', ' ');
const text = fc.array(atom, { maxLength: 40 }).map((p) => Buffer.from(p.join('')));
const needle = fc.array(fc.constantFrom('a', 'b', '\n', '\r\n', 'é', ' '), { minLength: 1, maxLength: 6 }).map((p) => Buffer.from(p.join('')));

describe('TextFinder', () => {
  it('finds what an in-memory search finds, whatever the reads and the buffer size', () => {
    fc.assert(
      fc.property(text, needle, fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 5 }), fc.integer({ min: 16, max: 24 }), (data, n, sizes, size) => {
        expect(find(data, n, sizes, size)).toEqual(reference(data, normaliseText(n)));
      }),
      { numRuns: 600 },
    );
  });

  it('matches CRLF, mixed and unterminated lines with "\\n"; a lone "\\r" stays content', () => {
    const crlf = Buffer.from('one\r\ntwo\r\nthree');
    expect(find(crlf, Buffer.from('one\ntwo'), [3], 16)).toEqual([{ start: { line: 1, col: 0 }, end: { line: 2, col: 3 } }]);
    expect(find(crlf, Buffer.from('three\n'), [5], 16)).toEqual([{ start: { line: 3, col: 0 }, end: { line: 3, col: 6 } }]);
    expect(find(crlf, Buffer.from('\n'), [64], 16)).toHaveLength(2);
    expect(find(Buffer.from('a\rb\n'), Buffer.from('a\nb'), [64], 16)).toHaveLength(0);
    expect(find(Buffer.from('a\rb\n'), Buffer.from('a\rb'), [64], 16)).toHaveLength(1);
  });

  it('keeps at most `keep` positions but counts them all', () => {
    const f = new TextFinder(Buffer.from('x'), 2);
    const data = Buffer.from('x\nx\nx\n');
    new LineScanner(chunkedReader(data)).scanBlocks((b, s, e, ends) => f.block(b, s, e, ends));
    f.finish();
    expect([f.count, f.found.length]).toEqual([3, 2]);
  });
});

describe('TextSearch', () => {
  /** Every needle's occurrences, found in one pass. */
  function findAll(data: Buffer, needles: Buffer[], sizes: number[], bufferSize: number): Occurrence[][] {
    const scanner = new LineScanner(chunkedReader(data, sizes), bufferSize);
    const out: Occurrence[][] = needles.map(() => []);
    const search: TextSearch = new TextSearch(needles.map(normaliseText), (m) => out[m.needle]!.push(search.position(m)));
    scanner.scanBlocks((buf, start, end, ends) => search.block(buf, start, end, ends));
    search.finish();
    return out;
  }

  it('finds each of many needles (one Aho-Corasick pass) as an in-memory search finds it', () => {
    fc.assert(
      fc.property(text, fc.array(needle, { minLength: MANY_NEEDLES + 1, maxLength: MANY_NEEDLES + 6 }), fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 5 }), fc.integer({ min: 16, max: 24 }), (data, ns, sizes, size) => {
        expect(findAll(data, ns, sizes, size)).toEqual(ns.map((n) => reference(data, normaliseText(n))));
      }),
      { numRuns: 300 },
    );
  });

  it('finds a long self-overlapping needle at every place, across reads, in one pass', () => {
    // 80 "y" in 160 "y" over lines of 7: every offset is an occurrence (the quadratic case of issue 22)
    const data = Buffer.from(('y'.repeat(7) + '\n').repeat(20));
    const n = Buffer.from(('y'.repeat(7) + '\n').repeat(10));
    for (const size of [16, 19, 64]) expect(findAll(data, [n], [5, 11], size)[0]).toEqual(reference(data, n));
  });

  it('KMP and Aho-Corasick agree with indexOf on periodic text, fed in pieces', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b'), { maxLength: 200 }), fc.array(fc.array(fc.constantFrom('a', 'b'), { minLength: 1, maxLength: 40 }), { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 17 }), (t, ns, piece) => {
        const hay = Buffer.from(t.join(''));
        const needles = ns.map((n) => Buffer.from(n.join('')));
        const expected = needles.map((n) => {
          const ends: number[] = [];
          for (let i = hay.indexOf(n); i !== -1; i = hay.indexOf(n, i + 1)) ends.push(i + n.length);
          return ends;
        });
        const got = needles.map(() => [] as number[]);
        const matchers = [new AhoCorasick(needles), ...needles.map((n, k) => new KmpMatcher(n, k))];
        const viaKmp = needles.map(() => [] as number[]);
        for (let at = 0; at < hay.length; at += piece) {
          const block = Buffer.from(hay.subarray(at, at + piece));
          matchers[0]!.feed(block, at, (k, e) => got[k]!.push(e));
          for (const m of matchers.slice(1)) m.feed(block, at, (k, e) => viaKmp[k]!.push(e));
        }
        expect(got).toEqual(expected);
        expect(viaKmp).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });
});

describe('AppliedTally', () => {
  /** The tally of old text `o` and new text `n` over `data`, searched in reads of `piece` bytes. */
  function tally(data: string, o: string, n: string, piece: number): AppliedTally {
    const old = Buffer.from(o);
    const neu = Buffer.from(n);
    const t = new AppliedTally(old.length, neu.length, neu.includes(old), Infinity);
    const search: TextSearch = new TextSearch([old, neu], (m) => (m.needle === 0 ? t.old(m, search) : t.new(m, search)));
    new LineScanner(chunkedReader(Buffer.from(data), [piece]), 16).scanBlocks((buf, start, end, ends) => {
      search.block(buf, start, end, ends);
      t.settle(search.fed);
    });
    search.finish();
    t.settle(Infinity);
    return t;
  }

  it('an old text inside its new text is applied, one outside is live, however the file is read', () => {
    const data = 'foo(); bar()\nfoo()\nx foo(); bar() foo()\n';
    for (const piece of [1, 3, 7, 64]) {
      const t = tally(data, 'foo()', 'foo(); bar()', piece);
      expect([t.liveCount, t.appliedCount, t.newCount, t.live.map((l) => [l.start.line, l.start.col])]).toEqual([2, 2, 2, [[2, 0], [3, 15]]]);
    }
    // the new text does not hold the old one: every old occurrence is live
    const plain = tally('a\nb\na\n', 'a', 'b', 2);
    expect([plain.liveCount, plain.appliedCount, plain.newCount]).toEqual([2, 0, 1]);
  });
});

describe('NearFinder', () => {
  const near = (lines: string[], needle: string) => {
    const f = new NearFinder(needle);
    lines.forEach((l, i) => f.line(i + 1, Buffer.from(l)));
    return f.result().map((m) => [m.kind, m.from, m.to]);
  };
  it('prefers whitespace, then case, then both; a re-wrapped text is a whitespace difference', () => {
    expect(near(['a\n', 'foo(x,  y)\n'], 'foo(x, y)')).toEqual([['whitespace', 2, 2]]);
    expect(near(['Foo(x, y)\n'], 'foo(x, y)')).toEqual([['case', 1, 1]]);
    expect(near(['Foo(x,y)\n'], 'foo(x, y)')).toEqual([['whitespace and case', 1, 1]]);
    expect(near(['call(a,\n', '     b)\n'], 'call(a, b)')).toEqual([['whitespace', 1, 2]]);
    expect(near(['nothing\n'], 'foo')).toEqual([]);
  });
});

describe('spliceRanges', () => {
  const lines = (s: string) => new Map(referenceLines(Buffer.from(s)).map((l, i) => [i + 1, l]));
  it('keeps what is around an occurrence, joins lines when a line break is removed, groups a line\'s edits', () => {
    const f = lines('ab\r\ncd\r\nef\r\n');
    const one = spliceRanges([{ start: { line: 1, col: 1 }, end: { line: 2, col: 1 }, text: Buffer.from('X'), origin: 'e' }], f, 3);
    expect(one.map((r) => [r.start, r.end, r.text.toString()])).toEqual([[1, 2, 'aXd\r\n']]);
    const join = spliceRanges([{ start: { line: 1, col: 0 }, end: { line: 1, col: 3 }, text: Buffer.from('X'), origin: 'e' }], f, 3);
    expect(join.map((r) => [r.start, r.end, r.text.toString()])).toEqual([[1, 2, 'Xcd\r\n']]);
    const two = spliceRanges(
      [
        { start: { line: 3, col: 1 }, end: { line: 3, col: 2 }, text: Buffer.from('F'), origin: 'a' },
        { start: { line: 3, col: 0 }, end: { line: 3, col: 1 }, text: Buffer.from('E'), origin: 'b' },
      ],
      f,
      3,
    );
    expect(two.map((r) => [r.start, r.end, r.text.toString(), r.expect.length])).toEqual([[3, 3, 'EF\r\n', 1]]);
    expect(() => spliceRanges([{ start: { line: 1, col: 0 }, end: { line: 1, col: 2 }, text: Buffer.alloc(0), origin: 'a' }, { start: { line: 1, col: 1 }, end: { line: 1, col: 2 }, text: Buffer.alloc(0), origin: 'b' }], f, 3)).toThrow(/a and b overlap on line 1/);
  });
});

describe('BlockLocator', () => {
  it('finds every offset at which the whole block holds', () => {
    const expect3 = [4, 5].map((line, i) => ({ line, bytes: Buffer.from(['x\n', 'y\n'][i]!), origin: 'r' }));
    const l = new BlockLocator(expect3);
    ['a\n', 'x\n', 'y\n', 'x\n', 'z\n', 'x\n', 'y'].forEach((s, i) => l.line(i + 1, Buffer.from(s)));
    expect(l.offsets).toEqual([-2, 2]);
  });
});
