// The temporary file an edit streams into, and the commit that renames it: created beside the
// target, mode kept, nothing left behind on a failed write, nothing renamed over a changed file.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LinewiseError } from '../../src/core/errors.js';
import { commitAll } from '../../src/io/commit.js';
import { resolveTarget } from '../../src/io/edit-target.js';
import { besideName, liveTempFiles, randomHex, TempFile, type WriteFn } from '../../src/io/temp-file.js';
import { esc, tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

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


async function codeOfAsync(f: () => Promise<unknown>): Promise<string> {
  try {
    await f();
  } catch (e) {
    if (e instanceof LinewiseError) return `${e.code} ${e.exitCode}: ${e.message}`;
    throw e;
  }
  return 'no error';
}

describe('TempFile', () => {
  it('is created beside the target, exclusively, and renamed over it with its mode', async () => {
    const d = dir();
    const f = path.join(d, 'f.txt');
    fs.writeFileSync(f, 'old\n');
    fs.chmodSync(f, 0o640);
    const t = TempFile.create(resolveTarget(f, d));
    expect(path.dirname(t.path)).toBe(fs.realpathSync(d));
    expect(fs.statSync(t.path).mode & 0o777).toBe(0o600);
    t.write(Buffer.from('new\r\n'));
    t.seal();
    await commitAll([t]);
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

  it('refuses to rename over a file that changed after it was examined (exit 3)', async () => {
    const d = dir();
    const f = path.join(d, 'f.txt');
    fs.writeFileSync(f, 'one\n');
    const t = TempFile.create(resolveTarget(f, d));
    t.write(Buffer.from('two\n'));
    t.seal();
    fs.appendFileSync(f, 'more\n');
    expect(await codeOfAsync(() => commitAll([t]))).toMatch(/^changed 3: the file changed while the edit was prepared; nothing was written/);
    t.discard();
    expect(fs.readFileSync(f, 'utf8')).toBe('one\nmore\n');
    expect(fs.readdirSync(d)).toEqual(['f.txt']);
  });

  it('checks every file before renaming any', async () => {
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
    expect(await codeOfAsync(() => commitAll([ta, tb]))).toMatch(/^changed 3/);
    ta.discard();
    tb.discard();
    expect(fs.readFileSync(a!, 'utf8')).toBe('a\n');
    expect(fs.readdirSync(d).sort()).toEqual(['a', 'b']);
  });
});

describe('besideName', () => {
  it('keeps helper file names within 255 bytes whatever the script, cutting on a character', () => {
    const d = dir();
    const long = 'é'.repeat(120); // 240 bytes
    const f = path.join(d, long);
    fs.writeFileSync(f, 'x\n');
    const name = path.basename(besideName(resolveTarget(f, d), '.linewise-0123456789abcdef.tmp'));
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
    expect(name.endsWith('.linewise-0123456789abcdef.tmp')).toBe(true);
    expect(name).not.toContain('\ufffd');
    const cjk = path.join(d, '漢'.repeat(76)); // 228 bytes: the temporary name once failed with "file name too long"
    fs.writeFileSync(cjk, 'x\n');
    const t = TempFile.create(resolveTarget(cjk, d));
    t.discard();
    expect(liveTempFiles()).toBe(0);
  });
});

describe('randomHex', () => {
  it('gives 16 hex digits a name, never the same twice, across the bytes drawn ahead', () => {
    const names = Array.from({ length: 300 }, () => randomHex()); // more than one pool's worth (128)
    expect(names.every((n) => /^[0-9a-f]{16}$/.test(n))).toBe(true);
    expect(new Set(names).size).toBe(names.length);
  });
});
