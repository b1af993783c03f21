// Opens an input as lines: the scanner, with the byte order mark taken off, the text decoded when
// it is not UTF-8 (a UTF-16 or UTF-32 mark, or --encoding), and binary refused.

import { LinewiseError, withPath } from '../core/errors.js';
import { LineScanner, type ReadFn } from '../core/lines.js';
import { type Bom, looksBinary, SNIFF_BYTES, wideEncodingOf } from '../core/sniff.js';
import { type Codec } from './encodings/codec.js';
import { chooseDecoding, type Decoding } from './encodings/decoding.js';
import { type Input, type InputSource, openInput } from './input.js';

export interface TextOptions {
  /** read a file with NUL bytes as text (`-a/--text`) */
  allowBinary?: boolean;
  /**
   * `--encoding NAME`: decode the file from NAME (any name iconv-lite knows); undefined or a
   * UTF-8 name reads the file's own bytes. The CLI has checked the name and loaded iconv-lite
   * (`prepareEncoding`) before a command runs.
   */
  encoding?: string;
  /** scanner buffer size (tests use small ones) */
  bufferSize?: number;
  /**
   * A binary file is refused without working out which encoding it looks like (a walk skips
   * binary files without a word, so the message is never read).
   */
  quietBinary?: boolean;
  /**
   * A scanner to read the file's own bytes with, started over (grep passes one for a whole
   * search); the caller releases it. A decoded file gets a scanner of its own (`scanner` of the
   * result then differs: release that one when done).
   */
  scanner?: LineScanner;
}

export interface OpenedText {
  input: Input;
  /**
   * Lines of the file after its byte order mark: the file's own bytes when `codec` is
   * undefined, else UTF-8 decoded from the file's encoding.
   */
  scanner: LineScanner;
  /** the byte order mark the input began with, if any (kept by replace) */
  bom: Bom | undefined;
  /**
   * Set when the text is decoded (a UTF-16 or UTF-32 byte order mark, or `--encoding`): the
   * scanner then yields UTF-8, `codec.encode` turns new text back into the file's encoding,
   * `codec.bomBytes` is the mark to write first, and `codec.invalidAt` tells whether the bytes
   * decoded so far round-trip. Undefined: bytes are the file's own, a UTF-8 mark already skipped (see `bom`).
   */
  codec: Codec | undefined;
}

/** Bytes enough to tell every byte order mark (UTF-32's are 4). */
const HEAD_BYTES = 4;

/** The byte order marks: a head that is a proper prefix of one needs more bytes to tell. */
const MARKS = [[0xef, 0xbb, 0xbf], [0xfe, 0xff], [0xff, 0xfe, 0, 0], [0, 0, 0xfe, 0xff]];

function couldBeMark(head: Uint8Array): boolean {
  return MARKS.some((m) => head.length < m.length && head.every((b, i) => m[i] === b));
}

/**
 * The first bytes of the input: `n` of them (fewer only at its end), or for a `live` input (a
 * pipe, a terminal) what its first read brings, up to `n`, read further only while they could
 * still be the start of a byte order mark: a live stream's first line is not held back waiting
 * for bytes its writer has not sent. `ended`: the input ended within them.
 */
function readHead(read: ReadFn, n: number, live: boolean): { head: Buffer; ended: boolean } {
  const head = Buffer.alloc(n);
  let got = 0;
  while (got < n) {
    const k = read(head, got, n - got);
    if (k <= 0) return { head: head.subarray(0, got), ended: true };
    got += k;
    if (live && !couldBeMark(head.subarray(0, got))) break;
  }
  return { head: head.subarray(0, got), ended: false };
}

/** `read` with `head` (bytes already read from it) given back first. */
function prefixed(head: Buffer, rest: ReadFn, ended: boolean): ReadFn {
  let at = 0;
  return (buf, offset, length) => {
    if (at < head.length) {
      const n = Math.min(length, head.length - at);
      buf.set(head.subarray(at, at + n), offset);
      at += n;
      return n;
    }
    // The input ended within the head: do not ask a terminal for more after its end.
    return ended ? 0 : rest(buf, offset, length);
  };
}

