import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkedReader, LineScanner } from '../../src/core/lines.js';
import { compilePatterns, type PatternOptions } from '../../src/core/pattern.js';
import { countLF } from '../../src/core/newlines.js';
import { LineSearcher, matchRanges, type MatchSink, type SearchOptions } from '../../src/core/search.js';
import { byteOffsets } from '../../src/core/utf8.js';
import { esc, referenceLines } from '../helpers.js';

/** Runs the searcher over `input` read in chunks of `sizes` with a scanner of `bufferSize`; returns printed events. */
function search(input: Buffer, patterns: string[], po: PatternOptions, so: SearchOptions, sizes: number[], bufferSize: number): string[] {
  const events: string[] = [];
  const sink: MatchSink = {
    match: (n, b, s, e) => void events.push(`${n}:${esc(b.subarray(s, e))}`),
    context: (n, b, s, e) => void events.push(`${n}-${esc(b.subarray(s, e))}`),
    gap: () => void events.push('--'),
  };
  const searcher = new LineSearcher(compilePatterns(patterns, po), sink, { maxLine: 1 << 20, ...so });
  new LineScanner(chunkedReader(input, sizes), bufferSize).scanBlocks(searcher.visitor);
  return events;
}

/** The obvious grep, line by line, as the reference. */
function reference(input: Buffer, patterns: string[], po: PatternOptions, so: SearchOptions): string[] {
  const re = compilePatterns(patterns, po).regex;
  const lines = referenceLines(input);
  const text = (l: Buffer) => l.toString('utf8', 0, l.length - (l.at(-1) === 10 ? (l.at(-2) === 13 ? 2 : 1) : 0));
  const selected: number[] = [];
  for (let i = 0; i < lines.length && selected.length < (so.maxCount ?? Infinity); i++) {
    if (re.test(text(lines[i]!)) !== (so.invert ?? false)) selected.push(i + 1);
  }
  const B = so.before ?? 0;
  const A = so.after ?? 0;
  const shown = new Set<number>();
  for (const n of selected) for (let k = Math.max(1, n - B); k <= Math.min(lines.length, n + A); k++) shown.add(k);
  const events: string[] = [];
  let last = 0;
  for (const n of [...shown].sort((a, b) => a - b)) {
    if (A + B > 0 && (last === 0 || n > last + 1)) events.push('--');
    events.push(`${n}${selected.includes(n) ? ':' : '-'}${esc(lines[n - 1]!)}`);
    last = n;
  }
  return events;
}

const ATOMS = ['a', 'b', 'ab', 'x', '\r', '\n', '\r\n', 'é', '\xff', '1', ' '];
const atom = fc.constantFrom(...ATOMS.map((s) => (s === '\xff' ? Buffer.from([0xff]) : Buffer.from(s, 'utf8'))));
const content = fc.array(atom, { maxLength: 60 }).map((parts) => Buffer.concat(parts));
const PATTERNS = [['ab'], ['a$'], ['^b'], ['a.b'], ['b|x'], ['[0-9]'], ['é'], ['^$'], ['ab', 'x'], ['A'], ['a\\r$'], ['\\uFFFD'], ['a(?!b)'], ['(?<=x)a'], ['\\bab\\b'], ['x.*a'], ['b*'], ['^'], ['$'], ['(a)\\1'], ['[^a]b'], ['\\s'], ['[0-9]{2}'], ['1(?!é)']];

