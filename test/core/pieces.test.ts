// The line gatherer: pieces copied as they come, joined to one buffer of the line's size, bounded.
import { describe, expect, it } from 'vitest';
import { LineGatherer } from '../../src/core/pieces.js';

describe('LineGatherer', () => {
  it('joins pieces that were copied as they came (the source is overwritten after each add)', () => {
    const g = new LineGatherer(100, (n) => new RangeError(`too long: ${n}`));
    const scratch = Buffer.alloc(8);
    for (const piece of ['one ', 'two ', '', 'three\r\n']) {
      scratch.fill(0);
      scratch.write(piece, 1);
      g.add(scratch, 1, 1 + piece.length);
    }
    expect(g.length).toBe(15);
    const whole = g.take();
    expect(whole.equals(Buffer.from('one two three\r\n'))).toBe(true);
    expect(g.length).toBe(0);
    // what take gave is the caller's: the next line does not write into it
    g.add(Buffer.from('next\n'), 0, 5);
    expect(g.take().equals(Buffer.from('next\n'))).toBe(true);
    expect(whole.equals(Buffer.from('one two three\r\n'))).toBe(true);
    expect(g.take().length).toBe(0);
  });

  it('throws past its bound, and clear drops what was gathered', () => {
    const g = new LineGatherer(10, (n) => new RangeError(`too long: ${n}`));
    g.add(Buffer.from('123456'), 0, 6);
    expect(() => g.add(Buffer.from('78901'), 0, 5)).toThrow('too long: 11');
    g.clear();
    expect(g.length).toBe(0);
    g.add(Buffer.from('1234567890'), 0, 10);
    expect(g.take().toString()).toBe('1234567890');
  });
});
