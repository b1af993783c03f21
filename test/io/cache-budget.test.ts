// The one cap on what a server keeps: each kind within its share, so the total never passes the
// cap; strings charged as V8 stores them (one byte a character, two past U+00FF).
import { describe, expect, it } from 'vitest';
import { CacheBudget, stringBytes } from '../../src/io/cache-budget.js';

describe('CacheBudget', () => {
  it('keeps each kind within its share; the shares add up to the cap', () => {
    const b = new CacheBudget(8000);
    expect(['contents', 'files', 'walks', 'answers'].map((k) => b.limit(k as 'files'))).toEqual([5000, 1000, 1000, 1000]);
    expect(b.fits('files', 1000)).toBe(true);
    b.add('files', 1000);
    expect(b.fits('files', 1)).toBe(false);
    expect(b.fits('contents', 5000)).toBe(true);
    b.add('contents', 5000);
    b.add('walks', 1000);
    b.add('answers', 1000);
    expect(b.total).toBe(8000);
    b.remove('contents', 2000);
    expect([b.of('contents'), b.total, b.fits('contents', 2000), b.fits('contents', 2001)]).toEqual([3000, 6000, true, false]);
    expect(new CacheBudget(0).fits('contents', 1)).toBe(false);
  });

  it('charges a string by its length, twice for one V8 stores two bytes a character', () => {
    expect(stringBytes('abc')).toBe(24 + 3);
    expect(stringBytes('café')).toBe(24 + 4); // é is U+00E9: still one byte
    expect(stringBytes('a→b')).toBe(24 + 6);
  });
});
