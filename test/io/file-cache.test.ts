// The file cache: contents and "no line selected" served only while a file's key (device, inode,
// size, times) is unchanged; a file rewritten in place with its size and mtime kept is still
// seen as changed (its ctime moves); contents past the cap are read from disk.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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
    const c = new FileCache(1 << 20, 100, 0);
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
    const c = new FileCache(1 << 20, 100, 0);
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
    const c = new FileCache(1 << 20, 100); // the real RACY_MS: the file was just written
    let key;
    expect(c.open(f, 'c.txt', (k) => (key = k))).toBeUndefined(); // the caller reads it from disk
    c.selectedNone(f, 'x', key!);
    expect(c.look(f, 'x')?.none).toBe(false);
    expect(c.held).toBe(0);
  });

  it('holds at most its cap of contents; a larger file, or one past the cap, is read from disk', () => {
    const c = new FileCache(10, 100, 0);
    const small = tmp.file('small.txt', '12345678\n');
    const more = tmp.file('more.txt', '12345678\n');
    const big = tmp.file('big.txt', Buffer.alloc(MAX_CACHED_FILE + 1, 0x61));
    expect(readAll(c.open(small, 'small.txt'))).toBe('12345678\n');
    expect(c.held).toBe(9);
    let key;
    expect(c.open(more, 'more.txt', (k) => (key = k))).toBeUndefined(); // no room: the caller opens it
    expect(key).toMatchObject({ size: 9 });
    expect(c.open(big, 'big.txt')).toBeUndefined();
    expect(c.held).toBe(9);
    expect(c.open(path.join(tmp.dir, 'missing.txt'), 'missing.txt')).toBeUndefined();
    expect(c.open(tmp.dir, 'dir')).toBeUndefined();
  });
});
