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
  const view = new DataView(units.buffer, units.byteOffset, units.length);
  const out = Buffer.allocUnsafe(units.length); // 2 bytes per BMP character, 4 per other: never more
  let o = 0;
  const put = (unit: number) => {
    out[o++] = unit & 0xff;
    out[o++] = unit >> 8;
  };
  for (let i = 0; i < units.length; i += 4) {
    let cp = view.getUint32(i, !bigEndian);
    if (cp < 0x10000) {
      put(cp >= 0xd800 && cp <= 0xdfff ? REPLACEMENT : cp);
    } else if (cp <= 0x10ffff) {
      cp -= 0x10000;
      put(0xd800 | (cp >> 10));
      put(0xdc00 | (cp & 0x3ff));
    } else {
      put(REPLACEMENT);
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
    // cp < 2^21 whether valid or not: the high byte is always 0.
    const [b0, b1, b2] = [cp & 0xff, (cp >> 8) & 0xff, cp >> 16];
    if (bigEndian) {
      out[o] = 0;
      out[o + 1] = b2;
      out[o + 2] = b1;
      out[o + 3] = b0;
    } else {
      out[o] = b0;
      out[o + 1] = b1;
      out[o + 2] = b2;
      out[o + 3] = 0;
    }
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
