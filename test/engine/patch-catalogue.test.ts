// The catalogue of issue 25: each patch format (a plain unified diff, git's, an apply_patch
// envelope) against each file layout (LF, CRLF, mixed, no final newline, latin1, a UTF-8 byte
// order mark), in each situation (at its line, at an offset, already applied, reversed, stale,
// ambiguous, whitespace), compared byte for byte before and after.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyPatch, type PatchOptions, type PatchResult } from '../../src/index.js';
import { commitTestHooks } from '../../src/io/commit.js';
import { esc, refused, tempDir, tree } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

type Layout = 'lf' | 'crlf' | 'mixed' | 'nofinal' | 'latin1' | 'bom';
const LAYOUTS: Layout[] = ['lf', 'crlf', 'mixed', 'nofinal', 'latin1', 'bom'];
type Format = 'unified' | 'git' | 'envelope';
const FORMATS: Format[] = ['unified', 'git', 'envelope'];

/** The file's lines as text (latin1: one char a byte). */
function lines(layout: Layout, changed: boolean, extra = 0): string[] {
  const word = layout === 'latin1' ? 'caf\xe9' : 'line';
  const out: string[] = [];
  for (let i = 0; i < extra; i++) out.push(`extra ${i}`);
  for (let i = 1; i <= 10; i++) out.push(i === 5 && changed ? `${word.toUpperCase()} FIVE \xe0` : `${word} ${i}`);
  return out;
}

/** The bytes of `ls` laid out: each line's terminator by the layout (by its index from the end, so added lines at the top keep each line's own). */
function layoutBytes(layout: Layout, ls: readonly string[]): Buffer {
  let s = '';
  ls.forEach((l, i) => {
    const fromEnd = ls.length - 1 - i;
    const eol = layout === 'crlf' ? '\r\n' : layout === 'mixed' ? (fromEnd % 2 === 0 ? '\r\n' : '\n') : layout === 'nofinal' && fromEnd === 0 ? '' : '\n';
    s += l + eol;
  });
  const body = layout === 'latin1' ? Buffer.from(s, 'latin1') : Buffer.from(s, 'utf8');
  return layout === 'bom' ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body;
}

/** The patch changing line 5 (3 lines of context), always written with LF and in the file's own bytes. */
function patchText(format: Format, layout: Layout): Buffer {
  const old = lines(layout, false);
  const neu = lines(layout, true);
  const ctx = (i: number) => ` ${old[i]}\n`;
  const hunkBody = `${ctx(1)}${ctx(2)}${ctx(3)}-${old[4]}\n+${neu[4]}\n${ctx(5)}${ctx(6)}${ctx(7)}`;
  let s: string;
  if (format === 'envelope') s = `*** Begin Patch\n*** Update File: f.txt\n@@\n${hunkBody}*** End Patch\n`;
  else {
    const head = format === 'git' ? 'diff --git a/f.txt b/f.txt\nindex 1234567..89abcde 100644\n' : '';
    s = `${head}--- a/f.txt\n+++ b/f.txt\n@@ -2,7 +2,7 @@\n${hunkBody}`;
  }
  return layout === 'latin1' ? Buffer.from(s, 'latin1') : Buffer.from(s, 'utf8');
}

let n = 0;
function dirWith(bytes: Buffer): string {
  const d = path.join(tmp.dir, `c${n++}`);
  fs.mkdirSync(d);
  fs.writeFileSync(path.join(d, 'f.txt'), bytes);
  return d;
}

const read = (d: string) => fs.readFileSync(path.join(d, 'f.txt'));

