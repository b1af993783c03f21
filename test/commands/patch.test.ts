// `linewise patch` through the CLI (in-process): what it prints for each way to look before writing
// (--check, --dry-run, --json, --receipt), the refusals of bad patches and unsafe paths (exit 2,
// one line, nothing read for writing), encodings, and nothing left behind on any failure.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Exit } from '../../src/core/errors.js';
import { esc, run, tempDir, tree, writeTree } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

let n = 0;
function dir(files: Record<string, string | Uint8Array>): string {
  const d = path.join(tmp.dir, `d${n++}`);
  fs.mkdirSync(d);
  return writeTree(d, files);
}

const FIVE = 'one\r\ntwo\r\nthree\r\nfour\r\nfive\r\n';
const PATCH = '--- a/f.txt\n+++ b/f.txt\n@@ -2,3 +2,3 @@\n two\n-three\n+THREE\n four\n';

describe('patch: looking before writing', () => {
  it('applies from a file; notes nothing when every hunk is at its line; a rerun says already applied', async () => {
    const d = dir({ 'f.txt': FIVE, 'p.diff': PATCH });
    const r = await run(['patch', 'p.diff'], { cwd: d });
    expect([r.status, r.stderr, r.stdout.toString()]).toEqual([0, '', '']);
    expect(esc(fs.readFileSync(path.join(d, 'f.txt')))).toBe(esc('one\r\ntwo\r\nTHREE\r\nfour\r\nfive\r\n'));
    const again = await run(['patch', 'p.diff'], { cwd: d });
    expect([again.status, again.stderr]).toEqual([0, 'linewise: f.txt: already applied (every hunk is in place): nothing to write\n']);
  });

  it('a hunk without context (diff -U0): exit 3, one line naming --unidiff-zero, nothing written; with it, placed at its line', async () => {
    const U0 = '--- a/f.txt\n+++ b/f.txt\n@@ -3 +3 @@\n-three\n+THREE\n';
    const d = dir({ 'f.txt': FIVE, 'p.diff': U0 });
    const r = await run(['patch', 'p.diff'], { cwd: d });
    expect(r.status).toBe(Exit.stale);
    expect(r.stderr).toBe(
      'linewise: f.txt: hunk @@ -3 +3 @@ (patch line 3) does not apply: it has no context lines (diff -U0), so only its line numbers say where it goes, which cannot tell a place from another where lines repeat, nor "applied before" from "not yet"; make the patch with context (diff -u, git diff), or allow placing by line numbers alone (--unidiff-zero)\nlinewise: a hunk does not apply; nothing was written\n',
    );
    expect(esc(fs.readFileSync(path.join(d, 'f.txt')))).toBe(esc(FIVE));
    const told = await run(['patch', '--unidiff-zero', 'p.diff'], { cwd: d });
    expect([told.status, told.stderr]).toEqual([0, '']);
    expect(esc(fs.readFileSync(path.join(d, 'f.txt')))).toBe(esc('one\r\ntwo\r\nTHREE\r\nfour\r\nfive\r\n'));
    const again = await run(['patch', '--unidiff-zero', 'p.diff'], { cwd: d });
    expect(again.status).toBe(0);
  });

  it('reads standard input; an offset is reported', async () => {
    const d = dir({ 'f.txt': `zero\r\n${FIVE}` });
    const r = await run(['patch'], { cwd: d, stdin: PATCH });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('linewise: f.txt: hunk @@ -2,3 +2,3 @@ applied at line 3 (offset +1 line)\n');
  });

  it('--check: exit 0 and nothing written; a failing hunk: exit 3, its line, nothing written', async () => {
    const d = dir({ 'f.txt': FIVE });
    const r = await run(['patch', '--check', '-'], { cwd: d, stdin: PATCH });
    expect([r.status, r.stdout.toString(), r.stderr]).toEqual([0, '', '']);
    expect(fs.readFileSync(path.join(d, 'f.txt'), 'latin1')).toBe(FIVE);
    const bad = await run(['patch', '--check'], { cwd: d, stdin: PATCH.replace('-three', '-tree') });
    expect(bad.status).toBe(Exit.stale);
    expect(bad.stderr).toBe(
      'linewise: f.txt: hunk @@ -2,3 +2,3 @@ (patch line 3) does not apply: its 3 old lines are not in the file; nearest: line 2, where 2 of its 3 old lines match (line 3 is "three", the hunk expects "tree")\n' +
        'linewise: a hunk does not apply; nothing was written\n',
    );
  });

  it('--dry-run prints the diff, as bytes (CRLF kept), and writes nothing', async () => {
    const d = dir({ 'f.txt': FIVE });
    const snap = tree(d);
    const r = await run(['patch', '--dry-run'], { cwd: d, stdin: PATCH });
    expect(r.status).toBe(0);
    expect(esc(r.stdout)).toBe(esc('--- a/f.txt\n+++ b/f.txt\n@@ -1,5 +1,5 @@\n one\r\n two\r\n-three\r\n+THREE\r\n four\r\n five\r\n'));
    expect(tree(d)).toEqual(snap);
  });

  it('--json: a record per hunk, per file, a summary; failures as records', async () => {
    const d = dir({ 'f.txt': FIVE });
    const r = await run(['patch', '--json'], { cwd: d, stdin: PATCH });
    const recs = r.stdout.toString().trim().split('\n').map((l) => JSON.parse(l));
    expect(recs).toEqual([
      { type: 'hunk', path: 'f.txt', header: '@@ -2,3 +2,3 @@', patch_line: 3, status: 'applied', offset: 0, whitespace: false, old_start: 2, old_lines: 3, new_start: 2, new_lines: 3 },
      { type: 'file', path: 'f.txt', action: 'modify', status: 'applied', changed: true, written: true, lines_before: 5, lines_after: 5 },
      { type: 'summary', format: 'unified', files: 1, changed: 1, written: 1, already: 0, dry_run: false, check: false },
    ]);
    const bad = await run(['patch', '--json'], { cwd: dir({ 'f.txt': FIVE }), stdin: PATCH.replace('-three', '-tree') });
    expect(bad.status).toBe(3);
    const [failed, error, ...more] = bad.stdout.toString().trim().split('\n').map((l) => JSON.parse(l));
    expect(failed).toMatchObject({ type: 'failed', path: 'f.txt', header: '@@ -2,3 +2,3 @@', near: { line: 2, matching: 2, of: 3 } });
    // then the failure itself, as every failure under --json ends (issue 24.5)
    expect([error, more]).toEqual([{ type: 'error', code: 'patch-failed', message: 'a hunk does not apply; nothing was written', path: null, status: 3 }, []]);
  });

  it('--receipt: the changed rows as they now are and how the numbering moved', async () => {
    const d = dir({ 'f.txt': FIVE });
    const r = await run(['patch', '--receipt'], { cwd: d, stdin: '--- a/f.txt\n+++ b/f.txt\n@@ -2,3 +2,4 @@\n two\n-three\n+3a\n+3b\n four\n' });
    expect(r.status).toBe(0);
    expect(esc(r.stdout)).toBe(esc('1\tone\r\n2\ttwo\r\n3\t3a\r\n4\t3b\r\n5\tfour\r\n6\tfive\r\n\n[Edited f.txt: lines 2-4 -> 2-5; lines after 4 shifted by +1.]\n'));
  });

  it('an apply_patch envelope on standard input', async () => {
    const d = dir({ 'app.py': 'def main():\n    print("hi")\n' });
    const r = await run(['patch'], { cwd: d, stdin: '*** Begin Patch\n*** Update File: app.py\n@@ def main():\n-    print("hi")\n+    print("hello")\n*** End Patch\n' });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(fs.readFileSync(path.join(d, 'app.py'), 'utf8')).toBe('def main():\n    print("hello")\n');
  });

  it('-p strips components; --directory moves the root', async () => {
    const d = dir({ 'proj/src/f.txt': FIVE });
    const r = await run(['patch', '-p', '1', '-d', 'proj'], { cwd: d, stdin: PATCH.replace(/a\/f\.txt/, 'x/src/f.txt').replace(/b\/f\.txt/, 'y/src/f.txt') });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(fs.readFileSync(path.join(d, 'proj/src/f.txt'), 'latin1')).toContain('THREE');
  });
});

