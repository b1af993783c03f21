// patch of hunks with no context lines (diff -U0): refused unless told to go by line numbers alone
// (unidiffZero, as git apply --unidiff-zero), where they cover the whole file aside; so told, placed
// by their stated line alone. Searched for nearby, a removed line could be any equal line and an
// added one any equal line, so a rerun of a deletion removed a second line and -R of it was taken
// for applied, writing nothing.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyPatch, PatchFailedError } from '../../src/index.js';
import { failureMessage } from '../../src/format/patch-report.js';
import { cliWords, libraryWords, mcpWords } from '../../src/surface/words.js';
import { diffFiles, esc, refused, tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
let n = 0;

/** `diff -U0 a/f.txt b/f.txt` of two contents. */
const diffU0 = (before: string, after: string) => diffFiles(tmp.dir, before, after, 0);

function dirWith(content: string): { dir: string; read: () => string } {
  const dir = path.join(tmp.dir, `d${n++}`);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'f.txt'), content);
  return { dir, read: () => esc(fs.readFileSync(path.join(dir, 'f.txt'))) };
}

describe('patch: hunks without context (diff -U0)', () => {
  it('a deletion applies at its line; its rerun never removes an equal line nearby (refused, nothing written)', async () => {
    const patch = diffU0('x\nd\nd\ny\n', 'x\nd\ny\n');
    const f = dirWith('x\nd\nd\ny\n');
    await applyPatch(patch, { directory: f.dir, unidiffZero: true });
    expect(f.read()).toBe(esc('x\nd\ny\n'));
    const again = applyPatch(patch, { directory: f.dir, unidiffZero: true });
    await expect(again).rejects.toBeInstanceOf(PatchFailedError);
    await expect(again).rejects.toMatchObject({ failures: [{ why: expect.stringContaining('no context lines') }] });
    expect(f.read()).toBe(esc('x\nd\ny\n'));
  });

  it('-R of a deletion puts the line back although an equal line stands next to its place; a rerun finds it there', async () => {
    const patch = diffU0('x\nd\nd\ny\n', 'x\nd\ny\n');
    const f = dirWith('x\nd\ny\n');
    const first = await applyPatch(patch, { directory: f.dir, unidiffZero: true, reverse: true });
    expect(first.files[0]!.changed).toBe(true);
    expect(f.read()).toBe(esc('x\nd\nd\ny\n'));
    const again = await applyPatch(patch, { directory: f.dir, unidiffZero: true, reverse: true });
    expect(again.files[0]!.changed).toBe(false);
    expect(f.read()).toBe(esc('x\nd\nd\ny\n'));
  });

  it('a changed line is found applied at its line on a rerun', async () => {
    const patch = diffU0('a\nb\nc\n', 'a\nB\nc\n');
    const f = dirWith('a\nb\nc\n');
    await applyPatch(patch, { directory: f.dir, unidiffZero: true });
    const again = await applyPatch(patch, { directory: f.dir, unidiffZero: true });
    expect(again.files[0]!.hunks[0]!.status).toBe('already');
    expect(f.read()).toBe(esc('a\nB\nc\n'));
  });

  it('a file changed above the hunk: refused rather than applied at a guessed offset', async () => {
    const patch = diffU0('a\nb\nc\n', 'a\nB\nc\n');
    const f = dirWith('new\na\nb\nc\n');
    await expect(applyPatch(patch, { directory: f.dir, unidiffZero: true })).rejects.toBeInstanceOf(PatchFailedError);
    expect(f.read()).toBe(esc('new\na\nb\nc\n'));
  });
});

