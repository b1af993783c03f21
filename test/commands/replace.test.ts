import fc from 'fast-check';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { replace, type ReplaceArgs } from '../../src/commands/replace.js';
import { LinewiseError } from '../../src/core/errors.js';
import { plain } from '../../src/format/style.js';
import { Output } from '../../src/io/output.js';
import type { WriteFn } from '../../src/io/temp-file.js';
import type { Edit } from '../../src/core/edit-plan.js';
import { Patcher } from '../../src/core/patcher.js';
import { splitLines } from '../../src/core/lines.js';
import { chunkedReader, LineScanner } from '../../src/core/lines.js';
import { caseFiles, esc, fixture, referenceLines, run, tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const file = caseFiles(tmp.dir);
const read = (f: string) => esc(fs.readFileSync(f));
const B = (s: string) => Buffer.from(s, 'latin1');

describe('replace FILE START [END]', () => {
  it('replaces a line in an LF file and in a CRLF file', async () => {
    const lf = file('a\nb\nc\n');
    expect((await run(['replace', lf.f, '2', '--text', 'B'])).status).toBe(0);
    expect(read(lf.f)).toBe('a\\nB\\nc\\n');
    const crlf = file('alpha\r\nbeta\r\ngamma\r\n');
    const r = await run(['replace', crlf.f, '2', '--text', 'BETA']);
    expect([r.status, r.stdout.length, r.stderr]).toEqual([0, 0, '']);
    expect(read(crlf.f)).toBe('alpha\\r\\nBETA\\r\\ngamma\\r\\n');
  });

  it('turns multi-line standard input into CRLF in a CRLF file', async () => {
    const { f } = file('alpha\r\nbeta\r\ngamma\r\n');
    await run(['replace', f, '2'], { stdin: 'one\ntwo\nthree\n', stdinChunks: [3, 5] });
    expect(read(f)).toBe('alpha\\r\\none\\r\\ntwo\\r\\nthree\\r\\ngamma\\r\\n');
  });

  it('keeps no final newline when replacing the last line of a file without one', async () => {
    const { f } = file('first\nsecond');
    await run(['replace', f, '2', '--text', 'SECOND\n']);
    expect(read(f)).toBe('first\\nSECOND');
  });

  it('deletes with empty text, inserts with END = START - 1, appends with START = count + 1', async () => {
    const del = file('a\nb\nc\n');
    await run(['replace', del.f, '2', '--text', '']);
    expect(read(del.f)).toBe('a\\nc\\n');
    const ins = file('a\r\nb\r\n');
    await run(['replace', ins.f, '2', '1', '--text', 'new']);
    expect(read(ins.f)).toBe('a\\r\\nnew\\r\\nb\\r\\n');
    const app = file('alpha\r\nbeta\r\n');
    await run(['replace', app.f, '3', '2', '--text', 'gamma\ndelta']);
    expect(read(app.f)).toBe('alpha\\r\\nbeta\\r\\ngamma\\r\\ndelta\\r\\n');
    const open = file('one\r\ntwo');
    await run(['replace', open.f, '3', '2', '--text', 'three']);
    expect(read(open.f)).toBe('one\\r\\ntwo\\r\\nthree');
  });

  it('replaces a range by one line', async () => {
    const { f } = file('1\n2\n3\n4\n5\n');
    await run(['replace', f, '2', '4', '--from', fixture('blank.txt')]);
    expect(read(f)).toBe('1\\na\\n\\nc\\n5\\n');
    const one = file('1\n2\n3\n4\n5\n');
    await run(['replace', one.f, '2', '4', '--text', 'two-to-four']);
    expect(read(one.f)).toBe('1\\ntwo-to-four\\n5\\n');
  });

  it('exits 2 for a line past the end, naming the count, with the file untouched and no temp left', async () => {
    const { f, dir } = file('a\nb\n');
    const r = await run(['replace', f, '3', '--text', 'x']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`linewise: ${f}: line 3 is past the end: the file has 2 lines (START 3 END 2 appends after the last line: END = START - 1 inserts)\n`);
    expect(read(f)).toBe('a\\nb\\n');
    expect(fs.readdirSync(dir)).toEqual(['f.txt']);
    const r2 = await run(['replace', f, '2', '5', '--text', 'x']);
    expect(r2.stderr).toMatch(/line 5 is past the end: the file has 2 lines\n$/);
  });

  it('takes new text that looks like an option', async () => {
    const { f } = file('a\nb\n');
    expect((await run(['replace', f, '1', '--text', '-x'])).status).toBe(0);
    expect(read(f)).toBe('-x\\nb\\n');
  });

  it('refuses - as the target, END before START - 1, and a terminal with no text', async () => {
    const dash = await run(['replace', '-', '1', '--text', 'x'], { stdin: 'a\n' });
    expect([dash.status, dash.stderr]).toEqual([2, 'linewise: -: standard input cannot be edited in place; name a file\n']);
    const { f } = file('a\nb\nc\n');
    const back = await run(['replace', f, '3', '1', '--text', 'x']);
    expect([back.status, back.stderr]).toEqual([2, 'linewise: END 1 is before START 3 (END = START - 1 inserts before START)\n']);
    const tty = await run(['replace', f, '1'], { tty: true });
    expect(tty.status).toBe(2);
    expect(tty.stderr).toMatch(/^linewise: no new text: give --text TEXT, --from FILE, or pipe it on standard input/);
    const zero = await run(['replace', f, '0', '--text', 'x']);
    expect(zero.stderr).toBe('linewise: START must be at least 1, not 0\n');
    expect(read(f)).toBe('a\\nb\\nc\\n');
  });

  it('refuses a binary file unless -a, and keeps a UTF-8 BOM', async () => {
    const bin = file('abc\0def\nx\n');
    const r = await run(['replace', bin.f, '2', '--text', 'y']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/binary file/);
    expect((await run(['replace', bin.f, '2', '-a', '--text', 'y'])).status).toBe(0);
    expect(read(bin.f)).toBe('abc\\x00def\\ny\\n');
    const bom = file(fs.readFileSync(fixture('bom-utf8.txt')));
    await run(['replace', bom.f, '1', '--text', 'HELLO']);
    expect(read(bom.f)).toBe('\\xef\\xbb\\xbfHELLO\\r\\nworld\\r\\n');
  });

  it('--eol keep writes literally; lf and crlf force', async () => {
    const keep = file('a\r\nb\r\n');
    await run(['replace', keep.f, '1', '--eol', 'keep', '--text', 'x\n']);
    expect(read(keep.f)).toBe('x\\nb\\r\\n');
    const lf = file('a\r\nb\r\n');
    await run(['replace', lf.f, '1', '--eol', 'lf', '--text', 'x\r\ny']);
    expect(read(lf.f)).toBe('x\\ny\\nb\\r\\n');
    const bad = await run(['replace', lf.f, '1', '--eol', 'cr', '--text', 'x']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--eol <mode>' argument 'cr' is invalid/);
  });
});

/** readlines FILE 1, in-process: the rows as a user would pipe them. */
async function rowsOf(f: string, ...range: string[]): Promise<Buffer> {
  const r = await run(['readlines', f, ...(range.length ? range : ['1'])]);
  expect(r.status).toBe(0);
  return r.stdout;
}

describe('replace --rows: the round trip', () => {
  const fixtures = ['crlf.txt', 'mixed.txt', 'no-final-newline.txt', 'lone-cr.txt', 'latin1.txt', 'bom-utf8.txt', 'blank.txt', 'content-separators.txt'];
  for (const name of fixtures) {
    it(`readlines ${name} 1 | replace --rows - gives back the same bytes, and leaves the file alone`, async () => {
      const { f } = file(fs.readFileSync(fixture(name)), name);
      const before = fs.statSync(f);
      const r = await run(['replace', f, '--rows', '-'], { stdin: await rowsOf(f), stdinChunks: [5] });
      expect([r.status, r.stderr]).toEqual([0, '']);
      expect(read(f)).toBe(esc(fs.readFileSync(fixture(name))));
      expect(fs.statSync(f).ino).toBe(before.ino); // nothing changed: not rewritten
    });
  }

  it('rows in any order, anchored, of files interleaved, with --expect in any order: applied as the sorted rows are', async () => {
    const { f: a } = file('a1\r\na2\na3\r\na4\n', 'any-a.txt');
    const { f: b } = file('b1\nb2\nb3\n', 'any-b.txt');
    const grep = (await run(['grep', '--anchor', '-H', '.', a, b])).stdout.toString('latin1').split('\n').filter(Boolean);
    // every row upper-cased, then shuffled: files interleaved, lines falling
    const rows = [4, 2, 6, 0, 5, 1, 3].map((i) => `${grep[i]!.replace(/\t([ab][0-9])/, (_, t: string) => `\t${t.toUpperCase()}`)}\n`).join('');
    const expectRows = [6, 2, 5, 0].map((i) => `${grep[i]}\n`).join('');
    const r = await run(['replace', '--rows', '-', '--expect', tmp.file('any.expect', expectRows)], { stdin: B(rows) });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect([read(a), read(b)]).toEqual(['A1\\r\\nA2\\nA3\\r\\nA4\\n', 'B1\\nB2\\nB3\\n']);
    // the same rows again, a's lower-cased: their anchors no longer hold (b's rows are already
    // applied, and left alone); the current lines of a in line order
    // (the lines' text only: a temporary directory's random name may hold an "A" too)
    const stale = await run(['replace', '--rows', '-'], { stdin: B(rows.replace(/\tA([0-9])/g, '\ta$1')) });
    expect(stale.status).toBe(3);
    expect(stale.stdout.toString('latin1').split('\n').map((l) => l.replace(/^.*any-/, '').replace(/#[0-9a-f]+/, ''))).toEqual(['a.txt\t1\tA1\r', 'a.txt\t2\tA2', 'a.txt\t3\tA3\r', 'a.txt\t4\tA4', '']);
    expect([read(a), read(b)]).toEqual(['A1\\r\\nA2\\nA3\\r\\nA4\\n', 'B1\\nB2\\nB3\\n']);
  });

  it('edited rows change only their lines, whatever the endings around them', async () => {
    const { f } = file('one\r\ntwo\nthree\r\nfour');
    const rows = (await rowsOf(f)).toString('latin1').replace('two', 'TWO').replace('four', 'FOUR');
    await run(['replace', f, '--rows'], { stdin: B(rows) });
    expect(read(f)).toBe('one\\r\\nTWO\\nthree\\r\\nFOUR');
  });

  it('puts a CRLF row back as CRLF after a tool dropped its \\r', async () => {
    const { f } = file(fs.readFileSync(fixture('crlf.txt')));
    const rows = (await rowsOf(f)).toString('latin1').replace(/\r\n/g, '\n').replace('beta', 'BETA');
    await run(['replace', f, '--rows', '-'], { stdin: B(rows) });
    expect(read(f)).toBe('alpha\\r\\nBETA\\r\\ngamma\\r\\n');
  });

  it('keeps a BOM, tabs and latin1 bytes when a row is edited', async () => {
    const bom = file(fs.readFileSync(fixture('bom-utf8.txt')));
    await run(['replace', bom.f, '--rows', '-'], { stdin: '2\tWORLD\n' });
    expect(read(bom.f)).toBe('\\xef\\xbb\\xbfhello\\r\\nWORLD\\r\\n');
    const latin = file(fs.readFileSync(fixture('latin1.txt')));
    await run(['replace', latin.f, '--rows', '-'], { stdin: B('1\tcaf\xe9\tau lait\n') });
    expect(read(latin.f)).toBe('caf\\xe9\\tau lait\\nna\\xefve\\n');
  });

  it('takes page output with its footer, and refuses a row page cut', async () => {
    const { f } = file('a\nb\nc\nd\n');
    const page = await run(['page', f, '--limit', '2']);
    const rows = page.stdout.toString('latin1').replace('b\n', 'B\n');
    expect(rows).toContain('[Read 2 lines');
    expect((await run(['replace', f, '--rows', '-'], { stdin: B(rows) })).status).toBe(0);
    expect(read(f)).toBe('a\\nB\\nc\\nd\\n');
    const cut = await run(['replace', f, '--rows', '-'], { stdin: '3[cut]\tcc\n' });
    expect(cut.status).toBe(2);
    expect(cut.stderr).toMatch(/row 1: line 3 was cut by page --max-bytes and cannot be written back/);
  });

  it('refuses duplicate, overlapping, out-of-range and malformed rows, writing nothing', async () => {
    const { f, dir } = file('a\nb\nc\n');
    const cases: Array<[string, RegExp]> = [
      ['1\tA\n1\tAA\n', /^linewise: .*f\.txt: row 1 \(line 1\) and row 2 \(line 1\) both edit the same lines/],
      ['1\tA\n4\tD\n', /^linewise: .*f\.txt: row 2: line 4 is past the end: the file has 3 lines\n$/],
      ['1\tA\nnot a row\n', /^linewise: <stdin>: row 2: not a row/],
      ['1\tA\n\n2\tB\n', /row 2: not a row/],
    ];
    for (const [rows, message] of cases) {
      const r = await run(['replace', f, '--rows', '-'], { stdin: rows });
      expect(r.status, rows).toBe(2);
      expect(r.stderr, rows).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(read(f)).toBe('a\\nb\\nc\\n');
    expect(fs.readdirSync(dir)).toEqual(['f.txt']);
  });

  it('patches several files from path rows in one call, and none when one row is bad', async () => {
    const dir = fs.mkdtempSync(path.join(tmp.dir, 'multi'));
    fs.mkdirSync(path.join(dir, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'a.txt'), 'let oldName = 1;\r\nkeep\r\n');
    fs.writeFileSync(path.join(dir, 'sub', 'b.txt'), 'x\noldName()\n');
    // grep-style rows (path, number, line), a context line and a group separator, edited like sed would
    const rows = 'a.txt\t1\tlet newName = 1;\r\na.txt\t2\tkeep\r\n--\nsub/b.txt\t2\tnewName()\n';
    const bad = await run(['replace', '--rows', '-'], { stdin: `${rows}sub/b.txt\t9\tz\n`, cwd: dir });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('linewise: sub/b.txt: row 5: line 9 is past the end: the file has 2 lines\n');
    expect(read(path.join(dir, 'a.txt'))).toBe('let oldName = 1;\\r\\nkeep\\r\\n');
    const ok = await run(['replace', '--rows', '-', '--json'], { stdin: rows, cwd: dir });
    expect(ok.status).toBe(0);
    expect(read(path.join(dir, 'a.txt'))).toBe('let newName = 1;\\r\\nkeep\\r\\n');
    expect(read(path.join(dir, 'sub', 'b.txt'))).toBe('x\\nnewName()\\n');
    expect(ok.stdout.toString().split('\n')).toEqual([
      '{"type":"file","path":"a.txt","changed":true,"written":true,"lines_before":2,"lines_after":2,"edits":[{"start":1,"end":1,"removed":1,"added":1,"changed":true},{"start":2,"end":2,"removed":1,"added":1,"changed":false}]}',
      '{"type":"file","path":"sub/b.txt","changed":true,"written":true,"lines_before":2,"lines_after":2,"edits":[{"start":2,"end":2,"removed":1,"added":1,"changed":true}]}',
      '{"type":"summary","files":2,"changed":2,"written":2,"dry_run":false}',
      '',
    ]);
    expect(fs.readdirSync(dir).sort()).toEqual(['a.txt', 'sub']);
  });

  it('treats two names of one file as one file, so their edits may not clash', async () => {
    const { f, dir } = file('a\nb\n');
    const r = await run(['replace', '--rows', '-'], { stdin: 'f.txt\t1\tA\n./f.txt\t1\tB\n', cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/both edit the same lines/);
    expect(read(f)).toBe('a\\nb\\n');
  });

  it('does nothing, successfully, with no rows (grep found nothing)', async () => {
    const { f } = file('a\n');
    const r = await run(['replace', f, '--rows', '-'], { stdin: '' });
    expect([r.status, r.stdout.length, r.stderr]).toEqual([0, 0, 'linewise: no rows to apply; nothing written\n']);
    const none = await run(['replace', '--rows', '-', '--json'], { stdin: '' });
    expect(none.stdout.toString()).toBe('{"type":"summary","files":0,"changed":0,"written":0,"dry_run":false}\n');
    expect(read(f)).toBe('a\\n');
  });

  it('wants a FILE for plain rows, and path rows to match FILE', async () => {
    const { f, dir } = file('a\n');
    const plainRows = await run(['replace', '--rows', '-'], { stdin: '1\tA\n', cwd: dir });
    expect(plainRows.stderr).toBe('linewise: rows: row 1 has no path: name the file, as in linewise replace FILE --rows\n');
    const other = await run(['replace', f, '--rows', '-'], { stdin: 'g.txt\t1\tA\n', cwd: dir });
    expect(other.stderr).toMatch(/row 1 is for g\.txt, not .*f\.txt; leave FILE out to patch several files/);
    const both = await run(['replace', f, '1', '--rows', '-'], { stdin: '1\tA\n' });
    expect(both.stderr).toBe('linewise: --rows takes no START or END: each row names its line\n');
    expect((await run(['replace', f, '--rows', '-'], { stdin: 'f.txt\t1\tA\n', cwd: dir })).status).toBe(0);
    expect(read(f)).toBe('A\\n');
  });
});

describe('replace --expect: the stale-edit guard', () => {
  it('writes when the lines still hold the text read', async () => {
    const { f, dir } = file('alpha\r\nbeta\r\n');
    fs.writeFileSync(path.join(dir, 'before'), await rowsOf(f, '2', '2'));
    const r = await run(['replace', f, '2', '--text', 'BETA', '--expect', path.join(dir, 'before')]);
    expect(r.status).toBe(0);
    expect(read(f)).toBe('alpha\\r\\nBETA\\r\\n');
  });

  it('exits 3, writes nothing, and prints the current lines as rows when one changed', async () => {
    const { f, dir } = file('alpha\r\nbeta\r\n');
    fs.writeFileSync(path.join(dir, 'before'), await rowsOf(f, '1'));
    fs.writeFileSync(f, 'alpha\r\nsomeone else\r\n');
    const r = await run(['replace', f, '2', '--text', 'BETA', '--expect', path.join(dir, 'before')]);
    expect(r.status).toBe(3);
    expect(esc(r.stdout)).toBe('2\\tsomeone else\\r\\n');
    expect(r.stderr).toBe(`linewise: ${f}: stale edit: line 2 no longer holds the text read; nothing was written; the current lines are on stdout: read again and retry\n`);
    expect(read(f)).toBe('alpha\\r\\nsomeone else\\r\\n');
    expect(fs.readdirSync(dir).sort()).toEqual(['before', 'f.txt']);
  });

  it('guards rows too, and content decides, not the modification time', async () => {
    const { f, dir } = file('a\nb\n');
    const old = path.join(dir, 'old');
    fs.writeFileSync(old, '1\ta\n2\tb\n');
    fs.utimesSync(f, new Date(2001, 1, 1), new Date(2001, 1, 1)); // touched, same content
    expect((await run(['replace', f, '--rows', '-', '--expect', old], { stdin: '1\tA\n' })).status).toBe(0);
    expect(read(f)).toBe('A\\nb\\n');
    const again = await run(['replace', f, '--rows', '-', '--expect', old], { stdin: '1\tAA\n' });
    expect(again.status).toBe(3);
    expect(esc(again.stdout)).toBe('1\\tA\\n');
  });
});

describe('replace --dry-run', () => {
  it('prints a unified diff with the file\'s own bytes and writes nothing', async () => {
    const { f, dir } = file('1\r\n2\r\n3\r\n4\r\n5\r\n6\r\n7\r\n8\r\n9\r\n');
    const r = await run(['replace', f, '5', '--text', 'five', '--dry-run'], { cwd: dir });
    expect(r.status).toBe(0);
    expect(esc(r.stdout)).toBe(
      esc(`--- ${f}\n+++ ${f}\n@@ -2,7 +2,7 @@\n 2\r\n 3\r\n 4\r\n-5\r\n+five\r\n 6\r\n 7\r\n 8\r\n`),
    );
    expect(read(f)).toBe(esc('1\r\n2\r\n3\r\n4\r\n5\r\n6\r\n7\r\n8\r\n9\r\n'));
    expect(fs.readdirSync(dir)).toEqual(['f.txt']);
  });

  it('shows appends after a last line without newline, and nothing for an unchanged file', async () => {
    const { f } = file('a\nb');
    const r = await run(['replace', f, '3', '2', '--text', 'c', '--dry-run']);
    expect(esc(r.stdout)).toBe(esc(`--- ${f}\n+++ ${f}\n@@ -1,2 +1,3 @@\n a\n-b\n\\ No newline at end of file\n+b\n+c\n\\ No newline at end of file\n`));
    const same = await run(['replace', f, '--rows', '-', '--dry-run'], { stdin: '1\ta\n' });
    expect([same.status, same.stdout.length]).toEqual([0, 0]);
  });

  it('with --json prints JSON Lines only: the diff is a field of the file record (base64 when not UTF-8)', async () => {
    const { f } = file('a\r\nb\r\n');
    const r = await run(['replace', f, '2', '--text', 'B', '--dry-run', '--json']);
    const lines = r.stdout.toString('utf8').trimEnd().split('\n');
    const records = lines.map((l) => JSON.parse(l)); // every line parses
    expect(records.map((x) => x.type)).toEqual(['file', 'summary']);
    expect(records[0].diff).toBe(`--- ${f}\n+++ ${f}\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+B\r\n`);
    expect(records[1]).toMatchObject({ dry_run: true, written: 0 });
    const latin = file(Buffer.from('caf\xe9\n', 'latin1'));
    const b = await run(['replace', latin.f, '1', '--text', 'x', '--dry-run', '--json']);
    const rec = JSON.parse(b.stdout.toString('utf8').split('\n')[0]!);
    expect(Buffer.from(rec.diff_bytes, 'base64').includes(Buffer.from('-caf\xe9\n', 'latin1'))).toBe(true);
  });
});

describe('replace: what the disk keeps', () => {
  it('writes through a symbolic link, keeping the link and the mode', async () => {
    const { f, dir } = file('a\nb\n');
    fs.chmodSync(f, 0o751);
    const link = path.join(dir, 'link.txt');
    fs.symlinkSync('f.txt', link);
    expect((await run(['replace', link, '1', '--text', 'A'])).status).toBe(0);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(read(f)).toBe('A\\nb\\n');
    expect(fs.statSync(f).mode & 0o7777).toBe(0o751);
    expect(fs.readdirSync(dir).sort()).toEqual(['f.txt', 'link.txt']);
  });

  it('refuses a file with two hard links and a FIFO, with one clear line', async () => {
    const { f, dir } = file('a\n');
    fs.linkSync(f, path.join(dir, 'other'));
    const r = await run(['replace', f, '1', '--text', 'x']);
    expect([r.status, r.stderr]).toEqual([
      2,
      `linewise: ${f}: has 2 hard links; replacing it would split it from its other names (remove the other links, or edit it with a tool that writes in place)\n`,
    ]);
    const dirTarget = await run(['replace', dir, '1', '--text', 'x']);
    expect(dirTarget.stderr).toBe(`linewise: ${dir}: is a directory, not a regular file; only regular files can be edited\n`);
  });

  it('streams a file with lines longer than the read buffer, across several yields', async () => {
    const long = Buffer.alloc(3 << 20, 0x6c);
    const { f } = file(Buffer.concat([long, B('\r\nmiddle\r\n'), long, B('\n'), long]));
    expect((await run(['replace', f, '2', '--text', 'MIDDLE'])).status).toBe(0);
    const out = fs.readFileSync(f);
    expect(out.length).toBe(3 * long.length + 11);
    expect(esc(out.subarray(long.length, long.length + 10))).toBe('\\r\\nMIDDLE\\r\\n');
    expect(out.subarray(long.length + 10, 2 * long.length + 10).equals(long)).toBe(true);
  });
});

/** The replace command called directly, to inject a writer. */
async function direct(f: string, args: Partial<ReplaceArgs> & { start: string }) {
  const chunks: Buffer[] = [];
  const sink = { isTTY: false, write: (c: Uint8Array) => void chunks.push(Buffer.from(c)) };
  const io = { stdout: sink, stderr: sink, stdin: chunkedReader(Buffer.alloc(0)), stdinIsTTY: false, env: {}, cwd: process.cwd() };
  const ctx = { io, out: new Output(sink), rowStyle: plain, noteStyle: plain, warn() {}, failed() {} };
  try {
    return await replace(ctx, f, args.start, undefined, { eol: 'auto', ...args });
  } catch (e) {
    if (e instanceof LinewiseError) return `${e.exitCode} ${e.code}: ${e.message}`;
    throw e;
  }
}

describe('replace: failures while writing', () => {
  it('a full disk (ENOSPC) leaves the file as it was and no temporary file', async () => {
    const content = Buffer.from('abcdefghi\n'.repeat(200_000)); // more than one 1 MiB write
    const { f, dir } = file(content);
    const full: WriteFn = () => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    expect(await direct(f, { start: '1', text: 'x', writeFn: full })).toBe(
      '2 enospc: cannot write the new content (no space left on device); the file was left as it was',
    );
    expect(fs.readFileSync(f).equals(content)).toBe(true);
    expect(fs.readdirSync(dir)).toEqual(['f.txt']);
  });

  it('a file changed while the edit was prepared is not overwritten (exit 3)', async () => {
    const { f, dir } = file('a\nb\n');
    let once = false;
    const meddling: WriteFn = (fd, buf, off, len) => {
      if (!once) fs.appendFileSync(f, 'c\n'); // another writer, between our read and our rename
      once = true;
      return fs.writeSync(fd, buf, off, len);
    };
    expect(await direct(f, { start: '1', text: 'A', writeFn: meddling })).toMatch(/^3 changed: the file changed while the edit was prepared; nothing was written/);
    expect(read(f)).toBe('a\\nb\\nc\\n');
    expect(fs.readdirSync(dir)).toEqual(['f.txt']);
  });
});

describe('replace: the fast lane for untouched lines', () => {
  // Long untouched stretches are skipped by the scanner and copied by offset; the result must be
  // what the patcher gives piece by piece (property-tested in test/core/edits.test.ts).
  const line = fc.record({ body: fc.constantFrom('a', 'bb\tb', 'caf\xe9', 'x\ry', ''), eol: fc.constantFrom('\n', '\r\n') });
  it('gives the same bytes as the patcher alone, for random files and edits', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 400 }),
        fc.boolean(),
        fc.boolean(),
        fc.array(fc.tuple(fc.nat(), fc.nat(3), fc.constantFrom('', 'N\n', 'M1\nM2')), { maxLength: 3 }),
        async (lines, finalNewline, bom, picks) => {
          let text = lines.map((l) => l.body + l.eol).join('');
          if (!finalNewline) text = text.replace(/\r?\n$/, '');
          const body = B(text);
          const count = referenceLines(body).length;
          // edits on distinct, non-overlapping lines (inserts included), against the original numbering
          const edits: Edit[] = [];
          let from = 1;
          for (const [at, len, newText] of [...picks].sort((a, b) => a[0] - b[0])) {
            const start = from + (at % 40);
            const end = Math.min(start + len - 1, count);
            if (start > count + 1 || (end >= start && end > count)) break;
            edits.push({ start, end, lines: splitLines(B(newText)), origin: 'edit' });
            from = Math.max(start, end) + 2;
          }
          const expected = expectedPatch(body, edits);
          const { f } = file(bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body);
          // One call per edit, last first, so earlier numbers stay valid.
          for (const e of [...edits].reverse()) {
            const r = await run(['replace', f, String(e.start), String(e.end), '--text', Buffer.concat(e.lines).toString('latin1')]);
            expect(r.stderr).toBe('');
          }
          expect(read(f)).toBe(esc(bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), expected]) : expected));
        },
      ),
      { numRuns: 40 },
    );
  });
});

/** The patcher alone over bytes: the reference for the command's fast lane. */
function expectedPatch(body: Buffer, edits: Edit[]): Buffer {
  const chunks: Buffer[] = [];
  const lines = referenceLines(body);
  const first = lines[0];
  const firstLineEol = first === undefined ? undefined : first.at(-1) !== 10 ? undefined : first.at(-2) === 13 ? '\r\n' : '\n';
  const p = new Patcher(edits, { eol: 'auto', emit: (b, s, e) => chunks.push(Buffer.from(b.subarray(s, e))), ...(firstLineEol ? { firstLineEol } : {}) });
  const sc = new LineScanner(chunkedReader(body));
  sc.scan((b, s, e, ends) => void p.piece(b, s, e, ends));
  p.finish();
  return Buffer.concat(chunks);
}
