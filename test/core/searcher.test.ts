// The line searcher against the obvious line-by-line grep, for any reads, buffers and options.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LinewiseError } from '../../src/core/errors.js';
import { chunkedReader, LineScanner } from '../../src/core/lines.js';
import { compilePatterns, type PatternOptions } from '../../src/core/pattern.js';
import { lineGatherer, LineSearcher, type MatchSink, type SearchOptions } from '../../src/core/searcher.js';
import { esc, referenceLines } from '../helpers.js';
import { regexSource } from './regex-sources.js';

/** Runs the searcher over `input` read in chunks of `sizes` with a scanner of `bufferSize`; returns printed events. */
async function search(input: Buffer, patterns: string[], po: PatternOptions, so: SearchOptions, sizes: number[], bufferSize: number): Promise<string[]> {
  const events: string[] = [];
  const sink: MatchSink = {
    match: (n, b, s, e) => void events.push(`${n}:${esc(b.subarray(s, e))}`),
    context: (n, b, s, e) => void events.push(`${n}-${esc(b.subarray(s, e))}`),
    gap: () => void events.push('--'),
  };
  // JavaScript's syntax (-P): the sources come from a grammar of JavaScript regexes (regex-sources.ts)
  const searcher = new LineSearcher(await compilePatterns(patterns, { perl: true, ...po }), sink, { maxLine: 1 << 20, ...so });
  new LineScanner(chunkedReader(input, sizes), bufferSize).scanBlocks(searcher.visitor);
  return events;
}

