// Issue 24: any sequence of content edits, each run twice, leaves the same file as each run once;
// the second run of each never writes. Files of whole words (LF and CRLF lines, with or without a
// final newline); each edit's old text is a word, its new text words that may hold the old one.
// (An old text that could begin inside a new text and end outside it, as `ab` -> `a` before a
// `b`, is an edit no tool can tell from a fresh one: such edits are left out by the alphabet.)

import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { replaceText } from '../../src/engine/edit.js';
import { tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const WORDS = ['alpha', 'beta', 'gamma', 'delta'];
const word = fc.constantFrom(...WORDS);
const line = fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
const file = fc
  .record({ lines: fc.array(line, { minLength: 1, maxLength: 8 }), crlf: fc.boolean(), open: fc.boolean() })
  .map(({ lines, crlf, open }) => lines.join(crlf ? '\r\n' : '\n') + (open ? '' : crlf ? '\r\n' : '\n'));
const edit = fc.record({
  old: word,
  // words, one of which may be the old one; a line break now and then
  new: fc.array(fc.constantFrom(...WORDS, 'omega', 'omega\nsigma'), { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')),
  all: fc.boolean(),
});

let n = 0;
/** Runs the edits on a copy of `text`, each `times` times; the file after, and whether a second run wrote. */
async function apply(text: string, edits: { old: string; new: string; all: boolean }[], times: number): Promise<{ bytes: Buffer; rewrote: boolean }> {
  const f = path.join(tmp.dir, `f${n++}`);
  fs.writeFileSync(f, text);
  let rewrote = false;
  for (const e of edits) {
    for (let i = 0; i < times; i++) {
      const before = fs.readFileSync(f);
      const r = await replaceText(f, e).catch((err: unknown) => err);
      if (i > 0 && !before.equals(fs.readFileSync(f))) rewrote = true;
      if (i > 0 && !(r instanceof Error)) expect((r as Awaited<ReturnType<typeof replaceText>>).files[0]!.written).toBe(false);
    }
  }
  const bytes = fs.readFileSync(f);
  fs.rmSync(f);
  return { bytes, rewrote };
}

describe('content edits run twice', () => {
  it('give the same file as run once, and the second run of each writes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(file, fc.array(edit, { minLength: 1, maxLength: 5 }), async (text, edits) => {
        const once = await apply(text, edits, 1);
        const twice = await apply(text, edits, 2);
        expect(twice.rewrote).toBe(false);
        expect(twice.bytes).toEqual(once.bytes);
      }),
      { numRuns: 150 },
    );
  });
});
