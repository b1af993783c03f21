// The line searcher against the obvious line-by-line grep, for any reads, buffers and options.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkedReader, LineScanner } from '../../src/core/lines.js';
import { compilePatterns, type PatternOptions } from '../../src/core/pattern.js';
import { LineSearcher, type MatchSink, type SearchOptions } from '../../src/core/searcher.js';
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
        fc.record({ invert: fc.boolean(), before: fc.nat(2), after: fc.nat(2), maxCount: fc.constantFrom(Infinity, 1, 2) }),
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

  it('matches a line longer than the buffer as a whole, and refuses one past the bound', () => {
    const input = Buffer.from(`a\n${'x'.repeat(200)}END\r\nb\n`);
    expect(search(input, ['END$'], {}, {}, [5], 16)).toEqual([`2:${'x'.repeat(200)}END\\r\\n`]);
    expect(() => search(input, ['END$'], {}, { maxLine: 100 }, [5], 16)).toThrow(/line 2 is longer than/);
  });

  it('stops reading once -m is reached and its trailing context printed', () => {
    const input = Buffer.from('m1\nm2\nc\nm3\n');
    expect(search(input, ['m'], {}, { maxCount: 1, after: 1 }, [64], 64)).toEqual(['--', '1:m1\\n', '2-m2\\n']);
  });
});
