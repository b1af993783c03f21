// Inputs: the path a file is opened by is the one path.resolve gives, by the fast way or not; a
// walked file is opened without an fstat, yet nothing but a regular file is read past one buffer.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openInput, openText, resolvePath, WalkedFile } from '../../src/io/input.js';

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

describe('one WalkedFile for a whole walk (grep opens each walked file into it)', () => {
  const io = { cwd: '/', stdin: () => 0 };

  it('each file opened into it reads its own bytes, name and size, and a device after them is still refused', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-walked-'));
    const files = { 'a.txt': 'one\r\ntwo', 'b.txt': '', 'c.bin': Buffer.from([0xff, 0x00, 0x0a]), 'd.txt': 'x'.repeat(70_000) };
    for (const [n, b] of Object.entries(files)) fs.writeFileSync(path.join(dir, n), b);
    const slot = new WalkedFile();
    for (const [n, b] of Object.entries(files)) {
      const input = openInput(path.join(dir, n), io, slot);
      expect(input).toBe(slot);
      expect(input.name).toBe(path.join(dir, n));
      const got: Buffer[] = [];
      const buf = Buffer.alloc(4096);
      for (let k; (k = input.read(buf, 0, buf.length)) > 0; ) got.push(Buffer.from(buf.subarray(0, k)));
      expect(Buffer.concat(got).equals(Buffer.from(b))).toBe(true);
      expect(input.size).toBe(Buffer.byteLength(b));
      input.close();
    }
    // what the first files learnt (checked, a size, reads) does not carry over
    const dev = openInput('/dev/zero', io, slot);
    const buf = Buffer.alloc(4096);
    expect(dev.read(buf, 0, buf.length)).toBe(buf.length);
    expect(() => dev.read(buf, 0, buf.length)).toThrow(/character device, not a regular file/);
    dev.close();
    fs.rmSync(dir, { recursive: true });
  });

  it('a second file is not opened into it while the first is open, and closing twice closes once', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-walked-'));
    fs.writeFileSync(path.join(dir, 'a'), 'a\n');
    fs.writeFileSync(path.join(dir, 'b'), 'b\n');
    const slot = new WalkedFile();
    const a = openInput(path.join(dir, 'a'), io, slot);
    expect(() => openInput(path.join(dir, 'b'), io, slot)).toThrow(/still open/);
    a.close();
    // the descriptor a had may be given to the next open: a stale second close must not close it
    const other = fs.openSync(path.join(dir, 'b'), 'r');
    a.close();
    expect(fs.readSync(other, Buffer.alloc(8), 0, 8, null)).toBe(2);
    fs.closeSync(other);
    fs.rmSync(dir, { recursive: true });
  });

  it('openText through it: the scanner reads each file as a new WalkedFile would', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-walked-'));
    const texts = ['\ufeffalpha\r\nbeta', 'gamma\n', 'no newline'];
    texts.forEach((t, i) => fs.writeFileSync(path.join(dir, `${i}.txt`), t));
    const slot = new WalkedFile();
    texts.forEach((t, i) => {
      const lines = (walked: boolean | WalkedFile): string[] => {
        const text = openText(path.join(dir, `${i}.txt`), io, { walked });
        const out: string[] = [];
        text.scanner.scan((buf, start, end) => {
          out.push(Buffer.from(buf.subarray(start, end)).toString('latin1'));
        });
        text.input.close();
        return out;
      };
      const viaSlot = lines(slot);
      expect(viaSlot).toEqual(lines(true));
      expect(viaSlot.join('')).toBe(Buffer.from(t.replace(/^\ufeff/, '')).toString('latin1'));
    });
    fs.rmSync(dir, { recursive: true });
  });
});
