// replace by content (--old/--new), several edits in one call (--edits), new files (--create),
// receipts and --relocate, through the CLI: every file compared as bytes.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Exit } from '../../src/core/errors.js';
import { caseFiles, esc, fixture, run, tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const file = caseFiles(tmp.dir);
const read = (f: string) => esc(fs.readFileSync(f));

describe('replace FILE --old TEXT --new TEXT', () => {
  // Each fixture, the old text written with "\n" and spanning two lines: what the file becomes.
  const cases: [string, string, string, string, string[]][] = [
    ['LF', 'a\nb\nc\n', 'a\nb', 'A\nB', [], ],
    ['CRLF', 'crlf.txt', 'alpha\nbeta', 'ALPHA\nBETA', []],
    ['mixed endings', 'mixed.txt', 'two\nthree', 'TWO\nTHREE', []],
    ['no final newline', 'no-final-newline.txt', 'first\nsecond', 'FIRST\nSECOND', []],
    ['a UTF-8 byte order mark', 'bom-utf8.txt', 'hello\nworld', 'HELLO\nWORLD', []],
    ['latin1 (--encoding)', 'latin1.txt', 'café\nnaïve', 'CAFÉ\nNAÏVE', ['--encoding', 'latin1']],
  ];
  const expected: Record<string, string> = {
    LF: 'A\\nB\\nc\\n',
    CRLF: 'ALPHA\\r\\nBETA\\r\\ngamma\\r\\n',
    'mixed endings': 'one\\r\\nTWO\\nTHREE\\r\\nfour',
    'no final newline': 'FIRST\\nSECOND',
    'a UTF-8 byte order mark': '\\xef\\xbb\\xbfHELLO\\r\\nWORLD\\r\\n',
    'latin1 (--encoding)': 'CAF\\xc9\\nNA\\xcfVE\\n',
  };
  for (const [name, source, old, replacement, extra] of cases) {
    it(`on a file with ${name}: spans two lines, keeps every ending and byte`, async () => {
      const bytes = source.includes('.') ? fs.readFileSync(fixture(source)) : Buffer.from(source);
      const { f } = file(bytes);
      const r = await run(['replace', f, '--old', old, '--new', replacement, ...extra]);
      expect([r.status, r.stderr, r.stdout.length]).toEqual([0, '', 0]);
      expect(read(f)).toBe(expected[name]);
    });
  }

  it('matches mid-line, across lines, and a last line without a terminator with a final "\\n"', async () => {
    const { f } = file('let x = 1;\r\nlet y = 2;\r\nend');
    expect((await run(['replace', f, '--old', '1;\nlet y', '--new', '10;\nlet why'])).status).toBe(0);
    expect(read(f)).toBe('let x = 10;\\r\\nlet why = 2;\\r\\nend');
    expect((await run(['replace', f, '--old', 'end\n', '--new', 'END\n'])).status).toBe(0);
    expect(read(f)).toBe('let x = 10;\\r\\nlet why = 2;\\r\\nEND');
  });

  it('an old text written with CRLF finds LF lines; new lines take the file\'s endings', async () => {
    const { f } = file('a\nb\nc\n');
    await run(['replace', f, '--old', 'a\r\nb', '--new', 'x\r\ny\r\nz']);
    expect(read(f)).toBe('x\\ny\\nz\\nc\\n');
    const crlf = file('a\r\nb\r\n');
    await run(['replace', crlf.f, '--old', 'b', '--new', 'b\nnew line']);
    expect(read(crlf.f)).toBe('a\\r\\nb\\r\\nnew line\\r\\n');
  });

  it('empty --new deletes: whole lines, or part of one; a removed line break joins lines', async () => {
    const { f } = file('keep\r\ndrop me\r\nkeep too\r\n');
    await run(['replace', f, '--old', 'drop me\n', '--new', '']);
    expect(read(f)).toBe('keep\\r\\nkeep too\\r\\n');
    await run(['replace', f, '--old', ' too', '--new', '']);
    expect(read(f)).toBe('keep\\r\\nkeep\\r\\n');
    await run(['replace', f, '--old', 'keep\nk', '--new', 'joined k']);
    expect(read(f)).toBe('joined keep\\r\\n');
  });

  it('two occurrences: exit 2, nothing written, one line naming the line of each', async () => {
    const { f } = file('x = 1\ny = 2\nx = 1\n');
    const r = await run(['replace', f, '--old', 'x = 1', '--new', 'x = 9']);
    expect(r.status).toBe(Exit.usage);
    expect(r.stdout.length).toBe(0);
    expect(r.stderr).toMatch(/occurs 2 times, starting on lines 1, 3; nothing was written/);
    expect(r.stderr.split('\n').length).toBe(2);
    expect(read(f)).toBe('x = 1\\ny = 2\\nx = 1\\n');
    // overlapping places are two occurrences too: "aa" in "aaa" is ambiguous
    const aaa = file('aaa\n');
    expect((await run(['replace', aaa.f, '--old', 'aa', '--new', 'b'])).stderr).toMatch(/occurs 2 times, starting on lines 1, 1/);
  });

  it('--all replaces every occurrence, left to right, never overlapping', async () => {
    const { f } = file('x = 1\r\ny = 2\r\nx = 1; x = 1\r\n');
    const r = await run(['replace', f, '--old', 'x = 1', '--new', 'x = 9', '--all', '--json']);
    expect(r.status).toBe(0);
    expect(read(f)).toBe('x = 9\\r\\ny = 2\\r\\nx = 9; x = 9\\r\\n');
    expect(JSON.parse(r.stdout.toString().split('\n')[0]!).edits).toHaveLength(2);
    const aaa = file('aaaa\n');
    await run(['replace', aaa.f, '--old', 'aa', '--new', 'b', '--all']);
    expect(read(aaa.f)).toBe('bb\\n');
  });

  it('not found: exit 3, nothing written, a near match differing in whitespace shown as rows', async () => {
    const { f } = file('if (x) {\r\n    call(a,  b);\r\n}\r\n');
    const r = await run(['replace', f, '--old', 'if (x) {\n  call(a, b);', '--new', 'if (y) {']);
    expect(r.status).toBe(Exit.stale);
    expect(esc(r.stdout)).toBe('1\\tif (x) {\\r\\n2\\t    call(a,  b);\\r\\n');
    expect(r.stderr).toBe('linewise: ' + f + ': the old text is not in the file, but lines 1-2 differ from it only in whitespace (2 lines on stdout); nothing was written\n');
    expect(read(f)).toBe('if (x) {\\r\\n    call(a,  b);\\r\\n}\\r\\n');
    const c = await run(['replace', f, '--old', 'CALL(a,  b)', '--new', 'x']);
    expect([c.status, esc(c.stdout)]).toEqual([3, '2\\t    call(a,  b);\\r\\n']);
    expect(c.stderr).toMatch(/differs from it only in case/);
    // (a new text that is not in the file either: one that is, once, would read as applied)
    const none = await run(['replace', f, '--old', 'nowhere', '--new', 'elsewhere']);
    expect([none.status, none.stdout.length]).toEqual([3, 0]);
    expect(none.stderr).toMatch(/the old text is not in the file; nothing was written/);
  });

  it('--old-from and --new-from read files, "-" reads stdin for one of them; --dry-run writes nothing', async () => {
    const { f, dir } = file('alpha\r\nbeta\r\n');
    fs.writeFileSync(path.join(dir, 'old'), 'beta\n');
    const r = await run(['replace', f, '--old-from', path.join(dir, 'old'), '--new-from', '-', '--dry-run'], { stdin: 'BETA\n' });
    expect(r.status).toBe(0);
    expect(esc(r.stdout)).toContain('-beta\\r\\n+BETA\\r\\n');
    expect(read(f)).toBe('alpha\\r\\nbeta\\r\\n');
    const both = await run(['replace', f, '--old-from', '-', '--new-from', '-'], { stdin: 'x' });
    expect(both.status).toBe(Exit.usage);
  });

  it('--expect guards a content edit too: a changed line is a stale edit', async () => {
    const { f, dir } = file('a\nb\nc\n');
    fs.writeFileSync(path.join(dir, 'before'), '2\tB\n');
    const r = await run(['replace', f, '--old', 'b', '--new', 'x', '--expect', path.join(dir, 'before')]);
    expect([r.status, esc(r.stdout)]).toEqual([3, '2\\tb\\n']);
    expect(read(f)).toBe('a\\nb\\nc\\n');
  });

  it('refuses what has no meaning: an empty old text, --new without --old, --all without --old', async () => {
    const { f } = file('a\n');
    for (const args of [['--old', '', '--new', 'x'], ['--new', 'x'], ['1', '--all', '--text', 'x'], ['--old', 'a'], ['1', '--old', 'a', '--new', 'b']]) {
      const r = await run(['replace', f, ...args]);
      expect(r.status, args.join(' ')).toBe(Exit.usage);
    }
    expect(read(f)).toBe('a\\n');
  });
});

describe('replace FILE --edits EDITS', () => {
  it('mixes a range, a content edit and an insert, all in the original numbering, in one write', async () => {
    const { f } = file('one\r\ntwo\r\nthree\r\nfour\r\nfive\r\n');
    const edits = ['{"start":1,"text":"ONE"}', '{"old":"three\\nfour","new":"3+4"}', '{"start":5,"end":4,"text":"inserted"}', '{"start":6,"end":5,"text":"appended"}'].join('\n');
    const r = await run(['replace', f, '--edits', '-'], { stdin: edits });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(read(f)).toBe('ONE\\r\\ntwo\\r\\n3+4\\r\\ninserted\\r\\nfive\\r\\nappended\\r\\n');
  });

  it('overlapping edits are refused, all or nothing: exit 2, the file as it was', async () => {
    const { f, dir } = file('one\ntwo\nthree\n');
    const e = path.join(dir, 'edits.jsonl');
    fs.writeFileSync(e, '{"start":1,"text":"ONE"}\n{"start":2,"end":3,"text":"x"}\n{"old":"one\\ntwo","new":"y"}\n');
    const r = await run(['replace', f, '--edits', e]);
    expect(r.status).toBe(Exit.usage);
    expect(r.stderr).toMatch(/edit 1 \(line 1\) and edit 3 \(lines 1-2\)/);
    expect(read(f)).toBe('one\\ntwo\\nthree\\n');
    // two content edits in one line are fine when their texts do not overlap
    fs.writeFileSync(e, '{"old":"one","new":"1"}\n{"old":"ne\\ntw","new":"x"}\n');
    expect((await run(['replace', f, '--edits', e])).stderr).toMatch(/edit 1 and edit 2 overlap on line 1/);
    fs.writeFileSync(e, '{"old":"thr","new":"THR"}\n{"old":"ee","new":"EE"}\n');
    expect((await run(['replace', f, '--edits', e])).status).toBe(0);
    expect(read(f)).toBe('one\\ntwo\\nTHREE\\n');
  });

  it('a bad line is refused with its number, nothing written', async () => {
    const { f } = file('a\n');
    for (const [input, what] of [
      ['{"start":1,"text":"x"}\nnot json', 'line 2: not JSON'],
      ['{"start":0,"text":"x"}', '"start" must be a line number'],
      ['{"old":"a","new_text":"b"}', 'unknown field new_text'],
      ['', 'no edits'],
    ] as const) {
      const r = await run(['replace', f, '--edits', '-'], { stdin: input });
      expect(r.status, input).toBe(Exit.usage);
      expect(r.stderr).toContain(what);
    }
    expect(read(f)).toBe('a\\n');
  });
});

describe('replace FILE --create', () => {
  it('writes a new file from --text, --from or stdin, endings as given or --eol crlf; mode from the umask', async () => {
    const { dir } = file('');
    const a = path.join(dir, 'a.txt');
    expect((await run(['replace', a, '--create', '--text', 'one\ntwo'])).status).toBe(0);
    expect(read(a)).toBe('one\\ntwo');
    const b = path.join(dir, 'b.txt');
    expect((await run(['replace', b, '--create', '--eol', 'crlf'], { stdin: 'one\ntwo\n' })).status).toBe(0);
    expect(read(b)).toBe('one\\r\\ntwo\\r\\n');
    const umask = process.umask();
    expect(fs.statSync(b).mode & 0o777).toBe(0o666 & ~umask);
    expect(fs.readdirSync(dir).sort()).toEqual(['a.txt', 'b.txt', 'f.txt']);
  });

  it('refuses an existing file (exit 3) unless --force, and a missing directory (exit 2)', async () => {
    const { f, dir } = file('old\n');
    fs.chmodSync(f, 0o640);
    const r = await run(['replace', f, '--create', '--text', 'new\n']);
    expect(r.status).toBe(Exit.stale);
    expect(r.stderr).toMatch(/already exists; nothing was written/);
    expect(read(f)).toBe('old\\n');
    expect((await run(['replace', f, '--create', '--force', '--text', 'new\n'])).status).toBe(0);
    expect(read(f)).toBe('new\\n');
    expect(fs.statSync(f).mode & 0o777).toBe(0o640);
    const missing = await run(['replace', path.join(dir, 'no', 'x.txt'), '--create', '--text', 'x']);
    expect(missing.status).toBe(Exit.usage);
    expect(missing.stderr).toMatch(/no such directory/);
    expect(fs.readdirSync(dir).sort()).toEqual(['f.txt']);
  });

  it('--dry-run prints the new file as a diff and writes nothing; --json says created', async () => {
    const { dir } = file('');
    const a = path.join(dir, 'a.txt');
    const r = await run(['replace', a, '--create', '--text', 'x\ny\n', '--dry-run']);
    expect(esc(r.stdout)).toBe(`--- ${esc(a)}\\n+++ ${esc(a)}\\n@@ -0,0 +1,2 @@\\n+x\\n+y\\n`);
    expect(fs.existsSync(a)).toBe(false);
    const j = await run(['replace', a, '--create', '--text', 'x\n', '--json']);
    expect(JSON.parse(j.stdout.toString().split('\n')[0]!)).toMatchObject({ type: 'file', created: true, written: true, lines_after: 1 });
  });
});

describe('--receipt', () => {
  it('shows each edited region as it now is, two lines of context, and how numbering moved', async () => {
    const { f } = file('1\r\n2\r\n3\r\n4\r\n5\r\n6\r\n7\r\n8\r\n9\r\n10\r\n');
    const r = await run(['replace', f, '--old', '3\n4', '--new', 'three\nfour\nfour and a half', '--receipt']);
    expect(r.status).toBe(0);
    expect(esc(r.stdout)).toBe(
      `1\\t1\\r\\n2\\t2\\r\\n3\\tthree\\r\\n4\\tfour\\r\\n5\\tfour and a half\\r\\n6\\t5\\r\\n7\\t6\\r\\n\\n[Edited ${esc(f)}: lines 3-4 -> 3-5; lines after 4 shifted by +1.]\\n`,
    );
  });

  it('regions apart are printed apart; fed back unedited with --rows, they change nothing', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}${i % 3 === 0 ? '\r\n' : '\n'}`).join('') + 'last';
    const { f, dir } = file(lines);
    const edits = '{"start":2,"end":1,"text":"new"}\n{"old":"line 15\\n","new":""}\n{"start":31,"text":"LAST"}\n';
    const r = await run(['replace', f, '--edits', '-', '--receipt'], { stdin: edits });
    expect(r.status).toBe(0);
    const out = r.stdout.toString('latin1');
    expect(out.split('\n--\n')).toHaveLength(3);
    expect(out).toMatch(/\[Edited .*: insert before 2 -> 2, line 15 -> deleted, line 31 -> 31; lines after 1 shifted by \+1, after 15 by 0\.\]\n$/);
    const after = fs.readFileSync(f);
    const receipt = path.join(dir, 'receipt');
    fs.writeFileSync(receipt, r.stdout);
    const back = await run(['replace', f, '--rows', receipt]);
    expect([back.status, back.stderr]).toEqual([0, '']);
    expect(esc(fs.readFileSync(f))).toBe(esc(after));
    expect(esc(after)).toContain('line 1\\r\\nnew\\r\\nline 2\\n');
    expect(esc(after)).toMatch(/line 30\\nLAST$/);
  });

  it('--json carries the receipt in the file record', async () => {
    const { f } = file('a\nb\nc\n');
    const r = await run(['replace', f, '2', '--text', 'B\nB2', '--receipt', '--json']);
    const record = JSON.parse(r.stdout.toString().split('\n')[0]!);
    expect(record.receipt.rows).toEqual([[1, 2, 3, 4].map((n, i) => ({ line_number: n, text: ['a', 'B', 'B2', 'c'][i], terminator: '\n' }))]);
    expect(record.receipt.footer).toBe(`[Edited ${f}: line 2 -> 2-3; lines after 2 shifted by +1.]`);
    expect(record.receipt.shifts).toEqual([{ after: 2, by: 1 }]);
  });

  it('is refused with --dry-run, which writes nothing', async () => {
    const { f } = file('a\n');
    expect((await run(['replace', f, '1', '--text', 'b', '--receipt', '--dry-run'])).status).toBe(Exit.usage);
  });
});

describe('--expect OLDROWS --relocate', () => {
  const ten = Array.from({ length: 10 }, (_, i) => `line ${i + 1}\n`).join('');

  it('after an insert above the block, applies the edit where the lines went and says so', async () => {
    const { f, dir } = file(ten);
    const before = path.join(dir, 'before');
    fs.writeFileSync(before, (await run(['readlines', f, '4', '6'])).stdout);
    await run(['replace', f, '1', '0', '--text', 'new a\nnew b']);
    const stale = await run(['replace', f, '4', '6', '--text', 'FOUR TO SIX', '--expect', before]);
    expect(stale.status).toBe(Exit.stale);
    const r = await run(['replace', f, '4', '6', '--text', 'FOUR TO SIX', '--expect', before, '--relocate', '--receipt']);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(`linewise: ${f}: relocated lines 4-6 to 6-8\n`);
    expect(r.stdout.toString()).toContain(`[Edited ${f}: relocated lines 4-6 to 6-8; lines 6-8 -> 6; lines after 8 shifted by -2.]`);
    expect(read(f)).toBe('new a\\nnew b\\nline 1\\nline 2\\nline 3\\nFOUR TO SIX\\nline 7\\nline 8\\nline 9\\nline 10\\n');
  });

  it('refuses (exit 3, nothing written) when the block occurs twice, or changed', async () => {
    const { f, dir } = file(ten + ten);
    const before = path.join(dir, 'before');
    fs.writeFileSync(before, (await run(['readlines', f, '4', '5'])).stdout);
    await run(['replace', f, '1', '0', '--text', 'new']);
    const twice = await run(['replace', f, '4', '5', '--text', 'X', '--expect', before, '--relocate']);
    expect(twice.status).toBe(Exit.stale);
    expect(twice.stderr).toMatch(/--relocate: the lines read occur 2 times, at lines 5-6, 15-16\)/);
    const changed = file(ten);
    fs.writeFileSync(before, '4\tline 4\n5\tline five\n');
    const r = await run(['replace', changed.f, '4', '5', '--text', 'X', '--expect', before, '--relocate']);
    expect(r.status).toBe(Exit.stale);
    expect(r.stderr).toMatch(/--relocate: the lines read are nowhere in the file unchanged/);
    expect(read(changed.f)).toBe(esc(ten));
  });

  it('needs --expect', async () => {
    const { f } = file('a\n');
    expect((await run(['replace', f, '1', '--text', 'b', '--relocate'])).status).toBe(Exit.usage);
  });
});
