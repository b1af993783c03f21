// apply_patch envelopes run twice: a hunk whose kept lines are its old side alone (it only adds
// lines beside them) still finds its old lines after it applied, inside the new ones. Taken for a
// place to apply, the rerun added the lines a second time (exit 0); they are the new lines' own.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyPatch, PatchFailedError } from '../../src/index.js';
import { esc, tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
let n = 0;

const envelope = (body: string) => Buffer.from(`*** Begin Patch\n*** Update File: f.txt\n${body}*** End Patch\n`);

/** Applies `patch` to a file holding `before` twice: the bytes after each run, and whether the second changed anything. */
async function twice(before: string, patch: Buffer): Promise<{ first: string; second: string; changed: boolean }> {
  const dir = path.join(tmp.dir, `d${n++}`);
  fs.mkdirSync(dir);
  const f = path.join(dir, 'f.txt');
  fs.writeFileSync(f, before);
  await applyPatch(patch, { directory: dir });
  const first = esc(fs.readFileSync(f));
  const again = await applyPatch(patch, { directory: dir });
  return { first, second: esc(fs.readFileSync(f)), changed: again.files[0]!.changed };
}

describe('apply_patch envelopes run twice', () => {
  it('a line added below a kept line: the rerun writes nothing', async () => {
    const r = await twice('a\nc\n', envelope('@@\n a\n+b\n'));
    expect(r.first).toBe(esc('a\nb\nc\n'));
    expect(r).toMatchObject({ second: r.first, changed: false });
  });

  it('a line added above a kept line: the rerun writes nothing', async () => {
    const r = await twice('a\nc\n', envelope('@@\n+b\n a\n'));
    expect(r.first).toBe(esc('b\na\nc\n'));
    expect(r).toMatchObject({ second: r.first, changed: false });
  });

  it('below a @@ line: the rerun writes nothing', async () => {
    const r = await twice('def f():\n    x = 1\n', envelope('@@ def f():\n     x = 1\n+    y = 2\n'));
    expect(r.first).toBe(esc('def f():\n    x = 1\n    y = 2\n'));
    expect(r).toMatchObject({ second: r.first, changed: false });
  });

  it('at the end of the file (*** End of File), a line added above the kept last line: the rerun writes nothing', async () => {
    const r = await twice('a\nb\n', envelope('@@\n+c\n b\n*** End of File\n'));
    expect(r.first).toBe(esc('a\nc\nb\n'));
    expect(r).toMatchObject({ second: r.first, changed: false });
  });

  it('the first of two equal places below a @@ line: applied there once, and the rerun is refused rather than applied at the second', async () => {
    const dir = path.join(tmp.dir, `d${n++}`);
    fs.mkdirSync(dir);
    const f = path.join(dir, 'f.txt');
    fs.writeFileSync(f, 'A\nc1\nd\nc2\nx\nc1\nd\nc2\n');
    const patch = envelope('@@ A\n c1\n-d\n+D\n c2\n');
    await applyPatch(patch, { directory: dir });
    const once = 'A\nc1\nD\nc2\nx\nc1\nd\nc2\n';
    expect(esc(fs.readFileSync(f))).toBe(esc(once));
    await expect(applyPatch(patch, { directory: dir })).rejects.toBeInstanceOf(PatchFailedError);
    expect(esc(fs.readFileSync(f))).toBe(esc(once));
  });
});
