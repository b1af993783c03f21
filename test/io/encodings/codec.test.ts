// The codec: decoding streams to UTF-8 whatever the read boundaries, encoding back byte for byte,
// refusing what an encoding cannot hold, and reporting bytes that would not survive a round trip.
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { beforeAll, describe, expect, it } from 'vitest';
import { LinewiseError } from '../../../src/core/errors.js';
import { chunkedReader, LineScanner, type ReadFn } from '../../../src/core/lines.js';
import type { Codec } from '../../../src/io/encodings/codec.js';
import { codecFor } from '../../../src/io/encodings/decoding.js';
import { loadEncodings } from '../../../src/io/encodings/iconv.js';
import { encodingNames } from '../../../src/io/encodings/names.js';
import { esc, referenceLines } from '../../helpers.js';

beforeAll(() => loadEncodings());

/** Everything a reader gives, asked for in requests of `sizes` bytes (cycled). */
function drain(read: ReadFn, sizes: number[] = [1 << 16]): Buffer {
  const parts: Buffer[] = [];
  const buf = Buffer.alloc(Math.max(...sizes));
  for (let i = 0; ; i++) {
    const n = read(buf, 0, sizes[i % sizes.length]!);
    if (n === 0) return Buffer.concat(parts);
    parts.push(Buffer.from(buf.subarray(0, n)));
  }
}

/** Decodes `bytes` read in chunks of `sizes` through a fresh codec for `name`. */
function decode(name: string, bytes: Uint8Array, sizes?: number[], requests?: number[]): { utf8: Buffer; codec: Codec } {
  const codec = codecFor(name);
  return { utf8: drain(codec.decodeReader(chunkedReader(bytes, sizes)), requests), codec };
}

/** Lines through the scanner (buffer of 16 bytes, so long lines come in pieces), joined back. */
function scanLines(read: ReadFn): string[] {
  const scanner = new LineScanner(read, 16);
  const lines: string[] = [];
  let parts: Buffer[] = [];
  scanner.scan((buf, start, end, ends) => {
    parts.push(Buffer.from(buf.subarray(start, end)));
    if (ends) {
      lines.push(esc(Buffer.concat(parts)));
      parts = [];
    }
  });
  return lines;
}

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

const chunkSizes = fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 6 });
const requestSizes = fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 4 });

/** Byte sequences that are one character of `name` and read back as exactly those bytes. */
function validSequences(name: string, candidates: Iterable<number[]>): Buffer[] {
  const out: Buffer[] = [];
  for (const seq of candidates) {
    const b = Buffer.from(seq);
    const s = iconv.decode(b, name, { stripBOM: false });
    if ([...s].length === 1 && s !== '\uFFFD' && iconv.encode(s, name).equals(b)) out.push(b);
  }
  return out;
}

function* singleBytes(): Generator<number[]> {
  for (let b = 0; b < 256; b++) yield [b];
}

function* shiftJisCodes(): Generator<number[]> {
  yield* singleBytes();
  for (let lead = 0x81; lead <= 0xfc; lead++) {
    if (lead > 0x9f && lead < 0xe0) continue;
    for (let trail = 0x40; trail <= 0xfc; trail++) if (trail !== 0x7f) yield [lead, trail];
  }
}

/** Valid content of a byte-oriented encoding: any run of its valid sequences. */
const content = (seqs: Buffer[]) => fc.array(fc.constantFrom(...seqs), { maxLength: 60 }).map((parts) => Buffer.concat(parts));

/** Valid UTF-16 content: any text of Unicode scalar values (pairs for astral ones), encoded. */
const utf16 = (bigEndian: boolean) =>
  fc.string({ unit: 'binary', maxLength: 40 }).map((s) => {
    const b = Buffer.from(s, 'utf16le');
    return bigEndian ? b.swap16() : b;
  });

/** Valid UTF-32 content, encoded by iconv-lite (the reference; linewise's UTF-32 is its own). */
const utf32 = (name: string) => fc.string({ unit: 'binary', maxLength: 40 }).map((s) => iconv.encode(s, name, { addBOM: false }));

