// The budget's promise, as a property: a search capped with --max-rows 7 (and sometimes a byte
// cap and a small count bound), followed from footer to footer through its --after cursor until
// no footer is left, prints exactly the rows of the uncapped search, none skipped or repeated,
// in order, whatever the files, the pattern, the context, -v, -m, -o or --replace. A row too
// long for the byte budget is shown in parts (`N[cut]`, then `N[@B,cut]`, `N[@B]` from the
// cursor inside it, PATH:LINE@BYTE): joined, they are the row, every byte once (issue 24.4).
// The one exception is the one the footer names: -o matches of one line that did not all fit
// (the first of them shown, perhaps cut), with "read it whole with: linewise readlines".
// fast-check prints the seed and the shrunk counterexample of a failure; replay with { seed, path }.

import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { MARK, run, tempDir, writeTree } from '../helpers.js';

/** The line after a row whose line has no terminator. */
const NO_NEWLINE_LINE = MARK.slice(1, -1);

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const NAMES = ['a.txt', 'b/c.txt', 'b/d e.txt', 'b/f/g.txt', 'z.txt'];
const atom = fc.constantFrom('a', 'b', 'ab', 'x', ' ', 'é', '\r', 'éxaéb'.repeat(9)); // a long line: cut into parts
const line = fc.array(atom, { maxLength: 5 }).map((p) => p.join(''));
const content = fc
  .tuple(fc.array(line, { maxLength: 14 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
  .map(([lines, eol, last]) => lines.map((l, i) => (i < lines.length - 1 || last ? `${l}${eol}` : l)).join(''));
const tree = fc.array(fc.tuple(fc.constantFrom(...NAMES), content), { minLength: 1, maxLength: 5 });
const flags = fc.oneof(
  fc.constantFrom<string[]>([], ['-v'], ['-m', '2'], ['-i'], ['-o'], ['--replace', '<$0>'], ['-o', '--replace', '$0$0']),
  fc.nat(2).map((n) => ['-C', String(n)]),
  fc.tuple(fc.nat(2), fc.nat(2)).map(([b, a]) => ['-B', String(b), '-A', String(a), '-m', '3']),
);
const budget = fc.tuple(fc.constantFrom<string[]>([], ['--max-bytes', '90'], ['--max-bytes', '24']), fc.constantFrom<string[]>([], ['--count-bytes', '1'], ['--count-bytes', '5000']));

/** The rows of an output: its lines without grep's `--` separators, the footer and the blank line before it. */
function rowsOf(out: Buffer): { rows: string[]; footer: string | undefined } {
  const lines = out.toString('latin1').split('\n');
  if (lines.at(-1) === '') lines.pop();
  let footer: string | undefined;
  if (lines.length >= 2 && lines.at(-1)!.startsWith('[Read ') && lines.at(-2) === '') {
    footer = lines.pop();
    lines.pop();
  }
  // the no-newline line follows a row, as `--` separates groups: a decoration, not a row
  return { rows: lines.filter((l) => l !== '--' && l !== NO_NEWLINE_LINE), footer };
}

/** The path and number a row is of: `PATH<TAB>N`. */
const lineOf = (row: string) => /^[^\t]*\t\d+/.exec(row)?.[0];

/** The lines a footer says were cut (a row cut, or -o matches left out), as `PATH<TAB>N`. */
function cutsOf(footer: string): string[] {
  return [...footer.matchAll(/Line (\d+) of (.+?)(?: was cut at|: \d+ of its \d+ matches shown)/g)].map((m) => `${m[2]}\t${m[1]}`);
}

/**
 * The expected rows with those of each cut line replaced by the rows shown for it, once they are
 * checked to be what a cut shows: the first rows of that line, the last perhaps a cut prefix.
 */
function allowCuts(expected: string[], got: string[], cuts: string[]): string[] {
  let out = expected;
  for (const k of cuts) {
    const mine = got.filter((r) => lineOf(r) === k);
    const theirs = expected.filter((r) => lineOf(r) === k);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.length).toBeLessThanOrEqual(theirs.length);
    mine.forEach((r, i) => {
      const m = /^([^\t]*\t[\d:]+)\[cut\]\t(.*)$/s.exec(r);
      if (m === null) expect(r).toBe(theirs[i]);
      else expect(theirs[i]!.startsWith(`${m[1]}\t${m[2]}`)).toBe(true);
    });
    const at = out.findIndex((r) => lineOf(r) === k);
    out = [...out.slice(0, at), ...mine, ...out.slice(at + theirs.length)];
  }
  return out;
}

/**
 * The rows with the parts of each row cut by the byte budget joined back into the row: a head
 * `P\tN[cut]\t...`, then parts `P\tN[@B,cut]\t...` and a last `P\tN[@B]\t...`, each starting at
 * the byte where the one before stopped. A part out of place, or a row left unfinished, fails.
 */
function joinParts(rows: string[]): string[] {
  const out: string[] = [];
  let open: { key: string; text: string } | undefined;
  for (const r of rows) {
    const m = /^([^\t]*\t\d+)(?:\[cut\]|\[@(\d+)(,cut)?\])\t(.*)$/s.exec(r);
    if (m === null) {
      expect(open, `row ${JSON.stringify(r)} while ${JSON.stringify(open)} is unfinished`).toBeUndefined();
      out.push(r);
      continue;
    }
    const [, key, from, more, text] = m;
    if (from === undefined) {
      expect(open).toBeUndefined();
      open = { key: key!, text: text! };
    } else {
      expect(open?.key).toBe(key);
      expect(Number(from)).toBe(open!.text.length); // latin1: one character a byte
      open!.text += text;
    }
    if (from !== undefined && more === undefined) {
      out.push(`${open!.key}\t${open!.text}`);
      open = undefined;
    }
  }
  expect(open, 'a row cut and never finished').toBeUndefined();
  return out;
}

/** The cursor a footer names, unquoted as a shell would. */
function cursorOf(footer: string): string {
  const m = /--after ('(?:[^']|'\\'')*'|\S+) to go on/.exec(footer);
  if (!m) throw new Error(`no cursor in ${footer}`);
  return m[1]!.startsWith("'") ? m[1]!.slice(1, -1).replace(/'\\''/g, "'") : m[1]!;
}

let n = 0;

describe('grep --max-rows, followed through --after', () => {
  it('property: the pages, joined, are the uncapped output: no row skipped or repeated', async () => {
    await fc.assert(
      fc.asyncProperty(tree, fc.constantFrom('a', 'b$', '^x', 'ab|x', '.', 'é', 'a|\\r'), flags, budget, async (files, pattern, f, [bytes, count]) => {
        const dir = writeTree(path.join(tmp.dir, `t${n++}`), Object.fromEntries(files));
        const args = ['grep', ...f, '-e', pattern, '.'];
        const whole = await run(args, { cwd: dir });
        const expected = rowsOf(whole.stdout);
        expect(expected.footer).toBeUndefined();
        const got: string[] = [];
        const cuts: string[] = [];
        let after: string[] = [];
        for (let page = 0; ; page++) {
          expect(page).toBeLessThanOrEqual(expected.rows.length + whole.stdout.length); // every page advances (a row, or a character of a cut one)
          const r = await run([...args, '--max-rows', '7', ...bytes, ...count, ...after], { cwd: dir });
          expect(r.stderr).toBe('');
          const { rows, footer } = rowsOf(r.stdout);
          expect(rows.length).toBeLessThanOrEqual(7);
          got.push(...rows);
          if (footer === undefined) break;
          cuts.push(...cutsOf(footer));
          expect(rows.length).toBeGreaterThan(0);
          after = ['--after', cursorOf(footer)];
        }
        const joined = f.includes('-o') ? got : joinParts(got);
        expect(joined).toEqual(allowCuts(expected.rows, joined, cuts));
      }),
      { numRuns: 120 },
    );
  }, 180_000); // cut rows are followed part by part: many more pages than rows

  it('the first footer counts what the whole search selects, or says "more remain" past its bound', async () => {
    const dir = path.join(tmp.dir, 'count');
    fs.mkdirSync(path.join(dir, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'one.txt'), 'hit 1\nmiss\nhit 2\nhit 3\n');
    fs.writeFileSync(path.join(dir, 'sub', 'two.txt'), 'hit 4\r\nhit 5\r\n');
    fs.writeFileSync(path.join(dir, 'sub', 'zero.txt'), 'nothing here\n');
    // no PATH and no standard input: the current directory, its files named without "./"
    const r = await run(['grep', 'hit', '--max-rows', '2'], { cwd: dir });
    expect(r.stdout.toString()).toBe('one.txt\t1\thit 1\none.txt\t3\thit 2\n\n[Read 2 of 5 matching lines (in 1 of 2 files). Run the same command with --after one.txt:3 to go on.]\n');
    const bounded = await run(['grep', 'hit', '--max-rows', '2', '--count-bytes', '1'], { cwd: dir });
    expect(bounded.stdout.toString()).toContain('\n\n[Read 2 matching lines (in 1 file); more remain. Run the same command with --after one.txt:3 to go on.]\n');
    const next = await run(['grep', 'hit', '--max-rows', '2', '--after', 'one.txt:3'], { cwd: dir });
    expect(next.stdout.toString()).toBe('one.txt\t4\thit 3\nsub/two.txt\t1\thit 4\r\n\n[Read 2 of 3 matching lines (in 2 of 2 files). Run the same command with --after sub/two.txt:1 to go on.]\n');
    const files = await run(['grep', '-l', 'hit', '--max-rows', '1'], { cwd: dir });
    expect(files.stdout.toString()).toBe('one.txt\n\n[Read 1 of 2 files. Run the same command with --after one.txt:end to go on.]\n');
    const rest = await run(['grep', '-l', 'hit', '--max-rows', '1', '--after', 'one.txt:end'], { cwd: dir });
    expect([rest.status, rest.stdout.toString()]).toEqual([0, 'sub/two.txt\n']);
    const gone = await run(['grep', 'hit', '--after', 'nope.txt:3'], { cwd: dir });
    expect([gone.status, gone.stdout.length, gone.stderr]).toEqual([2, 0, 'linewise: --after: nope.txt is not among the inputs this search reaches (renamed or deleted since?); search again without --after\n']);
  });
});
