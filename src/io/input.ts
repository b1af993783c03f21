// Opening what the user named for reading: a file, or "-" for standard input; everything else
// (directories, devices, sockets) is refused with one clear message before a byte is read. Then
// openText: the input's first read goes into the scanner's buffer and is sniffed there
// (io/encodings/sniff.ts: the byte order mark, the codec, binary), and that one scanner starts past
// the mark, on the file's own bytes or on their decoding. Binary is refused.

import * as fs from 'node:fs';
import { resolve, sep } from 'node:path';
import { LinewiseError, withPath } from '../core/errors.js';
import { LineScanner, type ReadFn } from '../core/lines.js';
import { fsPath } from '../core/path-names.js';
import { checkOpened, type Confinement } from './confine.js';
import { type Codec } from './encodings/codec.js';
import { binaryError, type Bom, bomName, couldBeMarkStart, SNIFF_BYTES, sniff } from './encodings/sniff.js';
import { fdReader } from './streams.js';

/** Where inputs are found: relative paths start at `cwd`, and `-` reads `stdin`. */
export interface InputSource {
  cwd: string;
  stdin: ReadFn;
  /**
   * Called before each read of standard input or a pipe, which may wait for its writer: the
   * caller's buffered output goes out then (regular files are never waited on: no call).
   */
  beforeWait?: () => void;
  /**
   * Files served from memory when unchanged (a long-lived process's cache, io/file-cache.ts):
   * `open` gives the input, or undefined to open the file as usual.
   */
  files?: { open(abs: string, name: string): Input | undefined };
  /**
   * A server's confinement (io/confine.ts): every file opened is checked inside it by its
   * descriptor, before a byte is read, so a symbolic link swapped in after the server checked
   * the path is refused; and only regular files are read (opened without waiting, so a named
   * pipe swapped in is refused instead of blocking the server). The CLI has none.
   */
  confine?: Confinement;
}

/** `read`, calling `beforeWait` first when there is one. */
function waiting(read: ReadFn, beforeWait: (() => void) | undefined): ReadFn {
  if (beforeWait === undefined) return read;
  return (buf, offset, length) => {
    beforeWait();
    return read(buf, offset, length);
  };
}

/** An opened input. `name` is how messages and multi-file rows call it. */
export interface Input {
  name: string;
  read: ReadFn;
  /**
   * size in bytes for a regular file, undefined for a pipe or stdin. A walked file's (`unsized`)
   * is learnt when first asked, by an fstat that also refuses what is not a regular file.
   */
  readonly size: number | undefined;
  /**
   * A walked file opened without an fstat: not live (its reads never wait), but its size is not
   * known until asked; read it to its end rather than to its size (openText's firstFill).
   */
  readonly unsized?: boolean;
  /**
   * For a regular file: a reader of its bytes `[start, end)` by position, beside `read` (whose
   * place it leaves alone), for a second pass over part of the file (page --last).
   */
  readAt?(start: number, end: number): ReadFn;
  close(): void;
}

/**
 * Opening for reading without waiting: a named pipe with no writer opens at once instead of
 * blocking the process (a regular file is unaffected); the caller then refuses what is not a file.
 */
export const OPEN_NOW = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

/** Turns a failed system call on `path` into one clear LinewiseError. */
export function fileError(e: unknown, path: string): LinewiseError {
  if (e instanceof LinewiseError) return e;
  const err = e as NodeJS.ErrnoException;
  const what: Record<string, string> = {
    ENOENT: 'no such file or directory',
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EISDIR: 'is a directory',
    ENOTDIR: 'a component of the path is not a directory',
    ELOOP: 'too many levels of symbolic links',
    ENAMETOOLONG: 'file name too long',
    EMFILE: 'too many open files',
    ENFILE: 'too many open files in the system',
    ENOSPC: 'no space left on device',
    EDQUOT: 'disk quota exceeded',
    EFBIG: 'file too large',
    EROFS: 'read-only file system',
    EIO: 'input/output error',
    EBUSY: 'resource busy (a mount point?)',
    EXDEV: 'not on the same file system',
    ETXTBSY: 'text file busy',
    EMLINK: 'too many links',
    ENOTEMPTY: 'directory not empty',
    EEXIST: 'file exists',
    ENXIO: 'no such device or address',
    ENODEV: 'no such device',
    ESTALE: 'stale file handle (a network file system?)',
    ENOTSUP: 'operation not supported by the file system',
    EOPNOTSUPP: 'operation not supported by the file system',
  };
  // Node refuses a path with a NUL byte before any system call, in words that name its own argument.
  if (err.code === 'ERR_INVALID_ARG_VALUE' && /null bytes/.test(err.message ?? '')) {
    return new LinewiseError('nul-in-path', 'the path holds a NUL byte, which no file name can hold', path, undefined, { cause: e });
  }
  const message = (err.code && what[err.code]) ?? plainMessage(err);
  return new LinewiseError(err.code ? err.code.toLowerCase() : 'io', message, path, undefined, { cause: e });
}

