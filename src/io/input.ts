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
  /** size in bytes for a regular file, undefined for a pipe or stdin */
  size: number | undefined;
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

/**
 * Opens `path` for reading ("-" is standard input). Regular files and pipes are read; a
 * directory, device or socket is refused, so nothing can stream forever from /dev/zero.
 */
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

export function openInput(path: string, io: InputSource): Input {
  if (path === '-') {
    return { name: '-', read: waiting(io.stdin, io.beforeWait), size: undefined, close() {} };
  }
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
