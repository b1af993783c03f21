// Inputs: the path a file is opened by is the one path.resolve gives, by the fast way or not; a
// walked file is opened without an fstat, yet nothing but a regular file is read past one buffer.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openInput, resolvePath } from '../../src/io/input.js';

describe('resolvePath', () => {
  it('gives what path.resolve gives: relative, with "." and ".." parts, doubled or trailing slashes', () => {
    for (const p of ['a/b', '/a/b', '/a//b', '/a/./b', '/a/../b', '/a/b/', '/a/b/.', '/a/b/..', '/', '/.', '/..', '/.x', '/a/..b', '/a/b...', '/a/.../b', '.', '..', '']) {
      expect(resolvePath('/w/d', p)).toBe(path.resolve('/w/d', p));
    }
  });

  it('property: the same for any path of "/", ".", "a" and "é"', () => {
    const part = fc.constantFrom('/', '.', 'a', 'é', '..');
    fc.assert(fc.property(fc.array(part, { maxLength: 12 }).map((a) => a.join('')), (p) => {
          expect(resolvePath('/w', p)).toBe(path.resolve('/w', p));
        }));
  });
});

describe('openInput of a walked file (no fstat until the file stops behaving as a regular file)', () => {
  const io = { cwd: '/', stdin: () => 0 };
  const scratch = () => fs.mkdtempSync(path.join(os.tmpdir(), 'lw-walked-'));

  it('reads a regular file to its end, and learns its size only when asked', () => {
    const dir = scratch();
    const f = path.join(dir, 'a.txt');
    fs.writeFileSync(f, 'one\ntwo\n');
    const input = openInput(f, io, true);
    const buf = Buffer.alloc(64);
    expect(input.read(buf, 0, 64)).toBe(8);
    expect(input.read(buf, 8, 56)).toBe(0);
    expect(input.size).toBe(8);
    input.close();
    fs.rmSync(dir, { recursive: true });
  });

  it('a named pipe swapped in for a walked name opens without waiting, and with no writer reads as empty', () => {
    const dir = scratch();
    const fifo = path.join(dir, 'p');
    execFileSync('mkfifo', [fifo]);
    const input = openInput(fifo, io, true);
    expect(input.read(Buffer.alloc(16), 0, 16)).toBe(0);
    expect(() => input.size).toThrow(/named pipe, not a regular file/);
    input.close();
    fs.rmSync(dir, { recursive: true });
  });

  it('a device that streams forever is refused at its second read that brings bytes', () => {
    const input = openInput('/dev/zero', io, true);
    const buf = Buffer.alloc(4096);
    expect(input.read(buf, 0, buf.length)).toBe(buf.length);
    expect(() => input.read(buf, 0, buf.length)).toThrow(/character device, not a regular file/);
    input.close();
  });
});
