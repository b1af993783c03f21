import { describe, expect, it } from 'vitest';
import { matchRanges } from '../../src/core/match-ranges.js';
import { compilePatterns } from '../../src/core/pattern.js';
import { byteOffsets } from '../../src/core/utf8.js';

describe('match ranges and byte offsets', async () => {
  it('maps ranges in the decoded text back to the bytes, invalid bytes included', async () => {
    const line = Buffer.concat([Buffer.from('é'), Buffer.from([0xff, 0xe2, 0x82]), Buffer.from('ab😀ab\r\n')]);
    const ranges = matchRanges(await compilePatterns(['ab']), line, 0, line.length);
    expect(ranges).toEqual([[5, 7], [11, 13]]); // é (2 bytes), \xff, a cut \xe2\x82, then ab😀ab
    expect(byteOffsets(Buffer.from('abc'), 0, 3, [1, 3])).toEqual([1, 3]);
  });

  it('lists empty matches once each, stepping over a whole astral character', async () => {
    const line = Buffer.from('a😀b\n');
    expect(matchRanges(await compilePatterns(['x*']), line, 0, line.length)).toEqual([[0, 0], [1, 1], [5, 5], [6, 6]]);
  });
});
