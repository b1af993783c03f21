// End-to-end: the readers as grep and rg users type them, and the budgets an agent relies on,
// run with the built CLI (or the binary named by LINEWISE_BIN) from a shell, stdin included.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { esc, tempDir, writeTree } from '../helpers.js';

const BIN = process.env.LINEWISE_BIN ?? fileURLToPath(new URL('../../bin/linewise.js', import.meta.url));
const tmp = tempDir();
/** The anchor of a line's text: the first 8 hex digits of its SHA-256. */
const sha8 = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 8);
afterAll(() => tmp.cleanup());

/** Runs a bash script in `cwd` with $LW the CLI; stdout as bytes. */
function sh(script: string, cwd: string) {
  const LW = BIN.endsWith('.js') ? `${process.execPath} ${BIN}` : BIN;
  const r = spawnSync('bash', ['-c', script], { cwd, env: { ...process.env, LW, NO_COLOR: '1' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString() };
}

/** A directory with these files (relative path -> bytes). */
const dir = (name: string, files: Record<string, string | Buffer>): string => writeTree(path.join(tmp.dir, name), files);

describe('grep and standard input, as rg decides', () => {
  const root = dir('stdin', { 'a.txt': 'hello\r\n', 'pats': 'hello\n' });
  const cases: [string, string, string, number][] = [
    ['a pipe is searched', 'echo hello | $LW grep hello', '1\\thello\\n', 0],
    ['an empty pipe is searched: nothing', 'true | $LW grep hello', '', 1],
    ['a file on stdin is searched', '$LW grep hello < a.txt', '1\\thello\\r\\n', 0],
    ['/dev/null: the current directory', '$LW grep hello </dev/null', 'a.txt\\t1\\thello\\r\\npats\\t1\\thello\\n', 0],
    ['a closed stdin: the current directory', '$LW grep hello <&-', 'a.txt\\t1\\thello\\r\\npats\\t1\\thello\\n', 0],
    ['patterns from stdin (-f -): the current directory', '$LW grep -f - -F < pats', 'a.txt\\t1\\thello\\r\\npats\\t1\\thello\\n', 0],
    // grep's rule for -r: a tree, whatever stdin is (a harness's open pipe must not make it wait)
    ['-r with a pipe: the current directory, as grep -r', 'echo hello | $LW grep -r hello', 'a.txt\\t1\\thello\\r\\npats\\t1\\thello\\n', 0],
    ['-R with a pipe never opened: the current directory', '$LW grep -R -c hello < <(exec sleep 5 2>/dev/null)', 'a.txt\\t1\\npats\\t1\\n', 0],
    ['-r with - names stdin itself', 'echo hello | $LW grep -r hello -', '1\\thello\\n', 0],
  ];
  for (const [what, script, out, status] of cases) {
    it(what, () => {
      const r = sh(script, root);
      expect([esc(r.stdout), r.status, r.stderr]).toEqual([out, status, '']);
    });
  }
});

describe('grep: the flags grep and rg users type', () => {
  const root = dir('flags', {
    'a.txt': 'alpha\r\nbeta\r\nalphabet\n',
    'b.log': 'beta 12ms and 7ms\n',
    'build/c.txt': 'alpha\n',
    'test_d.txt': 'alpha\n',
    'words': 'beta\nalpha\n',
    'none.txt': 'zzz\n',
  });
  const run = (script: string) => {
    const r = sh(script, root);
    return `${esc(r.stdout)}|${r.status}|${r.stderr}`;
  };

  it('-q prints nothing and stops at the first match; a match wins over an error', () => {
    expect(run('$LW grep -q beta a.txt')).toBe('|0|');
    expect(run('$LW grep -q nothing a.txt')).toBe('|1|');
    expect(run('$LW grep -q beta missing.txt a.txt')).toBe('|0|linewise: missing.txt: no such file or directory\n');
    expect(run('$LW grep -q -s beta missing.txt a.txt')).toBe('|0|');
  });

  it('-o prints each match as a row N:COLUMN that replace refuses; -x matches whole lines (CRLF too)', () => {
    expect(run("$LW grep -o '[0-9]+ms' b.log")).toBe('1:6\\t12ms\\n1:15\\t7ms\\n|0|');
    expect(run("$LW grep -o -h '[0-9]+ms' . a.txt")).toBe('1:6\\t12ms\\n1:15\\t7ms\\n|0|');
    expect(run("$LW grep -o '[0-9]+ms' b.log | $LW replace --rows -")).toMatch(/^\|2\|linewise: <stdin>: row 1: not a row/);
    expect(run('$LW grep -x beta a.txt')).toBe('2\\tbeta\\r\\n|0|');
    expect(run('$LW grep -x alpha a.txt')).toBe('1\\talpha\\r\\n|0|');
    expect(run('$LW grep -o -v x a.txt')).toBe("|2|linewise: option '-o, --only-matching' cannot be used with option '-v, --invert-match'\n");
  });

  it('-s hides unreadable inputs (the status still says 2); -f reads patterns; -E and -r are accepted', () => {
    expect(run('$LW grep -s alpha missing.txt a.txt')).toBe('a.txt\\t1\\talpha\\r\\na.txt\\t3\\talphabet\\n|2|');
    expect(run('$LW grep -f words -x a.txt')).toBe('1\\talpha\\r\\n2\\tbeta\\r\\n|0|');
    expect(run('$LW grep -f none.txt -f words -c a.txt')).toBe('3\\n|0|');
    expect(run(': > empty; $LW grep -f empty a.txt; $LW grep -v -f empty -c a.txt')).toBe('3\\n|0|');
    expect(run("$LW grep -r -E 'alpha|beta' -c a.txt")).toBe('3\\n|0|');
  });

  it('-h and -H: the last one wins; --include, --exclude and --exclude-dir are -g globs', () => {
    expect(run('$LW grep -H -h beta a.txt b.log')).toBe('2\\tbeta\\r\\n1\\tbeta 12ms and 7ms\\n|0|');
    expect(run('$LW grep -h -H beta a.txt')).toBe('a.txt\\t2\\tbeta\\r\\n|0|');
    expect(run("$LW grep -l alpha --include '*.txt' --exclude 'test_*' --exclude-dir build .")).toBe('./a.txt\\n|0|');
    expect(run("$LW grep -l alpha --exclude-dir build/ .")).toBe('./a.txt\\n./test_d.txt\\n./words\\n|0|');
  });

  it('--files-without-match lists the others (status 0 when it lists one); -c -l counts only files with a match', () => {
    expect(run('$LW grep --files-without-match alpha a.txt b.log none.txt')).toBe('b.log\\nnone.txt\\n|0|');
    expect(run('$LW grep --files-without-match alpha a.txt')).toBe('|1|');
    expect(run('$LW grep -c beta a.txt b.log none.txt')).toBe('a.txt\\t1\\nb.log\\t1\\nnone.txt\\t0\\n|0|');
    expect(run('$LW grep -c -l beta a.txt b.log none.txt')).toBe('a.txt\\t1\\nb.log\\t1\\n|0|');
  });

  it('-R follows symbolic links like -L; --colour is --color', () => {
    fs.mkdirSync(path.join(root, 'linked'), { recursive: true });
    fs.symlinkSync(path.join(root, 'build'), path.join(root, 'linked', 'to-build'));
    expect(run('$LW grep -l alpha linked')).toBe('|1|');
    expect(run('$LW grep -R -l alpha linked')).toBe('linked/to-build/c.txt\\n|0|');
    // in a pipe the rows stay plain, and the footer takes the color asked for
    expect(run('$LW grep --colour always --max-rows 1 a a.txt')).toBe(
      '1\\talpha\\r\\n\\n\\x1b[2m[Read 1 of 3 matching lines (in 1 of 1 file). Run the same command with --after a.txt:1 to go on.]\\x1b[22m\\n|0|',
    );
  });

  it('--replace prints rows with each match replaced ($1, ${name}, $$), ready for replace --rows -', () => {
    const tree = dir('replace', { 'old_name/x.ts': 'call(old_name);\r\nold_name = 1;\n', 'y.ts': 'old_name\n' });
    const r = sh("$LW grep -F old_name . --replace new_name | $LW replace --rows -; cat old_name/x.ts y.ts", tree);
    // the directory old_name/ keeps its name: only the text of the lines changed
    expect([esc(r.stdout), r.status, r.stderr]).toEqual(['call(new_name);\\r\\nnew_name = 1;\\nnew_name\\n', 0, '']);
    const groups = sh("$LW grep '(?<f>\\w+)\\((\\w+)\\)' old_name/x.ts --replace '${f}[$2] $$1'", tree);
    expect(esc(groups.stdout)).toBe('1\\tcall[new_name] $1;\\r\\n');
    // a sed that edits only the text after the second tab leaves the path alone too
    const sed = sh("$LW grep -F new_name . | sed -E ':a; s/^([^\\t]*\\t[0-9]+\\t.*)new_name/\\1NEW/; ta' | $LW replace --rows -; cat old_name/x.ts", tree);
    expect([esc(sed.stdout), sed.status]).toEqual(['call(NEW);\\r\\nNEW = 1;\\n', 0]);
    // --anchor: the anchor is of the line in the file (what the guard checks), not of the row shown
    const anchored = sh("$LW grep --anchor -F NEW y.ts --replace N > rows; cat rows; $LW replace y.ts --rows rows; cat y.ts", tree);
    expect([esc(anchored.stdout), anchored.status, anchored.stderr]).toEqual([`1#${sha8('NEW')}\\tN\\nN\\n`, 0, '']);
    const stale = sh("$LW grep --anchor -F N y.ts --replace M > rows; echo changed > y.ts; $LW replace y.ts --rows rows; cat y.ts", tree);
    expect([esc(stale.stdout), stale.status]).toEqual([`1#${sha8('changed')}\\tchanged\\nchanged\\n`, 0]);
    expect(stale.stderr).toContain('stale edit: line 1 no longer holds the text read');
    const newline = sh("$LW grep x y.ts --replace $'a\\nb'", tree);
    expect([newline.status, newline.stderr]).toEqual([2, 'linewise: --replace TEXT must not hold a line break: a row holds one line; to add lines, use replace FILE START END\n']);
  });
});

describe('budgets on the built CLI', () => {
  const root = dir('budgets', {
    'long.txt': `short\n${'x'.repeat(200)}\nend\n`,
    'many.txt': Array.from({ length: 30 }, (_, i) => `line ${i + 1}\n`).join(''),
  });

  it('grep --max-bytes: a first row too long is cut, then the footer says how to read it and go on', () => {
    const r = sh('$LW grep -H x long.txt --max-bytes 40', root);
    expect(esc(r.stdout)).toBe(
      // 40 bytes: "long.txt<TAB>2[cut]<TAB>", 23 bytes of the line, "\\n"
      `long.txt\\t2[cut]\\t${'x'.repeat(23)}\\n\\n[Read 1 of 1 matching line (in 1 of 1 file). Run the same command with --after long.txt:2@23 to go on. Line 2 of long.txt was cut at 23 of 201 bytes; read it whole with: linewise readlines long.txt 2 2]\\n`,
    );
    const back = sh('$LW grep x long.txt --max-bytes 40 | $LW replace long.txt --rows -', root);
    expect(back.status).toBe(2);
    expect(back.stderr).toContain('was cut by page --max-bytes and cannot be written back');
  });

  it('grep --max-rows: the rows, a footer, and the --after cursor picks up after the last row', () => {
    const first = sh("$LW grep 'line [0-9]*0$' many.txt --max-rows 2", root);
    expect(esc(first.stdout)).toBe('10\\tline 10\\n20\\tline 20\\n\\n[Read 2 of 3 matching lines (in 1 of 1 file). Run the same command with --after many.txt:20 to go on.]\\n');
    const next = sh("$LW grep 'line [0-9]*0$' many.txt --max-rows 2 --after many.txt:20", root);
    expect([esc(next.stdout), next.status]).toEqual(['30\\tline 30\\n', 0]);
    // under -0 stdout stays a NUL-separated list: the footer goes to stderr
    const nul = sh("$LW grep -l -0 e . --max-rows 1", root);
    expect([esc(nul.stdout), nul.stderr]).toEqual(['./long.txt\\x00', 'linewise: [Read 1 of 2 files. Run the same command with --after ./long.txt:end to go on.]\n']);
    const json = sh("$LW grep 'line [0-9]*0$' many.txt --max-rows 2 --json | tail -n 1", root);
    expect(JSON.parse(json.stdout.toString()).data.cut_off).toEqual({ rows: 2, shown: 2, total: 3, files: 1, total_files: 1, after: 'many.txt:20' });
    // past the count's bound the totals are null, as page's total is
    const bounded = sh("$LW grep 'line' many.txt --max-rows 2 --count-bytes 1 --json | tail -n 1", root);
    expect(JSON.parse(bounded.stdout.toString()).data.cut_off).toEqual({ rows: 2, shown: 2, total: null, files: 1, total_files: null, after: 'many.txt:2' });
  });

  it('readlines --max-bytes stops before a line that would overflow, and names the command to go on', () => {
    const r = sh('$LW readlines many.txt 5 12 --max-bytes 30', root);
    expect(esc(r.stdout)).toBe('5\\tline 5\\n6\\tline 6\\n7\\tline 7\\n\\n[Read 3 lines (lines 5-7); 5 more lines did not fit --max-bytes 30. Go on with: linewise readlines many.txt 8 12 --max-bytes 30]\\n');
    const rows = sh('$LW readlines many.txt 5 12 --max-bytes 30 | $LW replace many.txt --rows - && $LW readlines many.txt 7 7', root);
    expect(esc(rows.stdout)).toBe('7\\tline 7\\n'); // the footer is skipped, the rows are the identity
    const cut = sh('$LW readlines long.txt 2 --max-bytes 20', root);
    expect(esc(cut.stdout)).toBe(`2[cut]\\t${'x'.repeat(18)}\\n\\n[Read 1 line (lines 2-2). Line 2 was cut at 18 of 201 bytes; go on inside it with: linewise readlines long.txt 2 --max-bytes 20 --from-byte 18; or read it whole with: linewise readlines long.txt 2 2]\\n`);
  });

  it('page --last N ends at the last line: the rows that fit, and what the cap dropped at the top', () => {
    const r = sh('$LW page many.txt --last 5 --max-bytes 45', root); // four rows of 11 bytes fit, not five
    expect(esc(r.stdout)).toBe('27\\tline 27\\n28\\tline 28\\n29\\tline 29\\n30\\tline 30\\n\\n[Read 4 lines (lines 27-30 of 30 total). The 1 line before them (line 26) did not fit --max-bytes; read it with: linewise readlines many.txt 26 26]\\n');
    expect(esc(sh('$LW page many.txt --last 2', root).stdout)).toBe('29\\tline 29\\n30\\tline 30\\n');
    const both = sh('$LW page many.txt --last 2 --limit 5', root);
    expect([both.status, both.stderr]).toEqual([2, "linewise: option '--last <n>' cannot be used with option '--limit <n>'\n"]);
  });
});

describe('messages that teach', () => {
  const root = dir('messages', { 'f.txt': 'a\nb\nc\nd\n' });
  const cases: [string, string][] = [
    ['$LW grep --max-rowz 3 a f.txt', "linewise: unknown option '--max-rowz' (did you mean --max-rows?)\n"],
    // a grep or rg option linewise does not take: the reason and what to type, in the same line
    ['$LW grep -rnz x f.txt', "linewise: unknown option '-z': lines end in \\n here, never in NUL; for NUL-ended file names use -l -0\n"],
    ['$LW grep --type=py x', "linewise: unknown option '--type=py': there are no file types: select files by glob, -g '*.py' (or --include '*.py')\n"],
    ['$LW grep -N x f.txt', "linewise: unknown option '-N': rows always carry line numbers, so that replace --rows can read them back\n"],
    ['$LW grep -U x f.txt', "linewise: unknown option '-U': a pattern sees one line at a time; to change a text that spans lines, use replace FILE --old\n"],
    ['$LW readlines f.txt 2-4', 'linewise: START must be a line number, not the range "2-4": write START and END apart, as in linewise readlines f.txt 2 4\n'],
    ['$LW readlines f.txt 2:4', 'linewise: START must be a line number, not the range "2:4": write START and END apart, as in linewise readlines f.txt 2 4\n'],
    ['$LW page f.txt 2', 'linewise: page takes no line number: to start at line 2, linewise page f.txt --offset 1 (the lines to skip), or linewise readlines f.txt 2\n'],
    ['$LW page f.txt --offset 9', 'linewise: f.txt: offset 9 is at or past the end: the file has 4 lines (an offset is the number of lines skipped: --offset 3 shows the last line)\n'],
  ];
  for (const [script, message] of cases) {
    it(script.replace('$LW ', ''), () => {
      const r = sh(script, root);
      expect([r.status, r.stdout.length, r.stderr]).toEqual([2, 0, message]);
    });
  }
});