describe('patch: a hunk without context is refused unless told to go by line numbers alone', () => {
  it('a -U0 diff adding a blank line above another: refused, nothing written (it was "already applied", exit 0, nothing written)', async () => {
    // a valid diff -U0 of a\n\nb -> a\n\n\nb: git apply --unidiff-zero makes the new file of it
    const patch = '--- a/f.txt\n+++ b/f.txt\n@@ -1,0 +2 @@\n+\n';
    const f = dirWith('a\n\nb\n');
    const e = await refused(applyPatch(patch, { directory: f.dir }));
    expect(e.failures).toMatchObject([{ path: 'f.txt', header: '@@ -1,0 +2 @@', contextFree: true, why: expect.stringContaining('no context lines (diff -U0)') }]);
    expect(f.read()).toBe(esc('a\n\nb\n'));
    // --check says the same
    await expect(applyPatch(patch, { directory: f.dir, check: true })).rejects.toBeInstanceOf(PatchFailedError);
    // told to go by line numbers, the added line standing there already is taken as applied (documented)
    const r = await applyPatch(patch, { directory: f.dir, unidiffZero: true });
    expect(r.files[0]!.status).toBe('already');
    expect(f.read()).toBe(esc('a\n\nb\n'));
  });

  it('a diff -U0 of changes inside a file: refused and nothing written, first run and rerun alike; with context the same edit applies', async () => {
    const before = 'a\nb\nc\nd\ne\n';
    const after = 'a\nB\nc\nd\nE\nf\n';
    const f = dirWith(before);
    const zero = diffU0(before, after);
    for (let i = 0; i < 2; i++) {
      const e = await refused(applyPatch(zero, { directory: f.dir }));
      expect(e.failures.map((x) => x.contextFree)).toEqual([true, true]);
      expect(f.read()).toBe(esc(before));
    }
    await applyPatch(diffFiles(tmp.dir, before, after, 1), { directory: f.dir });
    expect(f.read()).toBe(esc(after));
  });

  it('a hunk without context that covers the whole file applies without being told, reruns as applied, and -R gives the old', async () => {
    for (const [before, after] of [
      ['a\n', 'b\n'],
      ['x\r\ny\r\n', 'X\r\nY\r\nZ\r\n'],
      ['only', 'other'],
    ] as const) {
      const patch = diffFiles(tmp.dir, before, after, 3);
      expect(patch.toString('latin1')).not.toMatch(/^ /m); // no context: every line changed
      const f = dirWith(before);
      expect((await applyPatch(patch, { directory: f.dir })).files[0]!.changed).toBe(true);
      expect(f.read()).toBe(esc(after));
      expect((await applyPatch(patch, { directory: f.dir })).files[0]!.status).toBe('already');
      expect(f.read()).toBe(esc(after));
      await applyPatch(patch, { directory: f.dir, reverse: true });
      expect(f.read()).toBe(esc(before));
    }
  });

  it('the same whole-file hunk on a longer file is placed by line numbers only: refused', async () => {
    const f = dirWith('a\nz\n');
    const e = await refused(applyPatch('--- a/f.txt\n+++ b/f.txt\n@@ -1 +1 @@\n-a\n+b\n', { directory: f.dir }));
    expect(e.failures[0]!.contextFree).toBe(true);
    expect(f.read()).toBe(esc('a\nz\n'));
  });

  it('a -U0 diff adding lines above line 1 of a file that holds them already: refused, nothing written (it was "already applied", exit 0)', async () => {
    // diff -U0 of "c" -> "c\nc" (no final newline) adds "c" above line 1: "-0,0" as a whole-file
    // hunk from an empty file would say, whose new side is the file; git apply refuses it too
    const patch = diffU0('c', 'c\nc');
    expect(patch.toString('latin1')).toMatch(/^@@ -0,0 \+1 @@\n\+c\n$/m);
    const f = dirWith('c');
    const e = await refused(applyPatch(patch, { directory: f.dir }));
    expect(e.failures).toMatchObject([{ header: '@@ -0,0 +1 @@', contextFree: true }]);
    expect(fs.readFileSync(path.join(f.dir, 'f.txt'))).toEqual(Buffer.from('c'));
    await expect(applyPatch(patch, { directory: f.dir, check: true })).rejects.toBeInstanceOf(PatchFailedError);
    // the whole-file reading (an empty file given a line, ending as its new side says) still
    // applies to the empty file, and its rerun finds it applied, nothing written
    const g = dirWith('');
    await applyPatch(patch, { directory: g.dir });
    expect(fs.readFileSync(path.join(g.dir, 'f.txt'))).toEqual(Buffer.from('c\n'));
    expect((await applyPatch(patch, { directory: g.dir })).files[0]!.status).toBe('already');
    expect(fs.readFileSync(path.join(g.dir, 'f.txt'))).toEqual(Buffer.from('c\n'));
  });

  it('a hunk whose kept lines stand only between its changes has context: not refused as without it', async () => {
    // diff -u of a file whose first and last lines changed: one hunk, " x" its only kept line
    const patch = diffFiles(tmp.dir, 'a\nx\nb\n', 'A\nx\nB\n', 1);
    expect(patch.toString('latin1')).toMatch(/^@@ -1,3 \+1,3 @@\n-a\n\+A\n x\n-b\n\+B\n$/m);
    // the file grew below it since: placed by its context, as any hunk ending at the file's end
    const f = dirWith('a\nx\nb\nz\n');
    await applyPatch(patch, { directory: f.dir });
    expect(fs.readFileSync(path.join(f.dir, 'f.txt'))).toEqual(Buffer.from('A\nx\nB\nz\n'));
    expect((await applyPatch(patch, { directory: f.dir })).files[0]!.status).toBe('already');
    expect(fs.readFileSync(path.join(f.dir, 'f.txt'))).toEqual(Buffer.from('A\nx\nB\nz\n'));
    // changed at its place: refused for what differs, not for lack of context
    const g = dirWith('a\ny\nb\nz\n');
    const e = await refused(applyPatch(patch, { directory: g.dir }));
    expect(e.failures[0]!.contextFree).toBeUndefined();
    expect(e.failures[0]!.why).not.toMatch(/no context lines/);
    expect(fs.readFileSync(path.join(g.dir, 'f.txt'))).toEqual(Buffer.from('a\ny\nb\nz\n'));
  });

  it('envelope hunks are placed by their lines, not by numbers: not refused for lack of context', async () => {
    const f = dirWith('a\nb\nc\n');
    await applyPatch('*** Begin Patch\n*** Update File: f.txt\n@@\n-b\n+B\n*** End Patch\n', { directory: f.dir });
    expect(f.read()).toBe(esc('a\nB\nc\n'));
  });

  it('the refusal names the option as each surface calls it', async () => {
    const f = dirWith('a\n\nb\n');
    const e = await refused(applyPatch('--- a/f.txt\n+++ b/f.txt\n@@ -1,0 +2 @@\n+\n', { directory: f.dir }));
    const [x] = e.failures;
    expect(failureMessage(x!, cliWords('patch'))).toMatch(/allow placing by line numbers alone \(--unidiff-zero\)$/);
    expect(failureMessage(x!, mcpWords('patch', 'apply_patch'))).toMatch(/\(unidiff_zero: true\)$/);
    expect(failureMessage(x!, libraryWords('patch'))).toMatch(/\(unidiffZero: true\)$/);
  });
});
