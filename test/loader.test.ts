// bin/linewise.js, the loader: the CLI's scripts compiled through a code cache that is only ever
// an optimisation. With a cache, without one, with a broken, stale or foreign one, and with many
// runs at once, every run prints the same bytes; the cache is written whole, for this user alone.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { esc, fixture, tempDir } from './helpers.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const tmp = tempDir();
afterAll(() => tmp.cleanup());
let fresh = 0;

/** A copy of bin/ and dist/ (so a test may alter a script) and an empty temporary directory. */
function install(): { bin: string; dist: string; temp: string } {
  const at = path.join(tmp.dir, `install-${fresh++}`);
  fs.cpSync(path.join(ROOT, 'bin'), path.join(at, 'bin'), { recursive: true });
  fs.cpSync(path.join(ROOT, 'dist'), path.join(at, 'dist'), { recursive: true });
  const temp = path.join(at, 'tmp');
  fs.mkdirSync(temp);
  return { bin: path.join(at, 'bin', 'linewise.js'), dist: path.join(at, 'dist'), temp };
}

const ARGS = [
  ['readlines', fixture('mixed.txt'), '2'],
  ['page', fixture('crlf.txt'), '--limit', '2'],
  ['grep', 'a.p|be', fixture('crlf.txt'), fixture('mixed.txt')],
  ['readlines', '--encoding', 'latin1', fixture('latin1.txt'), '1'],
];

function run(bin: string, temp: string, args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { env: { ...process.env, TMPDIR: temp, NO_COLOR: '1' } });
  return { status: r.status, stdout: esc(r.stdout), stderr: r.stderr.toString() };
}

/** What the repository's own bin prints, for comparison. */
const expected = ARGS.map((a) => run(path.join(ROOT, 'bin', 'linewise.js'), tmp.dir, a));

const cacheDirOf = (temp: string) => path.join(temp, `linewise-compile-cache-${process.getuid!()}`);
const cacheFiles = (temp: string) => fs.readdirSync(cacheDirOf(temp)).sort();

