// End-to-end: edits the way agents make them (by content, several at once, new files, receipts,
// --relocate), run with the built CLI (or the binary named by LINEWISE_BIN) through real pipes;
// every file compared as bytes, every directory listed for leftovers.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { esc, fixture, tempDir } from '../helpers.js';

const BIN = process.env.LINEWISE_BIN ?? fileURLToPath(new URL('../../bin/linewise.js', import.meta.url));
const tmp = tempDir();
afterAll(() => tmp.cleanup());

/** Runs a bash script in a fresh directory holding F (these bytes), with $LW the CLI. */
function inDir(bytes: Buffer | string, script: string, umask = '022') {
  const dir = fs.mkdtempSync(path.join(tmp.dir, 'e-'));
  fs.writeFileSync(path.join(dir, 'F'), bytes);
  const LW = BIN.endsWith('.js') ? `${process.execPath} ${BIN}` : BIN;
  const r = spawnSync('bash', ['-c', `umask ${umask}; ${script}`], { cwd: dir, env: { ...process.env, LW, NO_COLOR: '1' } });
  const files = fs.readdirSync(dir).sort();
  return { status: r.status, raw: r.stdout.toString('utf8'), stdout: esc(r.stdout), stderr: r.stderr.toString(), dir, files, F: fs.existsSync(path.join(dir, 'F')) ? esc(fs.readFileSync(path.join(dir, 'F'))) : '' };
}

const sha8 = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 8);

