// A whole file checked as UTF-8 in 1 MiB chunks: sequences across a chunk's end are no error, the
// first invalid byte is found at its very offset wherever it is, and a sequence cut by the end of
// the file is invalid.
import * as fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveTarget } from '../../src/io/edit-target.js';
import { firstInvalidUtf8InFile } from '../../src/io/utf8-file.js';
import { tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
const MiB = 1 << 20;

async function scan(bytes: Buffer): Promise<number | undefined> {
  const f = tmp.file('f', bytes);
  return firstInvalidUtf8InFile(resolveTarget(f, tmp.dir));
}

describe('firstInvalidUtf8InFile', () => {
  it('valid UTF-8 whose sequences straddle each 1 MiB boundary, at every offset of the cut', async () => {
    for (const shift of [0, 1, 2, 3]) {
      const body = Buffer.alloc(3 * MiB - 1 - shift, 'a');
      const bytes = Buffer.concat([body, Buffer.from('😀日é'.repeat(4))]);
      expect(await scan(bytes)).toBeUndefined();
      // the same text with one sequence placed across the first boundary
      const across = Buffer.concat([Buffer.alloc(MiB - shift, 'b'), Buffer.from('😀'), Buffer.alloc(10, 'c')]);
      expect(await scan(across)).toBeUndefined();
    }
  });

  it('finds the first invalid byte at its offset: in the first chunk, past 3 MiB, right at a boundary; a sequence the file cuts', async () => {
    expect(await scan(Buffer.from('ab\xe9cd', 'latin1'))).toBe(2);
    const far = Buffer.concat([Buffer.alloc(3 * MiB + 17, 'x'), Buffer.from([0xff]), Buffer.from('tail')]);
    expect(await scan(far)).toBe(3 * MiB + 17);
    const atBoundary = Buffer.concat([Buffer.alloc(MiB - 1, 'x'), Buffer.from([0xe6, 0x41])]);
    expect(await scan(atBoundary)).toBe(MiB - 1);
    expect(await scan(Buffer.concat([Buffer.from('ok '), Buffer.from([0xe6, 0x97])]))).toBe(3);
    expect(await scan(Buffer.alloc(0))).toBeUndefined();
    expect(fs.readdirSync(tmp.dir)).toEqual(['f']);
  });
});
