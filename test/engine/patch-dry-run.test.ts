// patch --dry-run's diff (engine/patch-diff.ts landedDiff), made from where the hunks landed: for
// a hunk with far more context than changes it shows the changes alone, as diff -u of the two
// files would; lines added after a last line without a terminator show that line gaining one.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyPatch } from '../../src/index.js';
import { diffFiles, esc, tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
let n = 0;

/** A directory holding f.txt with `before`, and the dry run's diff of `patch` applied there. */
async function dryRun(before: Buffer, patch: Buffer, o: { unidiffZero?: boolean } = {}): Promise<{ dir: string; diff: Buffer }> {
  const dir = path.join(tmp.dir, `d${n++}`);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'f.txt'), before);
  const r = await applyPatch(patch, { directory: dir, dryRun: true, ...o });
  expect(esc(fs.readFileSync(path.join(dir, 'f.txt')))).toBe(esc(before));
  return { dir, diff: r.files[0]!.diff! };
}

/** `diff -U CONTEXT a/f.txt b/f.txt` of two contents. */
const diffU = (before: Buffer, after: Buffer, context: number) => diffFiles(tmp.dir, before, after, context);

/** The changed lines of a diff (not its ---/+++ header). */
const changes = (d: Buffer) => d.toString('latin1').split('\n').filter((l) => /^[-+](?![-+]{2} )/.test(l));

const numbered = (count: number, change: (i: number) => boolean) => Buffer.from(Array.from({ length: count }, (_, i) => `line ${i}${change(i) ? ' changed' : ''}\r\n`).join(''));

describe('patch --dry-run', () => {
  it('a hunk with 2,000 lines of context around one change shows that change alone', async () => {
    const before = numbered(1500, () => false);
    const after = numbered(1500, (i) => i === 700);
    const { diff } = await dryRun(before, diffU(before, after, 2000));
    expect(changes(diff)).toEqual(['-line 700\r', '+line 700 changed\r']);
    // the same hunk as diff -u's (its header aside, which carries times)
    const hunksOf = (d: Buffer) => d.subarray(d.indexOf('\n@@') + 1);
    expect(esc(hunksOf(diff))).toBe(esc(hunksOf(diffU(before, after, 3))));
  });

  it('one hunk changing every 5th of 1,200 lines shows those 240 changes, not every line', async () => {
    const before = numbered(1200, () => false);
    const after = numbered(1200, (i) => i % 5 === 0);
    const { diff } = await dryRun(before, diffU(before, after, 3));
    expect(changes(diff).filter((l) => l.startsWith('-')).length).toBe(240);
    expect(changes(diff).filter((l) => l.startsWith('+')).length).toBe(240);
  });

  it('lines added after a last line without a terminator: that line shows gaining one, the file still ends without one, and the diff gives what a run writes', async () => {
    const before = Buffer.from('a\nb');
    const { dir, diff } = await dryRun(before, Buffer.from('--- a/f.txt\n+++ b/f.txt\n@@ -2,0 +3 @@\n+c\n'), { unidiffZero: true });
    expect(esc(diff)).toBe(esc(Buffer.from('--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,3 @@\n a\n-b\n\\ No newline at end of file\n+b\n+c\n\\ No newline at end of file\n')));
    await applyPatch(Buffer.from('--- a/f.txt\n+++ b/f.txt\n@@ -2,0 +3 @@\n+c\n'), { directory: dir, unidiffZero: true });
    const again = path.join(tmp.dir, `d${n++}`);
    fs.mkdirSync(again);
    fs.writeFileSync(path.join(again, 'f.txt'), before);
    await applyPatch(diff, { directory: again });
    expect(esc(fs.readFileSync(path.join(again, 'f.txt')))).toBe(esc(fs.readFileSync(path.join(dir, 'f.txt'))));
    expect(esc(fs.readFileSync(path.join(dir, 'f.txt')))).toBe('a\\nb\\nc');
  });

  it('a file created or deleted: every line added or removed in one hunk, byte for byte as diff -u against an empty file writes it', async () => {
    for (const text of ['a\r\nb', 'a\nb\n', 'x', 'caf\xe9\rlone\n\n', '\n']) {
      const bytes = Buffer.from(text, 'latin1');
      // diff -u writes a count of 1 as "+1"; linewise, as the diff package did before, "+1,1"
      const hunksOf = (d: Buffer) => Buffer.from(d.subarray(d.indexOf('\n@@') + 1).toString('latin1').replace(/^@@ -0,0 \+1 @@/, '@@ -0,0 +1,1 @@').replace(/^@@ -1 \+0,0 @@/, '@@ -1,1 +0,0 @@'), 'latin1');
      const dir = path.join(tmp.dir, `w${n++}`);
      fs.mkdirSync(dir);
      const created = await applyPatch(Buffer.concat([Buffer.from('--- /dev/null\n+++ b/new.txt\n'), hunksOf(diffU(Buffer.alloc(0), bytes, 3))]), { directory: dir, dryRun: true });
      expect(esc(created.files[0]!.diff!)).toBe(esc(Buffer.concat([Buffer.from('--- /dev/null\n+++ b/new.txt\n'), hunksOf(diffU(Buffer.alloc(0), bytes, 3))])));
      expect(fs.existsSync(path.join(dir, 'new.txt'))).toBe(false);
      fs.writeFileSync(path.join(dir, 'old.txt'), bytes);
      const deleted = await applyPatch(Buffer.concat([Buffer.from('--- a/old.txt\n+++ /dev/null\n'), hunksOf(diffU(bytes, Buffer.alloc(0), 3))]), { directory: dir, dryRun: true });
      expect(esc(deleted.files[0]!.diff!)).toBe(esc(Buffer.concat([Buffer.from('--- a/old.txt\n+++ /dev/null\n'), hunksOf(diffU(bytes, Buffer.alloc(0), 3))])));
      expect(esc(fs.readFileSync(path.join(dir, 'old.txt')))).toBe(esc(bytes));
    }
  });
});
