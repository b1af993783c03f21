// End-to-end: the built CLI edits real files through real pipes; bytes compared, directories listed.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { esc, fixture, tempDir } from '../helpers.js';

const BIN = process.env.LINEWISE_BIN ?? fileURLToPath(new URL('../../bin/linewise.js', import.meta.url));
const LW = BIN.endsWith(".js") ? `${process.execPath} ${BIN}` : BIN;
const tmp = tempDir();
afterAll(() => tmp.cleanup());

function sh(script: string, cwd: string) {
  const r = spawnSync('bash', ['-c', `set -o pipefail; ${script}`], { cwd, env: { ...process.env, LW, NO_COLOR: '1' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString() };
}

let n = 0;
function dirWith(files: Record<string, Buffer | string>): string {
  const dir = path.join(tmp.dir, `e2e${n++}`);
  fs.mkdirSync(dir);
  for (const [name, bytes] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), bytes);
  }
  return dir;
}

describe('replace, built', () => {
  for (const name of ['crlf.txt', 'mixed.txt', 'no-final-newline.txt', 'lone-cr.txt', 'latin1.txt', 'bom-utf8.txt']) {
    it(`readlines F 1 | replace F --rows - leaves ${name} byte-identical; an edited row changes only its line`, () => {
      const original = fs.readFileSync(fixture(name));
      const dir = dirWith({ F: original });
      const same = sh('$LW readlines F 1 | $LW replace F --rows -', dir);
      expect([same.status, same.stderr]).toEqual([0, '']);
      expect(esc(fs.readFileSync(path.join(dir, 'F')))).toBe(esc(original));
      // sed puts an X at the start of line 1; every other byte must stay where it was
      const edited = sh(`$LW readlines F 1 | sed '1s/^1\\t/1\\tX/' | $LW replace F --rows -`, dir);
      expect([edited.status, edited.stderr]).toEqual([0, '']);
      const bom = name === 'bom-utf8.txt' ? 3 : 0;
      const expected = Buffer.concat([original.subarray(0, bom), Buffer.from('X'), original.subarray(bom)]);
      expect(esc(fs.readFileSync(path.join(dir, 'F')))).toBe(esc(expected));
      expect(fs.readdirSync(dir)).toEqual(['F']);
    });
  }

  it('applies grep-style path rows edited by sed to several files in one call', () => {
    const dir = dirWith({ 'a.txt': 'old one\r\nkeep\r\n', 'src/b.txt': 'x\nold two\n' });
    // the rows `linewise grep old .` prints (grep itself is another branch; its format is the contract's)
    const rows = 'a.txt\\t1\\told one\\r\\n--\\nsrc/b.txt\\t2\\told two\\n';
    const r = sh(`printf '${rows}' | sed 's/old/new/' | $LW replace --rows -`, dir);
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(esc(fs.readFileSync(path.join(dir, 'a.txt')))).toBe('new one\\r\\nkeep\\r\\n');
    expect(esc(fs.readFileSync(path.join(dir, 'src/b.txt')))).toBe('x\\nnew two\\n');
  });

  it('keeps the mode, writes through a symbolic link, and leaves no temporary file', () => {
    const dir = dirWith({ 'real.txt': 'a\r\nb\r\n' });
    fs.chmodSync(path.join(dir, 'real.txt'), 0o604);
    fs.symlinkSync('real.txt', path.join(dir, 'link.txt'));
    const r = sh(`printf 'B\\n' | $LW replace link.txt 2`, dir);
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(esc(fs.readFileSync(path.join(dir, 'real.txt')))).toBe('a\\r\\nB\\r\\n');
    expect(fs.lstatSync(path.join(dir, 'link.txt')).isSymbolicLink()).toBe(true);
    expect(fs.statSync(path.join(dir, 'real.txt')).mode & 0o7777).toBe(0o604);
    expect(fs.readdirSync(dir).sort()).toEqual(['link.txt', 'real.txt']);
  });

  it('exits 3 on a stale edit and prints the current line; --dry-run prints a diff', () => {
    const dir = dirWith({ F: 'one\ntwo\n' });
    sh('$LW readlines F 2 > before', dir);
    fs.writeFileSync(path.join(dir, 'F'), 'one\nTWO\n');
    const stale = sh(`$LW replace F 2 --text 2 --expect before`, dir);
    expect(stale.status).toBe(3);
    expect(esc(stale.stdout)).toBe('2\\tTWO\\n');
    const dry = sh(`$LW replace F 1 --text ONE --dry-run`, dir);
    expect(dry.stdout.toString()).toBe('--- F\n+++ F\n@@ -1,2 +1,2 @@\n-one\n+ONE\n TWO\n');
    expect(fs.readFileSync(path.join(dir, 'F'), 'utf8')).toBe('one\nTWO\n');
  });

  it('removes its temporary file when killed by SIGTERM mid-copy, and dies by that signal', async () => {
    // "x\n" then a 2 GiB sparse line of NULs (-a): an insert before line 2 copies all of that
    // line piece by piece, long enough to catch the temporary file.
    const dir = dirWith({});
    const big = path.join(dir, 'big');
    fs.writeFileSync(big, 'x\n');
    fs.truncateSync(big, 2 ** 31);
    const isJs = BIN.endsWith('.js');
    const child = spawn(isJs ? process.execPath : BIN, [...(isJs ? [BIN] : []), 'replace', '-a', 'big', '2', '1', '--text', 'top'], { cwd: dir });
    let sawTemp = false;
    for (let i = 0; i < 2000 && !sawTemp; i++) {
      await new Promise((r) => setTimeout(r, 5));
      sawTemp = fs.readdirSync(dir).some((f) => f.endsWith('.tmp') && fs.statSync(path.join(dir, f)).size > 0);
    }
    expect(sawTemp).toBe(true);
    child.kill('SIGTERM');
    const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => child.on('exit', (c, s) => resolve([c, s])));
    expect([code, signal]).toEqual([null, 'SIGTERM']);
    expect(fs.readdirSync(dir)).toEqual(['big']);
    expect(fs.statSync(big).size).toBe(2 ** 31);
  });
});
