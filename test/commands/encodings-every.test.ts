// Every name "linewise encodings" lists, through the CLI: a small file of several lines, with and
// without a final newline, reads as the right rows, and replace writes it back byte for byte.
import * as fs from 'node:fs';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { esc, run, tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

/** Rows as readlines prints them for `text`. */
const rowsOf = (text: string) => text.split(/(?<=\n)/).map((line, i) => `${i + 1}\t${line}`).join('');

/** The file's bytes: iconv-lite's encoding, the reference; with a byte order mark where the name needs one. */
const encoded = (name: string, text: string) => iconv.encode(text, name, { addBOM: name === 'utf16' || name === 'utf32' });

describe('every encoding "linewise encodings" lists', async () => {
  const names = (await run(['encodings'])).stdout.toString().trimEnd().split('\n').map((l) => l.split('\t')[0]!);

  it('lists the Unicode encodings and cesu8 among them', () => {
    for (const n of ['utf16', 'utf16be', 'ucs2', 'utf32', 'utf32le', 'utf32be', 'cesu8', 'shiftjis']) expect(names).toContain(n);
  });

  for (const text of ['alpha\r\nbeta\ngamma\n', 'alpha\nbeta\r\ngamma']) {
    it(`reads ${JSON.stringify(text)} as 3 rows, and replace writes line 2 back in the same bytes`, async () => {
      for (const name of names) {
        const f = tmp.file(`${name}.txt`, encoded(name, text));
        const read = await run(['readlines', f, '1', '--encoding', name]);
        expect([read.status, esc(read.stdout), read.stderr], name).toEqual([0, esc(rowsOf(text)), '']);
        const edit = await run(['replace', f, '2', '--text', 'BETA', '--encoding', name]);
        expect([edit.status, edit.stderr], name).toEqual([0, '']);
        expect(esc(fs.readFileSync(f)), name).toBe(esc(encoded(name, text.replace('beta', 'BETA'))));
        // The rows read at first, fed back: the file as it was, byte for byte.
        const back = await run(['replace', f, '--rows', '-', '--encoding', name], { stdin: read.stdout });
        expect([back.status, back.stderr], name).toEqual([0, '']);
        expect(esc(fs.readFileSync(f)), name).toBe(esc(encoded(name, text)));
      }
    });
  }
});
