// Issue 22's catalogue: guards that cannot be emptied, no edit path that writes a decoded guess,
// --relocate bounded by the lines it verified, and content edits that change no byte outside
// their old text. Each case compares every file byte for byte before and after.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { esc, run, tempDir } from '../helpers.js';
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
