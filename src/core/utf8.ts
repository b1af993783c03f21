// Maps positions in a line's decoded text (UTF-16 indices, invalid bytes as U+FFFD) back to
// byte offsets in its raw bytes, so match ranges and highlights name the file's own bytes.

import { isAscii } from 'node:buffer';

/**
 * Length in bytes of the unit the WHATWG UTF-8 decoder (Buffer#toString('utf8')) reads at
 * `i`, and how many UTF-16 code units it yields: a valid sequence, or a maximal invalid
 * subpart that becomes one U+FFFD.
 */
function step(buf: Uint8Array, i: number, end: number): { bytes: number; units: number } {
  const b = buf[i]!;
  if (b < 0x80) return { bytes: 1, units: 1 };
  let need: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (b >= 0xc2 && b <= 0xdf) need = 1;
  else if (b >= 0xe0 && b <= 0xef) {
    need = 2;
    if (b === 0xe0) lo = 0xa0;
    if (b === 0xed) hi = 0x9f;
  } else if (b >= 0xf0 && b <= 0xf4) {
    need = 3;
    if (b === 0xf0) lo = 0x90;
    if (b === 0xf4) hi = 0x8f;
  } else return { bytes: 1, units: 1 };
  let k = 1;
  for (; k <= need; k++) {
    const c = i + k < end ? buf[i + k]! : -1;
    if (c < lo || c > hi) return { bytes: k, units: 1 }; // invalid: the bytes so far are one U+FFFD
    lo = 0x80;
    hi = 0xbf;
  }
  return { bytes: need + 1, units: need === 3 ? 2 : 1 };
}

/**
 * Converts sorted UTF-16 indices into the text of bytes `[start, end)` (as decoded by
 * `toString('utf8')`) into byte offsets relative to `start`.
 */
export function byteOffsets(buf: Uint8Array, start: number, end: number, indices: readonly number[]): number[] {
  if (isAscii(buf.subarray(start, end))) return indices.slice();
  const out: number[] = [];
  let unit = 0;
  let at = start;
  for (const want of indices) {
    while (unit < want && at < end) {
      const s = step(buf, at, end);
      unit += s.units;
      at += s.bytes;
    }
    out.push(at - start);
  }
  return out;
}

/** The length of the UTF-8 sequence lead byte `b` starts (2 to 4), 1 for ASCII, 0 for a byte no sequence starts with. */
function sequenceLength(b: number): number {
  return b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
}

/** The index of the first byte of `buf[start, end)` that is not part of valid UTF-8 (a sequence cut by `end` included), or -1. */
export function firstInvalidUtf8(buf: Uint8Array, start: number, end: number): number {
  for (let i = start; i < end; ) {
    const len = sequenceLength(buf[i]!);
    if (len === 0 || (len > 1 && step(buf, i, end).bytes !== len)) return i;
    i += len;
  }
  return -1;
}

/**
 * Where a chunk of a stream can be cut without splitting a UTF-8 sequence: before a sequence its
 * last bytes start but do not finish (the rest comes with the next chunk), else at `end`.
 */
export function utf8CutPoint(buf: Uint8Array, end: number): number {
  for (let i = end - 1; i >= Math.max(0, end - 3); i--) {
    const b = buf[i]!;
    if (b < 0x80) return end;
    if (b >= 0xc0) return i + sequenceLength(b) > end ? i : end;
  }
  return end;
}

/**
 * Byte offsets (relative to `start`) of UTF-16 indices into the decoded text of bytes
 * `[start, end)`, asked in ascending order, each found by stepping on from the last: a line with
 * millions of matches is converted in one walk, with nothing kept per match.
 */
export class ByteCursor {
  private unit = 0;
  private at: number;
  private readonly ascii: boolean;

  constructor(
    private readonly buf: Uint8Array,
    private readonly start: number,
    private readonly end: number,
  ) {
    this.at = start;
    this.ascii = isAscii(buf.subarray(start, end));
  }

  offset(index: number): number {
    if (this.ascii) return index;
    while (this.unit < index && this.at < this.end) {
      const s = step(this.buf, this.at, this.end);
      this.unit += s.units;
      this.at += s.bytes;
    }
    return this.at - this.start;
  }
}
