// What an input's first bytes say, all in one place: its byte order mark (the one table of marks),
// the codec that reads it (the mark's, or --encoding's), and whether it is binary (a NUL, and the
// UTF-16/32 look of NULs without a mark, in the refusal's message), decided from the bytes of the
// first read alone.

import { LinewiseError } from '../../core/errors.js';
import { type Codec } from './codec.js';
import { makeCodec } from './decoding.js';
import { displayName, resolveEncoding, unknownEncoding } from './names.js';

/** Encodings a byte order mark can announce. */
export type Bom = 'utf-8' | 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be';

/** How many bytes the first bytes read are examined for a NUL, as grep and git do. */
export const SNIFF_BYTES = 1 << 16;

/** What the first bytes of an input decide about reading it. */
export interface Sniffed {
  /** bytes of byte order mark at the start, passed over before the first line */
  bomLength: number;
  /** the codec that decodes the text after the mark; undefined: the bytes are read as they are */
  codec: Codec | undefined;
  /**
   * A NUL among the first bytes after the mark (in the decoded text when there is a codec: UTF-16
   * text is full of NUL bytes). Always false when not asked for (`checkBinary` false).
   */
  binary: boolean;
}

/** The `bom` field for a byte order mark of `length` bytes read with `codec`. */
export function bomName(codec: Codec | undefined, length: number): Bom | undefined {
  if (length === 0) return undefined;
  // A codec that skipped a mark is named after it (utf-16le, utf-32be, ...).
  return codec === undefined ? 'utf-8' : (codec.name as Bom);
}

/**
 * Sniffs `head`, the bytes of an input's first read (the whole input when it is that short), with
 * `--encoding NAME` (undefined: none). Throws what `chooseDecoding` throws: an unknown name, a
 * byte order mark that contradicts the name. `checkBinary` false (under `-a`) looks for no NUL.
 */
export function sniff(head: Uint8Array, encoding: string | undefined, checkBinary: boolean): Sniffed {
  const { codec, bomLength } = chooseDecoding(head, encoding);
  const text = head.subarray(bomLength);
  const binary = checkBinary && (codec === undefined ? looksBinary(text) : codec.holdsNul(text));
  return { bomLength, codec, binary };
}

// ---- the byte order marks

/** Byte order marks of the Unicode encodings, by canonical name. */
const BOMS = new Map([
  ['utf8', Buffer.of(0xef, 0xbb, 0xbf)],
  ['utf16le', Buffer.of(0xff, 0xfe)],
  ['utf16be', Buffer.of(0xfe, 0xff)],
  ['utf32le', Buffer.of(0xff, 0xfe, 0, 0)],
  ['utf32be', Buffer.of(0, 0, 0xfe, 0xff)],
]);

/**
 * The marks a file is looked for, in this order. UTF-32LE's mark FF FE 00 00 also reads as
 * UTF-16LE's mark FF FE followed by U+0000. As ICU (ucnv_detectUnicodeSignature) and .NET's
 * StreamReader do, the UTF-32 mark wins: text rarely starts with a NUL character, and taking a
 * UTF-32 file for UTF-16 would write UTF-16 into it. A UTF-16LE file that does start with U+0000
 * is read as such with `--encoding utf-16le` (a name whose own mark begins the file wins).
 */
const DETECTED = ['utf32le', 'utf32be', 'utf8', 'utf16le', 'utf16be'];

/** The byte order mark of `canonical` (an empty Buffer for an encoding that has none). */
function bomOf(canonical: string): Buffer {
  return BOMS.get(canonical) ?? Buffer.alloc(0);
}

/** Whether `head` (a file's first bytes) starts with the byte order mark of `canonical`. */
function startsWithBom(head: Uint8Array, canonical: string): boolean {
  const mark = BOMS.get(canonical);
  if (mark === undefined || head.length < mark.length) return false;
  for (let i = 0; i < mark.length; i++) if (head[i] !== mark[i]) return false;
  return true;
}

/** First bytes of the marks: a file that starts with none of them (most do) is looked at no further. */
const FIRST = new Set([...BOMS.values()].map((m) => m[0]!));

/** The encoding whose byte order mark `head` starts with, if any (`utf8`, `utf16le`, `utf32be`, ...). */
function markOf(head: Uint8Array): string | undefined {
  // (Runs once per file of a walk: the bytes are compared in place, no view made of them.)
  if (head.length === 0 || !FIRST.has(head[0]!)) return undefined;
  return DETECTED.find((c) => startsWithBom(head, c));
}

