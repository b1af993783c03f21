// patch's write of a changed file in pieces (views of the file read, the added lines between):
// every piece reaches the temporary file whole even when write(2) takes only part of one, and a
// failure in the middle of a file's pieces leaves every file of the patch as it was, with no
// temporary file behind.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LinewiseError } from '../../src/core/errors.js';
import { applyPatch } from '../../src/index.js';
import { liveTempFiles, type WriteFn } from '../../src/io/temp-file.js';
import { esc, tempDir, tree, writeTree } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

let n = 0;
const fresh = () => {
  const d = path.join(tmp.dir, `d${n++}`);
  fs.mkdirSync(d);
  return d;
};

/** 40,000 lines of 80 bytes (3.2 MB): three hunks cut it in stretches of more than 1 MiB. */
const BIG = Array.from({ length: 40_000 }, (_, i) => `${String(i).padStart(6, '0')} ${'x'.repeat(72)}\n`);
const changed = (lines: string[], at: number[]) => lines.map((l, i) => (at.includes(i) ? `CHANGED ${l}` : l)).join('');

const BEFORE: Record<string, Buffer> = {
  'a.txt': Buffer.from('one\ntwo\nthree\n'),
  'big.txt': Buffer.from(BIG.join('')),
  // a mark and CRLF: the mark is one more piece (the hunk's context stops short of line 1, which
  // diff shows with the mark)
  'c.txt': Buffer.from('\ufeffalpha\r\nbeta\r\ngamma\r\ndelta\r\nepsilon\r\nzeta\r\n'),
};
const AFTER: Record<string, Buffer> = {
  'a.txt': Buffer.from('one\nTWO\nthree\n'),
  'big.txt': Buffer.from(changed(BIG, [4, 20_000, 39_990])),
  'c.txt': Buffer.from('\ufeffalpha\r\nbeta\r\ngamma\r\ndelta\r\nEPSILON\r\nzeta\r\n'),
};

/** `diff -u` of each file, one patch (diff's own output). */
function patchOf(): Buffer {
  const d = fresh();
  writeTree(path.join(d, 'a'), BEFORE);
  writeTree(path.join(d, 'b'), AFTER);
  const parts = Object.keys(BEFORE).map((name) => {
    const r = spawnSync('diff', ['-u', `a/${name}`, `b/${name}`], { cwd: d, maxBuffer: 1 << 26 });
    if (r.status !== 1) throw new Error(`diff failed: ${r.stderr}`);
    return r.stdout;
  });
  return Buffer.concat(parts);
}
const PATCH = patchOf();

const temps = (d: string) => fs.readdirSync(d).filter((f) => f.endsWith('.tmp'));

describe('patch: a changed file written in pieces', () => {
  it('write(2) taking 4,097 bytes at a time: every piece is written whole, the files are the new ones; a rerun writes nothing', async () => {
    const d = writeTree(fresh(), BEFORE);
    let calls = 0;
    const short: WriteFn = (fd, buf, off, len) => {
      calls++;
      return fs.writeSync(fd, buf, off, Math.min(len, 4097));
    };
    const r = await applyPatch(PATCH, { directory: d, writeFn: short });
    expect(r.files.map((f) => [f.path, f.written])).toEqual([
      ['a.txt', true],
      ['big.txt', true],
      ['c.txt', true],
    ]);
    expect(calls).toBeGreaterThan(AFTER['big.txt']!.length / 4097);
    for (const [name, want] of Object.entries(AFTER)) expect(esc(fs.readFileSync(path.join(d, name)))).toBe(esc(want));
    const st = fs.statSync(path.join(d, 'big.txt'), { bigint: true });
    const again = await applyPatch(PATCH, { directory: d, writeFn: short });
    expect(again.files.every((f) => f.status === 'already' && !f.written)).toBe(true);
    const st2 = fs.statSync(path.join(d, 'big.txt'), { bigint: true });
    expect([st2.ino, st2.mtimeNs]).toEqual([st.ino, st.mtimeNs]);
    expect(temps(d)).toEqual([]);
  });

  it('a write failing between two pieces of the large file: no file changes, no temporary file is left, exit 2 with the reason', async () => {
    const d = writeTree(fresh(), BEFORE);
    const snap = tree(d);
    const sizes: number[] = [];
    let large = 0;
    // the second stretch of 1 MiB or more: big.txt's pieces are under way, a.txt's file is sealed
    const failing: WriteFn = (fd, buf, off, len) => {
      if (len >= 1 << 20 && ++large === 2) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
      sizes.push(len);
      return fs.writeSync(fd, buf, off, len);
    };
    const e = await applyPatch(PATCH, { directory: d, writeFn: failing }).then(
      () => new Error('the patch applied') as Error & { exitCode?: number },
      (x: unknown) => x as Error & { exitCode?: number },
    );
    expect(e).toBeInstanceOf(LinewiseError);
    expect(e.message).toMatch(/cannot write the new content .*no space left on device.*; the file was left as it was/);
    expect(e.exitCode).toBe(2);
    // big.txt had written pieces before the failure: the first stretch, a hunk's line
    expect(sizes.filter((s) => s >= 1 << 20).length).toBe(1);
    expect(sizes.length).toBeGreaterThanOrEqual(3);
    expect(tree(d)).toEqual(snap);
    expect(temps(d)).toEqual([]);
    expect(liveTempFiles()).toBe(0);
  });

  it('a rename with a hunk: the new name gets the mark and the pieces, the old name goes', async () => {
    const d = writeTree(fresh(), BEFORE);
    const patch = ['diff --git a/c.txt b/d.txt', 'similarity index 80%', 'rename from c.txt', 'rename to d.txt', '--- a/c.txt', '+++ b/d.txt', '@@ -4,3 +4,3 @@', ' delta', '-epsilon', '+EPSILON', ' zeta', ''].join('\n');
    await applyPatch(patch, { directory: d });
    expect(esc(fs.readFileSync(path.join(d, 'd.txt')))).toBe(esc(AFTER['c.txt']!));
    expect(fs.existsSync(path.join(d, 'c.txt'))).toBe(false);
    expect(temps(d)).toEqual([]);
  });

  it('without faults: the same bytes as the files diff was made from', async () => {
    const d = writeTree(fresh(), BEFORE);
    await applyPatch(PATCH, { directory: d });
    for (const [name, want] of Object.entries(AFTER)) expect(fs.readFileSync(path.join(d, name)).equals(want)).toBe(true);
  });
});