describe('replace --old/--new, built', () => {
  // the old text written with "\n", spanning two lines, given on stdin (--old-from -)
  const cases: [string, string, string, string[]][] = [
    ['crlf.txt', 'alpha\nbeta', 'ALPHA\\r\\nBETA\\r\\ngamma\\r\\n', []],
    ['mixed.txt', 'two\nthree', 'one\\r\\nTWO\\nTHREE\\r\\nfour', []],
    ['no-final-newline.txt', 'first\nsecond', 'FIRST\\nSECOND', []],
    ['bom-utf8.txt', 'hello\nworld', '\\xef\\xbb\\xbfHELLO\\r\\nWORLD\\r\\n', []],
    ['latin1.txt', 'café\nnaïve', 'CAF\\xc9\\nNA\\xcfVE\\n', ['--encoding', 'latin1']],
  ];
  for (const [name, old, after, extra] of cases) {
    it(`${name}: the old text from stdin, upper-cased in place, every other byte kept`, () => {
      const upper = old.toUpperCase().replace(/'/g, '');
      const r = inDir(fs.readFileSync(fixture(name)), `printf '%s' '${old}' | $LW replace F --old-from - --new '${upper}' ${extra.join(' ')}`);
      expect([r.status, r.stderr, r.stdout, r.F, r.files]).toEqual([0, '', '', after, ['F']]);
    });
  }

  it('mid-line, and occurrences: twice is exit 2 naming both lines, --all edits both, none is exit 3', () => {
    const twice = inDir('x = 1;\r\ny = 2;\r\nx = 1;\r\n', `$LW replace F --old '1;\ny' --new '10;\nwhy' && $LW replace F --old 'x = 1' --new 'x = 9'`);
    expect([twice.status, twice.F]).toEqual([2, 'x = 10;\\r\\nwhy = 2;\\r\\nx = 1;\\r\\n']);
    expect(twice.stderr).toBe('linewise: F: the old text occurs 2 times, starting on lines 1, 3; nothing was written: give more of the text around it so it occurs once, or replace every occurrence (--all)\n');
    // new line breaks take the file's endings, or --eol's; the file's own ending after the old text stays
    const eol = inDir('a\r\nb\r\n', `$LW replace F --old b --new $'B\nC' && cp F auto && $LW replace F --old C --new $'C\nD' --eol lf && cat auto`);
    expect([eol.status, eol.F, eol.stdout]).toEqual([0, 'a\\r\\nB\\r\\nC\\nD\\r\\n', 'a\\r\\nB\\r\\nC\\r\\n']);
    const all = inDir('x = 1\r\nx = 1\r\n', `$LW replace F --old 'x = 1' --new 'x = 9' --all`);
    expect([all.status, all.F]).toEqual([0, 'x = 9\\r\\nx = 9\\r\\n']);
    const near = inDir('if (a) {\r\n    go(a,  b);\r\n}\r\n', `$LW replace F --old 'go(a, b);' --new 'stop();'`);
    expect([near.status, near.stdout, near.F]).toEqual([3, '2\\t    go(a,  b);\\r\\n', 'if (a) {\\r\\n    go(a,  b);\\r\\n}\\r\\n']);
    expect(near.stderr).toBe('linewise: F: the old text is not in the file, but line 2 differs from it only in whitespace (1 line on stdout); nothing was written\n');
  });

  it('a latin1 file edited without --encoding: not found (exit 3), and the message names the encoding to give', () => {
    const r = inDir(fs.readFileSync(fixture('latin1.txt')), `$LW replace F --old café --new cafe`);
    expect([r.status, r.F]).toEqual([3, 'caf\\xe9\\nna\\xefve\\n']);
    expect(r.stderr).toBe('linewise: F: the old text is not in the file; nothing was written: line 1 is not UTF-8, so the file is in another encoding: give it (for example --encoding latin1; linewise encodings lists the names)\n');
  });

  it('text copied from a latin1 line as shown (U+FFFD for its byte): the message says it is the encoding, not whitespace; with --encoding the edit applies', () => {
    const latin1 = fs.readFileSync(fixture('latin1.txt'));
    const r = inDir(latin1, `$LW replace F --old $'caf\uFFFD' --new cafe`);
    expect([r.status, r.stdout, r.F]).toEqual([3, '1\\tcaf\\xe9\\n', 'caf\\xe9\\nna\\xefve\\n']);
    expect(r.stderr).toBe(
      'linewise: F: the old text is not in the file, but line 1 differs from it only in bytes that are not UTF-8 (they read as U+FFFD, so text copied from them cannot match): the file is in another encoding; give it (for example --encoding latin1; linewise encodings lists the names) (1 line on stdout); nothing was written\n',
    );
    // the text differs in whitespace too: still the encoding to fix first
    const ws = inDir(latin1, `$LW replace F --old $'na\uFFFDve  ' --new x --json`);
    expect([ws.status, ws.F]).toEqual([3, 'caf\\xe9\\nna\\xefve\\n']);
    // the near line's record, then the failure as a record (issue 24.5)
    expect(ws.raw.split('\n').filter(Boolean).map((l) => [JSON.parse(l).type, JSON.parse(l).difference ?? JSON.parse(l).code])).toEqual([['near', 'whitespace'], ['error', 'not-found']]);
    expect(ws.stderr).toMatch(/line 2 differs from it only in whitespace and in bytes that are not UTF-8 \(they read as U\+FFFD\): the file is in another encoding; give it \(for example --encoding latin1;/);
    const fixed = inDir(latin1, `$LW replace F --old café --new cafe --encoding latin1`);
    expect([fixed.status, fixed.F]).toEqual([0, 'cafe\\nna\\xefve\\n']);
  });

  it('--dry-run --json is JSON Lines only, the diff a field; --expect guards it', () => {
    const r = inDir('a\r\nb\r\n', `$LW replace F --old b --new B --dry-run --json`);
    const records = r.raw.split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(records.map((x) => x.type)).toEqual(['file', 'summary']);
    expect(records[0].diff).toBe('--- F\n+++ F\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+B\r\n');
    expect(r.F).toBe('a\\r\\nb\\r\\n');
    const stale = inDir('a\nb\n', `printf '2\\tbee\\n' > before; $LW replace F --old b --new B --expect before`);
    expect([stale.status, stale.stdout, stale.F]).toEqual([3, '2\\tb\\n', 'a\\nb\\n']);
  });
});

describe('--edits, --create, --receipt, --relocate, built', () => {
  it('--edits mixes a range, a content edit and an insert, in the original numbering; an overlap writes nothing', () => {
    const edits = `{"start":1,"text":"ONE"}\n{"old":"three\\nfour","new":"3+4"}\n{"start":5,"end":4,"text":"inserted"}\n`;
    const r = inDir('one\r\ntwo\r\nthree\r\nfour\r\nfive\r\n', `printf '%s' '${edits}' | $LW replace F --edits -`);
    expect([r.status, r.stderr, r.F]).toEqual([0, '', 'ONE\\r\\ntwo\\r\\n3+4\\r\\ninserted\\r\\nfive\\r\\n']);
    const overlap = inDir('one\ntwo\n', `printf '%s\\n' '{"start":1,"end":2,"text":"x"}' '{"old":"two","new":"2"}' | $LW replace F --edits -`);
    expect([overlap.status, overlap.F, overlap.files]).toEqual([2, 'one\\ntwo\\n', ['F']]);
  });

  it('--create: mode from the umask, --eol crlf; an existing file is exit 3 unless --force; no parent is exit 2', () => {
    const r = inDir('old\n', `printf 'a\\nb\\n' | $LW replace new.txt --create --eol crlf && stat -c %a new.txt && od -An -c new.txt | tr -s ' '`, '027');
    expect([r.status, r.stdout]).toEqual([0, '640\\n a \\\\r \\\\n b \\\\r \\\\n\\n']);
    const exists = inDir('old\n', `$LW replace F --create --text new; echo "status $?"; $LW replace F --create --force --text new`);
    expect([exists.stdout, exists.stderr, exists.F]).toEqual(['status 3\\n', 'linewise: F: already exists; nothing was written (edit it, or give --force to replace it whole)\n', 'new']);
    const empty = inDir('x', `$LW replace new.txt --create </dev/null`);
    expect([empty.status, empty.stderr, empty.files]).toEqual([2, "linewise: standard input is empty, so there is no new text; nothing was written (give --text TEXT or --from FILE; for an empty file, --text '')\n", ['F']]);
    const parent = inDir('x', `$LW replace no/such.txt --create --text x`);
    expect([parent.status, parent.files]).toEqual([2, ['F']]);
  });

  it('a receipt fed back unedited changes nothing; with --anchor its rows carry the guard', () => {
    const r = inDir('1\r\n2\r\n3\r\n4\r\n5', `$LW replace F --old 4 --new $'four\\nfour.5' --receipt > receipt; cp F was; $LW replace F --rows receipt && cmp F was && cat receipt`);
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe('2\\t2\\r\\n3\\t3\\r\\n4\\tfour\\r\\n5\\tfour.5\\r\\n6\\t5\\n\\\\ No newline at end of file\\n\\n[Edited F: line 4 -> 4-5; lines after 4 shifted by +1.]\\n');
    const anchored = inDir('a\nb\nc\n', `$LW replace F 2 --text B --receipt --anchor > receipt; cat receipt; echo X > F; $LW replace F --rows receipt`);
    expect(anchored.stdout).toBe(`1#${sha8('a')}\\ta\\n2#${sha8('B')}\\tB\\n3#${sha8('c')}\\tc\\n\\n[Edited F: line 2 -> 2; no other line moved.]\\n1#${sha8('X')}\\tX\\n`);
    expect([anchored.status, anchored.F]).toEqual([3, 'X\\n']);
  });

  it('--relocate follows lines an insert above moved; refused when the block occurs twice', () => {
    const ten = Array.from({ length: 10 }, (_, i) => `line ${i + 1}\n`).join('');
    const r = inDir(ten, `$LW readlines F 4 5 > before; $LW replace F 1 0 --text top; $LW replace F 4 5 --text X --expect before --relocate`);
    expect([r.status, r.stderr]).toEqual([0, 'linewise: F: relocated lines 4-5 to 5-6\n']);
    expect(r.F).toBe(esc(`top\n${ten.replace('line 4\nline 5\n', 'X\n')}`));
    const twice = inDir(ten + ten, `$LW readlines F 4 5 > before; $LW replace F 1 0 --text top; $LW replace F 4 5 --text X --expect before --relocate`);
    expect(twice.status).toBe(3);
    expect(twice.stderr).toContain('--relocate: the lines read occur 2 times');
  });
});
