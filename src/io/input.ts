// Opening what the user named for reading: a file, or "-" for standard input; everything else
// (directories, devices, sockets) is refused with one clear message before a byte is read.

import * as fs from 'node:fs';
import { resolve, sep } from 'node:path';
import { LinewiseError } from '../core/errors.js';
import type { ReadFn } from '../core/lines.js';
import { fsPath } from '../core/path-names.js';
import { checkOpened, type Confinement } from './confine.js';
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
   * known until asked; read it to its end rather than to its size (io/text.ts firstFill).
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
 * a normalized absolute path; outside a server, it is opened without an fstat (WalkedFile).
 */
export function openInput(path: string, io: InputSource, walked = false): Input {
  if (path === '-') {
    return { name: '-', read: waiting(io.stdin, io.beforeWait), size: undefined, close() {} };
  }
  if (walked && io.confine === undefined && io.files === undefined) return openWalked(path);
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
class WalkedFile implements Input {
  readonly unsized = true;
  readonly read: ReadFn;
  private checked = false;
  private bytes = 0;
  private reads = 0;

  constructor(
    readonly name: string,
    private readonly fd: number,
  ) {
    this.read = (buf, offset, length) => this.readSome(buf, offset, length);
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

  close(): void {
    fs.closeSync(this.fd);
  }
}

function openWalked(path: string): Input {
  let fd: number;
  try {
    // fsPath: a walked name that is not UTF-8 is opened by its own bytes, never by a look-alike.
    fd = fs.openSync(fsPath(path), OPEN_NOW);
  } catch (e) {
    throw fileError(e, path);
  }
  return new WalkedFile(path, fd);
}
