// applyPatch's `confine` hook, as the MCP server will pass its roots: every path is checked against
// it after links are followed (on top of the directory's own), and a changed file is read and
// written through its directory held open.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { LinewiseError } from '../../src/core/errors.js';
import type { Confinement } from '../../src/io/confine.js';
import { applyPatch } from '../../src/index.js';
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