describe.each(FORMATS)('%s', (format) => {
  describe.each(LAYOUTS)('%s file', (layout) => {
    const patch = patchText(format, layout);
    const before = layoutBytes(layout, lines(layout, false));
    const after = layoutBytes(layout, lines(layout, true));

    it('applies at its line, byte for byte; a second run writes nothing', async () => {
      const d = dirWith(before);
      const r = await applyPatch(patch, { directory: d });
      expect(esc(read(d))).toBe(esc(after));
      expect(r.files[0]).toMatchObject({ path: 'f.txt', status: 'applied', changed: true, written: true });
      expect(r.files[0]!.hunks[0]).toMatchObject({ status: 'applied', offset: 0, whitespace: false, oldStart: 2, oldLines: 7, newStart: 2, newLines: 7 });
      const st = fs.statSync(path.join(d, 'f.txt'));
      const again = await applyPatch(patch, { directory: d });
      expect(again.files[0]).toMatchObject({ status: 'already', changed: false, written: false });
      expect(fs.statSync(path.join(d, 'f.txt')).mtimeMs).toBe(st.mtimeMs);
      expect(esc(read(d))).toBe(esc(after));
    });

    it('applies at an offset (three lines added above), reported', async () => {
      const d = dirWith(layoutBytes(layout, lines(layout, false, 3)));
      const r = await applyPatch(patch, { directory: d });
      expect(esc(read(d))).toBe(esc(layoutBytes(layout, lines(layout, true, 3))));
      if (format !== 'envelope') expect(r.files[0]!.hunks[0]).toMatchObject({ status: 'applied', offset: 3, oldStart: 5, newStart: 5 });
    });

    it('already applied: exit 0, nothing written', async () => {
      const d = dirWith(after);
      const r = await applyPatch(patch, { directory: d });
      expect(r.files[0]).toMatchObject({ status: 'already', written: false });
      expect(r.files[0]!.hunks[0]!.status).toBe('already');
      expect(esc(read(d))).toBe(esc(after));
    });

    it('reversed (-R) gives the old file back', async () => {
      if (format === 'envelope') {
        // an envelope reversed: its update hunks are undone as well
        const d = dirWith(after);
        await applyPatch(patch, { directory: d, reverse: true });
        expect(esc(read(d))).toBe(esc(before));
        return;
      }
      const d = dirWith(after);
      await applyPatch(patch, { directory: d, reverse: true });
      expect(esc(read(d))).toBe(esc(before));
    });

    it('stale: exit 3, the nearest match named, nothing written', async () => {
      const stale = lines(layout, false);
      stale[4] = 'something else';
      stale[3] = 'and this too';
      const bytes = layoutBytes(layout, stale);
      const d = dirWith(bytes);
      const snap = tree(d);
      const e = await refused(applyPatch(patch, { directory: d }));
      expect(e.exitCode).toBe(3);
      expect(e.failures).toHaveLength(1);
      expect(e.failures[0]).toMatchObject({ path: 'f.txt', near: { line: 2, matching: 5, of: 7 } });
      expect(e.failures[0]!.near!.differs!.line).toBe(4);
      expect(tree(d)).toEqual(snap);
    });

    it('ambiguous: two equally near places are refused', async () => {
      // the changed block twice, the hunk stated between them
      const block = lines(layout, false).slice(1, 8);
      const file = [...block, 'middle', ...block];
      const d = dirWith(layoutBytes(layout, file));
      const snap = tree(d);
      const body = patch.toString('latin1').replace('@@ -2,7 +2,7 @@', '@@ -5,7 +5,7 @@');
      const e = await refused(applyPatch(Buffer.from(body, 'latin1'), { directory: d }));
      expect(e.failures[0]!.why).toMatch(/equally well at line 1 and at line 9/);
      expect(tree(d)).toEqual(snap);
    });

    it('whitespace: refused exactly; with ignoreWhitespace applied and reported, the kept lines as they were', async () => {
      const spaced = lines(layout, false);
      spaced[3] = `  ${spaced[3]!.replace(' ', ' \t ')}  `;
      const d = dirWith(layoutBytes(layout, spaced));
      const snap = tree(d);
      await refused(applyPatch(patch, { directory: d }));
      expect(tree(d)).toEqual(snap);
      const r = await applyPatch(patch, { directory: d, ignoreWhitespace: true });
      expect(r.files[0]!.hunks[0]).toMatchObject({ status: 'applied', whitespace: true });
      const want = lines(layout, true);
      want[3] = spaced[3]!;
      expect(esc(read(d))).toBe(esc(layoutBytes(layout, want)));
    });
  });
});

