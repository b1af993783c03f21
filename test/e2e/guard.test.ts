// Issue 24.1 end to end: the readers' rows carry a guard trailer by default in a pipe or a file, so
// the README's read -> edit -> write and the CI rows workflow never revert a line someone else
// changed. The reproductions, run as typed, files compared byte for byte. These run with
// the trailer's default (LINEWISE_GUARD unset), not the test run's (vitest.config.ts).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { esc, tempDir } from '../helpers.js';

const BIN = process.env.LINEWISE_BIN ?? fileURLToPath(new URL('../../bin/linewise.js', import.meta.url));
const LW = BIN.endsWith('.js') ? `${process.execPath} ${BIN}` : BIN;
const tmp = tempDir();
afterAll(() => tmp.cleanup());

const { LINEWISE_GUARD: _off, ...ENV } = process.env;

function sh(script: string, cwd: string, env: Record<string, string> = {}) {
  const r = spawnSync('bash', ['-c', `set -o pipefail; ${script}`], { cwd, env: { ...ENV, LW, NO_COLOR: '1', ...env } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString() };
}

let n = 0;
function dirWith(files: Record<string, string>): string {
  const dir = path.join(tmp.dir, `g${n++}`);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const read = (dir: string, name: string) => esc(fs.readFileSync(path.join(dir, name)));

describe('rows that cannot silently revert (issue 24.1)', () => {
  it('readlines > rows; someone changes line 2; line 1 edited in rows; replace --rows rows: line 2 keeps their change', () => {
    const dir = dirWith({ 's1.txt': 'one\ntwo\nthree\n' });
    const r = sh(
      `$LW readlines s1.txt 1 3 > rows
       printf 'one\\nTWO (theirs)\\nthree\\n' > s1.txt
       sed -i 's/^1\\tone$/1\\tONE/' rows
       $LW replace s1.txt --rows rows`,
      dir,
    );
    expect([r.status, r.stderr, esc(r.stdout)]).toEqual([0, '', '']);
    expect(read(dir, 's1.txt')).toBe(esc('ONE\nTWO (theirs)\nthree\n'));
    // the rows file: the seed's rows, then the trailer, one line
    expect(fs.readFileSync(path.join(dir, 'rows'), 'utf8')).toMatch(/^1\tONE\n2\ttwo\n3\tthree\n\\ read \{"path":"s1.txt","lines":"1-3","hash":"[0-9a-f]{24}"\}\n$/);
    // run twice: nothing left to do, nothing written
    const again = sh('$LW replace s1.txt --rows rows', dir);
    expect(again.status).toBe(0);
    expect(read(dir, 's1.txt')).toBe(esc('ONE\nTWO (theirs)\nthree\n'));
  });

  it('an edited row whose line changed since the read is refused (3), nothing written, the current rows printed with a trailer', () => {
    const dir = dirWith({ 's1.txt': 'one\ntwo\nthree\n' });
    const r = sh(
      `$LW readlines s1.txt 1 3 > rows
       printf 'uno\\ntwo\\nthree\\n' > s1.txt
       sed -i 's/^1\\tone$/1\\tONE/' rows
       $LW replace s1.txt --rows rows`,
      dir,
    );
    expect(r.status).toBe(3);
    expect(r.stdout.toString()).toMatch(/^1\tuno\n\\ read \{"path":"s1.txt","lines":"1","hash":"[0-9a-f]{8}"\}\n$/);
    expect(r.stderr).toBe('linewise: s1.txt: stale edit: line 1 no longer holds the text read; nothing was written; the current lines are on stdout: read again and retry\n');
    expect(read(dir, 's1.txt')).toBe(esc('uno\ntwo\nthree\n'));
    // the current rows, edited and fed back, apply: they are guarded by what they show
    const retry = sh(`$LW replace s1.txt --rows rows > cur; sed -i 's/^1\\tuno$/1\\tUNO/' cur; $LW replace s1.txt --rows cur`, dir);
    expect(retry.status).toBe(0);
    expect(read(dir, 's1.txt')).toBe(esc('UNO\ntwo\nthree\n'));
  });

  it('CI: grep --replace saved as patch.rows; a line inserted at the top of one package.json; apply: refused (3), nothing written anywhere', () => {
    const pkg = (name: string) => `{\n  "name": "${name}",\n  "version": "1.2.4"\n}\n`;
    const dir = dirWith({ 'package.json': pkg('root'), 'packages/a/package.json': pkg('a') });
    const r = sh(
      `$LW grep -F '"version": "1.2.4"' package.json packages/a/package.json --replace '"version": "1.2.5"' > patch.rows
       sed -i '1i // generated' packages/a/package.json
       $LW replace --rows patch.rows`,
      dir,
    );
    expect(r.status).toBe(3);
    expect(r.stdout.toString()).toMatch(/^packages\/a\/package.json\t3\t {2}"name": "a",\n\\ read \{"path":"packages\/a\/package.json","lines":"3","hash":"[0-9a-f]{8}"\}\n$/);
    expect(read(dir, 'package.json')).toBe(esc(pkg('root')));
    expect(read(dir, 'packages/a/package.json')).toBe(esc(`// generated\n${pkg('a')}`));
    // --relocate follows the line that moved, unchanged, and edits it there
    const moved = sh('$LW replace --rows patch.rows --relocate', dir);
    expect([moved.status, moved.stderr]).toEqual([0, 'linewise: packages/a/package.json: relocated lines 3-3 to 4-4\n']);
    expect(read(dir, 'package.json')).toBe(esc(pkg('root').replace('1.2.4', '1.2.5')));
    expect(read(dir, 'packages/a/package.json')).toBe(esc(`// generated\n${pkg('a').replace('1.2.4', '1.2.5')}`));
  });

  it('grep -C context rows and untouched rows are never written; plain rows typed by hand still apply', () => {
    const dir = dirWith({ 'f.txt': 'a\nb\nc\nd\n' });
    const r = sh(
      `$LW grep -C 1 c f.txt --replace C > rows
       printf 'a\\nB (theirs)\\nc\\nd\\n' > f.txt
       $LW replace f.txt --rows rows
       printf '4\\tD by hand\\n' | $LW replace f.txt --rows -`,
      dir,
    );
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(read(dir, 'f.txt')).toBe(esc('a\nB (theirs)\nC\nD by hand\n'));
  });

  it('the trailer passes through cut and sed, and is left out on a terminal, with --guard never, --json and --anchor', () => {
    const dir = dirWith({ 'f.txt': 'x\ny\n' });
    const cut = sh('$LW readlines f.txt 1 | sed "1s/x/X/" | cut -f1- | tee rows', dir);
    expect(cut.stdout.toString()).toMatch(/^1\tX\n2\ty\n\\ read \{"path":"f.txt","lines":"1-2","hash":"[0-9a-f]{16}"\}\n$/);
    fs.writeFileSync(path.join(dir, 'f.txt'), 'x\nY (theirs)\n');
    expect(sh('$LW replace f.txt --rows rows', dir).status).toBe(0);
    expect(read(dir, 'f.txt')).toBe(esc('X\nY (theirs)\n'));
    expect(sh('$LW readlines f.txt 1 --guard never', dir).stdout.toString()).toBe('1\tX\n2\tY (theirs)\n');
    expect(sh('$LW readlines f.txt 1', dir, { LINEWISE_GUARD: 'never' }).stdout.toString()).toBe('1\tX\n2\tY (theirs)\n');
    expect(sh('$LW readlines f.txt 1 --anchor', dir).stdout.toString()).not.toContain('\\ read');
    expect(sh('$LW page f.txt --json', dir).stdout.toString()).not.toContain('\\ read');
    // a terminal (script(1) gives one): no trailer by default, one with --guard always
    const script = spawnSync('script', ['-qec', `${LW} readlines f.txt 1; ${LW} readlines f.txt 1 --guard always`, '/dev/null'], { cwd: dir, env: { ...ENV, NO_COLOR: '1' } });
    if (script.status === 0) {
      const out = script.stdout.toString().replace(/\r\n/g, '\n');
      expect(out.match(/\\ read /g)?.length).toBe(1);
    }
  });
});
