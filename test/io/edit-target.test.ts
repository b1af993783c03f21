// The file an edit replaces: what is refused before a byte is read, and links written through.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LinewiseError } from '../../src/core/errors.js';
import { resolveTarget } from '../../src/io/edit-target.js';
import { tempDir } from '../helpers.js';

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