/**
 * Whether `head` could still be the start of a byte order mark that more bytes would complete: a
 * live input's first read is read further only while this holds, so a pipe's first line is not
 * held back waiting for bytes its writer has not sent.
 */
export function couldBeMarkStart(head: Uint8Array): boolean {
  for (const mark of BOMS.values()) {
    if (head.length >= mark.length) continue;
    let i = 0;
    while (i < head.length && head[i] === mark[i]) i++;
    if (i === head.length) return true;
  }
  return false;
}

// ---- the codec

/** What a file's first bytes and `--encoding` decide. */
export interface Decoding {
  /** undefined: the default byte path (no decoding) */
  codec: Codec | undefined;
  /** bytes of byte order mark to skip before the first line */
  bomLength: number;
}

const BYTE_PATH: Decoding = { codec: undefined, bomLength: 0 };

/**
 * Decides how to read a file from its first bytes (`head`, 4 bytes unless the file is shorter)
 * and `--encoding NAME` (undefined: none given). Without a name, a UTF-16 or UTF-32 byte order
 * mark gives that codec (a UTF-32 mark wins over UTF-16's: see DETECTED) and anything else the
 * byte path. `utf-8` is the byte path. A name whose own byte order mark begins the file skips it
 * (kept in `bomBytes`); a byte order mark of another encoding is refused, as the file then says
 * it is not what the name says.
 */
export function chooseDecoding(head: Uint8Array, name: string | undefined): Decoding {
  const mark = markOf(head);
  const enc = name === undefined ? undefined : resolveEncoding(name);
  if (name !== undefined && enc === undefined) throw unknownEncoding(name);
  if (enc === undefined || enc.kind === 'utf8') {
    if (mark === undefined) return BYTE_PATH;
    if (mark === 'utf8') return { codec: undefined, bomLength: bomOf(mark).length };
    if (name !== undefined) throw mismatch(name, mark);
    return withMark(mark);
  }
  if (enc.kind === 'by-bom') {
    const own = enc.family.find((c) => startsWithBom(head, c));
    if (own === undefined) {
      throw new LinewiseError('encoding', `${name} without a byte order mark: say which byte order, e.g. --encoding ${displayName(enc.family[0]!)}`);
    }
    return withMark(own);
  }
  if (startsWithBom(head, enc.canonical)) return withMark(enc.canonical);
  if (mark !== undefined) throw mismatch(name!, mark);
  return { codec: makeCodec(enc.kind, enc.canonical, displayName(enc.canonical, name), Buffer.alloc(0)), bomLength: 0 };
}

/** Reading a file that starts with the byte order mark of `canonical`, a native encoding. */
function withMark(canonical: string): Decoding {
  const bom = bomOf(canonical);
  return { codec: makeCodec('native', canonical, displayName(canonical), bom), bomLength: bom.length };
}

function mismatch(name: string, mark: string): LinewiseError {
  const shown = displayName(mark);
  return new LinewiseError(
    'encoding-mismatch',
    `the file starts with a ${shown.toUpperCase()} byte order mark, not ${name}: drop --encoding, or use --encoding ${shown}`,
  );
}

// ---- binary

/** Binary: a NUL byte among the bytes given (callers pass the first SNIFF_BYTES). */
function looksBinary(head: Uint8Array): boolean {
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

/**
 * The refusal of a file with a NUL byte. Raw bytes (`raw`, undefined when decoded) whose NULs fall
 * as in UTF-16 or UTF-32 text without a byte order mark get the --encoding that reads them,
 * since -a would print that text with its NULs.
 */
export function binaryError(raw: Uint8Array | undefined, name: string): BinaryFileError {
  const wide = raw && wideEncodingOf(raw);
  if (wide === undefined) return new BinaryFileError('binary file (it has a NUL byte); use -a to read it as text', name, undefined);
  const where = wide.startsWith('utf-16') ? 'a NUL byte in every other position' : 'NUL bytes in 3 of every 4 positions';
  return new BinaryFileError(`looks like ${wide.toUpperCase()} text without a byte order mark (${where}); read it with --encoding ${wide}`, name, wide);
}

/** A file refused as binary (code `binary`); `wide` names the encoding it looks like, if any. */
export class BinaryFileError extends LinewiseError {
  constructor(
    message: string,
    path: string,
    readonly wide: string | undefined,
  ) {
    super('binary', message, path);
  }
}