/**
 * Node's message without its system call and paths (`EBADF: bad file descriptor, read` becomes
 * `bad file descriptor (EBADF)`): one line that names the problem, not the machinery.
 */
function plainMessage(err: NodeJS.ErrnoException): string {
  const m = /^([A-Z0-9_]+): ([^,]*)/.exec(err.message ?? '');
  if (m && err.code === m[1]) return `${m[2]} (${m[1]})`;
  return err.message ?? String(err);
}

/** Names the kind of a non-regular file for messages. */
export function fileKind(st: fs.Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  if (st.isFIFO()) return 'a named pipe';
  return 'not a regular file';
}

/** Reads `[start, end)` of the file open as `fd` by position (pread), whatever its read offset. */
function positionalReader(fd: number, name: string, start: number, end: number): ReadFn {
  let at = start;
  return (buf, offset, length) => {
    if (at >= end) return 0;
    try {
      const n = fs.readSync(fd, buf, offset, Math.min(length, end - at), at);
      at += n;
      return n;
    } catch (e) {
      throw fileError(e, name);
    }
  };
}

/** A POSIX path that path.resolve would change: "//", a "." or ".." part, or a trailing "/". */
const UNNORMAL = /\/\/|\/\.\.?(?:\/|$)|.\/$/;

/**
 * `p` against `cwd`, as path.resolve gives it; an absolute, normalized POSIX path (every walked
 * file's) as it is, since resolve would split and join it again only to give the same string:
 * it was the largest allocation of a tree search.
 */
export function resolvePath(cwd: string, p: string): string {
  return sep === '/' && p.startsWith('/') && !UNNORMAL.test(p) ? p : resolve(cwd, p);
}

/**
 * Opens `path` for reading ("-" is standard input). Regular files and pipes are read; a
 * directory, device or socket is refused, so nothing can stream forever from /dev/zero.
 * `walked`: the name comes from a walk or a glob, whose directory entry said "regular file", in
 * a normalized absolute path; outside a server, it is opened without an fstat (WalkedFile), into
 * `walked` itself when it is a WalkedFile (closed since its last file), else a new one.
 */
export function openInput(path: string, io: InputSource, walked: boolean | WalkedFile = false): Input {
  if (path === '-') {
    return { name: '-', read: waiting(io.stdin, io.beforeWait), size: undefined, close() {} };
  }
  if (walked !== false && io.confine === undefined && io.files === undefined) return openWalked(path, walked === true ? new WalkedFile() : walked);
  // Relative to the source's working directory (the process's own, except in tests and servers).
  const abs = resolvePath(io.cwd, path);
  const cached = io.files?.open(abs, path);
  if (cached !== undefined) return cached;
  let fd: number;
  try {
    // fsPath: a walked name that is not UTF-8 is opened by its own bytes, never by a look-alike.
    fd = fs.openSync(fsPath(abs), io.confine === undefined ? 'r' : OPEN_NOW);
  } catch (e) {
    throw fileError(e, path);
  }
  const name = path;
  try {
    if (io.confine !== undefined) checkOpened(io.confine, fd, abs, name);
    const st = fs.fstatSync(fd);
    if (io.confine !== undefined && !st.isFile()) {
      throw new LinewiseError('not-a-file', `is ${fileKind(st)}, not a regular file; only regular files are read here`, name);
    }
    if (!st.isFile() && !st.isFIFO()) {
      throw new LinewiseError('not-a-file', `is ${fileKind(st)}, not a file`, name);
    }
    const raw = fdReader(fd);
    const read: ReadFn = (buf, offset, length) => {
      try {
        return raw(buf, offset, length);
      } catch (e) {
        throw fileError(e, name);
      }
    };
    return {
      name,
      // the wait hook outside: a stdout closed while it flushes is no error of this input
      read: st.isFile() ? read : waiting(read, io.beforeWait),
      size: st.isFile() ? st.size : undefined,
      ...(st.isFile() ? { readAt: (start: number, end: number) => positionalReader(fd, name, start, end) } : {}),
      close: () => fs.closeSync(fd),
    };
  } catch (e) {
    fs.closeSync(fd);
    throw fileError(e, name);
  }
}