describe('the last line and its newline', () => {
  const cases: [string, string, string, string][] = [
    // [what, before, patch hunk lines, after]
    ['a last line without newline changed stays without', 'a\nb\nc', '@@ -2,2 +2,2 @@\n b\n-c\n\\ No newline at end of file\n+C\n\\ No newline at end of file\n', 'a\nb\nC'],
    ['the patch adds the final newline', 'a\nb\nc', '@@ -2,2 +2,2 @@\n b\n-c\n\\ No newline at end of file\n+c\n', 'a\nb\nc\n'],
    ['the patch removes the final newline', 'a\r\nb\r\nc\r\n', '@@ -2,2 +2,2 @@\n b\n-c\n+c\n\\ No newline at end of file\n', 'a\r\nb\r\nc'],
    ['lines appended after a last line without newline (a patch made with one)', 'a\nb', '@@ -1,2 +1,3 @@\n a\n b\n+c\n', 'a\nb\nc'],
    ['a CRLF file grows at its end', 'a\r\nb\r\n', '@@ -1,2 +1,4 @@\n a\n b\n+c\n+d\n', 'a\r\nb\r\nc\r\nd\r\n'],
    ['lines inserted at the top of a mixed file take the first line\'s ending', 'a\r\nb\nc\n', '@@ -1,2 +1,3 @@\n+top\n a\n b\n', 'top\r\na\r\nb\nc\n'],
    ['an emptied file', 'a\nb\n', '@@ -1,2 +0,0 @@\n-a\n-b\n', ''],
  ];
  it.each(cases)('%s', async (_what, before, hunk, after) => {
    const d = dirWith(Buffer.from(before, 'latin1'));
    await applyPatch(`--- a/f.txt\n+++ b/f.txt\n${hunk}`, { directory: d });
    expect(esc(read(d))).toBe(esc(Buffer.from(after, 'latin1')));
    // and undone
    await applyPatch(`--- a/f.txt\n+++ b/f.txt\n${hunk}`, { directory: d, reverse: true });
    if (!_what.startsWith('lines appended') && !_what.startsWith('lines inserted')) expect(esc(read(d))).toBe(esc(Buffer.from(before, 'latin1')));
  });
});

