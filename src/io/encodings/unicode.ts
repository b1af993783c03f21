// UTF-16 and UTF-32 in both byte orders, decoded and encoded by linewise itself: a file announced
// by its byte order mark opens synchronously, without a flag and without loading iconv-lite.

import type { Backend } from './codec.js';

type Decoder = ReturnType<Backend['decoder']>;

/**
 * A decoder over code units of `width` bytes: each write is cut at a whole number of units, the
 * rest held for the next write; `convert` turns whole units into text. Bytes left at the end are
 * no character: shown as U+FFFD (and reported by the codec's `invalidAt`).
 */
function unitDecoder(width: number, convert: (units: Buffer) => string): Decoder {
  let held: Buffer | undefined; // the start of a unit cut by the end of a read
  return {
    write(b) {
      const data = held ? Buffer.concat([held, b]) : b;
      const whole = data.length - (data.length % width);
      // A copy: the reader reuses its buffer.
      held = whole < data.length ? Buffer.from(data.subarray(whole)) : undefined;
      return convert(data.subarray(0, whole));
    },
    end() {
      const had = held !== undefined;
      held = undefined;
      return had ? '\uFFFD' : '';
    },
  };
}

/** UTF-16 with Node's own decoder (it reads UTF-16LE); byte-swapped copies for big-endian. */
function utf16(bigEndian: boolean): Backend {
  return {
    // A copy before swapping: never swap the reader's buffer.
    decoder: () => unitDecoder(2, (units) => (bigEndian ? Buffer.from(units).swap16() : units).toString('utf16le')),
    encoder: () => ({
      write(s) {
        const b = Buffer.from(s, 'utf16le');
        return bigEndian ? b.swap16() : b;
      },
      end: () => undefined,
    }),
  };
}

const REPLACEMENT = 0xfffd;

/**
 * UTF-32 units to text, through UTF-16LE bytes that Node turns into a string. A unit that is no
 * Unicode scalar value (a surrogate, or past U+10FFFF) reads as U+FFFD; the codec's round-trip
 * check then reports it, as encoding U+FFFD does not give those bytes back.
 */
function utf32ToString(units: Buffer, bigEndian: boolean): string {
  const out = Buffer.allocUnsafe(units.length); // 2 bytes per BMP character, 4 per other: never more
  let o = 0;
  for (let i = 0; i < units.length; i += 4) {
    let cp = bigEndian ? units.readUInt32BE(i) : units.readUInt32LE(i);
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) cp = REPLACEMENT;
    if (cp < 0x10000) {
      out.writeUInt16LE(cp, o);
      o += 2;
    } else {
      cp -= 0x10000;
      out.writeUInt16LE(0xd800 | (cp >> 10), o);
      out.writeUInt16LE(0xdc00 | (cp & 0x3ff), o + 2);
      o += 4;
    }
  }
  return out.toString('utf16le', 0, o);
}

/**
 * Text to UTF-32. A surrogate pair is one unit; a lone surrogate (never in text decoded from
 * UTF-8 or from a file) is written as its own value, which is no valid UTF-32, so the codec's
 * check that the bytes read back as the text refuses it.
 */
function stringToUtf32(s: string, bigEndian: boolean): Buffer {
  const out = Buffer.allocUnsafe(s.length * 4);
  let o = 0;
  for (let i = 0; i < s.length; i++) {
    let cp = s.charCodeAt(i);
    const next = s.charCodeAt(i + 1); // NaN past the end
    if (cp >= 0xd800 && cp <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      cp = 0x10000 + ((cp - 0xd800) << 10) + (next - 0xdc00);
      i++;
    }
    if (bigEndian) out.writeUInt32BE(cp, o);
    else out.writeUInt32LE(cp, o);
    o += 4;
  }
  return out.subarray(0, o);
}

function utf32(bigEndian: boolean): Backend {
  return {
    decoder: () => unitDecoder(4, (units) => utf32ToString(units, bigEndian)),
    encoder: () => ({ write: (s) => stringToUtf32(s, bigEndian), end: () => undefined }),
  };
}

/** The Backend of a native encoding: `utf16le`, `utf16be`, `utf32le` or `utf32be`. */
export function unicodeBackend(canonical: string): Backend {
  const bigEndian = canonical.endsWith('be');
  return canonical.startsWith('utf32') ? utf32(bigEndian) : utf16(bigEndian);
}