describe('patch: names and line endings of the patch itself', () => {
  it("git's quoted names (a space, UTF-8 written in octal, a tab) and a rename to one", async () => {
    const repo = dir({ 'with space.txt': 'a\nb\n', 'café.txt': 'c\nd\n', 'tab\there.txt': 'e\nf\n' });
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: repo });
    git('init', '-q', '.');
    git('add', '-A');
    git('commit', '-qm', 'base');
    const copy = dir({ 'with space.txt': 'a\nb\n', 'café.txt': 'c\nd\n', 'tab\there.txt': 'e\nf\n' });
    fs.writeFileSync(path.join(repo, 'with space.txt'), 'a\nB\n');
    fs.writeFileSync(path.join(repo, 'café.txt'), 'c\nD\n');
    git('mv', 'tab\there.txt', 'naïve name.txt');
    const patch = git('diff', '-M', 'HEAD');
    expect(patch.toString()).toContain('"a/caf\\303\\251.txt"');
    const r = await run(['patch'], { cwd: copy, stdin: patch });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(tree(copy)).toEqual({ [esc('café.txt')]: 'c\\nD\\n', [esc('naïve name.txt')]: 'e\\nf\\n', 'with space.txt': 'a\\nB\\n' });
  });

  it('a patch saved with CRLF applies to an LF file, which stays LF', async () => {
    const d = dir({ 'f.txt': 'one\ntwo\nthree\n' });
    const r = await run(['patch'], { cwd: d, stdin: '--- a/f.txt\r\n+++ b/f.txt\r\n@@ -1,3 +1,3 @@\r\n one\r\n-two\r\n+TWO\r\n three\r\n' });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(esc(fs.readFileSync(path.join(d, 'f.txt')))).toBe(esc('one\nTWO\nthree\n'));
  });
});