describe('files made, removed and moved', () => {
  const run = (d: string, patch: string, o: PatchOptions = {}): Promise<PatchResult> => applyPatch(patch, { directory: d, ...o });

  it('git: a new file, a deleted file, a rename with a hunk, a pure rename and a mode change, in one patch; twice; reversed', async () => {
    const d = path.join(tmp.dir, `tree${n++}`);
    fs.mkdirSync(path.join(d, 'src'), { recursive: true });
    fs.writeFileSync(path.join(d, 'gone.txt'), 'bye\r\nnow\r\n');
    fs.writeFileSync(path.join(d, 'src/old.ts'), 'one\ntwo\nthree\n');
    fs.writeFileSync(path.join(d, 'same.txt'), 'x\n');
    fs.writeFileSync(path.join(d, 'run.sh'), 'echo\n');
    const start = tree(d);
    const patch = [
      'diff --git a/new/dir/made.txt b/new/dir/made.txt',
      'new file mode 100644',
      'index 0000000..1111111',
      '--- /dev/null',
      '+++ b/new/dir/made.txt',
      '@@ -0,0 +1,2 @@',
      '+hello',
      '+world',
      'diff --git a/gone.txt b/gone.txt',
      'deleted file mode 100644',
      'index 2222222..0000000',
      '--- a/gone.txt',
      '+++ /dev/null',
      '@@ -1,2 +0,0 @@',
      '-bye',
      '-now',
      'diff --git a/src/old.ts b/src/new.ts',
      'similarity index 80%',
      'rename from src/old.ts',
      'rename to src/new.ts',
      'index 3333333..4444444 100644',
      '--- a/src/old.ts',
      '+++ b/src/new.ts',
      '@@ -1,3 +1,3 @@',
      ' one',
      '-two',
      '+TWO',
      ' three',
      'diff --git a/same.txt b/moved.txt',
      'similarity index 100%',
      'rename from same.txt',
      'rename to moved.txt',
      'diff --git a/run.sh b/run.sh',
      'old mode 100644',
      'new mode 100755',
      '',
    ].join('\n');
    const r = await run(d, patch);
    expect(r.files.map((f) => [f.action, f.path, f.status])).toEqual([
      ['create', 'new/dir/made.txt', 'applied'],
      ['delete', 'gone.txt', 'applied'],
      ['rename', 'src/new.ts', 'applied'],
      ['rename', 'moved.txt', 'applied'],
      ['modify', 'run.sh', 'applied'],
    ]);
    const after = tree(d);
    expect(after).toMatchObject({ 'new/dir/made.txt': 'hello\\nworld\\n', 'src/new.ts': 'one\\nTWO\\nthree\\n', 'moved.txt': 'x\\n' });
    expect(after['gone.txt']).toBeUndefined();
    expect(after['src/old.ts']).toBeUndefined();
    expect(after['same.txt']).toBeUndefined();
    expect(fs.statSync(path.join(d, 'run.sh')).mode & 0o111).toBe(0o111);
    const again = await run(d, patch);
    expect(again.files.every((f) => f.status === 'already' && !f.written)).toBe(true);
    expect(tree(d)).toEqual(after);
    await run(d, patch, { reverse: true });
    const back = tree(d);
    // a file the patch brings back has the patch's own line endings (LF here): the CRLF were never in it
    expect(back['gone.txt']).toBe('bye\\nnow\\n');
    back['gone.txt'] = start['gone.txt']!;
    delete back['new'];
    delete back['new/dir'];
    expect(back).toEqual(start);
    expect(fs.statSync(path.join(d, 'run.sh')).mode & 0o111).toBe(0);
  });

  it('diff -N: a missing side is the epoch; the file is made, and removed when emptied', async () => {
    const d = path.join(tmp.dir, `tree${n++}`);
    fs.mkdirSync(d);
    fs.writeFileSync(path.join(d, 'old.txt'), 'a\n');
    const patch = [
      'diff -ruN x/new.txt y/new.txt',
      '--- x/new.txt\t1970-01-01 01:00:00.000000000 +0100',
      '+++ y/new.txt\t2024-05-01 10:00:00.000000000 +0200',
      '@@ -0,0 +1 @@',
      '+made',
      'diff -ruN x/old.txt y/old.txt',
      '--- x/old.txt\t2024-05-01 10:00:00.000000000 +0200',
      '+++ y/old.txt\t1970-01-01 00:00:00.000000000 +0000',
      '@@ -1 +0,0 @@',
      '-a',
      '',
    ].join('\n');
    await run(d, patch, { strip: 1 });
    expect(tree(d)).toEqual({ 'new.txt': 'made\\n' });
    await run(d, patch, { strip: 1 });
    expect(tree(d)).toEqual({ 'new.txt': 'made\\n' });
  });

  it('an envelope: add, delete, update with a move, an @@ line and *** End of File', async () => {
    const d = path.join(tmp.dir, `tree${n++}`);
    fs.mkdirSync(d);
    fs.writeFileSync(path.join(d, 'app.py'), 'def a():\r\n    return 1\r\n\r\ndef b():\r\n    return 1\r\n');
    fs.writeFileSync(path.join(d, 'old.txt'), 'whatever\n');
    const patch = [
      '*** Begin Patch',
      '*** Add File: docs/notes.md',
      '+# Notes',
      '+first',
      '*** Delete File: old.txt',
      '*** Update File: app.py',
      '*** Move to: lib/app.py',
      '@@ def b():',
      '-    return 1',
      '+    return 2',
      '*** End of File',
      '*** End Patch',
      '',
    ].join('\n');
    await run(d, patch);
    expect(tree(d)).toEqual({ docs: 'dir', 'docs/notes.md': '# Notes\\nfirst\\n', lib: 'dir', 'lib/app.py': 'def a():\\r\\n    return 1\\r\\n\\r\\ndef b():\\r\\n    return 2\\r\\n' });
    const r = await run(d, patch);
    expect(r.files.map((f) => f.status)).toEqual(['already', 'already', 'already']);
  });

  it('an envelope hunk whose lines occur twice, with no @@ line, is refused', async () => {
    const d = dirWith(Buffer.from('x = 1\ny\nx = 1\n'));
    const e = await refused(run(d, '*** Begin Patch\n*** Update File: f.txt\n@@\n-x = 1\n+x = 2\n*** End Patch\n'));
    expect(e.failures[0]!.why).toMatch(/equally well at line 1 and at line 3/);
  });

  it('a failing hunk in one file of many writes none of them', async () => {
    const d = path.join(tmp.dir, `tree${n++}`);
    fs.mkdirSync(d);
    for (const f of ['a', 'b', 'c']) fs.writeFileSync(path.join(d, `${f}.txt`), `${f}1\n${f}2\n${f}3\n`);
    const snap = tree(d);
    const hunk = (f: string, old: string) => `--- a/${f}.txt\n+++ b/${f}.txt\n@@ -2 +2 @@\n-${old}\n+new\n`;
    // hunks without context, written short: placed by their line numbers, as asked
    const e = await refused(run(d, `${hunk('a', 'a2')}${hunk('b', 'WRONG')}${hunk('c', 'c2')}--- /dev/null\n+++ b/d.txt\n@@ -0,0 +1 @@\n+d\n`, { unidiffZero: true }));
    expect(e.failures.map((f) => f.path)).toEqual(['b.txt']);
    expect(tree(d)).toEqual(snap);
  });
});

