// The library's grep: the same lines, submatches, problems and status as `linewise grep`, compared
// with the CLI's --json records and rows on the byte-exact fixtures, encodings included.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { Exit, grep, type GrepLine, type GrepOptions, LinewiseError } from '../../src/index.js';
import { esc, fixture, FIXTURES, MARK, run, tempDir, writeTree } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

/** The CLI flags for library options. */
function flags(o: GrepOptions): string[] {
  const f: string[] = [];
  if (o.ignoreCase) f.push('-i');
  if (o.fixedStrings) f.push('-F');
  if (o.wordRegexp) f.push('-w');
  if (o.invertMatch) f.push('-v');
  if (o.maxCount !== undefined) f.push('-m', String(o.maxCount));
  if (o.context !== undefined) f.push('-C', String(o.context));
  if (o.beforeContext !== undefined) f.push('-B', String(o.beforeContext));
  if (o.afterContext !== undefined) f.push('-A', String(o.afterContext));
  if (o.text) f.push('-a');
  if (o.encoding !== undefined) f.push('--encoding', o.encoding);
  return f;
}

/** The CLI's --json match and context records, in the shape of the library's lines. */
async function cliLines(pattern: string, paths: string[], o: GrepOptions) {
  const r = await run(['grep', '--json', ...flags(o), '-e', pattern, ...paths]);
  const records = r.stdout
    .toString()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const lines = records
    .filter((x) => x.type === 'match' || x.type === 'context')
    .map((x) => {
      // rg's `lines` holds the terminator too; `terminator` (ours) says which it is
      const whole = x.data.lines.text !== undefined ? Buffer.from(x.data.lines.text, 'utf8') : Buffer.from(x.data.lines.bytes, 'base64');
      return { x, body: whole.subarray(0, whole.length - x.data.terminator.length) };
    })
    .map(({ x, body }) => ({
      kind: x.type,
      path: x.data.path.text,
      line: x.data.line_number,
      body,
      terminator: x.data.terminator,
      submatches: x.data.submatches.map((s: { start: number; end: number }) => ({ start: s.start, end: s.end })),
    }));
  return { status: r.status, stderr: r.stderr, lines };
}

const shape = (lines: GrepLine[]) =>
  lines.map((l) => ({
    kind: l.kind,
    path: l.path,
    line: l.line,
    body: l.bytes.subarray(0, l.bytes.length - l.terminator.length),
    terminator: l.terminator,
    submatches: l.submatches,
  }));

/** Rows as the CLI prints them with -H: the no-newline marker after an unterminated row. */
const rows = (lines: GrepLine[]) => Buffer.concat(lines.map((l) => Buffer.concat([Buffer.from(`${l.path}\t${l.line}\t`), l.bytes, Buffer.from(l.terminator === '' ? MARK : '')])));

const CASES: [string, string, GrepOptions][] = [
  ['crlf.txt', 'a$', {}],
  ['crlf.txt', 'ALPHA|gamma', { ignoreCase: true }],
  ['mixed.txt', 'o', { context: 1 }],
  ['mixed.txt', 'two', { invertMatch: true }],
  ['mixed.txt', '^', { maxCount: 2 }],
  ['no-final-newline.txt', 'd$', {}],
  ['no-final-newline.txt', 'first', { afterContext: 1 }],
  ['lone-cr.txt', 'a\\r$|x', {}],
  ['bom-utf8.txt', '^hello$', {}],
  ['latin1.txt', 'caf', {}],
  ['latin1.txt', 'café|ïve', { encoding: 'latin1' }],
  ['content-separators.txt', '.', {}],
  ['blank.txt', '^$', { beforeContext: 1 }],
  ['utf16le-bom-crlf.txt', 'ö|😀|t$', {}],
  ['utf16be-bom.txt', 'last$', { context: 5 }],
  ['shift_jis.txt', '本', { encoding: 'shift_jis' }],
  ['windows-1252.txt', '€|“', { encoding: 'windows-1252' }],
  ['nul.bin', 'def', { text: true }],
  ['crlf.txt', 'a.p', { fixedStrings: true }],
  ['crlf.txt', 'alph', { wordRegexp: true }],
];

