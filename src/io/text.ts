// Opens an input as lines: its first read goes into the scanner's buffer and is sniffed there
// (io/encodings/sniff.ts: the byte order mark, the codec, binary), and that one scanner starts past
// the mark, on the file's own bytes or on their decoding. Binary is refused.

import { LinewiseError, withPath } from '../core/errors.js';
import { LineScanner, type ReadFn } from '../core/lines.js';
import { type Codec } from './encodings/codec.js';
import { type Bom, couldBeMarkStart, SNIFF_BYTES, sniff, wideEncodingOf } from './encodings/sniff.js';
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
  /** the path is a walked file's (io/input.ts openInput: opened without an fstat) */
  walked?: boolean;
  /**
   * The scanner to read with, started over (grep passes one for a whole search, so no file
   * allocates a buffer); the caller releases it. Without it, the result's scanner is new.
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

/** A reader at its end: what follows an input that ended within its first read. */
const ENDED: ReadFn = () => 0;

/**
 * Reads an input's first bytes into `buf`, the scanner's own buffer (so no byte is read twice):
 * for a regular file (`size` known), up to SNIFF_BYTES or the buffer's size, whichever is less;
 * for a walked file whose size is not asked (`unsized`), the same, or to its end; for a live
 * input (a pipe, a terminal), what its first read brings, read further only while it could still
 * be the start of a byte order mark: a live stream's first line is not held back waiting for
 * bytes its writer has not sent. Returns the bytes read; `fillEnded`: the input ended within them
 * (a regular file whose first read brought all of the size it had when opened is not read again
 * to learn so). A module variable, not an object per file.
 */
let fillEnded = false;
function firstFill(input: Input, buf: Buffer): number {
  const read = input.read;
  const size = input.unsized === true ? undefined : input.size;
  const live = size === undefined && input.unsized !== true;
  const want = Math.min(SNIFF_BYTES, buf.length);
  let got = 0;
  fillEnded = true;
  while (got < want) {
    const k = read(buf, got, buf.length - got);
    if (k <= 0) return got;
    got += k;
    if (live ? !couldBeMarkStart(buf.subarray(0, got)) : got === size) break;
  }
  fillEnded = size !== undefined && got === size;
  return got;
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
  const input = openInput(path, io, opts.walked);
  // One scanner: the caller's, or a new one; the input's first read goes into its buffer, is
  // sniffed there, and the scanner starts on it (past the byte order mark) or on its decoding.
  const scanner = opts.scanner ?? new LineScanner(ENDED, opts.bufferSize);
  try {
    const filled = firstFill(input, scanner.buffer);
    const ended = fillEnded;
    const head = scanner.buffer.subarray(0, filled);
    const { bomLength, codec, binary } = sniff(head, opts.encoding, !opts.allowBinary);
    // UTF-16 text is full of NUL bytes: with a codec the decoded text was checked. A walk's binary
    // file is refused without working out which encoding it looks like.
    if (binary) throw binaryError(codec || opts.quietBinary ? undefined : head.subarray(bomLength), input.name);
    const rest = ended ? ENDED : input.read;
    if (codec === undefined) scanner.restart(rest, { filled, start: bomLength, ended });
    else scanner.restart(codec.decodeReader(rest, bomLength, head.subarray(bomLength)));
    return { input, scanner, bom: bomName(codec, bomLength), codec };
  } catch (e) {
    input.close();
    // A binary file: a scanner of its own gives its buffer to the next file of a walk; the
    // caller's forgets the bytes it was given.
    if (scanner !== opts.scanner) scanner.release();
    else scanner.restart(ENDED);
    throw withPath(e, input.name);
  }
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
