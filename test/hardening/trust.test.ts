// Issue 22's catalogue: guards that cannot be emptied, no edit path that writes a decoded guess,
// --relocate bounded by the lines it verified, and content edits that change no byte outside
// their old text. Each case compares every file byte for byte before and after.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { esc, fixture, run, tempDir } from '../helpers.js';
import { refusedIn } from './refusals.js';

let t: ReturnType<typeof tempDir>;
beforeEach(() => {
  t = tempDir();
});
afterEach(() => t.cleanup());

const refused = (args: string[], status: number, message: string | RegExp, stdin?: string | Buffer) => refusedIn(t.dir, args, { status, message }, stdin);
const bytes = (name: string) => esc(fs.readFileSync(path.join(t.dir, name)));

describe('a guard that holds nothing is refused, never taken for no guard', () => {
  const empty = /holds no rows \(it is empty, or holds only footers or separators\), so it would guard nothing; nothing was written/;

  it('an empty --expect file, empty standard input, a file of only a footer, a grep that found nothing', async () => {
    t.file('f', 'one\ntwo\nthree\n');
    t.file('empty', '');
    t.file('footer', '\n[Read 2 lines (lines 1-2 of 5 total). 3 lines remaining from offset 2.]\n');
    await refused(['replace', 'f', '2', '--text', 'T', '--expect', 'empty'], 2, new RegExp(`^--expect ${empty.source}`));
    await refused(['replace', 'f', '2', '--text', 'T', '--expect', '-'], 2, empty, '');
    await refused(['replace', 'f', '2', '--text', 'T', '--expect', 'footer'], 2, empty);
    const grep = await run(['grep', 'nothing-like-this', 'f'], { cwd: t.dir });
    expect(grep.status).toBe(1);
    t.file('before', grep.stdout);
    await refused(['replace', 'f', '--old', 'two', '--new', 'T', '--expect', 'before'], 2, empty);
    await refused(['replace', 'f', '--rows', '-', '--expect', 'before'], 2, empty, '2\tT\n');
    expect(bytes('f')).toBe('one\\ntwo\\nthree\\n');
  });
});