describe('patch: encodings', () => {
  it('latin1 bytes matched and written as bytes (a latin1 diff of a latin1 file)', async () => {
    const d = dir({ 'f.txt': Buffer.from('caf\xe9\nna\xefve\n', 'latin1') });
    const r = await run(['patch'], { cwd: d, stdin: Buffer.from('--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n caf\xe9\n-na\xefve\n+NA\xcfVE\n', 'latin1') });
    expect(r.status).toBe(0);
    expect(esc(fs.readFileSync(path.join(d, 'f.txt')))).toBe(esc(Buffer.from('caf\xe9\nNA\xcfVE\n', 'latin1')));
  });

  it('--dry-run --json of a latin1 change: the diff as base64 bytes', async () => {
    const d = dir({ 'f.txt': Buffer.from('caf\xe9\n', 'latin1') });
    const r = await run(['patch', '--dry-run', '--json'], { cwd: d, stdin: Buffer.from('--- a/f.txt\n+++ b/f.txt\n@@ -1 +1 @@\n-caf\xe9\n+CAF\xc9\n', 'latin1') });
    const file = r.stdout.toString().trim().split('\n').map((l) => JSON.parse(l)).find((x) => x.type === 'file');
    expect(file.diff).toBeUndefined();
    expect(esc(Buffer.from(file.diff_bytes, 'base64'))).toBe(esc(Buffer.from('--- a/f.txt\n+++ b/f.txt\n@@ -1,1 +1,1 @@\n-caf\xe9\n+CAF\xc9\n', 'latin1')));
    expect(fs.readFileSync(path.join(d, 'f.txt'), 'latin1')).toBe('caf\xe9\n');
  });

  it('--encoding latin1: the files decoded, the patch UTF-8, the result encoded back', async () => {
    const d = dir({ 'f.txt': Buffer.from('caf\xe9\nna\xefve\n', 'latin1') });
    const r = await run(['patch', '--encoding', 'latin1'], { cwd: d, stdin: '--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n café\n-naïve\n+NAÏVE\n' });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(esc(fs.readFileSync(path.join(d, 'f.txt')))).toBe(esc(Buffer.from('caf\xe9\nNA\xcfVE\n', 'latin1')));
  });

  it('a UTF-16LE file with its mark: decoded, patched, encoded back with the mark', async () => {
    const utf16 = (s: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);
    const d = dir({ 'f.txt': utf16('a\r\nb\r\n') });
    const r = await run(['patch'], { cwd: d, stdin: '--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n' });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(esc(fs.readFileSync(path.join(d, 'f.txt')))).toBe(esc(utf16('a\r\nB\r\n')));
  });

  it('a UTF-8 byte order mark stays', async () => {
    const d = dir({ 'f.txt': '\ufeffa\nb\n' });
    await run(['patch'], { cwd: d, stdin: '--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n' });
    expect(esc(fs.readFileSync(path.join(d, 'f.txt')))).toBe(esc('\ufeffa\nB\n'));
  });
});