/** The obvious grep, line by line, as the reference. */
async function reference(input: Buffer, patterns: string[], po: PatternOptions, so: SearchOptions): Promise<string[]> {
  const re = (await compilePatterns(patterns, { perl: true, ...po })).regex;
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
const PATTERNS = [['ab'], ['a$'], ['^b'], ['a.b'], ['b|x'], ['[0-9]'], ['é'], ['^$'], ['ab', 'x'], ['A'], ['a\\r$'], ['\\uFFFD'], ['a(?!b)'], ['(?<=x)a'], ['\\bab\\b'], ['x.*a'], ['b*'], ['^'], ['$'], ['(a)\\1'], ['[^a]b'], ['\\s'], ['[0-9]{2}'], ['1(?!é)'], ['a(?![^\\n])'], ['(?:ab|xb)\\r?$'], ['(a|1)b{2}'], ['[.]|\\u{e9}']];

/** Lines for generated regexes: case pairs (k and KELVIN SIGN), astral characters, U+FFFD and the bytes it stands for. */
const RICH = ['a', 'b', 'ab', 'A', 'k', '\u212a', 'x', '\r', '\n', '\r\n', 'é', '😀', '\ufffd', '\xff', '1', ' ', ']', '.'];
const richAtom = fc.constantFrom(...RICH.map((s) => (s === '\xff' ? Buffer.from([0xff]) : Buffer.from(s, 'utf8'))));
const richContent = fc.array(richAtom, { maxLength: 40 }).map((parts) => Buffer.concat(parts));

describe('LineSearcher', () => {
  it('restarted for input after input (grep over a tree), selects and numbers as a new searcher would, after any stop', async () => {
    const inputs = [
      Buffer.from(`${'a'.repeat(50)}\nx ab\n${'b'.repeat(70)}ab\ntail ab\n`),
      Buffer.from('ab 1\nab 2\nab 3\nno\nab 4\n'),
      Buffer.from(`short\n${'c'.repeat(40)}`),
      Buffer.from('ab\nx\nx\nx\nab\n'),
    ];
    for (const so of [{ maxCount: 1 }, {}, { invert: true }, { before: 1, after: 1 }, { maxCount: 2, after: 2 }] as SearchOptions[]) {
      const pattern = await compilePatterns(['ab'], { perl: true });
      const events: string[] = [];
      const sink: MatchSink = {
        match: (n, b, s, e) => void events.push(`${n}:${esc(b.subarray(s, e))}`),
        context: (n, b, s, e) => void events.push(`${n}-${esc(b.subarray(s, e))}`),
        gap: () => void events.push('--'),
      };
      const searcher = new LineSearcher(pattern, sink, { maxLine: 1 << 20, ...so });
      for (const input of [...inputs, ...inputs]) {
        searcher.restart();
        events.length = 0;
        new LineScanner(chunkedReader(input, [7, 5, 11]), 16).scanBlocks(searcher.visitor);
        const fresh = await search(input, ['ab'], {}, so, [7, 5, 11], 16);
        expect(events, `${JSON.stringify(so)} ${esc(input)}`).toEqual(fresh);
        expect(searcher.selected).toBe(fresh.filter((e) => /^[0-9]+:/.test(e)).length);
      }
    }
  });

  it('shares one gatherer of long lines between searches, each as if alone, even after one stopped inside a long line', async () => {
    const long = (c: string, n: number) => `${c.repeat(n)}\n`;
    const inputs = [
      Buffer.from(`${long('a', 50)}x ab ${long('b', 70)}${long('c', 90)}tail ab\n`),
      Buffer.from(`short ab\n${long('d', 40)}${long('a', 30)}b${long('e', 100)}`),
      Buffer.from(`${long('ab', 45)}`),
    ];
    const gatherer = lineGatherer(1 << 20);
    for (const so of [{ maxCount: 1 }, {}, { invert: true }, { before: 1 }] as SearchOptions[]) {
      for (const input of inputs) {
        // the shared gatherer may hold the rest of a line the search before stopped in
        gatherer.add(Buffer.from('left over'), 0, 9);
        const shared = await search(input, ['ab'], {}, { ...so, gatherer }, [7, 5, 11], 16);
        expect(shared, `${JSON.stringify(so)} ${esc(input)}`).toEqual(await search(input, ['ab'], {}, so, [7, 5, 11], 16));
        expect(shared).toEqual(await reference(input, ['ab'], {}, so));
      }
    }
  });

  it('property: selects and numbers the same lines as a line-by-line grep, for any reads, buffer and options', async () => {
    await fc.assert(
      fc.asyncProperty(
        content,
        fc.noBias(fc.constantFrom(...PATTERNS)), // uniform: constantFrom favours the first
        fc.record({ ignoreCase: fc.boolean(), word: fc.boolean() }),
        fc.record({ invert: fc.boolean(), before: fc.constantFrom(0, 1, 2, 1_000_000_000), after: fc.constantFrom(0, 1, 2, 1_000_000_000), maxCount: fc.constantFrom(Infinity, 1, 2) }),
        fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 16, max: 48 }),
        async (input, patterns, po, so, sizes, bufferSize) => {
          expect(await search(input, patterns, po, so, sizes, bufferSize)).toEqual(await reference(input, patterns, po, so));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('property: the same for generated regexes, whose literals, purity and block safety come from their AST', async () => {
    await fc.assert(
      fc.asyncProperty(
        richContent,
        regexSource,
        fc.record({ ignoreCase: fc.boolean(), word: fc.boolean() }),
        fc.record({ invert: fc.boolean(), after: fc.nat(1) }),
        fc.integer({ min: 16, max: 48 }),
        async (input, source, po, so, bufferSize) => {
          let want: string[];
          try {
            want = await reference(input, [source], po, so);
          } catch (e) {
            // a generated source V8 refuses (say a back reference to no group): nothing to compare
            if (e instanceof LinewiseError && e.code === 'bad-pattern') return;
            throw e;
          }
          expect(await search(input, [source], po, so, [7, 13], bufferSize)).toEqual(want);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('property: the same past the 64 KiB sample on which the literal and the block pass are chosen', async () => {
    // log-like lines: every literal of the patterns is common, some much more than others
    const word = fc.constantFrom('ERROR', 'INFO', ' svc=api-', '1', '2', ' req=', 'ff', 'a0', 'x', 'é', '\r');
    const line = fc.array(word, { maxLength: 8 }).map((w) => Buffer.from(`${w.join('')}\n`));
    const lines = fc.array(line, { minLength: 1, maxLength: 30 }).map((ls) => Buffer.concat(ls));
    const patterns = fc.constantFrom('ERROR svc=api-1[0-9] req=ff', 'api-[12] req=f', '(?:ERROR|INFO) svc=api-2', 'svc=api-1.*ff$', 'é.*req=f', 'req=ff', 'ERROR.*(?:ff|a0)');
    await fc.assert(
      fc.asyncProperty(lines, lines, lines, patterns, fc.boolean(), fc.constantFrom(48, 4096, 1 << 16), async (head, body, tail, pattern, ignoreCase, bufferSize) => {
        const input = Buffer.concat([head, ...Array.from({ length: Math.ceil(70000 / body.length) }, () => body), tail]);
        const want = await reference(input, [pattern], { ignoreCase }, {});
        expect(await search(input, [pattern], { ignoreCase }, {}, [4096, 777], bufferSize)).toEqual(want);
      }),
      { numRuns: 30 },
    );
  });

  it('property: -i past the sample (its literals folded in place): k and s against KELVIN SIGN and LONG S, letters only folded', async () => {
    // "@" and "`", "[" and "{", "-" and "\r" are one 0x20 apart, as a letter's two cases are
    const word = fc.constantFrom('Kelvin', 'KELVIN', '\u212aelvin', 'status', 'STATUS', '\u017ftatus', 'naïve', 'NAÏVE', 'naive', ' @[', ' `{', '-', '\r', 'x', ' ');
    const line = fc.array(word, { maxLength: 8 }).map((w) => Buffer.from(`${w.join('')}\n`));
    const lines = fc.array(line, { minLength: 1, maxLength: 30 }).map((ls) => Buffer.concat(ls));
    // [pattern, -F]
    const patterns = fc.constantFrom<[string, boolean]>(['kelvin', true], ['STATUS @[', true], ['STATUS @\\[', false], ['`{naïve', true], ['`\\{naïve', false], ['NAÏVE kelvin', false], ['x-x', true], ['naive @[', true], ['VIN `{', true], ['\u017ftatus.*@', false], ['elvin.*atus', false]);
    await fc.assert(
      fc.asyncProperty(lines, lines, lines, patterns, fc.constantFrom(4096, 1 << 16), async (head, body, tail, [pattern, fixed], bufferSize) => {
        // two samples: the finder chosen on the first (finder-choice.ts) takes its own
        const input = Buffer.concat([head, ...Array.from({ length: Math.ceil(140000 / body.length) }, () => body), tail]);
        const po = { ignoreCase: true, fixed };
        expect(await search(input, [pattern], po, {}, [4096, 777], bufferSize)).toEqual(await reference(input, [pattern], po, {}));
      }),
      { numRuns: 30 },
    );
  });

  it('does not run a pattern over blocks when a part of it can match "\\r": the line is "a", not "a\\r\\n"', async () => {
    const input = Buffer.from('b\na\r\nab\n');
    expect(await search(input, ['a(?![^\\n])'], {}, {}, [64], 64)).toEqual(['2:a\\r\\n']);
  });

  it('finds a literal across many blocks and counts lines on the candidate path', async () => {
    const input = Buffer.from(`${'filler line\n'.repeat(50)}needle here\r\n${'more\n'.repeat(30)}last needle`);
    expect(await search(input, ['needle'], {}, {}, [7], 64)).toEqual(['51:needle here\\r\\n', '82:last needle']);
    expect(await search(input, ['NEEDLE'], { ignoreCase: true }, {}, [13], 64)).toEqual(['51:needle here\\r\\n', '82:last needle']);
  });

  it('finds a literal from its rarest byte, checking the bytes before it (at a block start too)', async () => {
    // "q" and "=" are on every line, "b" is rare: the search starts at "beef" and checks "req=" before it
    const input = Buffer.from(`${'req=00 status\n'.repeat(40)}xeq=beef\nbeef\nreq=beef!\n${'req=11\n'.repeat(9)}req=beef`);
    expect(await search(input, ['req=beef'], { fixed: true }, {}, [11], 64)).toEqual(['43:req=beef!\\n', '53:req=beef']);
    expect(await search(input, ['req=beef', 'xeq'], { fixed: true }, {}, [64], 32)).toEqual(['41:xeq=beef\\n', '43:req=beef!\\n', '53:req=beef']);
    expect(await search(input, ['req=beef'], { fixed: true }, { noNumbers: true }, [5], 16)).toHaveLength(2);
  });

  it('matches a line longer than the buffer as a whole; one past the bound is skipped with a note and the search goes on', async () => {
    const input = Buffer.from(`a\n${'x'.repeat(200)}END\r\nb\nEND\n`);
    expect(await search(input, ['END$'], {}, {}, [5], 16)).toEqual([`2:${'x'.repeat(200)}END\\r\\n`, '4:END\\n']);
    const notes: string[] = [];
    const onNote = (m: string) => void notes.push(m);
    expect(await search(input, ['END$'], {}, { maxLine: 100, onNote }, [5], 16)).toEqual(['4:END\\n']);
    expect(await search(input, ['x|b|END'], {}, { maxLine: 100, onNote, before: 1, after: 1 }, [5], 16)).toEqual(['--', '3:b\\n', '4:END\\n']);
    expect(await search(input, ['x'], {}, { maxLine: 100, onNote, invert: true }, [5], 16)).toEqual(['1:a\\n', '3:b\\n', '4:END\\n']);
    expect(notes).toEqual(Array(3).fill('line 2 is longer than 100 bytes: not searched (the search goes on after it)'));
  });

  it('passes over a long line without the literal piece by piece, and finds one cut between any two pieces', async () => {
    // 16-byte buffer: the 100-byte lines arrive in pieces; the literal starts at every offset in turn
    const filler = (n: number) => 'y'.repeat(n);
    for (let at = 0; at <= 94; at++) {
      const input = Buffer.from(`short\n${filler(100)}\n${filler(at)}needle${filler(94 - at)}\r\nafter needle\n`);
      const hit = `3:${filler(at)}needle${filler(94 - at)}\\r\\n`;
      expect(await search(input, ['needle'], { fixed: true }, {}, [7], 16)).toEqual([hit, '4:after needle\\n']);
      expect(await search(input, ['NEEDLE'], { fixed: true, ignoreCase: true }, {}, [16], 16)).toEqual([hit, '4:after needle\\n']);
      // a regex with the literal: the whole line is tested once its pieces hold it
      expect(await search(input, ['ne+dley*$'], {}, {}, [5], 16)).toEqual([hit, '4:after needle\\n']);
    }
    // no literal in any long line: every one is dropped, and the numbers after them are right
    const none = Buffer.from(`${filler(300)}\n${filler(40)}\nneedle\n${filler(70)}`);
    expect(await search(none, ['needle'], { fixed: true }, {}, [9], 16)).toEqual(['3:needle\\n']);
    expect(await search(none, ['needle|yy$'], {}, {}, [9], 16)).toEqual([`1:${filler(300)}\\n`, `2:${filler(40)}\\n`, '3:needle\\n', `4:${filler(70)}`]);
  });

  it('stops reading once -m is reached and its trailing context printed', async () => {
    const input = Buffer.from('m1\nm2\nc\nm3\n');
    expect(await search(input, ['m'], {}, { maxCount: 1, after: 1 }, [64], 64)).toEqual(['--', '1:m1\\n', '2-m2\\n']);
  });
});
