// The process edges as plain interfaces, so the CLI runs in-process in tests with captured output.

import * as fs from 'node:fs';
import { LinewiseError } from '../core/errors.js';
import { pathFromBytes } from '../core/path-names.js';
import type { ReadFn } from '../core/lines.js';
import { exactArguments, processCmdline } from './arguments.js';

/** Somewhere bytes go: stdout, stderr, or a test's capture. Writes are synchronous. */
export interface Sink {
  write(chunk: Uint8Array): void;
  readonly isTTY: boolean;
}

/** Everything the CLI may touch of the process. */
export interface Io {
  stdout: Sink;
  stderr: Sink;
  /** standard input, read synchronously */
  stdin: ReadFn;
  stdinIsTTY: boolean;
  /**
   * Standard input holds data to read: a file, a pipe or a socket, not a terminal and not a
   * device such as /dev/null (ripgrep's rule). grep with no PATH searches it then, and the
   * current directory otherwise. Undefined: false.
   */
  stdinReadable?: boolean;
  env: Record<string, string | undefined>;
  cwd: string;
  /** map the process's SIGINT, SIGTERM, SIGHUP and SIGQUIT (and SIGXCPU, SIGALRM, SIGUSR2) to cancellation of a write (the real process only) */
  trapSignals?: boolean;
  /** cancels a write in progress (tests run the CLI in-process with one) */
  signal?: AbortSignal;
  /**
   * The arguments as the exact bytes the user gave (io/arguments.ts), from those Node decoded;
   * undefined: they are taken as given (tests in-process hand over exact strings already).
   */
  exactArguments?(given: readonly string[]): string[];
}

/** Thrown when the reader of our output has gone (`| head`): the CLI ends quietly with 0. */
export class OutputClosed extends Error {
  constructor() {
    super('output closed');
  }
}

/** Sleeps a little without spinning, for an fd that said "try again" (EAGAIN). */
function pause(): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
}

/**
 * Whether `fd` is a terminal: isatty(), which is what process.stdout.isTTY tells, asked only of a
 * character device (every terminal is one). Not through process.stdout, and node:tty only when it
 * can be a terminal: either loads net and the streams, a few ms of every start-up, and opening
 * process.stdin on a pipe would also make that pipe non-blocking.
 */
export function isTerminal(fd: number): boolean {
  try {
    const st = fs.fstatSync(fd);
    if (!st.isCharacterDevice()) return false;
    // Linux's memory devices (/dev/null, /dev/zero, /dev/full: major 1) are never terminals, and
    // `> /dev/null` is common in scripts (and is where the benchmark sends output): 3 ms saved.
    if (process.platform === 'linux' && ((st.rdev >> 8) & 0xfff) === MEMORY_DEVICES) return false;
  } catch {
    return false; // closed
  }
  return process.getBuiltinModule('node:tty').isatty(fd);
}

/** Linux's major device number of /dev/null, /dev/zero, /dev/full, /dev/random (Documentation/admin-guide/devices.txt). */
const MEMORY_DEVICES = 1;

/** A synchronous writer to a file descriptor; EPIPE becomes OutputClosed. Asks isTTY once. */
export function fdSink(fd: number, isTTY: () => boolean): Sink {
  let tty: boolean | undefined;
  return {
    get isTTY() {
      tty ??= isTTY();
      return tty;
    },
    write(chunk) {
      let at = 0;
      while (at < chunk.length) {
        try {
          at += fs.writeSync(fd, chunk, at, chunk.length - at);
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          if (code === 'EAGAIN') pause();
          else if (code === 'EPIPE') throw new OutputClosed();
          else throw e;
        }
      }
    },
  };
}

/** A synchronous reader of a file descriptor; a pipe that says "try again" is waited for. */
export function fdReader(fd: number): ReadFn {
  return (buf, offset, length) => {
    for (;;) {
      try {
        return fs.readSync(fd, buf, offset, length, null);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN') pause();
        else if (code === 'EOF') return 0;
        // `< dir` opens a directory on standard input: a clear line, not an internal error
        else if (code === 'EISDIR') throw new LinewiseError('eisdir', 'standard input is a directory, which holds no text to read; give a file, or pipe the text in', undefined, undefined, { cause: e });
        else throw e;
      }
    }
  };
}

/**
 * The process's working directory, or one clear error: the kernel cannot name a directory whose
 * path is longer than PATH_MAX (ERANGE), nor one that was removed (ENOENT).
 */
function workingDirectory(): string {
  try {
    const cwd = process.cwd();
    // Node names a directory that is not UTF-8 with U+FFFD for each such byte: paths resolved
    // against that name would open a look-alike directory. Its real path, as bytes, names it.
    return cwd.includes('\uFFFD') ? pathFromBytes(fs.realpathSync.native('.', { encoding: 'buffer' })) : cwd;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ERANGE' ? 'its path is longer than the system can name' : code === 'ENOENT' ? 'it no longer exists' : `${code ?? String(e)}`;
    throw new LinewiseError('cwd', `cannot tell the current directory: ${why}; run linewise from another directory`, undefined, undefined, { cause: e });
  }
}

/**
 * ripgrep's rule for "is there something on standard input": a regular file, a pipe or a socket.
 * A terminal, /dev/null (a character device, what `</dev/null` and a closed descriptor give:
 * Node reopens a closed fd 0 on /dev/null) and anything else is not.
 */
export function isReadableStdin(fd = 0): boolean {
  try {
    const st = fs.fstatSync(fd);
    return st.isFile() || st.isFIFO() || st.isSocket();
  } catch {
    return false;
  }
}

/**
 * The real process's Io. The working directory, and whether a descriptor is a terminal, are asked
 * only when a command needs them.
 */
export function processIo(): Io {
  let cwd: string | undefined;
  let stdinTTY: boolean | undefined;
  let stdinReadable: boolean | undefined;
  return {
    stdout: fdSink(1, () => isTerminal(1)),
    stderr: fdSink(2, () => isTerminal(2)),
    stdin: fdReader(0),
    get stdinIsTTY() {
      stdinTTY ??= isTerminal(0);
      return stdinTTY;
    },
    get stdinReadable() {
      stdinReadable ??= isReadableStdin();
      return stdinReadable;
    },
    env: process.env,
    get cwd() {
      cwd ??= workingDirectory();
      return cwd;
    },
    trapSignals: true,
    exactArguments: (given) => exactArguments(given, processCmdline),
  };
}

/** Closes a descriptor of ours, quietly: closing can only fail for a bad one, and nothing is left to do then. */
export function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // a bad descriptor: already closed
  }
}
