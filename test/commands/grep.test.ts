import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRows } from '../../src/core/parse-rows.js';
import { esc, fixture, MARK, referenceLines, run, tempDir, writeTree } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

/** A directory tree from a map of relative paths to contents. */
const tree = (name: string, files: Record<string, string | Buffer>): string => writeTree(path.join(tmp.dir, name), files);

describe('grep: matching', () => {
  it('ta$ matches beta\\r\\n in a CRLF file and prints it verbatim', async () => {
    const r = await run(['grep', 'ta$', fixture('crlf.txt')]);
    expect(r.status).toBe(0);
    expect(esc(r.stdout)).toBe('2\\tbeta\\r\\n');
    expect(r.stderr).toBe('');
  });

  it('no match: exit 1, nothing on stdout or stderr', async () => {
    const r = await run(['grep', 'zeta', fixture('crlf.txt')]);
    expect(r.status).toBe(1);
    expect(r.stdout.length).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('an invalid pattern is one clear line, exit 2', async () => {
    const r = await run(['grep', '(', fixture('crlf.txt')]);
    expect(r.status).toBe(2);
    expect(r.stdout.length).toBe(0);
    expect(r.stderr).toBe('linewise: invalid pattern "(": unclosed group: a "(" without its ")" (escape it as \\( for a literal parenthesis)\n');
  });

  it("patterns are rg's dialect; -P takes JavaScript's (lookaround), and the default refuses it naming -P", async () => {
    const rg = await run(['grep', '(?i)ALPHA|[[:digit:]]', fixture('crlf.txt')]);
    expect(esc(rg.stdout)).toBe('1\\talpha\\r\\n');
    const refused = await run(['grep', '(?<=al)pha', fixture('crlf.txt')]);
    expect([refused.status, refused.stderr]).toEqual([2, 'linewise: invalid pattern "(?<=al)pha": look-around (?<=...) is not in rg\'s dialect: use -P for the JavaScript (PCRE-like) dialect\n']);
    const perl = await run(['grep', '-P', '(?<=al)pha', fixture('crlf.txt')]);
    expect([perl.status, esc(perl.stdout)]).toEqual([0, '1\\talpha\\r\\n']);
    const both = await run(['grep', '-P', '-F', 'x', fixture('crlf.txt')]);
    expect(both.status).toBe(2);
  });

  it('alpha\\r$ matches a last line that ends in a lone \\r (the \\r is text)', async () => {
    const r = await run(['grep', 'alpha\\r$', fixture('lone-cr.txt')]);
    expect(esc(r.stdout)).toBe('2\\talpha\\r\\n\\\\ No newline at end of file\\n');
    const dot = await run(['grep', '^x.a$', fixture('lone-cr.txt')]);
    expect(esc(dot.stdout)).toBe('1\\tx\\ra\\n');
  });

  it('^$ on a\\n\\nc\\n prints only line 2', async () => {
    const r = await run(['grep', '^$', fixture('blank.txt')]);
    expect(esc(r.stdout)).toBe('2\\t\\n');
  });

  it('^ matches line 1 of a file with a UTF-8 BOM, and the row leaves the BOM out', async () => {
    const r = await run(['grep', '^hello$', fixture('bom-utf8.txt')]);
    expect(esc(r.stdout)).toBe('1\\thello\\r\\n');
  });

  it('-F a.b is literal', async () => {
    const f = tmp.file('dots.txt', 'axb\na.b\n');
    expect(esc((await run(['grep', '-F', 'a.b', f])).stdout)).toBe('2\\ta.b\\n');
    expect(esc((await run(['grep', 'a.b', f])).stdout)).toBe('1\\taxb\\n2\\ta.b\\n');
  });

  it('-w cat skips concatenate', async () => {
    const f = tmp.file('cat.txt', 'concatenate\nthe cat sat\ncat_food\n');
    expect(esc((await run(['grep', '-w', 'cat', f])).stdout)).toBe('2\\tthe cat sat\\n');
  });

  it('-e -foo takes a pattern that begins with "-"; -e repeats', async () => {
    const f = tmp.file('dash.txt', 'a -foo b\nbar\nbaz\n');
    expect(esc((await run(['grep', '-e', '-foo', f])).stdout)).toBe('1\\ta -foo b\\n');
    expect(esc((await run(['grep', '-e', '-foo', '-e', 'baz', f])).stdout)).toBe('1\\ta -foo b\\n3\\tbaz\\n');
  });

  it('-i matches regardless of case, Unicode folding included', async () => {
    const f = tmp.file('case.txt', 'Error one\nerror two\nERROR\nMA\u017FK\nnone\n');
    expect(esc((await run(['grep', '-i', 'error', f])).stdout)).toBe('1\\tError one\\n2\\terror two\\n3\\tERROR\\n');
    expect(esc((await run(['grep', '-i', 'mask', f])).stdout)).toBe('4\\tMA\\xc5\\xbfK\\n');
  });

  it('-v selects the lines that do not match; -m 1 stops after one', async () => {
    expect(esc((await run(['grep', '-v', 'a', fixture('crlf.txt')])).stdout)).toBe('');
    expect(esc((await run(['grep', '-v', 'ph', fixture('crlf.txt')])).stdout)).toBe('2\\tbeta\\r\\n3\\tgamma\\r\\n');
    expect(esc((await run(['grep', '-m', '1', 'a', fixture('crlf.txt')])).stdout)).toBe('1\\talpha\\r\\n');
  });

  it('matches lines that are not UTF-8 through U+FFFD and prints their own bytes', async () => {
    const r = await run(['grep', 'caf.$', fixture('latin1.txt')]);
    expect(esc(r.stdout)).toBe('1\\tcaf\\xe9\\n');
    expect((await run(['grep', 'caf\u00e9', fixture('latin1.txt')])).status).toBe(1);
  });

  it('reads standard input, a CRLF cut between reads included', async () => {
    const r = await run(['grep', 'b$', '-'], { stdin: 'a\r\nb\r\nc\r\n', stdinChunks: [1, 3, 1] });
    expect(esc(r.stdout)).toBe('2\\tb\\r\\n');
  });

  it('the row of a last line without a terminator is followed by "\\n" and the no-newline marker, whatever comes next', async () => {
    expect(esc((await run(['grep', 'o', fixture('mixed.txt')])).stdout)).toBe('1\\tone\\r\\n2\\ttwo\\n4\\tfour\\n\\\\ No newline at end of file\\n');
    const two = await run(['grep', 'o', fixture('mixed.txt'), fixture('no-final-newline.txt')]);
    expect(esc(two.stdout)).toBe(
      esc(`${fixture('mixed.txt')}\t1\tone\r\n${fixture('mixed.txt')}\t2\ttwo\n${fixture('mixed.txt')}\t4\tfour${MARK}${fixture('no-final-newline.txt')}\t2\tsecond${MARK}`),
    );
  });
});

describe('grep: rows and context', () => {
  it('two files print path rows; -0 ends the path with NUL; -H forces paths for one file', async () => {
    const a = tmp.file('a.txt', 'x1\ny\n');
    const b = tmp.file('b.txt', 'y\r\nx2\r\n');
    expect(esc((await run(['grep', 'x', a, b])).stdout)).toBe(esc(`${a}\t1\tx1\n${b}\t2\tx2\r\n`));
    expect(esc((await run(['grep', '-0', 'x', a, b])).stdout)).toBe(esc(`${a}\x001\tx1\n${b}\x002\tx2\r\n`));
    expect(esc((await run(['grep', '-H', 'x', a])).stdout)).toBe(esc(`${a}\t1\tx1\n`));
  });

  it('-C 1 prints context with -- between groups that are not adjacent', async () => {
    const f = tmp.file('ctx.txt', 'm\na\nb\nc\nm\r\nd\nm');
    const r = await run(['grep', '-C', '1', '^m', f]);
    expect(esc(r.stdout)).toBe('1\\tm\\n2\\ta\\n--\\n4\\tc\\n5\\tm\\r\\n6\\td\\n7\\tm\\n\\\\ No newline at end of file\\n');
    expect(esc((await run(['grep', '-A', '1', '^c', f])).stdout)).toBe('4\\tc\\n5\\tm\\r\\n');
    expect(esc((await run(['grep', '-B', '2', '^d', f])).stdout)).toBe('4\\tc\\n5\\tm\\r\\n6\\td\\n');
  });

  it('-C 1 output parses with parseRows into rows whose bytes are the file lines', async () => {
    const body = 'one\r\nneedle a\r\nthree\nfour\nfive\nneedle b\nseven\r\neight';
    const f = tmp.file('roundtrip.txt', body);
    const r = await run(['grep', '-C', '1', 'needle', f]);
    const lines = referenceLines(Buffer.from(body));
    const rows = parseRows(r.stdout, 'grep output');
    expect(rows.map((row) => row.line)).toEqual([1, 2, 3, 5, 6, 7]);
    for (const row of rows) expect(esc(row.bytes)).toBe(esc(lines[row.line - 1]!));
  });

  it('-c counts per file; -l names the files with a match', async () => {
    const a = tmp.file('c1.txt', 'x\nx\ny\n');
    const b = tmp.file('c2.txt', 'y\n');
    expect(esc((await run(['grep', '-c', 'x', a])).stdout)).toBe('2\\n');
    expect(esc((await run(['grep', '-c', 'x', a, b])).stdout)).toBe(esc(`${a}\t2\n${b}\t0\n`));
    expect(esc((await run(['grep', '-l', 'x', a, b])).stdout)).toBe(esc(`${a}\n`));
    expect((await run(['grep', '-l', 'z', a, b])).status).toBe(1);
  });

  it('--json prints ripgrep-shaped records: begin, match, context, end, summary', async () => {
    const f = tmp.file('json.txt', Buffer.concat([Buffer.from('alpha\r\nbeta\ncaf'), Buffer.from([0xe9]), Buffer.from(' beta')]));
    const r = await run(['grep', '--json', '-B', '1', 'beta', f]);
    const records = r.stdout.toString('utf8').trimEnd().split('\n');
    const p = { text: f };
    expect(records).toEqual([
      JSON.stringify({ type: 'begin', data: { path: p } }),
      JSON.stringify({ type: 'context', data: { path: p, lines: { text: 'alpha\r\n' }, line_number: 1, submatches: [], terminator: '\r\n' } }),
      JSON.stringify({ type: 'match', data: { path: p, lines: { text: 'beta\n' }, line_number: 2, submatches: [{ match: { text: 'beta' }, start: 0, end: 4 }], terminator: '\n' } }),
      JSON.stringify({ type: 'match', data: { path: p, lines: { bytes: Buffer.from('caf\xe9 beta', 'latin1').toString('base64') }, line_number: 3, submatches: [{ match: { text: 'beta' }, start: 5, end: 9 }], terminator: '' } }),
      JSON.stringify({ type: 'end', data: { path: p, binary_offset: null, stats: { searches: 1, searches_with_match: 1, matched_lines: 2, matches: 2 } } }),
      JSON.stringify({ type: 'summary', data: { stats: { searches: 1, searches_with_match: 1, matched_lines: 2, matches: 2, errors: 0 } } }),
    ]);
  });

  it('--json: every field rg prints, as rg prints it, once rg\'s timings and offsets and our extras are set aside', async () => {
    const f = tmp.file('json.txt', Buffer.concat([Buffer.from('alpha\r\nbeta\ncaf'), Buffer.from([0xe9]), Buffer.from(' beta')]));
    // `rg --json -B 1 beta json.txt`, as ripgrep 13.0.0 printed it for this file
    const RG = [
      '{"type":"begin","data":{"path":{"text":"json.txt"}}}',
      '{"type":"context","data":{"path":{"text":"json.txt"},"lines":{"text":"alpha\\r\\n"},"line_number":1,"absolute_offset":0,"submatches":[]}}',
      '{"type":"match","data":{"path":{"text":"json.txt"},"lines":{"text":"beta\\n"},"line_number":2,"absolute_offset":7,"submatches":[{"match":{"text":"beta"},"start":0,"end":4}]}}',
      '{"type":"match","data":{"path":{"text":"json.txt"},"lines":{"bytes":"Y2Fm6SBiZXRh"},"line_number":3,"absolute_offset":12,"submatches":[{"match":{"text":"beta"},"start":5,"end":9}]}}',
      '{"type":"end","data":{"path":{"text":"json.txt"},"binary_offset":null,"stats":{"elapsed":{"secs":0,"nanos":55006,"human":"0.000055s"},"searches":1,"searches_with_match":1,"bytes_searched":21,"bytes_printed":545,"matched_lines":2,"matches":2}}}',
      '{"data":{"elapsed_total":{"human":"0.030164s","nanos":30164383,"secs":0},"stats":{"bytes_printed":545,"bytes_searched":21,"elapsed":{"human":"0.000055s","nanos":55006,"secs":0},"matched_lines":2,"matches":2,"searches":1,"searches_with_match":1}},"type":"summary"}',
    ];
    const theirs = new Set(['absolute_offset', 'elapsed', 'elapsed_total', 'bytes_searched', 'bytes_printed']);
    const ours = new Set(['terminator', 'errors', 'cut', 'cut_off']);
    const strip = (v: unknown, drop: Set<string>): unknown =>
      Array.isArray(v) ? v.map((x) => strip(x, drop)) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).filter(([k]) => !drop.has(k)).map(([k, x]) => [k, strip(x, drop)])) : v;
    const r = await run(['grep', '--json', '-B', '1', 'beta', 'json.txt'], { cwd: tmp.dir });
    const mine = r.stdout.toString('utf8').trimEnd().split('\n').map((l) => strip(JSON.parse(l), ours));
    expect(mine).toEqual(RG.map((l) => strip(JSON.parse(l), theirs)));
    // and against the rg on this machine, when there is one
    const live = spawnSync('rg', ['--json', '-B', '1', 'beta', 'json.txt'], { cwd: tmp.dir, stdio: ['ignore', 'pipe', 'pipe'] });
    if (live.status === 0) expect(mine).toEqual(live.stdout.toString('utf8').trimEnd().split('\n').map((l) => strip(JSON.parse(l), theirs)));
  });

  it('colors matches, paths and numbers only on a terminal', async () => {
    const f = tmp.file('color.txt', 'a beta b\n');
    const piped = await run(['grep', '--color', 'always', 'beta', f]);
    expect(esc(piped.stdout)).toBe('1\\ta beta b\\n');
    const tty = await run(['grep', 'beta', f], { tty: true });
    expect(esc(tty.stdout)).toBe('\\x1b[32m1\\x1b[39m\\ta \\x1b[1m\\x1b[31mbeta\\x1b[39m\\x1b[22m b\\n');
    const plain = await run(['grep', 'beta', f], { tty: true, env: { NO_COLOR: '1' } });
    expect(esc(plain.stdout)).toBe('1\\ta beta b\\n');
  });
});

