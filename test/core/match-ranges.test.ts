import { describe, expect, it } from 'vitest';
import { matchRanges } from '../../src/core/match-ranges.js';
import { compilePatterns } from '../../src/core/pattern.js';
import { ByteCursor, byteOffsets } from '../../src/core/utf8.js';
import fc from 'fast-check';

/** The packed ranges as pairs. */
const pairs = (r: Uint32Array) => Array.from({ length: r.length / 2 }, (_, k) => [r[2 * k], r[2 * k + 1]]);

describe('match ranges and byte offsets', async () => {
  it('maps ranges in the decoded text back to the bytes, invalid bytes included', async () => {
    const line = Buffer.concat([Buffer.from('é'), Buffer.from([0xff, 0xe2, 0x82]), Buffer.from('ab😀ab\r\n')]);
    const ranges = pairs(matchRanges(await compilePatterns(['ab']), line, 0, line.length));
    expect(ranges).toEqual([[5, 7], [11, 13]]); // é (2 bytes), \xff, a cut \xe2\x82, then ab😀ab
    expect(byteOffsets(Buffer.from('abc'), 0, 3, [1, 3])).toEqual([1, 3]);
  });

  it('lists empty matches once each, stepping over a whole astral character', async () => {
    const line = Buffer.from('a😀b\n');
    expect(pairs(matchRanges(await compilePatterns(['x*']), line, 0, line.length))).toEqual([[0, 0], [1, 1], [5, 5], [6, 6]]);
  });

  it('ByteCursor gives what byteOffsets gives, one ascending index at a time', () => {
    const bytes = fc.array(fc.constantFrom(0x61, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xff), { maxLength: 30 }).map((b) => Buffer.from(b));
    fc.assert(
      fc.property(bytes, fc.array(fc.nat(40), { maxLength: 8 }), (buf, raw) => {
        const units = buf.toString('utf8').length;
        const indices = raw.map((i) => Math.min(i, units)).sort((a, b) => a - b);
        const cursor = new ByteCursor(buf, 0, buf.length);
        expect(indices.map((i) => cursor.offset(i))).toEqual(byteOffsets(buf, 0, buf.length, indices));
      }),
    );
  });
});
