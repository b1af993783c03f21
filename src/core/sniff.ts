// Byte tests on the first bytes of an input: a NUL (binary), or NULs laid out as in UTF-16 or
// UTF-32 text without a byte order mark. (What an opened file's first read decides, its mark,
// codec and binary, is decided in one place: io/encodings/sniff.ts.)

/** Encodings a byte order mark can announce. */
export type Bom = 'utf-8' | 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be';

/** How many bytes the first bytes read are examined for a NUL, as grep and git do. */
export const SNIFF_BYTES = 1 << 16;

/** Binary: a NUL byte among the bytes given (callers pass the first SNIFF_BYTES). */
export function looksBinary(head: Uint8Array): boolean {
  return head.indexOf(0) !== -1;
}

/** Encodings whose text, read as bytes, is full of NULs in a pattern (mostly Latin text). */
export type WideEncoding = 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be';

/**
 * The encoding `head` (a file's first bytes, no byte order mark) is likely in when its NUL bytes
 * fall as they do in UTF-16 or UTF-32 text of mostly Latin characters, else undefined. UTF-16LE
 * has its NULs at odd offsets only (the high byte of a character below U+0100), in at least 3 of
 * 4 code units; UTF-16BE at even offsets. UTF-32 (of the first plane) has its two high bytes NUL
 * in every 4-byte unit. A binary file has NULs anywhere, so it matches none of these. Only the
 * message refusing a binary file uses this: it never decides how a file is read.
 */
export function wideEncodingOf(head: Uint8Array): WideEncoding | undefined {
  const quads = Math.floor(head.length / 4);
  const [a = 0, b = 0, c = 0, d = 0] = nulsByOffset(head, 4);
  if (quads > 0 && c === quads && d === quads && a < quads) return 'utf-32le';
  if (quads > 0 && a === quads && b === quads && d < quads) return 'utf-32be';
  const pairs = Math.floor(head.length / 2);
  const [even = 0, odd = 0] = nulsByOffset(head, 2);
  // In 3 of 4 code units at least: "a\0b\n" (a NUL in one unit of two) stays binary.
  if (pairs > 0 && even === 0 && 4 * odd >= 3 * pairs) return 'utf-16le';
  if (pairs > 0 && odd === 0 && 4 * even >= 3 * pairs) return 'utf-16be';
  return undefined;
}

/** NUL bytes of `head` by offset modulo `period`, over whole periods only. */
function nulsByOffset(head: Uint8Array, period: number): number[] {
  const counts = new Array<number>(period).fill(0);
  const end = head.length - (head.length % period);
  for (let i = 0; i < end; i++) if (head[i] === 0) counts[i % period]!++;
  return counts;
}