describe('patch: refusals (exit 2, one line, nothing written, nothing left behind)', () => {
  const refusals: [string, string | Buffer, RegExp][] = [
    ['an empty patch', '', /^linewise: the patch is empty: nothing to apply/],
    ['a patch of blank lines', '\n \n', /^linewise: the patch is empty/],
    ['neither format', 'hello\nworld\n', /^linewise: patch line 1: neither a unified diff .* nor an apply_patch envelope .*: "hello"; nothing was written$/],
    ['a binary patch', 'diff --git a/f.txt b/f.txt\nindex 1..2 100644\nGIT binary patch\nliteral 5\n', /^linewise: patch line 3: a binary patch \(GIT binary patch\) cannot be applied as lines/],
    ['binary files differ', 'diff --git a/x.png b/x.png\nindex 1..2 100644\nBinary files a/x.png and b/x.png differ\n', /^linewise: patch line 3: a binary patch/],
    ['a hunk line without its mark', '--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n one\n?two\n', /^linewise: patch line 5: inside the hunk @@ -1,2 \+1,2 @@, a line that does not start with " ", "-" or "\+" \(1 old and 1 new lines were still due\): "\?two"/],
    ['a hunk cut short', '--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n one\n', /^linewise: patch line 4: the patch ends inside the hunk/],
    ['a hunk longer than its header', '--- a/f.txt\n+++ b/f.txt\n@@ -1 +1 @@\n one\n-two\n', /^linewise: patch line 5: a hunk line past the 1 old and 1 new lines the header @@ -1 \+1 @@ counts: "-two"/],
    ['a hunk before any file', '@@ -1 +1 @@\n-a\n+b\n', /^linewise: patch line 1: a hunk before any file header/],
    ['an envelope without its end', '*** Begin Patch\n*** Update File: f.txt\n@@\n-one\n+ONE\n', /^linewise: patch line 5: the envelope has no "\*\*\* End Patch" line/],
    ['an envelope with a stray line', '*** Begin Patch\n*** Frobnicate: f.txt\n*** End Patch\n', /^linewise: patch line 2: expected "\*\*\* Add File: "/],
    ['-p cutting more than there is', '--- f.txt\n+++ f.txt\n@@ -1 +1 @@\n-one\n+ONE\n', /^linewise: patch line 1: -p 3 cuts more components than the path has/],
    ['a path climbing out', '--- a/../f.txt\n+++ b/../f.txt\n@@ -1 +1 @@\n-one\n+ONE\n', /^linewise: \.\.\/f\.txt: a path with "\.\.": a patch may not climb out of its directory; nothing was written$/],
    ['an absolute path', '--- /etc/passwd\n+++ /etc/passwd\n@@ -1 +1 @@\n-root\n+toor\n', /^linewise: \/etc\/passwd: an absolute path/],
    ['an envelope path climbing out', '*** Begin Patch\n*** Add File: ../evil.txt\n+x\n*** End Patch\n', /^linewise: \.\.\/evil\.txt: a path with "\.\."/],
    ['one file named twice', '--- a/f.txt\n+++ b/f.txt\n@@ -1 +1 @@\n-one\n+ONE\n--- a/./f.txt\n+++ b/./f.txt\n@@ -2 +2 @@\n-two\n+TWO\n', /^linewise: \.\/f\.txt: the patch names this file twice \(also as f\.txt\)/],
  ];
  it.each(refusals)('%s', async (_what, patch, message) => {
    const d = dir({ 'f.txt': 'one\ntwo\n', 'sub/keep.txt': 'k\n' });
    const snap = tree(d);
    const args = _what.startsWith('-p') ? ['patch', '-p', '3'] : ['patch'];
    const r = await run(args, { cwd: path.join(d), stdin: patch });
    expect(r.status).toBe(Exit.usage);
    expect(r.stdout.toString()).toBe('');
    expect(r.stderr.split('\n')).toHaveLength(2);
    expect(r.stderr.trimEnd()).toMatch(message);
    expect(tree(d)).toEqual(snap);
  });

  it('a symbolic link leading out of the directory is refused, for reading as for writing', async () => {
    const outside = dir({ 'secret.txt': 'one\n' });
    const d = dir({ 'f.txt': 'one\n' });
    fs.symlinkSync(outside, path.join(d, 'out'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(d, 'link.txt'));
    const snap = [tree(d), tree(outside)];
    for (const p of ['out/secret.txt', 'link.txt', 'out/new.txt']) {
      const r = await run(['patch'], { cwd: d, stdin: `--- a/${p}\n+++ b/${p}\n@@ -1 +1 @@\n-one\n+ONE\n` });
      expect(r.status).toBe(Exit.usage);
      expect(r.stderr).toMatch(/it leads outside the directory .*through a symbolic link; nothing was written/);
    }
    expect([tree(d), tree(outside)]).toEqual(snap);
  });

  it('a link inside the directory that stays inside is written through', async () => {
    const d = dir({ 'real.txt': 'one\n' });
    fs.symlinkSync('real.txt', path.join(d, 'alias.txt'));
    const r = await run(['patch'], { cwd: d, stdin: '--- a/alias.txt\n+++ b/alias.txt\n@@ -1 +1 @@\n-one\n+ONE\n' });
    expect(r.status).toBe(0);
    expect(fs.readFileSync(path.join(d, 'real.txt'), 'utf8')).toBe('ONE\n');
    expect(fs.lstatSync(path.join(d, 'alias.txt')).isSymbolicLink()).toBe(true);
  });

  it('a deleted file that is a link inside: the link goes, the file it names stays', async () => {
    const d = dir({ 'real.txt': 'one\n' });
    fs.symlinkSync('real.txt', path.join(d, 'alias.txt'));
    const r = await run(['patch'], { cwd: d, stdin: 'diff --git a/alias.txt b/alias.txt\ndeleted file mode 120000\n--- a/alias.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-one\n' });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(tree(d)).toEqual({ 'real.txt': 'one\\n' });
  });

  it("GNU patch's and git apply's options say what to do instead; -p1 is -p 1", async () => {
    const d = dir({ 'f.txt': FIVE });
    for (const [flag, why] of [
      ['-N', 'no need: a hunk already applied is skipped'],
      ['--fuzz=2', 'there is no fuzz'],
      ['--index', "not git's index"],
      ['-i', 'give the patch file as the argument'],
    ]) {
      const r = await run(['patch', flag!, 'p.diff'], { cwd: d });
      expect(r.status).toBe(Exit.usage);
      expect(r.stderr).toContain(`unknown option '${flag}': `);
      expect(r.stderr).toContain(why);
    }
    const r = await run(['patch', '-p1'], { cwd: d, stdin: PATCH });
    expect([r.status, r.stderr]).toEqual([0, '']);
  });

  it('no patch on a terminal: usage', async () => {
    const r = await run(['patch'], { tty: true, cwd: tmp.dir });
    expect(r.status).toBe(Exit.usage);
    expect(r.stderr).toMatch(/^linewise: no patch: name a patch file, or pipe one in/);
  });

  it('a file with NUL bytes is refused', async () => {
    const d = dir({ 'f.txt': 'one\0\ntwo\n' });
    const r = await run(['patch'], { cwd: d, stdin: '--- a/f.txt\n+++ b/f.txt\n@@ -2 +2 @@\n-two\n+TWO\n' });
    expect(r.status).toBe(Exit.usage);
    expect(r.stderr).toMatch(/f\.txt: is a binary file/);
  });

  it('a UTF-16 file holding U+0000 is binary to patch as to the readers (one sniff): refused, unchanged', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('one\0\ntwo\n', 'utf16le')]);
    const d = dir({ 'f.txt': bytes });
    const read = await run(['readlines', 'f.txt', '1'], { cwd: d });
    expect(read.status).toBe(Exit.usage);
    expect(read.stderr).toMatch(/binary/);
    const r = await run(['patch'], { cwd: d, stdin: '--- a/f.txt\n+++ b/f.txt\n@@ -2 +2 @@\n-two\n+TWO\n' });
    expect(r.status).toBe(Exit.usage);
    expect(r.stderr).toMatch(/f\.txt: is a binary file/);
    expect(fs.readFileSync(path.join(d, 'f.txt')).equals(bytes)).toBe(true);
  });

  it('a new file that exists with other content: exit 3, nothing written', async () => {
    const d = dir({ 'f.txt': 'one\n', 'g.txt': 'other\n' });
    const snap = tree(d);
    const r = await run(['patch'], { cwd: d, stdin: '--- a/f.txt\n+++ b/f.txt\n@@ -1 +1 @@\n-one\n+ONE\n--- /dev/null\n+++ b/g.txt\n@@ -0,0 +1 @@\n+new\n' });
    expect(r.status).toBe(Exit.stale);
    expect(r.stderr).toMatch(/g\.txt: hunk .* does not apply: the patch creates it, but a different file is there already/);
    expect(tree(d)).toEqual(snap);
  });
});
