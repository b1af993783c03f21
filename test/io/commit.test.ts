// Batches all or nothing: every file checked replaceable before any rename (a bind mount, a sticky
// directory that is not ours), and a rename that still fails undone for the files before it.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitTestHooks } from '../../src/io/commit.js';
import { esc, run, tempDir } from '../helpers.js';
import { checkRefusal, snapshot } from '../hardening/refusals.js';

const BIN = fileURLToPath(new URL('../../bin/linewise.js', import.meta.url));

let t: ReturnType<typeof tempDir>;
beforeEach(() => {
  t = tempDir();
});
afterEach(() => {
  delete commitTestHooks.beforeRename;
  t.cleanup();
});

describe('a rename that fails in the middle of a batch', () => {
  it('puts back the files renamed before it (their very inodes): exit 2, one line, nothing written, nothing left', async () => {
    for (const name of ['a', 'b', 'c']) t.file(name, `${name}1\r\n${name}2\n`);
    t.file('rows', 'a\t1\tA\nb\t2\tB\nc\t1\tC\n');
    const before = snapshot(t.dir);
    const inodes = ['a', 'b', 'c'].map((n) => fs.statSync(path.join(t.dir, n)).ino);
    const renamed: string[] = [];
    commitTestHooks.beforeRename = (target) => {
      if (path.basename(target) === 'c') throw Object.assign(new Error(`EBUSY: resource busy or locked, rename 'x' -> '${target}'`), { code: 'EBUSY' });
      renamed.push(path.basename(target));
    };
    const r = await run(['replace', '--rows', 'rows'], { cwd: t.dir });
    expect(renamed).toEqual(['a', 'b']); // two files were written before the failure...
    checkRefusal(r.status, r.stdout, r.stderr, { status: 2, message: 'c: cannot replace it: resource busy (a mount point?); nothing was written' });
    expect(snapshot(t.dir)).toEqual(before); // ...and put back, byte for byte, with no .orig or .tmp left
    expect(['a', 'b', 'c'].map((n) => fs.statSync(path.join(t.dir, n)).ino)).toEqual(inodes);
  });

  it('a one-file edit keeps no original beside it (nothing can fail after its rename)', async () => {
    const f = t.file('f', 'x\n');
    const seen: string[] = [];
    commitTestHooks.beforeRename = () => void seen.push(...fs.readdirSync(t.dir));
    expect((await run(['replace', 'f', '1', '--text', 'y'], { cwd: t.dir })).status).toBe(0);
    expect(seen.filter((n) => n.endsWith('.orig'))).toEqual([]);
    expect(fs.readFileSync(f, 'utf8')).toBe('y\n');
  });
});

// Bind mounts and other users need root (the tests run as root; elsewhere these are skipped).
const root = process.getuid?.() === 0;
const unshare = root && spawnSync('unshare', ['-m', 'true']).status === 0;
const setpriv = root && spawnSync('setpriv', ['--version']).status === 0;

describe('checked before any rename', () => {
  it.runIf(unshare)('a bind-mounted file in a batch (EBUSY on rename): refused before the first rename, nothing written', () => {
    t.file('a', 'a\n');
    t.file('b', 'b\n');
    t.file('src', 'mounted\n');
    t.file('rows', 'a\t1\tA\nb\t1\tB\n');
    const before = snapshot(t.dir);
    // a private mount namespace: the bind mount exists for this one command only
    const r = spawnSync('unshare', ['-m', 'sh', '-c', 'mount --bind src b && exec "$0" "$@"', process.execPath, BIN, 'replace', '--rows', 'rows'], { cwd: t.dir });
    checkRefusal(r.status, r.stdout, r.stderr.toString(), { status: 2, message: 'b: cannot be replaced: it is a mount point (a file mounted over this name); edit the file mounted there; nothing was written' });
    expect(snapshot(t.dir)).toEqual(before);
  });

  it.runIf(unshare)('one file through a directory bind-mounted at two places is one file: both rows applied at once, a clash refused', () => {
    fs.mkdirSync(path.join(t.dir, 'A'));
    fs.mkdirSync(path.join(t.dir, 'B'));
    const f = t.file('A/f', 'one\ntwo\n');
    // A/f and B/f differ even as real paths; only device and inode tell they are one file (it
    // used to be two plans: each waited 10 s on the other's lock, then exit 3 naming its own pid)
    const inNamespace = (rows: string) =>
      spawnSync('unshare', ['-m', 'sh', '-c', 'mount --bind A B && exec "$0" "$@"', process.execPath, BIN, 'replace', '--rows', '-'], { cwd: t.dir, input: rows });
    const r = inNamespace('A/f\t1\tONE\nB/f\t2\tTWO\n');
    expect([r.status, r.stderr.toString()]).toEqual([0, '']);
    expect(esc(fs.readFileSync(f))).toBe('ONE\\nTWO\\n');
    const before = snapshot(t.dir);
    const clash = inNamespace('A/f\t1\tuno\nB/f\t1\tdos\n');
    checkRefusal(clash.status, clash.stdout, clash.stderr.toString(), { status: 2, message: 'A/f: row 1 (line 1) and row 2 (line 1) both edit the same lines; every line may be edited once per call' });
    expect(snapshot(t.dir)).toEqual(before);
  });

  it.runIf(setpriv)('a sticky directory where a file of the batch is someone else\'s (EPERM on rename): refused before the first rename', () => {
    fs.chmodSync(t.dir, 0o755);
    const dir = path.join(t.dir, 'shared');
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o1777);
    const mine = path.join(dir, 'mine');
    const theirs = path.join(dir, 'theirs');
    fs.writeFileSync(mine, 'm\n');
    fs.chownSync(mine, 65534, 65534);
    fs.writeFileSync(theirs, 't\n');
    fs.chmodSync(theirs, 0o666); // writable by anyone, yet only its owner may replace it here
    fs.writeFileSync(path.join(dir, 'rows'), 'mine\t1\tM\ntheirs\t1\tT\n');
    fs.chmodSync(path.join(dir, 'rows'), 0o644);
    const before = snapshot(t.dir);
    const r = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, BIN, 'replace', '--rows', 'rows'], { cwd: dir });
    checkRefusal(r.status, r.stdout, r.stderr.toString(), {
      status: 2,
      message: `theirs: cannot be replaced: its directory ${fs.realpathSync(dir)} is sticky (+t) and neither it nor the file is yours; nothing was written`,
    });
    expect(snapshot(t.dir)).toEqual(before);
  });
});
