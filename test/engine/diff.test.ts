// The diff of a dry run (engine/diff.ts): applied to the file as it was, it gives the file the
// edits write, byte for byte: for a few edits (the minimal diff) and for thousands in one region
// (shown as made: the minimal diff's cost grew with their product, 20,000 edits took 325 s).
import { readFileSync } from 'node:fs';
import { applyPatch } from 'diff';
import { afterAll, describe, expect, it } from 'vitest';
import { applyEdits } from '../../src/index.js';
import { esc, tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

/** The dry run's diff applied to the file as it was, beside what the edits really write. */
async function both(name: string, content: string, edits: { start: number; end?: number; text: string }[]): Promise<[string, string, string]> {
  const f = tmp.file(name, Buffer.from(content, 'latin1'));
  const dry = await applyEdits(f, edits, { dryRun: true });
  const diff = dry.files[0]!.diff!.toString('latin1');
  const patched = applyPatch(content, diff);
  await applyEdits(f, edits);
  return [esc(patched === false ? 'the diff did not apply' : patched), esc(readFileSync(f, 'latin1')), diff];
}

const lines = (n: number, eol: string) => Array.from({ length: n }, (_, i) => `line ${i + 1}${eol}`).join('');

describe('dry-run diff', () => {
  it('a few edits: the minimal diff, which applies to the file as it was', async () => {
    const [patched, written, diff] = await both('few.txt', lines(20, '\r\n'), [
      { start: 2, text: 'TWO' },
      { start: 5, end: 6, text: 'line 5\nFIVE' },
    ]);
    expect(patched).toBe(written);
    expect(diff).toContain('-line 6\r\n+FIVE\r\n'); // line 5, unchanged, is context, not a change
  });

  it('thousands of edits in one region, the last line without a newline: one hunk as made, which applies', async () => {
    const content = lines(6001, '\n').slice(0, -1); // no final newline
    const edits = Array.from({ length: 3001 }, (_, k) => ({ start: 2 * k + 1, text: `X${2 * k + 1}` }));
    const [patched, written, diff] = await both('many.txt', content, edits);
    expect(patched).toBe(written);
    expect(diff.split('\n').filter((l) => l.startsWith('@@'))).toEqual(['@@ -1,6001 +1,6001 @@']);
    expect(diff.endsWith('-line 6001\n\\ No newline at end of file\n+X6001\n\\ No newline at end of file\n')).toBe(true);
  });

  it('a file with a byte order mark: line 1 shows it, as diff -u does, so the diff applies to the file as it is', async () => {
    const MARK = '\xef\xbb\xbf';
    const [patched, written, diff] = await both('bom.txt', MARK + lines(10, '\r\n'), [{ start: 1, text: 'ONE' }]);
    expect(patched).toBe(written);
    expect(diff).toContain(`-${MARK}line 1\r\n+${MARK}ONE\r\n`);
    // line 1 as context keeps its mark; a change far from it shows none
    const [p2, w2, d2] = await both('bom2.txt', MARK + lines(10, '\n'), [{ start: 3, text: 'THREE' }, { start: 9, text: 'NINE' }]);
    expect(p2).toBe(w2);
    expect(d2).toContain(` ${MARK}line 1\n`);
    expect(d2).toContain(' line 6\n');
    expect(d2.split(MARK).length).toBe(2);
  });

  it('thousands of edits from line 1 of a file with a byte order mark: the hunk as made shows the mark, and applies', async () => {
    const MARK = '\xef\xbb\xbf';
    const edits = Array.from({ length: 2500 }, (_, k) => ({ start: 2 * k + 1, text: `X${2 * k + 1}` }));
    const [patched, written, diff] = await both('bom-many.txt', MARK + lines(5000, '\n'), edits);
    expect(patched).toBe(written);
    expect(diff).toContain(`@@ -1,5000 +1,5000 @@\n-${MARK}line 1\n+${MARK}X1\n`);
  });
});
