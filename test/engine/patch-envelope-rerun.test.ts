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

  /** Applies `patch` to `before`: refused (nothing written), and the file as it was. */
  async function refusedOn(before: string, patch: Buffer): Promise<void> {
    const dir = path.join(tmp.dir, `d${n++}`);
    fs.mkdirSync(dir);
    const f = path.join(dir, 'f.txt');
    fs.writeFileSync(f, before);
    await expect(applyPatch(patch, { directory: dir })).rejects.toBeInstanceOf(PatchFailedError);
    expect(esc(fs.readFileSync(f))).toBe(esc(before));
  }

  it('a hunk that, applied, would leave its old lines where it applies again is refused (its rerun would apply it again)', async () => {
    // removing one of two equal lines with context on one side only
    await refusedOn('x\nb\ny\na\na\nx\n', envelope('@@ b\n-y\n-a\n+y\n'));
    // the removal brings two lines together that are its old lines
    await refusedOn('a\na\nc\nc\nx\n', envelope('@@\n-a\n-c\n'));
    // at the end: the line before the removed last line is the same line
    await refusedOn('y\na\na\n', envelope('@@\n-a\n*** End of File\n'));
    // no new lines below a @@ line with two places: nothing would show where it applied
    await refusedOn('y\nd\na\nx\nd\n', envelope('@@ y\n-d\n'));
  });

  it('the same hunks where they can be told: applied once, and the rerun writes nothing', async () => {
    const r1 = await twice('x\nb\ny\na\nz\n', envelope('@@ b\n-y\n-a\n+y\n'));
    expect(r1.first).toBe(esc('x\nb\ny\nz\n'));
    expect(r1).toMatchObject({ second: r1.first, changed: false });
    // a last line removed with no line kept: applied where it can be told; its rerun has nothing to
    // find (no new lines), so it is refused rather than guessed, and writes nothing
    const dir = path.join(tmp.dir, `d${n++}`);
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'f.txt'), 'y\na\n');
    const eof = envelope('@@\n-a\n*** End of File\n');
    await applyPatch(eof, { directory: dir });
    expect(esc(fs.readFileSync(path.join(dir, 'f.txt')))).toBe(esc('y\n'));
    await refusedOn('y\n', eof);
  });

  it("two hunks, the second's new lines making a second place for the first's old lines: the rerun writes nothing", async () => {
    const patch = envelope('@@\n+b\n w\n@@\n-b\n+w\n+b\n z\n c\n');
    const dir = path.join(tmp.dir, `d${n++}`);
    fs.mkdirSync(dir);
    const f = path.join(dir, 'f.txt');
    fs.writeFileSync(f, 'w\r\nb\r\nz\r\nc\r\n');
    await applyPatch(patch, { directory: dir });
    const once = esc(fs.readFileSync(f));
    expect(once).toBe(esc('b\r\nw\r\nw\r\nb\r\nz\r\nc\r\n'));
    await applyPatch(patch, { directory: dir }).catch((e: unknown) => {
      if (!(e instanceof PatchFailedError)) throw e;
    });
    expect(esc(fs.readFileSync(f))).toBe(once);
  });
});
