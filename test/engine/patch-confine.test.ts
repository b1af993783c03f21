// applyPatch's `confine` hook, as the MCP server will pass its roots: every path is checked against
// it after links are followed (on top of the directory's own), and a changed file is read and
// written through its directory held open.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { LinewiseError } from '../../src/core/errors.js';
import type { Confinement } from '../../src/io/confine.js';
import { applyPatch } from '../../src/index.js';
import { newFileTestHooks } from '../../src/io/new-file.js';
import { tempDir, tree, writeTree } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

/** Allows the real paths under `root` only. */
function under(root: string): Confinement {
  const real = fs.realpathSync(root);
  return {
    allows: (p) => p === real || p.startsWith(real + path.sep),
    refuse: (name, p) => new LinewiseError('outside-roots', `is outside the roots (${p ?? 'unknown'})`, name),
  };
}

it('paths outside the confinement are refused before anything is read; inside, the patch applies', async () => {
  const d = writeTree(path.join(tmp.dir, 'c'), { 'root/a.txt': 'one\ntwo\n', 'other/b.txt': 'one\n' });
  const snap = tree(d);
  const confine = under(path.join(d, 'root'));
  await expect(applyPatch('--- a/root/a.txt\n+++ b/root/a.txt\n@@ -1 +1 @@\n-one\n+ONE\n--- a/other/b.txt\n+++ b/other/b.txt\n@@ -1 +1 @@\n-one\n+ONE\n', { directory: d, confine })).rejects.toMatchObject({
    code: 'outside-roots',
    path: 'other/b.txt',
  });
  expect(tree(d)).toEqual(snap);
  const r = await applyPatch('--- a/root/a.txt\n+++ b/root/a.txt\n@@ -1,2 +1,2 @@\n-one\n+ONE\n two\n--- /dev/null\n+++ b/root/new.txt\n@@ -0,0 +1 @@\n+new\n', { directory: d, confine });
  expect(r.files.map((f) => [f.path, f.written])).toEqual([
    ['root/a.txt', true],
    ['root/new.txt', true],
  ]);
  expect(tree(path.join(d, 'root'))).toEqual({ 'a.txt': 'ONE\\ntwo\\n', 'new.txt': 'new\\n' });
});

it('a new file whose directory is swapped for a link to outside after the paths were checked: refused, nothing written anywhere', async () => {
  const d = writeTree(path.join(tmp.dir, 'swap'), { 'root/sub/a.txt': 'one\n', 'outside/keep.txt': 'mine\n' });
  const outside = path.join(d, 'outside');
  const before = tree(outside);
  const confine = under(path.join(d, 'root'));
  newFileTestHooks.beforeWrite = () => {
    newFileTestHooks.beforeWrite = undefined;
    fs.renameSync(path.join(d, 'root', 'sub'), path.join(d, 'root', 'sub-moved'));
    fs.symlinkSync(outside, path.join(d, 'root', 'sub'));
  };
  try {
    await expect(applyPatch('--- /dev/null\n+++ b/sub/new.txt\n@@ -0,0 +1 @@\n+new\n', { directory: path.join(d, 'root'), confine })).rejects.toMatchObject({ code: 'outside-roots' });
  } finally {
    newFileTestHooks.beforeWrite = undefined;
  }
  expect(tree(outside)).toEqual(before);
  expect(tree(path.join(d, 'root', 'sub-moved'))).toEqual({ 'a.txt': 'one\\n' });
});

it('a new file\'s mode from the patch is set before it has its name, and a new directory is made inside the confinement', async () => {
  const d = writeTree(path.join(tmp.dir, 'mode'), { 'root/keep.txt': 'x\n' });
  const confine = under(path.join(d, 'root'));
  const r = await applyPatch('diff --git a/deep/er/run.sh b/deep/er/run.sh\nnew file mode 100755\n--- /dev/null\n+++ b/deep/er/run.sh\n@@ -0,0 +1 @@\n+echo hi\n', { directory: path.join(d, 'root'), confine });
  expect(r.files.map((f) => [f.path, f.status, f.written])).toEqual([['deep/er/run.sh', 'applied', true]]);
  expect(fs.statSync(path.join(d, 'root', 'deep', 'er', 'run.sh')).mode & 0o777).toBe(0o755);
  expect(fs.readFileSync(path.join(d, 'root', 'deep', 'er', 'run.sh'), 'latin1')).toBe('echo hi\n');
});