describe('LineSearcher', () => {
  it('property: selects and numbers the same lines as a line-by-line grep, for any reads, buffer and options', () => {
    fc.assert(
      fc.property(
        content,
        fc.constantFrom(...PATTERNS),
        fc.record({ ignoreCase: fc.boolean(), word: fc.boolean() }),
        fc.record({ invert: fc.boolean(), before: fc.constantFrom(0, 1, 2, 1_000_000_000), after: fc.constantFrom(0, 1, 2, 1_000_000_000), maxCount: fc.constantFrom(Infinity, 1, 2) }),
        fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 16, max: 48 }),
        (input, patterns, po, so, sizes, bufferSize) => {
          expect(search(input, patterns, po, so, sizes, bufferSize)).toEqual(reference(input, patterns, po, so));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('finds a literal across many blocks and counts lines on the candidate path', () => {
    const input = Buffer.from(`${'filler line\n'.repeat(50)}needle here\r\n${'more\n'.repeat(30)}last needle`);
    expect(search(input, ['needle'], {}, {}, [7], 64)).toEqual(['51:needle here\\r\\n', '82:last needle']);
    expect(search(input, ['NEEDLE'], { ignoreCase: true }, {}, [13], 64)).toEqual(['51:needle here\\r\\n', '82:last needle']);
  });

  it('finds a literal from its rarest byte, checking the bytes before it (at a block start too)', () => {
    // "q" and "=" are on every line, "b" is rare: the search starts at "beef" and checks "req=" before it
    const input = Buffer.from(`${'req=00 status\n'.repeat(40)}xeq=beef\nbeef\nreq=beef!\n${'req=11\n'.repeat(9)}req=beef`);
    expect(search(input, ['req=beef'], { fixed: true }, {}, [11], 64)).toEqual(['43:req=beef!\\n', '53:req=beef']);
    expect(search(input, ['req=beef', 'xeq'], { fixed: true }, {}, [64], 32)).toEqual(['41:xeq=beef\\n', '43:req=beef!\\n', '53:req=beef']);
    expect(search(input, ['req=beef'], { fixed: true }, { noNumbers: true }, [5], 16)).toHaveLength(2);
  });

  it('matches a line longer than the buffer as a whole; one past the bound is skipped with a note and the search goes on', () => {
    const input = Buffer.from(`a\n${'x'.repeat(200)}END\r\nb\nEND\n`);
    expect(search(input, ['END$'], {}, {}, [5], 16)).toEqual([`2:${'x'.repeat(200)}END\\r\\n`, '4:END\\n']);
    const notes: string[] = [];
    const onNote = (m: string) => void notes.push(m);
    expect(search(input, ['END$'], {}, { maxLine: 100, onNote }, [5], 16)).toEqual(['4:END\\n']);
    expect(search(input, ['x|b|END'], {}, { maxLine: 100, onNote, before: 1, after: 1 }, [5], 16)).toEqual(['--', '3:b\\n', '4:END\\n']);
    expect(search(input, ['x'], {}, { maxLine: 100, onNote, invert: true }, [5], 16)).toEqual(['1:a\\n', '3:b\\n', '4:END\\n']);
    expect(notes).toEqual(Array(3).fill('line 2 is longer than 100 bytes: not searched (the search goes on after it)'));
  });

  it('stops reading once -m is reached and its trailing context printed', () => {
    const input = Buffer.from('m1\nm2\nc\nm3\n');
    expect(search(input, ['m'], {}, { maxCount: 1, after: 1 }, [64], 64)).toEqual(['--', '1:m1\\n', '2-m2\\n']);
  });
});

describe('scanBlocks', () => {
  it('property: blocks hold whole lines, pieces come only for lines longer than the buffer, bytes are all there', () => {
    fc.assert(
      fc.property(content, fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 6 }), fc.integer({ min: 16, max: 40 }), (input, sizes, size) => {
        const calls: { piece: Buffer; ends: boolean }[] = [];
        new LineScanner(chunkedReader(input, sizes), size).scanBlocks((b, s, e, ends) => void calls.push({ piece: Buffer.from(b.subarray(s, e)), ends }));
        expect(esc(Buffer.concat(calls.map((c) => c.piece)))).toBe(esc(input));
        calls.forEach(({ piece, ends }, i) => {
          const last = i === calls.length - 1;
          if (!ends) expect(piece.indexOf(10)).toBe(-1); // a piece of a long line
          else if (!last) expect(piece.at(-1)).toBe(10); // whole lines only
          if (ends && i > 0 && !calls[i - 1]!.ends) expect(piece.indexOf(10)).toBe(last && piece.at(-1) !== 10 ? -1 : piece.length - 1);
        });
        expect(calls.filter((c) => c.ends).length).toBeLessThanOrEqual(referenceLines(input).length + 1);
      }),
    );
  });
});

describe('match ranges and byte offsets', () => {
  it('maps ranges in the decoded text back to the bytes, invalid bytes included', () => {
    const line = Buffer.concat([Buffer.from('é'), Buffer.from([0xff, 0xe2, 0x82]), Buffer.from('ab😀ab\r\n')]);
    const ranges = matchRanges(compilePatterns(['ab']), line, 0, line.length);
    expect(ranges).toEqual([[5, 7], [11, 13]]); // é (2 bytes), \xff, a cut \xe2\x82, then ab😀ab
    expect(byteOffsets(Buffer.from('abc'), 0, 3, [1, 3])).toEqual([1, 3]);
  });

  it('counts newlines in a range, short (indexOf) and long (WebAssembly SIMD, in 256 KiB steps)', () => {
    expect(countLF(Buffer.from('a\nb\n\nc'), 1, 5)).toBe(3);
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 2048, maxLength: 70000 }), fc.nat(40), fc.nat(40), (bytes, cutA, cutB) => {
        const b = Buffer.from(bytes.map((x) => (x % 7 === 0 ? 10 : x)));
        const start = Math.min(cutA, b.length);
        const end = Math.max(start, b.length - cutB);
        let want = 0;
        for (let i = start; i < end; i++) if (b[i] === 10) want++;
        expect(countLF(b, start, end)).toBe(want);
      }),
      { numRuns: 50 },
    );
    const big = Buffer.alloc((1 << 20) + 37, 'ab\n');
    expect(countLF(big, 5, big.length)).toBe(big.subarray(5).toString('latin1').split('\n').length - 1);
  });
});
