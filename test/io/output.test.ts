import { describe, expect, it } from 'vitest';
import { Output, writeDigits } from '../../src/io/output.js';
import { esc } from '../helpers.js';

/** An Output over a capture; `chunks` records every write. */
function capture(): { out: Output; bytes: () => Buffer; chunks: number[] } {
  const parts: Buffer[] = [];
  const chunks: number[] = [];
  const out = new Output({
    isTTY: false,
    write(c) {
      parts.push(Buffer.from(c));
      chunks.push(c.length);
    },
  });
  return { out, bytes: () => Buffer.concat(parts), chunks };
}

describe('Output.row', () => {
  it('writes prefix, number, tab and the line bytes as text() and bytes() would', () => {
    const line = Buffer.from('xx\talpha\r\nbeta');
    const { out, bytes } = capture();
    out.row(Buffer.from('a.txt\t'), 12, line, 3, 10);
    out.row(new Uint8Array(0), 0, line, 10, 14);
    out.row(Buffer.from('b\0'), 2 ** 53 - 1, line, 10, 10);
    out.flush();
    // Output writes what it is given: the marker after an unterminated row is the printers' (format/rows.ts).
    expect(esc(bytes())).toBe(esc(Buffer.from('a.txt\t12\talpha\r\n0\tbetab\x009007199254740991\t')));
  });

  it('writes digits of any safe integer', () => {
    for (const n of [0, 7, 10, 99, 100, 123456789, 2 ** 31, 2 ** 32 + 5, 2 ** 53 - 1]) {
      const b = Buffer.alloc(20);
      const end = writeDigits(b, 1, n);
      expect(b.toString('latin1', 1, end)).toBe(String(n));
    }
  });

  it('flushes when the buffer is full and passes a line longer than the buffer through whole', () => {
    const big = Buffer.alloc(100_000, 'y');
    const { out, bytes } = capture();
    let expected = '';
    for (let n = 1; n <= 2000; n++) {
      out.row(Buffer.from('p\t'), n, Buffer.from(`line ${n}\n`), 0, `line ${n}\n`.length);
      expected += `p\t${n}\tline ${n}\n`;
    }
    out.row(new Uint8Array(0), 2001, big, 0, big.length);
    out.flush();
    expect(bytes().toString('latin1')).toBe(`${expected}2001\t${'y'.repeat(100_000)}`);
    expect(out.written).toBe(bytes().length);
  });
});
