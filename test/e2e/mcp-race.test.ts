// linewise mcp's confinement against a race: a symbolic link swapped in after the server checked a
// path. The server is held in that very window by its test pause (LINEWISE_MCP_TEST_PAUSE, a named
// pipe it reads to its end between checking a call's paths and running it), so each swap lands
// there every time; then every read is refused by the opened descriptor's real path, every write
// by its directory's, and the files outside stay byte for byte as they were.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esc, tempDir, tree, writeTree } from '../helpers.js';
import { connect, type Result, type Session } from './mcp-client.js';

const tmp = tempDir();
const root = path.join(tmp.dir, 'root');
const outside = path.join(tmp.dir, 'outside');
const fifo = path.join(tmp.dir, 'pause');
const SECRET = 'secret line\r\n';
let s: Session;

beforeAll(async () => {
  fs.mkdirSync(root);
  writeTree(outside, { 'secret.txt': SECRET, 'g.txt': SECRET });
  // Old enough for the warm engine to read them into memory: that path is checked too.
  const old = new Date(Date.now() - 3600_000);
  for (const f of ['secret.txt', 'g.txt']) fs.utimesSync(path.join(outside, f), old, old);
  expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
  s = await connect(['--root', root], tmp.dir, {}, { LINEWISE_MCP_TEST_PAUSE: fifo });
});
afterAll(async () => {
  await s.close();
  tmp.cleanup();
});

/** Once the server waits between a call's check and its work (it has opened the pipe), does `swap`, then lets it go on. */
async function pass(swap: () => void = () => {}): Promise<void> {
  const w = await fs.promises.open(fifo, 'w'); // resolves when the server has opened its end
  try {
    swap();
  } finally {
    await w.close();
  }
}

/** `call`, with `swap` done in its window. */
async function racing(call: Promise<Result>, swap: () => void): Promise<Result> {
  await pass(swap);
  return call;
}

/** `rel` (a file, or a directory: moved aside to `rel-was`) becomes a link to `to`. */
function linkInstead(rel: string, to: string): () => void {
  return () => {
    const p = path.join(root, rel);
    if (fs.statSync(p).isDirectory()) fs.renameSync(p, `${p}-was`);
    else fs.rmSync(p);
    fs.symlinkSync(to, p);
  };
}

let n = 0;
/** A fresh file `f<n>.txt` and directory `d<n>/g.txt` in the root, each holding `inside`. */
function fresh(): { file: string; dir: string } {
  const k = n++;
  writeTree(root, { [`f${k}.txt`]: 'inside\r\n', [`d${k}/g.txt`]: 'inside\r\n' });
  return { file: `f${k}.txt`, dir: `d${k}` };
}