describe('codec round trip (decode, then encode back: the same bytes)', () => {
  const cases: [string, fc.Arbitrary<Buffer>][] = [
    ['latin1', fc.uint8Array({ maxLength: 80 }).map((a) => Buffer.from(a))],
    ['windows-1252', content(validSequences('windows-1252', singleBytes()))],
    ['shift_jis', content(validSequences('shift_jis', shiftJisCodes()))],
    ['utf-16le', utf16(false)],
    ['utf-16be', utf16(true)],
    ['utf-32le', utf32('utf32le')],
    ['utf-32be', utf32('utf32be')],
    ['cesu8', fc.string({ unit: 'binary', maxLength: 40 }).map((s) => iconv.encode(s, 'cesu8'))],
  ];

  for (const [name, arbitrary] of cases) {
    it(`${name}: whole, and line by line as replace writes it, whatever the read sizes`, () => {
      fc.assert(
        fc.property(arbitrary, chunkSizes, requestSizes, (bytes, sizes, requests) => {
          const { utf8, codec } = decode(name, bytes, sizes, requests);
          expect(codec.invalidAt).toBeUndefined();
          expect(esc(codec.encode(utf8))).toBe(esc(bytes));
          const lineByLine = Buffer.concat(referenceLines(utf8).map((line) => codec.encode(line)));
          expect(esc(lineByLine)).toBe(esc(bytes));
        }),
        { numRuns: 300 },
      );
    });
  }

  it('the windows-1252 and shift_jis alphabets are what they should be', () => {
    // Guards the generators: 251 of 256 windows-1252 bytes are characters; thousands of kanji.
    expect(validSequences('windows-1252', singleBytes()).length).toBe(251);
    expect(validSequences('shift_jis', shiftJisCodes()).length).toBeGreaterThan(7000);
  });
});

describe('codec.encode', () => {
  it('refuses 日本 into latin1: LinewiseError unencodable, exit 2, naming the character', () => {
    const e = thrown(() => codecFor('latin1').encode(Buffer.from('caf\u00e9 日本\n')));
    expect(e).toBeInstanceOf(LinewiseError);
    expect((e as LinewiseError).code).toBe('unencodable');
    expect((e as LinewiseError).exitCode).toBe(2);
    expect((e as LinewiseError).message).toBe("the new text has '日' (U+65E5), which latin1 cannot represent");
  });

  it('writes € as 0x80 in windows-1252 but refuses it in latin1; refuses 😀 in shift_jis', () => {
    expect(esc(codecFor('windows-1252').encode(Buffer.from('5€\r\n')))).toBe('5\\x80\\r\\n');
    expect((thrown(() => codecFor('latin1').encode(Buffer.from('€'))) as LinewiseError).code).toBe('unencodable');
    expect((thrown(() => codecFor('shift_jis').encode(Buffer.from('日😀'))) as LinewiseError).message).toMatch(/U\+1F600/);
    expect(esc(codecFor('shift_jis').encode(Buffer.from('日本\n')))).toBe('\\x93\\xfa\\x96{\\n');
  });

  it('refuses new text that is not valid UTF-8', () => {
    const e = thrown(() => codecFor('utf-16le').encode(Buffer.from([0x61, 0xff])));
    expect((e as LinewiseError).code).toBe('unencodable');
  });

  it('writes no byte order mark (bomBytes is written once, by the writer)', () => {
    expect(esc(codecFor('utf-16be').encode(Buffer.from('\uFEFFa')))).toBe('\\xfe\\xff\\x00a');
    expect(esc(codecFor('utf-16le').encode(Buffer.from('a')))).toBe('a\\x00');
    expect(codecFor('utf-16le').bomBytes.length).toBe(0);
  });

  it('for every encoding iconv-lite knows, either writes what reads back exactly or refuses', async () => {
    const samples = ['a\r\n', 'é', '€', '日', '本', '😀', 'д', 'ß', 'ア', '\uFFFD', '?', '\u0000'];
    let refusals = 0;
    for (const { name } of await encodingNames()) {
      if (['utf8', 'utf16', 'utf32'].includes(name)) continue; // the byte path; by byte order mark
      const codec = codecFor(name);
      for (const s of samples) {
        let bytes: Buffer;
        try {
          bytes = codec.encode(Buffer.from(s));
        } catch (e) {
          expect((e as LinewiseError).code, `${name} ${s}`).toBe('unencodable');
          refusals++;
          continue;
        }
        expect(decode(name, bytes).utf8.toString(), `${name} ${s}`).toBe(s);
      }
    }
    expect(refusals).toBeGreaterThan(100); // single-byte encodings refuse most of the samples
    // Every encoding has these; a refusal would be a decoder adding or losing text (cesu8 did).
    for (const { name } of await encodingNames()) {
      if (['utf8', 'utf16', 'utf32'].includes(name)) continue;
      expect(decode(name, codecFor(name).encode(Buffer.from('ab\r\ncd\n'))).utf8.toString(), name).toBe('ab\r\ncd\n');
    }
  });
});

/** Characters to cut: one of each width an encoding may have, kept where the encoding has them. */
const WIDE = ['é', '€', 'д', 'ア', 'ｱ', '日', '本', '語', '한', '中', '😀', '𠮷', '𡃁', 'Ê\u0304'];

/** Every encoding iconv-lite knows with a character wider than one byte, and such characters. */
async function multiByteEncodings(): Promise<{ name: string; chars: string[] }[]> {
  const found: { name: string; chars: string[] }[] = [];
  for (const { name } of await encodingNames()) {
    if (['utf8', 'utf16', 'utf32'].includes(name)) continue;
    const codec = codecFor(name);
    const chars = WIDE.filter((c) => {
      try {
        return codec.encode(Buffer.from(c)).length > 1;
      } catch {
        return false;
      }
    });
    if (chars.length > 0) found.push({ name, chars });
  }
  return found;
}