describe('grep', () => {
  it('returns the lines, submatch byte ranges, terminators and status the CLI prints, fixture by fixture', async () => {
    for (const [name, pattern, o] of CASES) {
      const f = fixture(name);
      const cli = await cliLines(pattern, [f], o);
      const lib = await grep(pattern, f, o);
      expect(shape(lib.lines), `${name} /${pattern}/ ${JSON.stringify(o)}`).toEqual(cli.lines);
      expect(lib.status, name).toBe(cli.status);
      expect(lib.errors).toEqual([]);
      // and the rows are the CLI's rows, byte for byte
      if (o.context === undefined && o.beforeContext === undefined && o.afterContext === undefined) {
        const text = await run(['grep', '-H', ...flags(o), '-e', pattern, f]);
        expect(esc(rows(lib.lines)), name).toBe(esc(text.stdout));
      }
    }
  });

  it('gives text, bytes and the terminator of each line, and submatches as byte offsets', async () => {
    const { lines, files, status } = await grep('ö', [fixture('utf16le-bom-crlf.txt')]);
    expect(status).toBe(Exit.ok);
    expect(lines).toEqual([
      {
        kind: 'match',
        path: fixture('utf16le-bom-crlf.txt'),
        line: 2,
        bytes: Buffer.from('wörld 😀\r\n'),
        text: 'wörld 😀',
        terminator: '\r\n',
        submatches: [{ start: 1, end: 3 }],
      },
    ]);
    expect(files).toEqual([{ path: fixture('utf16le-bom-crlf.txt'), selected: 1 }]);
    const [latin] = (await grep('caf', fixture('latin1.txt'))).lines;
    expect(latin!.text).toBeUndefined();
    expect(esc(latin!.bytes)).toBe('caf\\xe9\\n');
  });

  it('replace (typed, as --replace): the lines returned with each match replaced, as the CLI prints them; the file unchanged', async () => {
    const f = tmp.file('rep.txt', 'abc\r\nxbx\nno\n');
    const options: GrepOptions = { replace: '<$0>' };
    const r = await grep('b', [f], options);
    expect(r.lines.map((l) => esc(l.bytes))).toEqual(['a<b>c\\r\\n', 'x<b>x\\n']);
    const cli = await run(['grep', 'b', f, '--replace', '<$0>']);
    expect(esc(cli.stdout)).toBe(esc('1\ta<b>c\r\n2\tx<b>x\n'));
    expect(esc(readFileSync(f))).toBe(esc('abc\r\nxbx\nno\n'));
  });

  it('several patterns select a line when any matches; no match is status 1', async () => {
    const r = await grep(['^alpha', 'gamma$'], fixture('crlf.txt'));
    expect(r.lines.map((l) => l.line)).toEqual([1, 3]);
    const none = await grep('zzz', fixture('crlf.txt'));
    expect([none.status, none.lines, none.files]).toEqual([Exit.noMatch, [], [{ path: fixture('crlf.txt'), selected: 0 }]]);
    expect((await run(['grep', 'zzz', fixture('crlf.txt')])).status).toBe(none.status);
  });

  it('walks a directory as the CLI does: same files, same order, binary files skipped', async () => {
    const cli = await cliLines('e', ['fixtures'], {});
    const lib = await grep('e', 'fixtures');
    expect(shape(lib.lines)).toEqual(cli.lines);
    expect(lib.files.map((f) => f.path)).not.toContain('fixtures/nul.bin');
    expect(lib.files.find((f) => f.path === 'fixtures/crlf.txt')).toEqual({ path: 'fixtures/crlf.txt', selected: 1 });
    // relative to cwd, and the default path is cwd
    const here = await grep('^gamma', [], { cwd: FIXTURES, glob: ['*.txt'] });
    expect(here.lines.map((l) => [l.path, l.line])).toEqual([['crlf.txt', 3]]);
  });

  it('reports per-file problems as the CLI does on stderr, and goes on', async () => {
    const missing = tmp.file('missing.txt');
    const paths = [missing, fixture('nul.bin'), fixture('crlf.txt')];
    const cli = await run(['grep', 'alpha', ...paths]);
    const lib = await grep('alpha', paths);
    expect(lib.status).toBe(cli.status);
    expect(lib.status).toBe(Exit.usage);
    expect(lib.lines.map((l) => [l.path, l.line])).toEqual([[fixture('crlf.txt'), 1]]);
    expect(lib.errors.every((e) => e instanceof LinewiseError)).toBe(true);
    const said = [...lib.errors.map((e) => `linewise: ${e.path}: ${e.message}\n`), ...lib.notes.map((n) => `linewise: ${n.path}: ${n.message}\n`)];
    expect(said.sort()).toEqual(cli.stderr.split(/(?<=\n)/).sort());
    expect(lib.errors[0]!.code).toBe('enoent');
  });

  it('budgets: maxRows and maxBytes leave lines out and say where to go on, as the CLI footer does', async () => {
    const dir = tmp.file('budget');
    const fs = await import('node:fs');
    fs.mkdirSync(dir);
    fs.writeFileSync(`${dir}/a.txt`, 'hit 1\nhit 2\r\nmiss\nhit 3\n');
    fs.writeFileSync(`${dir}/b.txt`, `hit ${'x'.repeat(100)}\n`);
    const first = await grep('hit', [], { cwd: dir, maxRows: 2 });
    expect(first.lines.map((l) => [l.path, l.line])).toEqual([['a.txt', 1], ['a.txt', 2]]);
    expect(first.cutOff).toEqual({ rows: 2, shown: 2, total: 4, files: 1, totalFiles: 2, after: 'a.txt:2' });
    const cli = await run(['grep', 'hit', '--max-rows', '2'], { cwd: dir });
    expect(cli.stdout.toString()).toContain(`--after ${first.cutOff!.after} to go on.]`);
    const next = await grep('hit', [], { cwd: dir, maxRows: 2, after: first.cutOff!.after, maxBytes: 40 });
    expect(next.lines.map((l) => [l.path, l.line, l.cut])).toEqual([['a.txt', 4, undefined]]);
    expect(next.cutOff?.after).toBe('a.txt:4');
    const cut = await grep('hit', [], { cwd: dir, after: 'a.txt:4', maxBytes: 40 });
    expect(cut.lines.map((l) => [l.path, l.line, l.cut, l.bytes.length])).toEqual([['b.txt', 1, true, 40 - 'b.txt\t1[cut]\t\n'.length]]);
    expect(cut.cutOff).toEqual({ rows: 1, shown: 1, total: 1, files: 1, totalFiles: 1, after: 'b.txt:1@26', cut: { path: 'b.txt', line: 1, shown: 26, length: 105 } });
    expect((await grep('^hit 2$', [], { cwd: dir, lineRegexp: true })).lines.map((l) => l.line)).toEqual([2]);
  });

  it('throws LinewiseError for what the CLI refuses before searching, with its message and status', async () => {
    const cases: [string | string[], GrepOptions, string[]][] = [
      ['(', {}, ['grep', '(', 'fixtures/crlf.txt']],
      [[], {}, ['grep']],
      ['a', { encoding: 'klingon' }, ['grep', 'a', 'fixtures/crlf.txt', '--encoding', 'klingon']],
    ];
    for (const [pattern, o, args] of cases) {
      const cli = await run(args);
      let thrown: unknown;
      try {
        await grep(pattern, 'fixtures/crlf.txt', o);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(LinewiseError);
      const e = thrown as LinewiseError;
      expect([e.exitCode, `linewise: ${e.path === undefined ? '' : `${e.path}: `}${e.message}\n`], String(pattern)).toEqual([cli.status, cli.stderr]);
    }
    await expect(grep('a', 'fixtures/crlf.txt', { maxCount: 0 })).rejects.toThrow(/maxCount must be at least 1, not 0/);
  });
});

describe('grep confined (a server passes its roots as `confine`)', () => {
  it('checks every file as opened, also when asked for worker threads (which then are not used)', async () => {
    const dir = writeTree(tmp.file('confined'), { 'a.txt': 'needle\n', 'b.txt': 'needle\n', 'sub/c.txt': 'needle\n' });
    const refuse = (name: string) => new LinewiseError('outside-roots', 'refused as opened', name);
    for (const threads of [1, 2]) {
      const r = await grep('needle', [dir], { confine: { allows: () => false, refuse }, threads });
      expect([r.lines.length, r.errors.map((e) => e.code)], `threads ${threads}`).toEqual([0, ['outside-roots', 'outside-roots', 'outside-roots']]);
      const allowed = await grep('needle', [dir], { confine: { allows: () => true, refuse }, threads });
      expect(allowed.lines.map((l) => l.text)).toEqual(['needle', 'needle', 'needle']);
    }
  });
});
