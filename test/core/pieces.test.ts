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

  it('with keep, gathers in place (view: no copy), longer lines too, gives back all but keep when the next starts, and take still gives a copy', () => {
    const g = new LineGatherer(100, (n) => new RangeError(`too long: ${n}`), 12);
    const src = Buffer.alloc(16);
    const add = (text: string) => {
      src.fill(0x2a);
      src.write(text, 3);
      g.add(src, 3, 3 + text.length);
    };
    add('abc');
    add('defg');
    const first = g.view();
    expect(first.toString()).toBe('abcdefg');
    // the next line goes into the same memory: a view is used before the next add
    add('xyz\n');
    const second = g.view();
    expect(second.toString()).toBe('xyz\n');
    expect(second.buffer === first.buffer && second.byteOffset === first.byteOffset).toBe(true);
    expect(first.subarray(0, 4).toString()).toBe('xyz\n');
    // longer than keep: still one buffer, grown; shrunk back to keep when the next line starts
    for (const piece of ['0123456789', 'abcdefghij', '\n']) add(piece);
    const long = g.view();
    expect(long.toString()).toBe('0123456789abcdefghij\n');
    expect(long.buffer.byteLength).toBeGreaterThanOrEqual(21);
    add('k');
    expect(long.buffer.byteLength).toBe(12);
    g.clear();
    // take gives a buffer of the caller's own
    add('keep');
    const kept = g.take();
    add('over');
    expect([kept.toString(), g.view().toString()]).toEqual(['keep', 'over']);
    expect(g.view().length).toBe(0);
    // clear, and the bound, as without keep
    add('12');
    g.clear();
    expect(g.length).toBe(0);
    expect(() => {
      for (let i = 0; i < 11; i++) add('0123456789');
    }).toThrow('too long: 110');
    g.clear();
    add('after');
    expect(g.view().toString()).toBe('after');
  });
});
