// The library's content edits, several edits, new files and receipts: the same answers as the CLI,
// as data, with typed errors (the MCP server's replace_text is one call to replaceText).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFile } from '../../src/engine/create.js';
import { applyEdits, replaceText, TextNotFoundError } from '../../src/engine/edit.js';
import { LinewiseError } from '../../src/core/errors.js';
import { esc, tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
let n = 0;
const file = (bytes: string) => tmp.file(`t${n++}.txt`, Buffer.from(bytes, 'latin1'));

describe('replaceText, applyEdits, createFile', () => {
  it('replace_text {path, old, new, all?, dry_run?} is one call', async () => {
    const f = file('a\r\nb\r\n');
    const dry = await replaceText(path.basename(f), { old: 'a\nb', new: 'A\nB' }, { dryRun: true, cwd: tmp.dir });
    expect(dry.files[0]!.diff?.toString()).toContain('+A\r\n+B\r\n');
    expect(esc(fs.readFileSync(f))).toBe('a\\r\\nb\\r\\n');
    const r = await replaceText(f, { old: 'a\nb', new: 'A\nB', all: false }, { receipt: true });
    expect(esc(fs.readFileSync(f))).toBe('A\\r\\nB\\r\\n');
    expect(r.files[0]!.receipt!.regions[0]!.map((l) => [l.line, l.text, l.terminator])).toEqual([
      [1, 'A', '\r\n'],
      [2, 'B', '\r\n'],
    ]);
    expect(r.files[0]!.receipt!.shifts).toEqual([]);
  });

  it('throws TextNotFoundError with the near lines, and ambiguous with the lines of each', async () => {
    const f = file('x  =  1\ny = 2\n');
    const near = await replaceText(f, { old: 'x = 1', new: 'y' }).catch((e: unknown) => e);
    expect(near).toBeInstanceOf(TextNotFoundError);
    expect([(near as TextNotFoundError).exitCode, (near as TextNotFoundError).difference, (near as TextNotFoundError).near.map((l) => l.line)]).toEqual([3, 'whitespace', [1]]);
    const twice = await replaceText(file('\nx = 1;x = 1\n'), { old: 'x = 1', new: 'y' }).catch((e: unknown) => e);
    expect(twice).toBeInstanceOf(LinewiseError);
    expect([(twice as LinewiseError).code, (twice as LinewiseError).exitCode]).toEqual(['ambiguous', 2]);
    expect((twice as LinewiseError).message).toContain('starting on lines 2, 2');
  });

  it('applyEdits mixes ranges and texts; createFile refuses an existing file with exit code 3', async () => {
    const f = file('1\n2\n3\n');
    const r = await applyEdits(f, [{ start: 1, end: 0, text: '0' }, { old: '2\n', new: '' }, { start: 3, text: 'three' }]);
    expect(esc(fs.readFileSync(f))).toBe('0\\n1\\nthree\\n');
    expect(r.files[0]!.linesAfter).toBe(3);
    const err = await createFile(f, 'x').catch((e: unknown) => e);
    expect([(err as LinewiseError).code, (err as LinewiseError).exitCode]).toEqual(['exists', 3]);
    const made = await createFile(path.join(tmp.dir, 'new.txt'), 'a\nb', { eol: 'crlf' });
    expect(made.files[0]).toMatchObject({ created: true, written: true, linesAfter: 2 });
    expect(esc(fs.readFileSync(path.join(tmp.dir, 'new.txt')))).toBe('a\\r\\nb');
  });
});
