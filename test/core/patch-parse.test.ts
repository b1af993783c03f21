// The unified-diff parser keeps only where each hunk's lines are (every path and count checked up
// front); withLines reads them again, byte for byte, when the file is planned, and -R flips them.
import { describe, expect, it } from 'vitest';
import { parsePatch, withLines } from '../../src/core/patch/parse.js';
import type { HunkLine } from '../../src/core/patch/types.js';

const PATCH = Buffer.concat([
  Buffer.from('diff --git a/f.txt b/f.txt\n--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n one\r\n-caf'),
  Buffer.from([0xe9]),
  Buffer.from('\n+CAF\r\n three\n\\ No newline at end of file\n--- a/g.txt\n+++ b/g.txt\n@@ -5,2 +5,3 @@\n five\n+new\n six\n'),
]);

const shown = (lines: HunkLine[]) => lines.map((l) => [l.op, Buffer.from(l.text, 'latin1').toString('hex'), l.crlf]);

describe('parsePatch: hunk lines stay in the patch until their file is planned', () => {
  it('a parsed file holds no lines; withLines gives them byte for byte, with their endings and the markers read', () => {
    const [f, g] = parsePatch(PATCH).files;
    expect(f!.hunks.map((h) => [h.lines.length, h.source !== undefined])).toEqual([[0, true]]);
    const full = withLines(f!);
    expect(shown(full.hunks[0]!.lines)).toEqual([
      [' ', Buffer.from('one').toString('hex'), true],
      ['-', Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9])]).toString('hex'), false],
      ['+', Buffer.from('CAF').toString('hex'), true],
      [' ', Buffer.from('three').toString('hex'), false],
    ]);
    expect([full.hunks[0]!.oldNoNewline, full.hunks[0]!.newNoNewline, full.hunks[0]!.source]).toEqual([true, true, undefined]);
    expect(shown(withLines(g!).hunks[0]!.lines).map(([op]) => op)).toEqual([' ', '+', ' ']);
    // the shell is left as it was: a planned file's lines are garbage once it is done
    expect(f!.hunks[0]!.lines).toEqual([]);
  });

  it('the binding (git apply\'s) is decided from the counts alone, as from the lines', () => {
    const p = Buffer.from('--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n a\n-b\n+B\n c\n d\n@@ -9,3 +9,3 @@\n x\n y\n-z\n+Z\n');
    const [f] = parsePatch(p).files;
    expect(f!.hunks.map((h) => [h.bindStart ?? false, h.bindEnd ?? false])).toEqual([
      [true, false], // one kept line before the change, two after (and it starts at line 1)
      [false, true], // two before, none after
    ]);
  });

  it('-R: the lines read later are flipped, the sides\' starts and markers swapped', () => {
    const [f] = parsePatch(PATCH, { reverse: true }).files;
    const h = withLines(f!).hunks[0]!;
    expect(h.lines.map((l) => l.op)).toEqual([' ', '+', '-', ' ']);
    expect([h.oldStart, h.newStart]).toEqual([1, 1]);
    const [, g] = parsePatch(PATCH, { reverse: true }).files;
    expect(withLines(g!).hunks[0]!.lines.map((l) => l.op)).toEqual([' ', '-', ' ']);
  });
});

describe('parsePatch: a hunk is told by its first bytes', () => {
  const head = '--- a/f\n+++ b/f\n';
  const code = (p: string) => {
    try {
      parsePatch(Buffer.from(p));
      return 'parsed';
    } catch (e) {
      return (e as { code?: string }).code;
    }
  };
  it('"@@" alone, or before CRLF, is a hunk header (a malformed one); "@@x" and "@@\\rx" are text between files', () => {
    expect(code(`${head}@@\n`)).toBe('bad-patch');
    expect(code(`${head}@@\r\n`)).toBe('bad-patch');
    expect(code(`${head}@@ -1 +1 @@\n-a\n+b\n`)).toBe('parsed');
    expect(code(`${head}@@ -1 +1 @@\r\n-a\r\n+b\r\n`)).toBe('parsed');
    // not a hunk: the file has none, and a file with no hunk and no change of name or mode is refused
    expect(code(`${head}@@x\n`)).toBe('bad-patch');
    expect(code(`${head}@@ -1 +1 @@\n-a\n+b\n@@x\n`)).toBe('parsed');
    expect(code(`${head}@@ -1 +1 @@\n-a\n+b\n@@\rx\n`)).toBe('parsed');
  });
});