describe('a patch over several directories', () => {
  // hunks without context, written short (diff -U0): placed by their line numbers, as asked
  const run = (d: string, patch: string): Promise<PatchResult> => applyPatch(patch, { directory: d, unidiffZero: true });
  const setUp = () => {
    const d = path.join(tmp.dir, `dirs${n++}`);
    for (const sub of ['x', 'y', 'z']) {
      fs.mkdirSync(path.join(d, sub), { recursive: true });
      for (const f of ['a', 'b']) fs.writeFileSync(path.join(d, sub, `${f}.txt`), `${sub}${f}1\n${sub}${f}2\n${sub}${f}3\n`);
    }
    const patch = ['x', 'y', 'z'].flatMap((sub) => ['a', 'b'].map((f) => `--- a/${sub}/${f}.txt\n+++ b/${sub}/${f}.txt\n@@ -2 +2 @@\n-${sub}${f}2\n+new\n`)).join('');
    return { d, patch };
  };

  it('the locks prepared while files are planned are taken and released: nothing but the files is left', async () => {
    const { d, patch } = setUp();
    await run(d, patch);
    const after = tree(d);
    expect(Object.keys(after).filter((k) => k.includes('linewise'))).toEqual([]);
    expect(after['y/b.txt']).toBe(esc(Buffer.from('yb1\nnew\nyb3\n')));
  });

  it('a rename that fails in the commit: every file as it was, no lock or temporary file left', async () => {
    const { d, patch } = setUp();
    const snap = tree(d);
    let renames = 0;
    commitTestHooks.beforeRename = () => {
      if (++renames === 4) throw Object.assign(new Error('busy'), { code: 'EBUSY' });
    };
    try {
      await expect(run(d, patch)).rejects.toThrow(/nothing was written/);
    } finally {
      delete commitTestHooks.beforeRename;
    }
    expect(tree(d)).toEqual(snap);
  });
});

describe('moves and removals that do not fit', () => {
  it('a deletion whose file is not the lines the patch removes: exit 3, nothing written', async () => {
    const d = dirWith(Buffer.from('a\nb\nc\n'));
    fs.writeFileSync(path.join(d, 'g.txt'), 'x\n');
    const snap = tree(d);
    const e = await refused(
      applyPatch('--- a/g.txt\n+++ b/g.txt\n@@ -1 +1 @@\n-x\n+X\n--- a/f.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n', { directory: d }),
    );
    expect(e.failures).toEqual([expect.objectContaining({ path: 'f.txt', why: 'the patch deletes it, but its 3 lines are not the 2 the patch removes' })]);
    expect(tree(d)).toEqual(snap);
  });

  it('a rename onto an existing file: exit 3, nothing written', async () => {
    const d = dirWith(Buffer.from('a\n'));
    fs.writeFileSync(path.join(d, 'g.txt'), 'other\n');
    const snap = tree(d);
    const e = await refused(applyPatch('diff --git a/f.txt b/g.txt\nsimilarity index 100%\nrename from f.txt\nrename to g.txt\n', { directory: d }));
    expect(e.failures[0]!.why).toBe('the patch renames f.txt to it, but it exists already');
    expect(tree(d)).toEqual(snap);
  });
});
