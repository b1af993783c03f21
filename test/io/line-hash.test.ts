import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { lineHash } from '../../src/io/line-hash.js';

describe('lineHash', () => {
  it('is the first 16 hex digits of the SHA-256 of the bytes, as sha256sum prints it', () => {
    for (const text of [Buffer.from(''), Buffer.from('one'), Buffer.from('caf\xe9\r', 'latin1'), Buffer.from('日本\ttab')]) {
      const want = execFileSync('sha256sum', { input: text }).toString().slice(0, 16);
      expect(lineHash(text)).toBe(want);
    }
  });
});
