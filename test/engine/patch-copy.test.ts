// patch of git diff's copies (`copy from` / `copy to`, with hunks or without): the copy is made
// from the source as the hunks leave it, the source untouched, and a rerun finds it made.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyPatch } from '../../src/index.js';
import { esc, tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
let n = 0;

const SOURCE = 'one\r\ntwo\r\nthree\r\nfour\r\nfive\r\nsix\r\n';
const WITH_HUNK = 'diff --git a/a.txt b/b.txt\nsimilarity index 80%\ncopy from a.txt\ncopy to b.txt\n--- a/a.txt\n+++ b/b.txt\n@@ -4,3 +4,3 @@\n four\n five\n-six\n+SIX\n';
const WHOLE = 'diff --git a/a.txt b/c.txt\nsimilarity index 100%\ncopy from a.txt\ncopy to c.txt\n';

function dirWith(files: Record<string, string>): string {
  const dir = path.join(tmp.dir, `d${n++}`);
  fs.mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text, 'latin1');
  return dir;
}
const read = (dir: string, name: string) => fs.readFileSync(path.join(dir, name));

describe('patch: a copy', () => {
  it('with a hunk: the copy is the source patched (CRLF kept), the source untouched; a rerun writes nothing and exits 0', async () => {
    const dir = dirWith({ 'a.txt': SOURCE });
    await applyPatch(WITH_HUNK, { directory: dir });
    expect(esc(read(dir, 'b.txt'))).toBe(esc(Buffer.from(SOURCE.replace('six', 'SIX'))));
    expect(esc(read(dir, 'a.txt'))).toBe(esc(Buffer.from(SOURCE)));
    const st = fs.statSync(path.join(dir, 'b.txt'), { bigint: true });
    const again = await applyPatch(WITH_HUNK, { directory: dir });
    expect(again.files[0]).toMatchObject({ status: 'already', written: false, from: 'a.txt', path: 'b.txt' });
    const st2 = fs.statSync(path.join(dir, 'b.txt'), { bigint: true });
    expect([st2.ino, st2.mtimeNs]).toEqual([st.ino, st.mtimeNs]);
  });

  it('without hunks: a rerun finds the copy made', async () => {
    const dir = dirWith({ 'a.txt': SOURCE });
    await applyPatch(WHOLE, { directory: dir });
    expect(esc(read(dir, 'c.txt'))).toBe(esc(Buffer.from(SOURCE)));
    expect((await applyPatch(WHOLE, { directory: dir })).files[0]!.status).toBe('already');
  });

  it('-R deletes the copy only when it is the copy (its hunks undone, the source byte for byte); else exit 3, nothing deleted', async () => {
    for (const [patch, name, copy] of [
      [WITH_HUNK, 'b.txt', SOURCE.replace('six', 'SIX')],
      [WHOLE, 'c.txt', SOURCE],
    ] as const) {
      const dir = dirWith({ 'a.txt': SOURCE, [name]: copy });
      await applyPatch(patch, { directory: dir, reverse: true });
      expect(fs.existsSync(path.join(dir, name))).toBe(false);
      expect(esc(read(dir, 'a.txt'))).toBe(esc(Buffer.from(SOURCE)));
      expect((await applyPatch(patch, { directory: dir, reverse: true })).files[0]!.status).toBe('already');
      // a file of that name with other content (the user's own work) is not deleted
      for (const other of [`${copy}one more line\r\n`, "someone's own work\n"]) {
        fs.writeFileSync(path.join(dir, name), other);
        await expect(applyPatch(patch, { directory: dir, reverse: true })).rejects.toMatchObject({ exitCode: 3 });
        expect(read(dir, name).toString('latin1')).toBe(other);
      }
    }
  });

  it('onto a file that holds anything else: refused, exit 3, nothing written', async () => {
    for (const [patch, name, other] of [
      [WITH_HUNK, 'b.txt', SOURCE],
      [WHOLE, 'c.txt', SOURCE.replace('two', 'TWO')],
    ] as const) {
      const dir = dirWith({ 'a.txt': SOURCE, [name]: other });
      await expect(applyPatch(patch, { directory: dir })).rejects.toMatchObject({ exitCode: 3 });
      expect(esc(read(dir, name))).toBe(esc(Buffer.from(other)));
    }
  });
});
