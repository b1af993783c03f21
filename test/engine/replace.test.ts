// The library's replace and replaceRows: the same bytes on disk, the same refusals and the same
// stale-edit guard as `linewise replace`, compared on copies of the byte-exact fixtures.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  anchorOf,
  Exit,
  grep,
  LinewiseError,
  loadEncoding,
  page,
  type RangeEdit,
  readLines,
  replace,
  type ReplaceOptions,
  replaceRows,
  StaleEditError,
} from '../../src/index.js';
import { esc, fixture, run, tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

let n = 0;
/** Two fresh copies of a fixture: one for the CLI, one for the library. */
function copies(name: string): [string, string] {
  n++;
  const a = tmp.file(`cli-${n}-${name}`);
  const b = tmp.file(`lib-${n}-${name}`);
  copyFileSync(fixture(name), a);
  copyFileSync(fixture(name), b);
  return [a, b];
}

function cliArgs(file: string, e: RangeEdit, o: ReplaceOptions): string[] {
  const args = ['replace', file, String(e.start), ...(e.end === undefined ? [] : [String(e.end)]), '--text', String(e.text)];
  if (o.eol) args.push('--eol', o.eol);
  if (o.encoding) args.push('--encoding', o.encoding);
  if (o.text) args.push('-a');
  return args;
}

/** What a failed call says, in the CLI's words. */
async function failure(f: () => Promise<unknown>): Promise<{ status: number; stderr: string; error: LinewiseError }> {
  try {
    await f();
  } catch (e) {
    expect(e).toBeInstanceOf(LinewiseError);
    const err = e as LinewiseError;
    return { status: err.exitCode, stderr: `linewise: ${err.path === undefined ? '' : `${err.path}: `}${err.message}\n`, error: err };
  }
  throw new Error('expected a LinewiseError');
}

const FILES = ['crlf.txt', 'mixed.txt', 'no-final-newline.txt', 'lone-cr.txt', 'bom-utf8.txt', 'latin1.txt', 'utf16le-bom-crlf.txt', 'utf16be-bom.txt'];
const EDITS: RangeEdit[] = [
  { start: 2, text: 'X' },
  { start: 1, end: 2, text: 'A\nB\nC\n' },
  { start: 2, end: 1, text: 'inserted' },
  { start: 1, end: 0, text: 'first\r\n' },
  { start: 2, end: 2, text: '' },
  { start: 3, end: 2, text: 'appended\n' }, // appends to the 2-line files, inserts in the others
];

describe('replace', () => {
  it('writes the bytes the CLI writes, for every fixture, edit and --eol mode', async () => {
    for (const name of FILES) {
      for (const e of EDITS) {
        for (const eol of ['auto', 'keep', 'lf', 'crlf'] as const) {
          const [a, b] = copies(name);
          const cli = await run(cliArgs(a, e, { eol }));
          expect(cli.status, `${name} ${JSON.stringify(e)} ${eol}: ${cli.stderr}`).toBe(0);
          const r = await replace(b, e, { eol });
          expect(esc(readFileSync(b)), `${name} ${JSON.stringify(e)} ${eol}`).toBe(esc(readFileSync(a)));
          expect(r.files[0]!.path).toBe(b);
          expect(r.files[0]!.written).toBe(!readFileSync(b).equals(readFileSync(fixture(name))));
        }
      }
    }
  });

  it('returns what the CLI --json reports: lines before and after, each edit', async () => {
    const [a, b] = copies('mixed.txt');
    const cli = await run(['replace', a, '2', '3', '--text', 'only\n', '--json']);
    const record = JSON.parse(cli.stdout.toString().split('\n')[0]!);
    const r = await replace(b, { start: 2, end: 3, text: 'only\n' });
    expect(r).toEqual({
      dryRun: false,
      files: [
        {
          path: b,
          changed: record.changed,
          written: record.written,
          linesBefore: record.lines_before,
          linesAfter: record.lines_after,
          edits: record.edits,
        },
      ],
    });
    expect(r.files[0]).toMatchObject({ changed: true, written: true, linesBefore: 4, linesAfter: 3 });
  });

  it('applies several range edits against the numbering before the call', async () => {
    const f = tmp.file('several.txt', 'a\r\nb\r\nc\r\nd');
    await replace(f, [{ start: 4, text: 'D' }, { start: 1, end: 0, text: 'top' }, { start: 2, text: 'B' }]);
    expect(esc(readFileSync(f))).toBe('top\\r\\na\\r\\nB\\r\\nc\\r\\nD');
  });

  it('encodes back as the CLI does: --encoding, UTF-16 by its mark, and refuses what cannot be encoded', async () => {
    const cases: [string, RangeEdit, ReplaceOptions][] = [
      ['latin1.txt', { start: 1, text: 'crème' }, { encoding: 'latin1' }],
      ['windows-1252.txt', { start: 2, text: '“new” €' }, { encoding: 'windows-1252' }],
      ['shift_jis.txt', { start: 2, text: '日本語' }, { encoding: 'shift_jis' }],
      ['utf16le-bom-crlf.txt', { start: 3, text: 'ünïcode 😀' }, {}],
      ['utf16be-bom.txt', { start: 1, end: 0, text: 'zero' }, {}],
    ];
    for (const [name, e, o] of cases) {
      const [a, b] = copies(name);
      const cli = await run(cliArgs(a, e, o));
      expect(cli.status, cli.stderr).toBe(0);
      await replace(b, e, o);
      expect(esc(readFileSync(b)), name).toBe(esc(readFileSync(a)));
    }
    const [a, b] = copies('latin1.txt');
    const cli = await run(cliArgs(a, { start: 1, text: '日本' }, { encoding: 'latin1' }));
    const lib = await failure(() => replace(b, { start: 1, text: '日本' }, { encoding: 'latin1' }));
    expect({ status: lib.status, stderr: lib.stderr.replace(b, a) }).toEqual({ status: cli.status, stderr: cli.stderr });
    expect(esc(readFileSync(b))).toBe(esc(readFileSync(fixture('latin1.txt'))));
  });

  it('refuses what the CLI refuses, with its status and message, and writes nothing', async () => {
    const cases: [RangeEdit | RangeEdit[], string[]][] = [
      [{ start: 9, text: 'x' }, ['9', '--text', 'x']],
      [{ start: 3, end: 1, text: 'x' }, ['3', '1', '--text', 'x']],
    ];
    for (const [e, args] of cases) {
      const [a, b] = copies('crlf.txt');
      const cli = await run(['replace', a, ...args]);
      const lib = await failure(() => replace(b, e));
      expect({ status: lib.status, stderr: lib.stderr.replace(b, a) }).toEqual({ status: cli.status, stderr: cli.stderr });
      expect(esc(readFileSync(b))).toBe(esc(readFileSync(fixture('crlf.txt'))));
    }
    const overlap = await failure(() => replace(tmp.file('o.txt', 'a\nb\nc\n'), [{ start: 1, end: 2, text: 'x' }, { start: 2, text: 'y' }]));
    expect([overlap.status, overlap.error.code]).toEqual([Exit.usage, 'conflict']);
    const bin = tmp.file('b.bin', 'abc\0def\n');
    expect((await failure(() => replace(bin, { start: 1, text: 'x' }))).error.code).toBe('binary');
    await replace(bin, { start: 1, text: 'x' }, { text: true });
    expect(readFileSync(bin, 'latin1')).toBe('x\n');
    expect((await failure(() => replace('-', { start: 1, text: 'x' }))).error.code).toBe('stdin-target');
  });

  it('dryRun writes nothing and gives the diff --dry-run prints', async () => {
    const [a, b] = copies('crlf.txt');
    const cli = await run(['replace', a, '2', '--text', 'BETA', '--dry-run']);
    const r = await replace(b, { start: 2, text: 'BETA' }, { dryRun: true });
    expect(esc(r.files[0]!.diff!.toString('latin1').replaceAll(b, a))).toBe(esc(cli.stdout));
    expect(r.files[0]).toMatchObject({ changed: true, written: false });
    expect(esc(readFileSync(b))).toBe(esc(readFileSync(fixture('crlf.txt'))));
  });
});

describe('the stale-edit guard', () => {
  it('writes when the lines read still hold, throws StaleEditError (exit 3) with the current lines when not', async () => {
    const f = tmp.file('guard.txt', 'one\r\ntwo\r\nthree\r\n');
    const read = readLines(f, 2, 2);
    await replace(f, { start: 2, text: 'TWO' }, { expect: read });
    expect(readFileSync(f, 'latin1')).toBe('one\r\nTWO\r\nthree\r\n');

    // the same guard again: line 2 changed since it was read
    const cliCopy = tmp.file('guard-cli.txt', readFileSync(f));
    const rows = tmp.file('guard.rows', '2\ttwo\r\n');
    const cli = await run(['replace', cliCopy, '2', '--text', 'deux', '--expect', rows]);
    expect(cli.status).toBe(Exit.stale);
    const lib = await failure(() => replace(f, { start: 2, text: 'deux' }, { expect: read }));
    expect(lib.error).toBeInstanceOf(StaleEditError);
    expect(lib.status).toBe(cli.status);
    expect(lib.error.code).toBe('stale');
    const stale = lib.error as StaleEditError;
    // the current lines the CLI prints on stdout, as data
    expect(esc(Buffer.concat(stale.current.map((l) => Buffer.concat([Buffer.from(`${l.line}\t`), l.bytes]))))).toBe(esc(cli.stdout));
    expect(stale.current).toEqual([{ path: f, line: 2, bytes: Buffer.from('TWO\r\n'), text: 'TWO', terminator: '\r\n' }]);
    expect(lib.stderr.replace(f, cliCopy).replace("in the error's `current`", 'on stdout')).toBe(cli.stderr);
    expect(readFileSync(f, 'latin1')).toBe('one\r\nTWO\r\nthree\r\n');
  });

  it('names lines past the end as gone, and accepts text as well as bytes', async () => {
    const f = tmp.file('gone.txt', 'a\nb\n');
    const err = (await failure(() => replace(f, { start: 1, text: 'x' }, { expect: [{ line: 1, text: 'a' }, { line: 5, text: 'e' }] }))).error as StaleEditError;
    expect(err.message).toMatch(/^stale edit: line 5 no longer holds the text read \(past the end now: 5\)/);
    expect([err.current, err.gone]).toEqual([[], [{ path: f, line: 5 }]]);
    expect(readFileSync(f, 'latin1')).toBe('a\nb\n');
  });
});

describe('the stale-edit guard of many rows', () => {
  it('names the first ten lines and how many more (a batch may hold millions); the current lines are all there', async () => {
    const f = tmp.file('many.txt', Array.from({ length: 30 }, (_, i) => `l${i + 1}\n`).join(''));
    const rows = Array.from({ length: 25 }, (_, i) => ({ line: i + 1, text: 'x' }));
    const err = (await failure(() => replaceRows(rows, { path: f, expect: rows.map((r) => ({ line: r.line, text: 'old' })) }))).error as StaleEditError;
    expect(err.message).toMatch(/^stale edit: lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 15 more no longer hold the text read; nothing was written/);
    expect(err.current.map((l) => l.text)).toEqual(Array.from({ length: 25 }, (_, i) => `l${i + 1}`));
    expect(err.current).toBe(err.current); // made once, when first read
    const gone = (await failure(() => replace(f, { start: 1, text: 'x' }, { expect: Array.from({ length: 12 }, (_, i) => ({ line: 31 + i, text: 'e' })) }))).error as StaleEditError;
    expect(gone.message).toMatch(/\(past the end now: 31, 32, 33, 34, 35, 36, 37, 38, 39, 40 and 2 more\)/);
    expect(gone.gone.length).toBe(12);
  });
});

describe('rows in any order', () => {
  it('rows out of line order, and rows of several files interleaved, apply as sorted ones do; a clash among them names its two rows', async () => {
    const a = tmp.file('any-a.txt', 'a1\na2\na3\na4\n');
    const b = tmp.file('any-b.txt', 'b1\nb2\nb3\n');
    const rows = [
      { path: a, line: 4, text: 'A4' },
      { path: b, line: 3, text: 'B3' },
      { path: a, line: 1, text: 'A1' },
      { path: b, line: 1, text: 'B1' },
      { path: a, line: 3, text: 'A3' },
    ];
    const r = await replaceRows(rows);
    expect(r.files.map((x) => [x.path, x.edits.map((e) => e.start)])).toEqual([
      [a, [1, 3, 4]],
      [b, [1, 3]],
    ]);
    expect([readFileSync(a, 'latin1'), readFileSync(b, 'latin1')]).toEqual(['A1\na2\nA3\nA4\n', 'B1\nb2\nB3\n']);
    // lines 3 and 1 both twice, out of order: the first clash in line order is named, nothing written
    const clash = [{ line: 3, text: 'x' }, { line: 1, text: 'y' }, { line: 3, text: 'z' }, { line: 1, text: 'w' }];
    const e = (await failure(() => replaceRows(clash, { path: a }))).error;
    expect([e.code, e.message]).toEqual(['conflict', 'row 2 (line 1) and row 4 (line 1) both edit the same lines; every line may be edited once per call']);
    expect(readFileSync(a, 'latin1')).toBe('A1\na2\nA3\nA4\n');
  });
});

describe('replaceRows', () => {
  it('applies rows as `replace --rows` does, keeping each line ending', async () => {
    for (const name of ['crlf.txt', 'mixed.txt', 'no-final-newline.txt', 'lone-cr.txt', 'bom-utf8.txt', 'utf16le-bom-crlf.txt']) {
      const [a, b] = copies(name);
      const rowsOut = (await run(['readlines', a, '1'])).stdout.toString('utf8');
      const upper = (t: string) => t.replace(/[a-z]/g, (c) => c.toUpperCase());
      // the rows, edited; the no-newline marker left as it is, as an editor would
      const edited = rowsOut.replace(/^\d+\t[^\n]*/gm, upper);
      const cli = await run(['replace', a, '--rows', '-'], { stdin: edited });
      expect(cli.status, cli.stderr).toBe(0);
      const lines = readLines(b, 1);
      await replaceRows(lines.map((l) => ({ ...l, text: upper(l.text!) })));
      expect(esc(readFileSync(b)), name).toBe(esc(readFileSync(a)));
    }
  });

  it('patches several files from grep lines in one call, guarded by the lines grep returned', async () => {
    const x = tmp.file('x.ts', 'let oldName = 1;\r\nuse(oldName);\r\n');
    const y = tmp.file('y.ts', 'oldName()\n');
    const { lines } = await grep('oldName', [x, y], { fixedStrings: true });
    const r = await replaceRows(
      lines.map((l) => ({ ...l, text: l.text!.replaceAll('oldName', 'newName') })),
      { expect: lines },
    );
    expect(r.files.map((f) => [f.path, f.changed])).toEqual([
      [x, true],
      [y, true],
    ]);
    expect(esc(readFileSync(x))).toBe('let newName = 1;\\r\\nuse(newName);\\r\\n');
    expect(readFileSync(y, 'latin1')).toBe('newName()\n');
    // the same call again: the lines changed, nothing is written in either file
    writeFileSync(y, 'oldName()\n');
    const stale = await failure(() => replaceRows(lines.map((l) => ({ ...l, text: 'z' })), { expect: lines }));
    expect(stale.status).toBe(Exit.stale);
    expect(readFileSync(y, 'latin1')).toBe('oldName()\n');
  });

  it('needs a path for rows without one, and refuses a row of several lines', async () => {
    expect((await failure(() => replaceRows([{ line: 1, text: 'x' }]))).error.code).toBe('bad-row');
    const f = tmp.file('r.txt', 'a\nb\n');
    expect((await failure(() => replaceRows([{ line: 1, text: 'x\ny' }], { path: f }))).error.code).toBe('bad-row');
    await replaceRows([{ line: 2, text: 'B' }], { path: f });
    expect(readFileSync(f, 'latin1')).toBe('a\nB\n');
  });
});

describe('loadEncoding', () => {
  it('lets the synchronous readers decode, and refuses unknown names as the CLI does', async () => {
    expect((await failure(async () => readLines(fixture('shift_jis.txt'), 1, 1, { encoding: 'euc-jp' }))).error.code).toBe('encoding-not-loaded');
    await loadEncoding('shift_jis');
    expect(readLines(fixture('shift_jis.txt'), 1, undefined, { encoding: 'shift_jis' }).map((l) => l.text)).toEqual(['日本', '語']);
    const cli = await run(['readlines', fixture('shift_jis.txt'), '1', '--encoding', 'nope']);
    expect(await failure(() => loadEncoding('nope'))).toMatchObject({ status: cli.status, stderr: cli.stderr });
    // UTF-16 needs nothing loaded
    expect(readLines(fixture('latin1.txt'), 1, 1, { encoding: 'utf-16le', text: true })[0]!.path).toBe(fixture('latin1.txt'));
  });
});

describe('anchors', () => {
  it('readLines, page and grep give each line the anchor the CLI prints; anchorOf is that hash of a text', async () => {
    const f = tmp.file('anch.txt', 'one\r\ntwo\nthree');
    const cli = (await run(['readlines', f, '1', '--anchor'])).stdout.toString();
    const lines = readLines(f, 1, undefined, { anchor: true });
    expect(lines.map((l) => `${l.line}#${l.anchor}`)).toEqual(cli.split('\n').filter((r) => /^\d/.test(r)).map((r) => r.split('\t')[0]));
    expect(lines[0]!.anchor).toBe(anchorOf('one'));
    expect(anchorOf(Buffer.from('one'))).toBe('7692c3ad'); // printf %s one | sha256sum
    expect(page(f, { anchor: true, limit: 1 }).lines[0]!.anchor).toBe('7692c3ad');
    expect((await grep('^t', [f], { anchor: true })).lines.map((l) => l.anchor)).toEqual([anchorOf('two'), anchorOf('three')]);
    expect(readLines(f, 1)[0]!.anchor).toBeUndefined();
  });

  it('replaceRows takes the anchors of the lines read: applies while they hold, else StaleEditError with the current lines anchored, nothing written', async () => {
    const a = tmp.file('an-a.txt', 'one\ntwo\n');
    const b = tmp.file('an-b.txt', 'uno\ndos\n');
    const read = [...readLines(a, 1, 2, { anchor: true }), ...readLines(b, 1, 2, { anchor: true })];
    await replaceRows([{ ...read[1]!, text: 'TWO' }]);
    expect(readFileSync(a, 'latin1')).toBe('one\nTWO\n');
    const err = (await failure(() => replaceRows([{ ...read[0]!, text: 'ONE' }, { ...read[1]!, text: 'deux' }, { ...read[2]!, text: 'UNO' }]))).error as StaleEditError;
    expect(err).toBeInstanceOf(StaleEditError);
    expect(err.current.map((l) => [l.path, l.line, l.text, l.anchor])).toEqual([[a, 2, 'TWO', anchorOf('TWO')]]);
    expect([readFileSync(a, 'latin1'), readFileSync(b, 'latin1')]).toEqual(['one\nTWO\n', 'uno\ndos\n']);
    // an anchor of 4 to 16 hex digits, lowercase; anything else is a bad option
    expect((await failure(() => replaceRows([{ path: a, line: 1, text: 'x', anchor: 'XYZ1' }]))).error).toMatchObject({ code: 'bad-option' });
    await replaceRows([{ path: a, line: 1, text: 'ONE', anchor: anchorOf('one').slice(0, 4) }]);
    expect(readFileSync(a, 'latin1')).toBe('ONE\nTWO\n');
  });
});
