// patch of a file that starts with a UTF-8 byte order mark, by the diffs diff -u writes: they have
// the mark as line 1's first bytes, where linewise keeps it apart (core/patch/bom.ts). Each case
// is held to the bytes of the new file, twice (the rerun writes nothing), and -R gives the old.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyPatch } from '../../src/index.js';
import { diffFiles, esc, tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
let n = 0;
const MARK = '\xef\xbb\xbf';
const bytes = (s: string) => Buffer.from(s, 'latin1');

/** `diff -U CONTEXT a/f.txt b/f.txt` of two contents. */
const diffU = (before: Buffer, after: Buffer, context: number) => diffFiles(tmp.dir, before, after, context);

/** A directory holding f.txt with `content`. */
function dirWith(content: Buffer): { dir: string; file: string } {
  const dir = path.join(tmp.dir, `d${n++}`);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'f.txt'), content);
  return { dir, file: path.join(dir, 'f.txt') };
}

const CASES: [string, string, string][] = [
  ['line 1 kept as context, line 2 changed (CRLF)', `${MARK}alpha\r\nbeta\r\ngamma\r\n`, `${MARK}alpha\r\nBETA\r\ngamma\r\n`],
  ['line 1 changed, the mark kept', `${MARK}alpha\r\nbeta\r\ngamma\r\n`, `${MARK}ALPHA\r\nbeta\r\ngamma\r\n`],
  ['the mark taken away', `${MARK}alpha\nbeta\ngamma\n`, 'alpha\nbeta\ngamma\n'],
  ['a mark given to a file without one', 'alpha\nbeta\ngamma\n', `${MARK}alpha\nbeta\ngamma\n`],
  ['a line inserted above line 1', `${MARK}alpha\nbeta\ngamma\n`, `${MARK}zero\nalpha\nbeta\ngamma\n`],
  ['line 1 removed', `${MARK}alpha\nbeta\ngamma\n`, `${MARK}beta\ngamma\n`],
  ['no final newline', `${MARK}alpha\nbeta`, `${MARK}alpha\nBETA`],
  ['a file of one line', `${MARK}alpha\n`, `${MARK}omega\n`],
  ['a file of the mark alone, given a line', MARK, `${MARK}a\n`],
  ['a file of one line, emptied to its mark', `${MARK}a\n`, MARK],
  // the mark taken away in a hunk that changes more: its new side without the mark also stands
  // at line 1, which is not the hunk applied (the file still has the mark); and -R of a mark given
  ['the mark taken away and a line removed (CRLF)', `${MARK}d\r\nX\r\n`, 'd\r\n'],
  ['a mark given and a line added (CRLF)', 'd\r\n', `${MARK}d\r\nX\r\n`],
  ['a mark given and a line added at the end', 'b\na\ne\n', `${MARK}b\na\ne\n${MARK}Z\n`],
];

