// UTF-8 validity by position: the first byte that is not part of valid UTF-8, and where a chunk
// of a stream can be cut without splitting a sequence (io/utf8-file.ts reads files with them).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isUtf8 } from 'node:buffer';
import { firstInvalidUtf8, utf8CutPoint } from '../../src/core/utf8.js';

describe('firstInvalidUtf8', () => {
  it('names the first byte that is no part of valid UTF-8, a sequence cut by the end included', () => {
    const b = (...x: number[]) => Buffer.from(x);
    expect(firstInvalidUtf8(Buffer.from('abc é 日 😀'), 0, Buffer.byteLength('abc é 日 😀'))).toBe(-1);
    expect(firstInvalidUtf8(b(0x61, 0xe9, 0x62), 0, 3)).toBe(1);
    expect(firstInvalidUtf8(b(0xc0, 0x80), 0, 2)).toBe(0); // overlong
    expect(firstInvalidUtf8(b(0x61, 0xed, 0xa0, 0x80), 0, 4)).toBe(1); // a surrogate
    expect(firstInvalidUtf8(b(0x61, 0xe6, 0x97), 0, 3)).toBe(1); // cut
    expect(firstInvalidUtf8(b(0x80), 0, 1)).toBe(0);
  });

  it('property: -1 exactly when Node calls the bytes UTF-8', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 12 }), (a) => {
        expect(firstInvalidUtf8(a, 0, a.length) === -1).toBe(isUtf8(a));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('utf8CutPoint', () => {
  it('cuts before a sequence the chunk starts but does not finish, else at the end', () => {
    const s = Buffer.from('a日'); // 61 e6 97 a5
    expect([1, 2, 3, 4].map((end) => utf8CutPoint(s, end))).toEqual([1, 1, 1, 4]);
    expect(utf8CutPoint(Buffer.from([0x61, 0xff]), 2)).toBe(2); // no sequence starts there: invalid, not cut
  });

  it('property: valid text cut at every point and checked chunk by chunk is valid, and invalid text is not', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'grapheme' }).map((x) => Buffer.from(x)), fc.uint8Array({ maxLength: 16 }).map((x) => Buffer.from(x))), fc.nat(), (bytes, at) => {
        const end = bytes.length === 0 ? 0 : at % (bytes.length + 1);
        const cut = utf8CutPoint(bytes, end);
        expect(cut).toBeGreaterThanOrEqual(Math.max(0, end - 3));
        expect(isUtf8(bytes.subarray(0, cut)) && isUtf8(bytes.subarray(cut))).toBe(isUtf8(bytes));
      }),
      { numRuns: 2000 },
    );
  });
});