describe('decodeReader', () => {
  it('never breaks a character cut at any read boundary, in every multi-byte encoding', async () => {
    const encodings = await multiByteEncodings();
    // The East Asian double-byte sets, UTF-16/32 and UTF-7 at least.
    for (const n of ['shiftjis', 'eucjp', 'gbk', 'gb18030', 'cp949', 'big5hkscs', 'utf16be', 'ucs2', 'utf32le']) {
      expect(encodings.map((e) => e.name)).toContain(n);
    }
    for (const { name, chars } of encodings) {
      const text = `a${chars.join('')}\r\n${chars.join('b')}\nz${chars[0]}`;
      const bytes = codecFor(name).encode(Buffer.from(text));
      const want = referenceLines(Buffer.from(text)).map(esc);
      const cuttings: number[][] = [[1], [2], [3]];
      for (let k = 1; k < bytes.length; k++) cuttings.push([k, bytes.length]);
      for (const sizes of cuttings) {
        const codec = codecFor(name);
        expect(scanLines(codec.decodeReader(chunkedReader(bytes, sizes))), `${name} ${sizes}`).toEqual(want);
        expect(codec.invalidAt, `${name} ${sizes}`).toBeUndefined();
      }
    }
  });

  it('reports the offset of bytes that would not survive a round trip', () => {
    const cases: [string, number[], number][] = [
      ['utf-32le', [0x61, 0, 0, 0, 0x62, 0], 4], // a unit cut by the end of the file
      ['utf-32le', [0x61, 0, 0, 0, 0x00, 0xd8, 0, 0], 4], // a surrogate is no character
      ['utf-32be', [0, 0, 0, 0x61, 0x7f, 0, 0, 0], 4], // past U+10FFFF
      ['cesu8', [0x41, 0x0a, 0x42, 0xe0, 0xa0], 3], // a 3-byte sequence cut by the end of the file
      ['shift_jis', [0x61, 0x0a, 0x82, 0xa0, 0xff, 0x62], 4], // 0xFF is no Shift_JIS byte
      ['shift_jis', [0x61, 0x93], 1], // a lead byte cut off by the end of the file
      ['windows-1252', [0x61, 0x81], 1], // 0x81 is unassigned
      ['utf-16le', [0x61, 0, 0x62], 2], // an odd last byte
      ['utf-16le', [0x61, 0, 0x3d, 0xd8, 0x62, 0], 2], // a lone high surrogate
      ['utf-16be', [0, 0x61, 0xde, 0x00], 2], // a lone low surrogate
    ];
    for (const [name, bytes, at] of cases) {
      for (const sizes of [[1], [bytes.length]]) {
        const { utf8, codec } = decode(name, Buffer.from(bytes), sizes);
        expect(codec.invalidAt, `${name} ${esc(Buffer.from(bytes))} ${sizes}`).toBe(at);
        expect(utf8.toString()).toContain('\uFFFD');
      }
    }
    // An offset counts from the file's start when the reader starts after a byte order mark.
    const codec = codecFor('utf-16le');
    drain(codec.decodeReader(chunkedReader(Buffer.from([0x61, 0, 0x62])), 2));
    expect(codec.invalidAt).toBe(4);
  });

  it('keeps a U+FEFF inside the text (only openText takes a byte order mark off)', () => {
    expect(esc(decode('utf-16le', Buffer.from([0xff, 0xfe, 0x61, 0])).utf8)).toBe('\\xef\\xbb\\xbfa');
    expect(esc(decode('utf-32le', Buffer.from([0xff, 0xfe, 0, 0, 0x61, 0, 0, 0])).utf8)).toBe('\\xef\\xbb\\xbfa');
  });

  it('cesu8 adds nothing after the last line (iconv-lite#416: its end() gave 0, or "0\uFFFD")', () => {
    for (const text of ['a\nb\n', 'a\nb', '', '😀\n']) {
      for (const sizes of [[1], [3], [64]]) {
        const { utf8, codec } = decode('cesu8', iconv.encode(text, 'cesu8'), sizes);
        expect(utf8.toString(), `${JSON.stringify(text)} ${sizes}`).toBe(text);
        expect(codec.invalidAt).toBeUndefined();
      }
    }
    expect(decode('cesu8', Buffer.from([0x41, 0xe0, 0xa0])).utf8.toString()).toBe('A\uFFFD');
  });

  it('refuses unknown names, and names that are not text encodings', () => {
    for (const name of ['nope', 'base64', 'hex', '_dbcs', 'utf-7', 'utf-8', 'utf-16', 'utf-32', 'ucs-4', 'constructor']) {
      expect((thrown(() => codecFor(name)) as LinewiseError).code, name).toBe('unknown-encoding');
    }
  });
});