/** The `bom` field for a byte order mark of `length` bytes read with `codec`. */
function bomName(codec: Codec | undefined, length: number): Bom | undefined {
  if (length === 0) return undefined;
  // A codec that skipped a mark is named after it (utf-16le, utf-32be, ...).
  return codec === undefined ? 'utf-8' : (codec.name as Bom);
}

/**
 * The refusal of a file with a NUL byte. Raw bytes (`raw`, undefined when decoded) whose NULs fall
 * as in UTF-16 or UTF-32 text without a byte order mark get the --encoding that reads them,
 * since -a would print that text with its NULs.
 */
function binaryError(raw: Uint8Array | undefined, name: string): BinaryFileError {
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

/**
 * Opens `path` and positions a scanner after its byte order mark. A UTF-16 or UTF-32 mark, or
 * `opts.encoding`, makes the scanner yield UTF-8 decoded by `codec`. A file with a NUL byte in
 * its first bytes (of the decoded text, when decoded) is refused unless `allowBinary`. A byte
 * order mark that contradicts `opts.encoding` is refused. The caller closes `input`.
 */
export function openText(path: string, io: InputSource, opts: TextOptions = {}): OpenedText {
  const input = openInput(path, io);
  let scanner: LineScanner | undefined;
  try {
    // A pipe's first read is also what is sniffed for binary content (below): no waiting for more.
    const live = input.size === undefined;
    let decoding: Decoding;
    let sniffLength = SNIFF_BYTES;
    if (live) {
      const { head, ended } = readHead(input.read, SNIFF_BYTES, true);
      decoding = chooseDecoding(head, opts.encoding);
      const { codec, bomLength } = decoding;
      // Undecoded, the mark goes through the scanner and is skipped there, so the scanner's offsets
      // stay file offsets (replace copies untouched stretches by them).
      const bytes = prefixed(codec ? head.subarray(bomLength) : head, input.read, ended);
      scanner = codec ? new LineScanner(codec.decodeReader(bytes, bomLength), opts.bufferSize) : byteScanner(bytes, opts);
      if (!codec) sniffLength = head.length - bomLength;
    } else {
      // A regular file's first read goes straight into the scanner's buffer (no read of the head
      // alone): for a small file, that one read is all of it.
      scanner = byteScanner(input.read, opts);
      decoding = chooseDecoding(scanner.peek(HEAD_BYTES), opts.encoding);
      const { codec, bomLength } = decoding;
      if (codec) {
        // What the scanner read is given back to the codec, which reads on from there.
        const read = Buffer.from(scanner.peek(Infinity));
        scanner = new LineScanner(codec.decodeReader(prefixed(read.subarray(bomLength), input.read, false), bomLength), opts.bufferSize);
      }
    }
    const { codec, bomLength } = decoding;
    if (!codec && bomLength > 0) {
      scanner.peek(bomLength);
      scanner.skipBytes(bomLength);
    }
    // UTF-16 text is full of NUL bytes: with a codec the decoded text is what is checked.
    // (Not peeked under -a: a pipe's first rows must not wait for 64 KiB to arrive; a live pipe is
    // sniffed in its first read only.)
    if (!opts.allowBinary) {
      const sniffed = scanner.peek(sniffLength);
      if (looksBinary(sniffed)) throw binaryError(codec || opts.quietBinary ? undefined : sniffed, input.name);
    }
    return { input, scanner, bom: bomName(codec, bomLength), codec };
  } catch (e) {
    input.close();
    // a binary file: a scanner of its own gives its buffer to the next file of a walk
    if (scanner !== opts.scanner) scanner?.release();
    throw withPath(e, input.name);
  }
}

/** The scanner of the file's own bytes: the caller's, started over, or a new one. */
function byteScanner(read: ReadFn, opts: TextOptions): LineScanner {
  if (opts.scanner === undefined) return new LineScanner(read, opts.bufferSize);
  opts.scanner.restart(read);
  return opts.scanner;
}

/**
 * A note for stderr when bytes decoded so far were not valid in the file's encoding (they read
 * as U+FFFD, so rows from them do not give the same bytes back), else undefined.
 */
export function decodeNote(t: OpenedText): string | undefined {
  const at = t.codec?.invalidAt;
  if (at === undefined) return undefined;
  return `bytes at offset ${at} are not valid ${t.codec!.name}; they read as U+FFFD, so these rows would not write back the same bytes`;
}