describe('grep: paths', () => {
  it('a directory walk skips ignored, hidden and binary files, in sorted order, nested .gitignore included', async () => {
    const root = tree('walk', {
      '.gitignore': 'ignored.txt\nbuild/\n',
      'b.txt': 'hit b\n',
      'a.txt': 'hit a\r\n',
      'ignored.txt': 'hit ignored\n',
      'build/out.txt': 'hit build\n',
      '.hidden.txt': 'hit hidden\n',
      '.git/config': 'hit git\n',
      'bin.dat': Buffer.from('hit\0binary\n'),
      'sub/.ignore': '*.log\n!keep.log\n',
      'sub/c.txt': 'hit c\n',
      'sub/x.log': 'hit log\n',
      'sub/keep.log': 'hit keep\n',
    });
    const r = await run(['grep', 'hit', root]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(esc(r.stdout)).toBe(esc(`${root}/a.txt\t1\thit a\r\n${root}/b.txt\t1\thit b\n${root}/sub/c.txt\t1\thit c\n${root}/sub/keep.log\t1\thit keep\n`));
    // no path: the current directory, paths relative to it
    const here = await run(['grep', '-l', 'hit'], { cwd: root });
    expect(here.stdout.toString()).toBe('a.txt\nb.txt\nsub/c.txt\nsub/keep.log\n');
    const all = await run(['grep', '-l', '--hidden', '--no-ignore', '-a', 'hit'], { cwd: root });
    expect(all.stdout.toString()).toBe('.git/config\n.hidden.txt\na.txt\nb.txt\nbin.dat\nbuild/out.txt\nignored.txt\nsub/c.txt\nsub/keep.log\nsub/x.log\n');
  });

  it('a .gitignore rule that is no valid pattern is left out with a note naming its line; the search goes on (as rg)', async () => {
    const root = tree('bad-rule', {
      '.gitignore': '*.log\n\\\\[B\n',
      'a.txt': 'hit a\n',
      'x.log': 'hit log\n',
      'sub/.ignore': '!\\\\[x\n',
      'sub/c.txt': 'hit c\n',
    });
    const r = await run(['grep', 'hit'], { cwd: root });
    expect(r.status).toBe(0);
    expect(esc(r.stdout)).toBe('a.txt\\t1\\thit a\\nsub/c.txt\\t1\\thit c\\n');
    expect(r.stderr).toBe(
      'linewise: .gitignore: line 2: left out a rule that is no valid pattern: \\\\[B\n' +
        'linewise: sub/.ignore: line 1: left out a rule that is no valid pattern: !\\\\[x\n',
    );
    // a -g glob that is no valid pattern is the user's own: refused, exit 2
    const g = await run(['grep', '-g', '\\\\[B', 'hit'], { cwd: root });
    expect(g.status).toBe(2);
    expect(g.stdout.length).toBe(0);
    expect(g.stderr).toBe('linewise: -g \\\\[B: not a valid glob (an unclosed [ or a stray \\?)\n');
  });

  it('an ignore file that is a named pipe, a link to /dev/zero or any link is not read (as git): the walk neither blocks nor reads forever', async () => {
    const root = tree('hostile-rules', { 'a/f.txt': 'hit a\n', 'b/g.txt': 'hit b\n', 'c/h.txt': 'hit c\n', 'rules': 'h.txt\n' });
    expect(spawnSync('mkfifo', [path.join(root, 'a', '.gitignore')]).status).toBe(0);
    fs.symlinkSync('/dev/zero', path.join(root, 'b', '.gitignore'));
    fs.symlinkSync(path.join(root, 'rules'), path.join(root, 'c', '.ignore'));
    const r = await run(['grep', 'hit'], { cwd: root });
    expect([r.status, esc(r.stdout), r.stderr]).toEqual([0, 'a/f.txt\\t1\\thit a\\nb/g.txt\\t1\\thit b\\nc/h.txt\\t1\\thit c\\n', '']);
  });

  it('-g selects files by glob, "!" excludes', async () => {
    const root = tree('globs', { 'a.ts': 'x\n', 'b.js': 'x\n', 'lib/c.ts': 'x\n', 'vendor/d.ts': 'x\n' });
    expect((await run(['grep', '-l', '-g', '*.ts', 'x'], { cwd: root })).stdout.toString()).toBe('a.ts\nlib/c.ts\nvendor/d.ts\n');
    expect((await run(['grep', '-l', '-g', '*.ts', '-g', '!vendor', 'x'], { cwd: root })).stdout.toString()).toBe('a.ts\nlib/c.ts\n');
  });

  it('a glob path is expanded (sorted) and prints path rows', async () => {
    const root = tree('globpath', { 'one.log': 'e1\n', 'two.log': 'e2\n', 'three.txt': 'e3\n' });
    const r = await run(['grep', 'e', '*.log'], { cwd: root });
    expect(esc(r.stdout)).toBe('one.log\\t1\\te1\\ntwo.log\\t1\\te2\\n');
    const none = await run(['grep', 'e', '*.nothing'], { cwd: root });
    expect(none.status).toBe(2);
    expect(none.stderr).toBe('linewise: *.nothing: no file matches this glob\n');
  });

  it('does not follow symbolic links in a walk unless -L, and survives a link loop', async () => {
    const root = tree('links', { 'real/f.txt': 'found\n', 'outside/g.txt': 'found\n' });
    const walk = path.join(root, 'real');
    fs.symlinkSync(path.join(root, 'outside'), path.join(walk, 'link'));
    fs.symlinkSync(walk, path.join(walk, 'loop'));
    expect((await run(['grep', '-l', 'found'], { cwd: walk })).stdout.toString()).toBe('f.txt\n');
    const followed = await run(['grep', '-l', '-L', 'found'], { cwd: walk });
    expect(followed.stdout.toString()).toBe('f.txt\nlink/g.txt\n');
    expect(followed.stderr).toBe('linewise: loop: symbolic link loop, not followed\n');
    expect(followed.status).toBe(0);
  });

  it('a binary file named on the command line is skipped with a note; -a searches it', async () => {
    const r = await run(['grep', 'def', fixture('nul.bin')]);
    expect(r.status).toBe(1);
    expect(r.stdout.length).toBe(0);
    expect(r.stderr).toBe(`linewise: ${fixture('nul.bin')}: binary file (it has a NUL byte), not searched; use -a/--text to search it\n`);
    expect(esc((await run(['grep', '-a', 'def', fixture('nul.bin')])).stdout)).toBe('1\\tabc\\x00def\\n');
  });

  it('a UTF-16 file without a mark named on the command line: the note names the --encoding that searches it', async () => {
    const f = fixture('utf16le-no-bom.txt');
    const r = await run(['grep', 'a', f]);
    expect([r.status, r.stdout.length]).toEqual([1, 0]);
    expect(r.stderr).toBe(`linewise: ${f}: looks like UTF-16LE text without a byte order mark, not searched; search it with --encoding utf-16le\n`);
    expect((await run(['grep', '-c', '.', f, '--encoding', 'utf-16le'])).status).toBe(0);
  });

  it('an error on one file is reported, the search goes on, and the status is 2', async () => {
    const missing = path.join(tmp.dir, 'missing.txt');
    const r = await run(['grep', '^[ag]', missing, fixture('crlf.txt')]);
    expect(r.status).toBe(2);
    expect(esc(r.stdout)).toBe(esc(`${fixture('crlf.txt')}\t1\talpha\r\n${fixture('crlf.txt')}\t3\tgamma\r\n`));
    expect(r.stderr).toBe(`linewise: ${missing}: no such file or directory\n`);
  });
});

describe('grep: bounds', () => {
  it('a pattern that backtracks without end is stopped by --timeout, exit 2, one line', async () => {
    const f = tmp.file('redos.txt', `ok\n${'a'.repeat(40)}!\n`);
    const r = await run(['grep', '--timeout', '1', '(a+)+$', f]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`linewise: ${f}: the search ran longer than 1 s at or after line 1: the pattern backtracks too much; simplify it or raise --timeout\n`);
  });
});

describe('grep: line numbers', () => {
  it("property: grep's rows are the rows readlines prints for the same numbers (random content, random read sizes)", async () => {
    const atom = fc.constantFrom('a', 'b', '\r', '\n', '\r\n', 'é', 'xa\n', '\t');
    await fc.assert(
      fc.asyncProperty(fc.array(atom, { maxLength: 40 }), fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 5 }), async (parts, sizes) => {
        const body = parts.join('');
        const f = tmp.file('prop.txt', body);
        const g = await run(['grep', 'a', '-'], { stdin: body, stdinChunks: sizes });
        const rows = parseRows(g.stdout, 'grep');
        let expected = Buffer.alloc(0);
        for (const row of rows) {
          const r = await run(['readlines', f, String(row.line), String(row.line)]);
          expected = Buffer.concat([expected, r.stdout, r.stdout.at(-1) === 10 ? Buffer.alloc(0) : Buffer.alloc(0)]);
        }
        expect(esc(g.stdout)).toBe(esc(expected));
        expect(rows.length).toBe(referenceLines(Buffer.from(body)).filter((l) => l.toString().replace(/\r?\n$/, '').includes('a')).length);
      }),
      { numRuns: 60 },
    );
  });
});