describe('patch: a file that starts with a byte order mark', () => {
  for (const [name, before, after] of CASES) {
    for (const context of [3, 1]) {
      it(`${name}, diff -U${context}: the new bytes, a rerun writes nothing, -R gives the old`, async () => {
        const old = bytes(before);
        const neu = bytes(after);
        const patch = diffU(old, neu, context);
        const { dir, file } = dirWith(old);
        const first = await applyPatch(patch, { directory: dir });
        expect(esc(fs.readFileSync(file))).toBe(esc(neu));
        expect(first.files[0]!.hunks.every((h) => h.status === 'applied')).toBe(true);
        const again = await applyPatch(patch, { directory: dir });
        expect(again.files[0]!.changed).toBe(false);
        expect(esc(fs.readFileSync(file))).toBe(esc(neu));
        await applyPatch(patch, { directory: dir, reverse: true });
        expect(esc(fs.readFileSync(file))).toBe(esc(old));
      });
    }
  }

  for (const [name, before, after] of CASES) {
    it(`${name}: --dry-run shows the mark as diff -u does (the same hunks), and writes nothing`, async () => {
      const old = bytes(before);
      const neu = bytes(after);
      const { dir, file } = dirWith(old);
      const r = await applyPatch(diffU(old, neu, 3), { directory: dir, dryRun: true });
      // the hunks, their counts written out (diff -u writes "-1" for "-1,1")
      const hunks = (d: Buffer) =>
        d
          .subarray(d.indexOf('\n@@') + 1)
          .toString('latin1')
          .replace(/^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@$/gm, (_, a, b, c, e) => `@@ -${a}${b ?? ',1'} +${c}${e ?? ',1'} @@`);
      expect(esc(bytes(hunks(r.files[0]!.diff!)))).toBe(esc(bytes(hunks(diffU(old, neu, 3)))));
      expect(esc(fs.readFileSync(file))).toBe(esc(old));
    });
  }

  it('a hunk written without the mark (from linewise rows) still applies, and the mark stays', async () => {
    const { dir, file } = dirWith(bytes(`${MARK}alpha\nbeta\n`));
    await applyPatch(Buffer.from('--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n-alpha\n+ALPHA\n beta\n'), { directory: dir });
    expect(esc(fs.readFileSync(file))).toBe(esc(bytes(`${MARK}ALPHA\nbeta\n`)));
  });

  it('an apply_patch envelope whose context carries the mark', async () => {
    const { dir, file } = dirWith(bytes(`${MARK}alpha\r\nbeta\r\n`));
    const envelope = bytes(`*** Begin Patch\n*** Update File: f.txt\n@@\n-${MARK}alpha\n+${MARK}ALPHA\n beta\n*** End Patch\n`);
    await applyPatch(envelope, { directory: dir });
    expect(esc(fs.readFileSync(file))).toBe(esc(bytes(`${MARK}ALPHA\r\nbeta\r\n`)));
    expect((await applyPatch(envelope, { directory: dir })).files[0]!.changed).toBe(false);
  });

  it('a line that starts with the mark below line 1 is not taken for it', async () => {
    const before = bytes(`${MARK}alpha\n${MARK}beta\ngamma\n`);
    const after = bytes(`${MARK}alpha\n${MARK}beta\nGAMMA\n`);
    const { dir, file } = dirWith(before);
    await applyPatch(diffU(before, after, 1), { directory: dir });
    expect(esc(fs.readFileSync(file))).toBe(esc(after));
  });

  it('a hunk that takes the mark away is not already applied while the file has the mark', async () => {
    // its new side ("d") stands at line 1 without the mark; its old side ("d", "X") does not
    const before = bytes(`${MARK}d\r\n`);
    const { dir, file } = dirWith(before);
    const patch = diffU(bytes(`${MARK}d\r\nX\r\n`), bytes('d\r\n'), 3);
    await expect(applyPatch(patch, { directory: dir })).rejects.toMatchObject({ exitCode: 3 });
    expect(esc(fs.readFileSync(file))).toBe(esc(before));
  });

  it('a hunk whose line 1 carries the mark is not applied below line 1, where its lines without the mark are', async () => {
    // git apply refuses it too: the file's line 1 is "zero"
    const before = bytes(`${MARK}zero\nalpha\nbeta\n`);
    const { dir, file } = dirWith(before);
    for (const after of ['alpha\nbeta\n', `${MARK}ALPHA\nbeta\n`]) {
      const patch = diffU(bytes(`${MARK}alpha\nbeta\n`), bytes(after), 3);
      await expect(applyPatch(patch, { directory: dir })).rejects.toMatchObject({ exitCode: 3 });
      expect(esc(fs.readFileSync(file))).toBe(esc(before));
    }
  });

  // diff -U0: a side with no lines states the line it follows ("-1,0": below line 1)
  const U0: [string, string, string][] = [
    ['a line that starts with U+FEFF added below line 1 keeps it', `${MARK}c\r\n`, `${MARK}c\r\n${MARK}Z\r\n`],
    ['lines added above line 1, the first with the mark: the old line 1 keeps its mark below them', `${MARK}a\r\nc\r\n`, `${MARK}T\r\nU\r\n${MARK}a\r\nc\r\n`],
    ['a line added above line 1 with the mark, no final newline', `${MARK}a`, `${MARK}T\n${MARK}a`],
  ];
  for (const [name, before, after] of U0) {
    it(`diff -U0: ${name}; a rerun writes nothing, -R gives the old`, async () => {
      const old = bytes(before);
      const neu = bytes(after);
      const patch = diffU(old, neu, 0);
      const { dir, file } = dirWith(old);
      // by line numbers alone, as asked (without it a hunk without context is refused)
      await applyPatch(patch, { directory: dir, unidiffZero: true });
      expect(esc(fs.readFileSync(file))).toBe(esc(neu));
      expect((await applyPatch(patch, { directory: dir, unidiffZero: true })).files[0]!.changed).toBe(false);
      expect(esc(fs.readFileSync(file))).toBe(esc(neu));
      await applyPatch(patch, { directory: dir, reverse: true, unidiffZero: true });
      expect(esc(fs.readFileSync(file))).toBe(esc(old));
    });
  }

  it('git diff deleting a file with the mark: deleted, rerun as done; -R creates it again byte for byte, and its rerun is done too', async () => {
    const content = bytes(`${MARK}alpha\r\nbeta\r\n`);
    const patch = bytes(`diff --git a/f.txt b/f.txt\ndeleted file mode 100644\n--- a/f.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-${MARK}alpha\r\n-beta\r\n`);
    const { dir, file } = dirWith(content);
    await applyPatch(patch, { directory: dir });
    expect(fs.existsSync(file)).toBe(false);
    expect((await applyPatch(patch, { directory: dir })).files[0]!.status).toBe('already');
    await applyPatch(patch, { directory: dir, reverse: true });
    expect(esc(fs.readFileSync(file))).toBe(esc(content));
    // the creation found done: the file holds the patch's lines, its mark as diff's line 1 has it
    expect((await applyPatch(patch, { directory: dir, reverse: true })).files[0]!.status).toBe('already');
    expect(esc(fs.readFileSync(file))).toBe(esc(content));
  });

  it('--dry-run of the mark taken away shows line 1 losing it, and writes nothing', async () => {
    const before = bytes(`${MARK}alpha\nbeta\n`);
    const { dir, file } = dirWith(before);
    const r = await applyPatch(diffU(before, bytes('alpha\nbeta\n'), 3), { directory: dir, dryRun: true });
    const diff = r.files[0]!.diff!.toString('latin1');
    expect(diff).toContain(`\n-${MARK}alpha\n+alpha\n`);
    expect(esc(fs.readFileSync(file))).toBe(esc(before));
  });
});
