// The file cache: contents and "no line selected" served only while a file's key (device, inode,
// size, times) is unchanged; a file rewritten in place with its size and mtime kept is still
// seen as changed (its ctime moves); contents past the cap are read from disk; everything kept is
// charged to the budget; a file read into memory is checked by its descriptor first.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LinewiseError } from '../../src/core/errors.js';
import { CacheBudget } from '../../src/io/cache-budget.js';
import { FileCache, MAX_CACHED_FILE } from '../../src/io/file-cache.js';
import type { Input } from '../../src/io/input.js';
import { tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

function readAll(input: Input | undefined): string | undefined {
  if (input === undefined) return undefined;
  const buf = Buffer.alloc(1 << 16);
  let out = '';
  for (let n; (n = input.read(buf, 0, buf.length)) > 0; ) out += buf.toString('latin1', 0, n);
  return out;
}

/** Rewrites `f` with `bytes` of the same length, and puts its mtime back: only ctime tells. */
function sneakyWrite(f: string, bytes: string): void {
  const st = fs.statSync(f);
  fs.writeFileSync(f, bytes);
  fs.utimesSync(f, st.atime, st.mtime);
}

describe('FileCache', () => {
  it('serves an unchanged file from memory and a changed one afresh, even with its size and mtime kept', () => {
    const f = tmp.file('a.txt', 'alpha\r\n');
    const c = new FileCache(new CacheBudget(1 << 20), 0);
    expect(readAll(c.open(f, 'a.txt'))).toBe('alpha\r\n');
    expect(readAll(c.open(f, 'a.txt'))).toBe('alpha\r\n');
    expect([c.misses, c.hits]).toEqual([1, 1]);
    sneakyWrite(f, 'ALPHA\r\n');
    expect(readAll(c.open(f, 'a.txt'))).toBe('ALPHA\r\n');
    expect(c.misses).toBe(2);
    fs.rmSync(f);
    fs.writeFileSync(f, 'other\r\n'); // a new file under the old name: a new inode
    expect(readAll(c.open(f, 'a.txt'))).toBe('other\r\n');
  });

  it('remembers a search that selected nothing only for the contents it searched', () => {
    const f = tmp.file('b.txt', 'nothing here\n');
    const c = new FileCache(new CacheBudget(1 << 20), 0);
    let key;
    c.open(f, 'b.txt', (k) => (key = k));
    c.selectedNone(f, 'search', key!);
    expect(c.look(f, 'search')?.none).toBe(true);
    expect(c.look(f, 'another')?.none).toBe(false);
    sneakyWrite(f, 'search here!\n');
    expect(c.look(f, 'search')?.none).toBe(false);
  });

  it('keeps nothing about a file changed a moment ago (its times may not move again)', () => {
    const f = tmp.file('c.txt', 'fresh\n');
    const c = new FileCache(new CacheBudget(1 << 20)); // the real RACY_MS: the file was just written
    let key;
    expect(c.open(f, 'c.txt', (k) => (key = k))).toBeUndefined(); // the caller reads it from disk
    c.selectedNone(f, 'x', key!);
    expect(c.look(f, 'x')?.none).toBe(false);
    expect(c.held).toBe(0);
  });

  it('holds at most its share of the budget in contents; a larger file, or one past it, is read from disk', () => {
    const budget = new CacheBudget(64 << 10); // 40 KiB for contents
    const c = new FileCache(budget, 0);
    const small = tmp.file('small.txt', 'x'.repeat(24 << 10));
    const more = tmp.file('more.txt', 'y'.repeat(24 << 10));
    const big = tmp.file('big.txt', Buffer.alloc(MAX_CACHED_FILE + 1, 0x61));
    expect(readAll(c.open(small, 'small.txt'))).toBe('x'.repeat(24 << 10));
    const held = c.held;
    expect(held).toBeGreaterThan(24 << 10); // the bytes and what their Buffer costs
    let key;
    expect(c.open(more, 'more.txt', (k) => (key = k))).toBeUndefined(); // no room: the caller opens it
    expect(key).toMatchObject({ size: 24 << 10 });
    expect(c.open(big, 'big.txt')).toBeUndefined();
    expect(c.held).toBe(held);
    expect(c.open(path.join(tmp.dir, 'missing.txt'), 'missing.txt')).toBeUndefined();
    expect(c.open(tmp.dir, 'dir')).toBeUndefined();
    // what it knows of the files counts too, within its share; contents and files make the total
    expect(budget.of('files')).toBeGreaterThan(0);
    expect(budget.total).toBe(budget.of('files') + budget.of('contents'));
    expect(budget.of('contents')).toBeLessThanOrEqual(budget.limit('contents'));
  });

  it('remembers no more files than its share; the least recently used give way', () => {
    const budget = new CacheBudget(64 << 10); // 8 KiB for files: a score of entries
    const c = new FileCache(budget, 0);
    for (let i = 0; i < 200; i++) c.look(tmp.file(`many${i}.txt`, 'x\n'), 's');
    expect(budget.of('files')).toBeLessThanOrEqual(budget.limit('files'));
    expect(budget.of('files')).toBeGreaterThan(budget.limit('files') / 2);
  });

  it('checks a file it reads into memory by its descriptor: a refusal reaches the caller', () => {
    const f = tmp.file('confined.txt', 'c\n');
    const refused = new LinewiseError('outside-roots', 'refused');
    const c = new FileCache(new CacheBudget(1 << 20), 0, { allows: () => false, refuse: () => refused });
    expect(() => c.open(f, 'confined.txt')).toThrow(refused);
    expect(c.held).toBe(0);
    const ok = new FileCache(new CacheBudget(1 << 20), 0, { allows: (real) => real === fs.realpathSync(f), refuse: () => refused });
    expect(readAll(ok.open(f, 'confined.txt'))).toBe('c\n');
  });
});
