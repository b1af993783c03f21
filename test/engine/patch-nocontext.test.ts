// patch of hunks with no context lines (diff -U0): placed by their stated line alone. Searched for
// nearby, a removed line could be any equal line and an added one any equal line, so a rerun of a
// deletion removed a second line and -R of it was taken for applied, writing nothing.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyPatch, PatchFailedError } from '../../src/index.js';
import { diffFiles, esc, tempDir } from '../helpers.js';

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
    await applyPatch(patch, { directory: f.dir });
    expect(f.read()).toBe(esc('x\nd\ny\n'));
    const again = applyPatch(patch, { directory: f.dir });
    await expect(again).rejects.toBeInstanceOf(PatchFailedError);
    await expect(again).rejects.toMatchObject({ failures: [{ why: expect.stringContaining('no context lines') }] });
    expect(f.read()).toBe(esc('x\nd\ny\n'));
  });

  it('-R of a deletion puts the line back although an equal line stands next to its place; a rerun finds it there', async () => {
    const patch = diffU0('x\nd\nd\ny\n', 'x\nd\ny\n');
    const f = dirWith('x\nd\ny\n');
    const first = await applyPatch(patch, { directory: f.dir, reverse: true });
    expect(first.files[0]!.changed).toBe(true);
    expect(f.read()).toBe(esc('x\nd\nd\ny\n'));
    const again = await applyPatch(patch, { directory: f.dir, reverse: true });
    expect(again.files[0]!.changed).toBe(false);
    expect(f.read()).toBe(esc('x\nd\nd\ny\n'));
  });

  it('a changed line is found applied at its line on a rerun', async () => {
    const patch = diffU0('a\nb\nc\n', 'a\nB\nc\n');
    const f = dirWith('a\nb\nc\n');
    await applyPatch(patch, { directory: f.dir });
    const again = await applyPatch(patch, { directory: f.dir });
    expect(again.files[0]!.hunks[0]!.status).toBe('already');
    expect(f.read()).toBe(esc('a\nB\nc\n'));
  });

  it('a file changed above the hunk: refused rather than applied at a guessed offset', async () => {
    const patch = diffU0('a\nb\nc\n', 'a\nB\nc\n');
    const f = dirWith('new\na\nb\nc\n');
    await expect(applyPatch(patch, { directory: f.dir })).rejects.toBeInstanceOf(PatchFailedError);
    expect(f.read()).toBe(esc('new\na\nb\nc\n'));
  });
});