describe('--relocate moves an edit only within the lines it verified', () => {
  const lines = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}\n`).join('');

  it('read line 2; two lines added above it and two deleted below: an edit of line 10 is refused (3), one of line 2 moves', async () => {
    t.file('r1', lines(1, 20));
    const read = await run(['readlines', 'r1', '2', '2'], { cwd: t.dir });
    t.file('before', read.stdout);
    t.file('r1', `a\nb\n${lines(1, 3)}${lines(6, 20)}`);
    const before = bytes('r1');
    const r = await run(['replace', 'r1', '10', '--text', 'X', '--expect', 'before', '--relocate'], { cwd: t.dir });
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/--relocate: line 10 is outside the lines read \(line 2\), so where it moved cannot be known from them\)\n$/);
    expect(esc(r.stdout)).toBe('2\\tb\\n'); // the current rows of the lines guarded
    expect(bytes('r1')).toBe(before);
    const ok = await run(['replace', 'r1', '2', '--text', 'X', '--expect', 'before', '--relocate'], { cwd: t.dir });
    expect(ok.status).toBe(0);
    expect(bytes('r1')).toBe(esc(`a\nb\nline 1\nX\nline 3\n${lines(6, 20)}`));
  });

  it('an insert moves only next to or between the lines read; a range must lie within them', async () => {
    t.file('r1', lines(1, 10));
    t.file('before', (await run(['readlines', 'r1', '4', '6'], { cwd: t.dir })).stdout);
    t.file('r1', `new\n${lines(1, 10)}`);
    const before = bytes('r1');
    for (const args of [['3', '--text', 'X'], ['6', '7', '--text', 'X'], ['8', '7', '--text', 'X'], ['3', '2', '--text', 'X']]) {
      const r = await run(['replace', 'r1', ...args, '--expect', 'before', '--relocate'], { cwd: t.dir });
      expect([args, r.status]).toEqual([args, 3]);
      expect(bytes('r1')).toBe(before);
    }
    const r = await run(['replace', 'r1', '7', '6', '--text', 'after six', '--expect', 'before', '--relocate'], { cwd: t.dir });
    expect(r.status).toBe(0);
    expect(bytes('r1')).toBe(esc(`new\n${lines(1, 6)}after six\n${lines(7, 10)}`));
  });

  it('run twice, a relocated edit is found made already (exit 0, nothing written); with the lines read still there too, refused (3)', async () => {
    t.file('r1', lines(1, 6));
    t.file('before', (await run(['readlines', 'r1', '2', '3', '--guard', 'never'], { cwd: t.dir })).stdout);
    t.file('r1', `a\nb\n${lines(1, 6)}`);
    const args = ['replace', 'r1', '3', '--text', 'X\n', '--expect', 'before', '--relocate'];
    expect((await run(args, { cwd: t.dir })).status).toBe(0);
    const done = bytes('r1');
    expect(done).toBe(esc(`a\nb\nline 1\nline 2\nX\nline 4\nline 5\nline 6\n`));
    const ino = fs.statSync(path.join(t.dir, 'r1')).ino;
    const again = await run(args, { cwd: t.dir });
    expect(again.status).toBe(0);
    expect(again.stderr).toContain('r1: already applied: the lines already hold the new text; nothing was written\n');
    expect([bytes('r1'), fs.statSync(path.join(t.dir, 'r1')).ino]).toEqual([done, ino]);
    // the lines read stand again further down as well: where the edit belongs cannot be told
    t.file('r1', `${fs.readFileSync(path.join(t.dir, 'r1'), 'latin1')}line 2\nline 3\n`);
    const both = bytes('r1');
    const r = await run(args, { cwd: t.dir });
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/--relocate: the lines read stand at line 9 and the lines the edit leaves at line 4, so it may be made already\)\n$/);
    expect(bytes('r1')).toBe(both);
  });
});

describe('a content edit changes no byte outside its old text, and writes its new text as given', () => {
  const cases: [string, string, string[], string][] = [
    // [file, the edit, replace's arguments, the file after]
    ['x\r\nb\nc\n', 'an old text across a CRLF and an LF line keeps the LF after it', ['--old', 'x\nb', '--new', 'Y'], 'Y\nc\n'],
    ['a\r\nb\r\n', 'a lone \\r ending the new text stays', ['--old', 'b', '--new', 'A\r'], 'a\r\nA\r\r\n'],
    ['a\r\nb\r\n', "the new text's breaks take the file's ending", ['--old', 'b', '--new', 'B\nC'], 'a\r\nB\r\nC\r\n'],
    ['a\r\nb', 'inside an unterminated last line: breaks take the line before, the end stays open', ['--old', 'b', '--new', 'B\nC'], 'a\r\nB\r\nC'],
    ['a\nb\r\nc\n', 'mixed: each break of the new text takes the ending it replaces', ['--old', 'a\nb\nc', '--new', '1\n2\n3'], '1\n2\r\n3\n'],
    ['a\r\nb\r\n', '--eol keep writes the new text byte for byte', ['--old', 'b', '--new', 'B\nC', '--eol', 'keep'], 'a\r\nB\nC\r\n'],
    ['k\r\nend', 'an old text ending at the end of an unterminated last line: the new one ends open too', ['--old', 'end\n', '--new', 'END\n'], 'k\r\nEND'],
  ];
  for (const [before, what, args, after] of cases) {
    it(what, async () => {
      t.file('f', before);
      const r = await run(['replace', 'f', ...args], { cwd: t.dir });
      expect([r.status, r.stderr]).toEqual([0, '']);
      expect(bytes('f')).toBe(esc(after));
      await rerunWritesNothing(['replace', 'f', ...args]);
    });
  }
});

/** Issue 24: the same edit run again on its own result exits 0, says so, and leaves the file as it is (bytes, inode, mtime). */
async function rerunWritesNothing(args: string[], name = 'f'): Promise<void> {
  const f = path.join(t.dir, name);
  const stamp = () => [fs.readFileSync(f).toString('latin1'), fs.statSync(f).ino, fs.statSync(f).mtimeMs];
  const before = stamp();
  const again = await run(args, { cwd: t.dir });
  expect([again.status, again.stderr]).toEqual([0, `linewise: ${name}: already applied: the lines already hold the new text; nothing was written\n`]);
  expect(stamp()).toEqual(before);
}

describe('no edit path writes a decoded guess into a line that is not UTF-8', () => {
  const guess = /is not valid UTF-8, so the file is in an encoding linewise was not told, and it would (start right after byte 0x83|replace bytes that are not ASCII|write bytes that are not ASCII)/;
  const sjis = () => fs.copyFileSync(fixture('shift_jis-trail.txt'), path.join(t.dir, 'sj'));

  it('Shift_JIS: an "A" that is the second byte of "ア" is never edited without --encoding', async () => {
    sjis();
    await refused(['replace', 'sj', '--old', 'A', '--new', 'B', '--all'], 2, guess);
    const grep = await run(['grep', '-F', 'A', 'sj', '--replace', 'B'], { cwd: t.dir });
    expect(grep.status).toBe(0);
    await refused(['replace', 'sj', '--rows', '-'], 2, guess, grep.stdout);
    expect(bytes('sj')).toBe('\\x83A = A\\r\\n');
  });

  it('Shift_JIS: an ASCII edit between ASCII bytes needs no --encoding; with it, "A" means the character', async () => {
    sjis();
    let r = await run(['replace', 'sj', '--old', '= A', '--new', '= B'], { cwd: t.dir });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(bytes('sj')).toBe('\\x83A = B\\r\\n');
    await rerunWritesNothing(['replace', 'sj', '--old', '= A', '--new', '= B'], 'sj');
    r = await run(['replace', 'sj', '--old', 'B', '--new', 'C', '--encoding', 'shift_jis'], { cwd: t.dir });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(bytes('sj')).toBe('\\x83A = C\\r\\n');
  });

  it('latin1: grep --replace keeps the bytes of the match ($0) and around it, so the rows go back unchanged', async () => {
    t.file('f', Buffer.from('\xe9 caf\xe9 x\n', 'latin1'));
    const grep = await run(['grep', 'caf.', 'f', '--replace', '$0'], { cwd: t.dir });
    expect(esc(grep.stdout)).toBe('1\\t\\xe9 caf\\xe9 x\\n');
    const named = await run(['grep', '(?<w>caf.)', 'f', '--replace', '[${w}]'], { cwd: t.dir });
    expect(esc(named.stdout)).toBe('1\\t\\xe9 [caf\\xe9] x\\n');
    const r = await run(['replace', 'f', '--rows', '-'], { cwd: t.dir, stdin: grep.stdout });
    expect(r.status).toBe(0);
    expect(bytes('f')).toBe('\\xe9 caf\\xe9 x\\n');
  });

  it('latin1: rows that carry U+FFFD for its bytes (a decoded view) are refused, whatever else they edit', async () => {
    t.file('f', Buffer.from('\xe9 caf\xe9 x\n', 'latin1'));
    // (a row all UTF-8 is named as a decoded read first; either way it is exit 2 naming --encoding)
    await refused(['replace', 'f', '--rows', '-'], 2, /line 1 is not valid UTF-8 but the row is: the rows were read decoded .*--encoding/, '1\t\uFFFD caf\uFFFD y\n');
    await refused(['replace', 'f', '--rows', '-'], 2, guess, Buffer.concat([Buffer.from('1\t\uFFFD caf'), Buffer.of(0xe9), Buffer.from(' y\n')]));
    await refused(['replace', 'f', '--old', 'x', '--new', 'caf\u00e9'], 2, guess);
    // an ASCII edit between ASCII bytes is safe in any ASCII-compatible encoding
    const r = await run(['replace', 'f', '--old', 'x', '--new', 'y'], { cwd: t.dir });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(bytes('f')).toBe('\\xe9 caf\\xe9 y\\n');
    await rerunWritesNothing(['replace', 'f', '--old', 'x', '--new', 'y']);
  });
});
