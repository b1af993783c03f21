import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { LinewiseError } from '../../src/core/errors.js';
import { checkpoint, commitAll, Interrupted, liveTempFiles, resetInterrupted, resolveTarget, settleSignals, TempFile, type WriteFn } from '../../src/io/atomic.js';
import { esc, tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
afterEach(async () => {
  await settleSignals(); // commitAll keeps the signal listeners until then
  resetInterrupted();
});

let n = 0;
/** A fresh subdirectory, so "no temporary file left" can be checked by listing it. */
function dir(): string {
  const d = path.join(tmp.dir, `d${n++}`);
  fs.mkdirSync(d);
  return d;
}

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof LinewiseError) return `${e.code} ${e.exitCode}: ${e.message}`;
    throw e;
  }
  return 'no error';
}

describe('resolveTarget', () => {
  it('refuses standard input, directories, FIFOs, devices and hard links with a clear message', () => {
    const d = dir();
    fs.writeFileSync(path.join(d, 'f'), 'x\n');
    fs.linkSync(path.join(d, 'f'), path.join(d, 'g'));
    execFileSync('mkfifo', [path.join(d, 'fifo')]);
    expect(codeOf(() => resolveTarget('-', d))).toBe('stdin-target 2: standard input cannot be edited in place; name a file');
    expect(codeOf(() => resolveTarget('.', d))).toMatch(/^not-a-file 2: is a directory, not a regular file/);
    expect(codeOf(() => resolveTarget('fifo', d))).toMatch(/^not-a-file 2: is a named pipe, not a regular file/);
    expect(codeOf(() => resolveTarget('/dev/null', d))).toMatch(/^not-a-file 2: is a character device/);
    expect(codeOf(() => resolveTarget('f', d))).toMatch(/^hard-link 2: has 2 hard links; replacing it would split it/);
    expect(codeOf(() => resolveTarget('missing', d))).toBe('enoent 2: no such file or directory');
  });

  it('resolves a symbolic link to the file it points to', () => {
    const d = dir();
    fs.mkdirSync(path.join(d, 'real'));
    fs.writeFileSync(path.join(d, 'real', 'f'), 'x\n');
    fs.symlinkSync('real/f', path.join(d, 'link'));
    expect(resolveTarget('link', d).real).toBe(fs.realpathSync(path.join(d, 'real', 'f')));
  });
});

describe('TempFile', () => {
  it('is created beside the target, exclusively, and renamed over it with its mode', () => {
    const d = dir();
    const f = path.join(d, 'f.txt');
    fs.writeFileSync(f, 'old\n');
    fs.chmodSync(f, 0o640);
    const t = TempFile.create(resolveTarget(f, d));
    expect(path.dirname(t.path)).toBe(fs.realpathSync(d));
    expect(fs.statSync(t.path).mode & 0o777).toBe(0o600);
    t.write(Buffer.from('new\r\n'));
    t.seal();
    commitAll([t]);
    expect(esc(fs.readFileSync(f))).toBe('new\\r\\n');
    expect(fs.statSync(f).mode & 0o777).toBe(0o640);
    expect(fs.readdirSync(d)).toEqual(['f.txt']);
    expect(liveTempFiles()).toBe(0);
  });

  it('leaves nothing behind when a write fails (a full disk), and the target untouched', () => {
    const d = dir();
    const f = path.join(d, 'f.txt');
    fs.writeFileSync(f, 'keep me\n');
    let written = 0;
    const full: WriteFn = (fd, buf, off, len) => {
      if (written > 1 << 20) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      const k = fs.writeSync(fd, buf, off, len);
      written += k;
      return k;
    };
    const t = TempFile.create(resolveTarget(f, d), full);
    let error = '';
    try {
      for (let i = 0; i < 4; i++) t.write(Buffer.alloc(1 << 20, 0x61));
      t.seal();
    } catch (e) {
      error = (e as LinewiseError).message;
    } finally {
      t.discard();
    }
    expect(error).toBe('cannot write the new content (no space left on device); the file was left as it was');
    expect(fs.readdirSync(d)).toEqual(['f.txt']);
    expect(fs.readFileSync(f, 'utf8')).toBe('keep me\n');
  });

  it('refuses to rename over a file that changed after it was examined (exit 3)', () => {
    const d = dir();
    const f = path.join(d, 'f.txt');
    fs.writeFileSync(f, 'one\n');
    const t = TempFile.create(resolveTarget(f, d));
    t.write(Buffer.from('two\n'));
    t.seal();
    fs.appendFileSync(f, 'more\n');
    expect(codeOf(() => commitAll([t]))).toMatch(/^changed 3: the file changed while the edit was prepared; nothing was written/);
    t.discard();
    expect(fs.readFileSync(f, 'utf8')).toBe('one\nmore\n');
    expect(fs.readdirSync(d)).toEqual(['f.txt']);
  });

  it('checks every file before renaming any', () => {
    const d = dir();
    const [a, b] = ['a', 'b'].map((x) => path.join(d, x));
    fs.writeFileSync(a!, 'a\n');
    fs.writeFileSync(b!, 'b\n');
    const ta = TempFile.create(resolveTarget(a!, d));
    const tb = TempFile.create(resolveTarget(b!, d));
    for (const t of [ta, tb]) {
      t.write(Buffer.from('new\n'));
      t.seal();
    }
    fs.writeFileSync(b!, 'B\n');
    expect(codeOf(() => commitAll([ta, tb]))).toMatch(/^changed 3/);
    ta.discard();
    tb.discard();
    expect(fs.readFileSync(a!, 'utf8')).toBe('a\n');
    expect(fs.readdirSync(d).sort()).toEqual(['a', 'b']);
  });

  it('removes its file when a signal comes, and the next checkpoint stops the copy', async () => {
    const d = dir();
    const f = path.join(d, 'f.txt');
    fs.writeFileSync(f, 'x\n');
    const t = TempFile.create(resolveTarget(f, d));
    t.write(Buffer.alloc(3 << 20, 0x62));
    expect(fs.readdirSync(d)).toHaveLength(2);
    process.kill(process.pid, 'SIGTERM'); // handled by linewise's listener while a temp file exists
    let caught: unknown;
    try {
      for (let i = 0; i < 100; i++) await checkpoint();
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(Interrupted);
    expect((caught as Interrupted).signal).toBe('SIGTERM');
    expect(fs.readdirSync(d)).toEqual(['f.txt']); // gone before the copy even stopped
    t.discard();
    expect(liveTempFiles()).toBe(0);
    expect(fs.readFileSync(f, 'utf8')).toBe('x\n');
  });
});