describe('linewise mcp: a link swapped in after the check', () => {
  it('reads: the file as opened is outside the roots, refused; not a byte of it in the result', async () => {
    type F = { file: string; dir: string };
    const secret = path.join(outside, 'secret.txt');
    // 'call': the call fails; 'file': grep reports the file it could not search and goes on (status 2)
    const cases: [string, (f: F) => Record<string, unknown>, (f: F) => () => void, 'call' | 'file'][] = [
      ['read_lines', (f) => ({ path: f.file, start: 1 }), (f) => linkInstead(f.file, secret), 'call'],
      ['read_lines', (f) => ({ path: `${f.dir}/g.txt`, start: 1 }), (f) => linkInstead(f.dir, outside), 'call'],
      ['page', (f) => ({ path: f.file }), (f) => linkInstead(f.file, secret), 'call'],
      ['grep', (f) => ({ pattern: 'line', paths: [f.file] }), (f) => linkInstead(f.file, secret), 'file'],
      ['grep', (f) => ({ pattern: 'line', paths: [`${f.dir}/g.txt`] }), (f) => linkInstead(f.dir, outside), 'file'],
      ['grep', (f) => ({ pattern: 'line', paths: [f.dir] }), (f) => linkInstead(f.dir, outside), 'call'],
    ];
    for (const [tool, args, swap, refused] of cases) {
      const f = fresh();
      const a = args(f);
      const r = await racing(s.call(tool, a), swap(f));
      const what = `${tool} ${JSON.stringify(a)}: ${r.texts.join(' | ')}`;
      expect(r.texts.join('\n'), what).not.toContain('secret');
      expect(JSON.stringify(r.records), what).not.toContain('secret');
      if (refused === 'file') expect([r.status, r.texts.join('\n')], what).toEqual([2, expect.stringContaining('as opened, it is outside the roots')]);
      else expect([r.isError, r.error?.code], what).toEqual([true, 'outside-roots']);
    }
  });

  it('a named pipe swapped in: refused as not a regular file, never waited on (it would block the server)', async () => {
    const pipeInstead = (rel: string) => () => {
      fs.rmSync(path.join(root, rel));
      expect(spawnSync('mkfifo', [path.join(root, rel)]).status).toBe(0);
    };
    for (const [tool, args] of [
      ['read_lines', (file: string) => ({ path: file, start: 1 })],
      ['page', (file: string) => ({ path: file })],
      ['grep', (file: string) => ({ pattern: 'x', paths: [file] })],
      ['replace_lines', (file: string) => ({ path: file, start: 1, text: 'x\n' })],
    ] as const) {
      const { file } = fresh();
      const r = await racing(s.call(tool, args(file)), pipeInstead(file));
      const what = `${tool}: ${r.texts.join(' | ')}`;
      if (tool === 'grep') expect([r.status, r.texts.join('\n')], what).toEqual([2, expect.stringContaining(`${file}: is a named pipe, not a regular file`)]);
      else expect([r.isError, r.error?.code], what).toEqual([true, 'not-a-file']);
    }
  });

  it('writes: the file or its directory, as opened, is outside the roots; nothing outside is written or created', async () => {
    const before = tree(outside);
    type F = { file: string; dir: string };
    const cases: [string, (f: F) => Record<string, unknown>, (f: F) => () => void][] = [
      ['replace_lines', (f) => ({ path: f.file, start: 1, text: 'pwned\n' }), (f) => linkInstead(f.file, path.join(outside, 'secret.txt'))],
      ['replace_lines', (f) => ({ path: `${f.dir}/g.txt`, start: 1, text: 'pwned\n' }), (f) => linkInstead(f.dir, outside)],
      ['replace_text', (f) => ({ path: f.file, old: 'line', new: 'pwned' }), (f) => linkInstead(f.file, path.join(outside, 'secret.txt'))],
      ['replace_text', (f) => ({ path: `${f.dir}/g.txt`, old: 'line', new: 'pwned' }), (f) => linkInstead(f.dir, outside)],
      ['replace_rows', (f) => ({ rows: `${f.file}\t1\tpwned\r\n` }), (f) => linkInstead(f.file, path.join(outside, 'secret.txt'))],
      ['replace_rows', (f) => ({ rows: `${f.dir}/g.txt\t1\tpwned\r\n` }), (f) => linkInstead(f.dir, outside)],
      ['replace_lines', (f) => ({ path: f.file, start: 1, text: 'pwned\n', dry_run: true }), (f) => linkInstead(f.file, path.join(outside, 'secret.txt'))],
      ['create_file', (f) => ({ path: `${f.dir}/new.txt`, text: 'pwned\n' }), (f) => linkInstead(f.dir, outside)],
      ['create_file', (f) => ({ path: f.file, text: 'pwned\n', force: true }), (f) => linkInstead(f.file, path.join(outside, 'secret.txt'))],
      ['create_file', (f) => ({ path: `${f.dir}/g.txt`, text: 'pwned\n', force: true }), (f) => linkInstead(f.dir, outside)],
    ];
    for (const [tool, args, swap] of cases) {
      const f = fresh();
      const a = args(f);
      const r = await racing(s.call(tool, a), swap(f));
      const what = `${tool} ${JSON.stringify(a)}: ${r.texts.join(' | ')}`;
      expect([r.isError, r.error?.code], what).toEqual([true, 'outside-roots']);
      expect(r.texts.join('\n'), what).not.toContain('secret');
      expect(tree(outside), what).toEqual(before);
    }
    // create_file with the text a file outside holds, through a link swapped in: never compared
    // with it (an "already applied" would tell what it holds), refused as a file that exists
    const f = fresh();
    const same = await racing(s.call('create_file', { path: f.file, text: SECRET }), linkInstead(f.file, path.join(outside, 'secret.txt')));
    expect([same.isError, same.error?.code, same.texts.join('')]).toEqual([true, 'exists', expect.not.stringContaining('already applied')]);
    expect(tree(outside)).toEqual(before);
  });
});

describe('linewise mcp: a directory swapped while an edit waits for its lock', () => {
  /** Holds linewise's lock of the directory of `rel` as a live process (this one) would; returns it. */
  function holdLock(rel: string): string {
    const lock = path.join(root, path.dirname(rel), '.linewise.lock');
    fs.mkdirSync(lock);
    fs.writeFileSync(path.join(lock, `pid-${process.pid}-0123456789abcdef`), `${process.pid}\n`);
    return lock;
  }

  /** Starts the edit of `w/h.txt`, lets it pass the pause, and waits until it has prepared its temporary file. */
  async function prepared(dir: string): Promise<{ call: Promise<Result> }> {
    writeTree(root, { [`${dir}/h.txt`]: 'old\r\n' });
    holdLock(`${dir}/h.txt`);
    const call = s.call('replace_lines', { path: `${dir}/h.txt`, start: 1, text: 'new\n' });
    await pass();
    // Its directory is pinned before the temporary file is made; the lock is taken after it.
    while (!fs.readdirSync(path.join(root, dir)).some((e) => e.endsWith('.tmp'))) await new Promise((r) => setTimeout(r, 5));
    return { call };
  }

  it('moved inside the roots, a link to outside in its place: the rename lands in the directory checked', async () => {
    const before = tree(outside);
    const { call } = await prepared('w1');
    fs.renameSync(path.join(root, 'w1'), path.join(root, 'w1-moved'));
    fs.symlinkSync(outside, path.join(root, 'w1'));
    fs.rmSync(path.join(root, 'w1-moved', '.linewise.lock'), { recursive: true });
    const r = await call;
    expect(r.isError, r.texts.join(' | ')).toBe(false);
    expect(esc(fs.readFileSync(path.join(root, 'w1-moved', 'h.txt')))).toBe('new\\r\\n');
    expect(fs.readdirSync(path.join(root, 'w1-moved'))).toEqual(['h.txt']);
    expect(tree(outside)).toEqual(before);
  });

  it('moved out of the roots: refused before the rename; the file there keeps its bytes, nothing left beside it', async () => {
    const { call } = await prepared('w2');
    const away = path.join(tmp.dir, 'away');
    fs.renameSync(path.join(root, 'w2'), away);
    fs.rmSync(path.join(away, '.linewise.lock'), { recursive: true });
    const r = await call;
    expect([r.isError, r.error?.code], r.texts.join(' | ')).toEqual([true, 'outside-roots']);
    expect(tree(away)).toEqual({ 'h.txt': 'old\\r\\n' });
  });
});
