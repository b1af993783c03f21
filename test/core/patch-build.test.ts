// A new file's content (newFileContent, written into one buffer) as the patch's lines and endings
// say, against the plain reference: each kept or added line, its own ending, none after the last
// when the hunk says "\ No newline at end of file".
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newFileContent } from '../../src/core/patch/build.js';
import type { Hunk, HunkLine } from '../../src/core/patch/types.js';

function reference(hunks: readonly Hunk[]): Buffer {
  const pieces: Buffer[] = [];
  for (const h of hunks) {
    const added = h.lines.filter((l) => l.op !== '-');
    added.forEach((l, k) => {
      pieces.push(Buffer.from(l.text, 'latin1'));
      const last = h === hunks[hunks.length - 1] && k === added.length - 1;
      if (!(last && h.newNoNewline)) pieces.push(Buffer.from(l.crlf ? '\r\n' : '\n'));
    });
  }
  return Buffer.concat(pieces);
}

const line: fc.Arbitrary<HunkLine> = fc.record({
  op: fc.constantFrom<HunkLine['op']>(' ', '+', '+', '-'),
  text: fc.string({ unit: fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c === 10 ? 13 : c)), maxLength: 8 }),
  crlf: fc.boolean(),
});
const hunk: fc.Arbitrary<Hunk> = fc.record({
  header: fc.constant('@@ -0,0 +1 @@'),
  patchLine: fc.constant(1),
  lines: fc.array(line, { maxLength: 6 }),
  oldNoNewline: fc.constant(false),
  newNoNewline: fc.boolean(),
});

describe('newFileContent', () => {
  it('property: the bytes the reference gives (latin1 bytes, CRLF, no newline at the end, removed lines left out)', () => {
    fc.assert(
      fc.property(fc.array(hunk, { maxLength: 4 }), (hunks) => {
        expect(newFileContent(hunks).equals(reference(hunks))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
