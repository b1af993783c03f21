// The content finder, near matches, splices and receipts: checked against references built the
// simple way (the whole text in memory), over every way the scanner may cut the file into reads.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseText, type Occurrence, TextFinder } from '../../src/core/find-text.js';
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