describe('the loader (bin/linewise.js) and its code cache', () => {
  it('writes a cache per script on the first run, private to the user, and prints the same bytes with it', () => {
    const { bin, temp } = install();
    for (const [i, args] of ARGS.entries()) expect(run(bin, temp, args)).toEqual(expected[i]);
    const dir = cacheDirOf(temp);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    const files = cacheFiles(temp);
    // grep runs under a V8 flag of its own (src/cli/heap.ts), which V8 checks a cache against: its own cli.cjs cache
    expect(files.map((f) => f.replace(/-[0-9a-f]+$/, ''))).toEqual(['cli.cjs', 'cli.cjs', 'iconv-lite.cjs', 'regexpp.cjs']);
    for (const f of files) expect(fs.statSync(path.join(dir, f)).mode & 0o777, f).toBe(0o600);
    const before = files.map((f) => fs.statSync(path.join(dir, f)).mtimeMs);
    for (const [i, args] of ARGS.entries()) expect(run(bin, temp, args)).toEqual(expected[i]);
    // a cache that was used is not written again
    expect(cacheFiles(temp).map((f) => fs.statSync(path.join(dir, f)).mtimeMs)).toEqual(before);
  });

  it('ignores a cache that is garbage, cut short, or made from another file, and writes a good one', () => {
    const { bin, dist, temp } = install();
    run(bin, temp, ARGS[0]!);
    const [cli] = cacheFiles(temp);
    const cache = path.join(cacheDirOf(temp), cli!);
    const good = fs.readFileSync(cache);
    const stamp = good.subarray(0, good.indexOf(10) + 1);
    for (const bad of [Buffer.concat([stamp, Buffer.from('not a code cache')]), good.subarray(0, good.length >> 1), Buffer.alloc(0)]) {
      fs.writeFileSync(cache, bad);
      expect(run(bin, temp, ARGS[0]!)).toEqual(expected[0]);
      expect(fs.readFileSync(cache).length, 'rewritten').toBeGreaterThan(stamp.length + 1000);
    }
    // The script changed (another build, an upgrade in place): its stamp no longer matches.
    fs.appendFileSync(path.join(dist, 'cli.cjs'), '\n// changed\n');
    expect(run(bin, temp, ARGS[0]!)).toEqual(expected[0]);
    expect(fs.readFileSync(cache).subarray(0, stamp.length).equals(stamp)).toBe(false);
  });

  it('runs without a cache when the temporary directory is unusable, and writes nothing', () => {
    const { bin, temp } = install();
    const notDir = path.join(temp, 'file');
    fs.writeFileSync(notDir, 'x');
    for (const [i, args] of ARGS.entries()) expect(run(bin, notDir, args)).toEqual(expected[i]);
    expect(fs.readFileSync(notDir, 'utf8')).toBe('x');
    expect(fs.readdirSync(temp)).toEqual(['file']);
  });

  it('never uses a cache directory that others may write to, or one that is a symbolic link', () => {
    const { bin, temp } = install();
    const dir = cacheDirOf(temp);
    fs.mkdirSync(dir, { mode: 0o777 });
    fs.chmodSync(dir, 0o777);
    expect(run(bin, temp, ARGS[0]!)).toEqual(expected[0]);
    expect(fs.readdirSync(dir)).toEqual([]);
    fs.rmdirSync(dir);
    const elsewhere = path.join(temp, 'elsewhere');
    fs.mkdirSync(elsewhere, { mode: 0o700 });
    fs.symlinkSync(elsewhere, dir);
    expect(run(bin, temp, ARGS[0]!)).toEqual(expected[0]);
    expect(fs.readdirSync(elsewhere)).toEqual([]);
  });

  it('keeps at most 64 caches, the most recently used, when it writes one, and removes abandoned temporary files', () => {
    const { bin, temp } = install();
    const dir = cacheDirOf(temp);
    fs.mkdirSync(dir, { mode: 0o700 });
    const day = 24 * 3600;
    const now = Date.now() / 1000;
    // 80 caches of other installs and Node versions, the i-th last used i days ago
    const others = Array.from({ length: 80 }, (_, i) => `cli.cjs-${(0xa000 + i).toString(16)}`);
    for (const [i, name] of others.entries()) {
      fs.writeFileSync(path.join(dir, name), 'x', { mode: 0o600 });
      fs.utimesSync(path.join(dir, name), now - (i + 1) * day, now - (i + 1) * day);
    }
    // a temporary file of a run that died two hours ago, and one of a run writing now
    fs.writeFileSync(path.join(dir, 'cli.cjs-dead.1.tmp'), 'x', { mode: 0o600 });
    fs.utimesSync(path.join(dir, 'cli.cjs-dead.1.tmp'), now - 7200, now - 7200);
    fs.writeFileSync(path.join(dir, 'cli.cjs-live.2.tmp'), 'x', { mode: 0o600 });
    expect(run(bin, temp, ARGS[0]!)).toEqual(expected[0]);
    const left = cacheFiles(temp);
    const written = left.filter((f) => !others.includes(f) && !f.endsWith('.tmp'));
    expect(written.map((f) => f.replace(/-[0-9a-f]+$/, ''))).toEqual(['cli.cjs']);
    expect(fs.statSync(path.join(dir, written[0]!)).size).toBeGreaterThan(1000);
    // the 63 most recently used of the others stay, the 17 least recently used go
    expect(left.filter((f) => others.includes(f))).toEqual(others.slice(0, 63).sort());
    expect(left.filter((f) => f.endsWith('.tmp'))).toEqual(['cli.cjs-live.2.tmp']);
    // a run that finds its cache lists nothing and removes nothing
    fs.writeFileSync(path.join(dir, 'cli.cjs-ffff'), 'x', { mode: 0o600 });
    expect(run(bin, temp, ARGS[0]!)).toEqual(expected[0]);
    expect(cacheFiles(temp)).toEqual([...left, 'cli.cjs-ffff'].sort());
  });

  it('many runs at once with no cache yet: every one prints the same bytes, and no temporary file is left', async () => {
    const { bin, temp } = install();
    const runs = Array.from({ length: 8 }, () =>
      new Promise<{ status: number | null; stdout: string }>((resolve) => {
        const child = spawn(process.execPath, [bin, ...ARGS[2]!], { env: { ...process.env, TMPDIR: temp, NO_COLOR: '1' } });
        const out: Buffer[] = [];
        child.stdout.on('data', (b: Buffer) => out.push(b));
        child.on('close', (status) => resolve({ status, stdout: esc(Buffer.concat(out)) }));
      }),
    );
    for (const r of await Promise.all(runs)) expect(r).toEqual({ status: expected[2]!.status, stdout: expected[2]!.stdout });
    expect(cacheFiles(temp).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(run(bin, temp, ARGS[2]!)).toEqual(expected[2]);
  }, 60_000);
});
