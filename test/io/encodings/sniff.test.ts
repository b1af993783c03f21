// The one sniff of a file's first read: its byte order mark, its codec and binary, decided together.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadEncodings } from '../../../src/io/encodings/iconv.js';
import { sniff } from '../../../src/io/encodings/sniff.js';

beforeAll(() => loadEncodings());

/** `codec mark binary` for `head` under `name`. */
function sniffed(head: Buffer, name?: string, checkBinary = true): string {
  const s = sniff(head, name, checkBinary);
  return `${s.codec?.name ?? 'bytes'} ${s.bomLength} ${s.binary}`;
}

const utf16le = (s: string) => Buffer.concat([Buffer.of(0xff, 0xfe), Buffer.from(s, 'utf16le')]);

describe('sniff', () => {
  it('the byte path: a UTF-8 mark passed over, a NUL after it is binary, the mark alone is not', () => {
    expect(sniffed(Buffer.from('plain\n'))).toBe('bytes 0 false');
    expect(sniffed(Buffer.from('\uFEFFtext\n'))).toBe('bytes 3 false');
    expect(sniffed(Buffer.from('\uFEFFa\0b\n'))).toBe('bytes 3 true');
    expect(sniffed(Buffer.from('a\0b\n'))).toBe('bytes 0 true');
    expect(sniffed(Buffer.from('a\0b\n'), undefined, false)).toBe('bytes 0 false'); // -a: not looked for
    expect(sniffed(Buffer.alloc(0))).toBe('bytes 0 false');
  });

  it('a decoded file is binary by its text: UTF-16 NUL bytes are not, a U+0000 character is', () => {
    expect(sniffed(utf16le('text\n'))).toBe('utf-16le 2 false');
    expect(sniffed(utf16le('a\0b\n'))).toBe('utf-16le 2 true');
    // a character cut at the end of the first read is held back, not taken for a NUL
    expect(sniffed(utf16le('ab').subarray(0, 5))).toBe('utf-16le 2 false');
    expect(sniffed(Buffer.from('caf\xe9\n', 'latin1'), 'latin1')).toBe('latin1 0 false');
    expect(sniffed(Buffer.from('caf\0\n', 'latin1'), 'latin1')).toBe('latin1 0 true');
  });
});