/**
 * A file a walk listed as a regular file, opened and read with no fstat: over a tree, the Stats
 * object (four Dates) and its system call were a large share of a small file's cost, and the
 * walk's directory entry already said what the file is. Its name may have been swapped since
 * for something else, which must neither block nor stream forever: it is opened without waiting
 * (O_NONBLOCK: a named pipe opens at once), and the fstat comes back the moment the file stops
 * behaving as a regular file does: a read that would wait (EAGAIN), or a second read that brings
 * bytes (a small file ends in one read and a read of nothing; a large one pays one fstat). What
 * is not a regular file is then refused, after one buffer at most (docs/HARDENING.md).
 */
export class WalkedFile implements Input {
  readonly unsized = true;
  readonly read: ReadFn;
  name = '';
  private fd = -1;
  private checked = false;
  private bytes = 0;
  private reads = 0;

  constructor() {
    this.read = (buf, offset, length) => this.readSome(buf, offset, length);
  }

  /**
   * Makes this the input of the file `name`, opened as `fd`. A search opens every walked file
   * into one WalkedFile, one after the other (grep's TextOptions.walked), as it restarts one
   * scanner: an object and a closure per file, reachable from the long-lived scanner, were
   * promoted into old space by the scavenges (1.2 MB of old-space garbage over git's tree).
   */
  reopen(name: string, fd: number): this {
    // two files at once in one WalkedFile would read and close each other's descriptor
    if (this.fd !== -1) throw new Error(`WalkedFile: ${this.name} is still open`);
    this.name = name;
    this.fd = fd;
    this.checked = false;
    this.bytes = 0;
    this.reads = 0;
    return this;
  }

  get size(): number {
    this.check();
    return this.bytes;
  }

  private check(): void {
    if (this.checked) return;
    let st: fs.Stats;
    try {
      st = fs.fstatSync(this.fd);
    } catch (e) {
      throw fileError(e, this.name);
    }
    if (!st.isFile()) throw new LinewiseError('not-a-file', `is ${fileKind(st)}, not a regular file (it was one when the walk listed it)`, this.name);
    this.checked = true;
    this.bytes = st.size;
  }

  private readSome(buf: Uint8Array, offset: number, length: number): number {
    let n: number;
    try {
      n = fs.readSync(this.fd, buf, offset, length, null);
    } catch (e) {
      // a regular file never says EAGAIN: the check names what it is instead
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN') this.check();
      throw fileError(e, this.name);
    }
    if (n > 0 && this.reads++ > 0) this.check();
    return n;
  }

  /** Closes the file; again, nothing (its descriptor's number may be another file's by then). */
  close(): void {
    const fd = this.fd;
    if (fd === -1) return;
    this.fd = -1;
    fs.closeSync(fd);
  }
}

function openWalked(path: string, into: WalkedFile): Input {
  let fd: number;
  try {
    // fsPath: a walked name that is not UTF-8 is opened by its own bytes, never by a look-alike.
    fd = fs.openSync(fsPath(path), OPEN_NOW);
  } catch (e) {
    throw fileError(e, path);
  }
  return into.reopen(path, fd);
}

// ---- an input as lines

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
   * The path is a walked file's (openInput: opened without an fstat); a WalkedFile: opened into
   * it (grep passes one for a whole search, as it does the scanner; the caller closes each file
   * before the next).
   */
  walked?: boolean | WalkedFile;
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
