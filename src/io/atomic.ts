// Writing a file atomically: a temporary file beside the target, created exclusively, written,
// flushed to disk, given the target's mode and owner, then renamed over it; and never a
// temporary file left behind, whether a write fails, the file changed meanwhile, or a signal came.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { Exit, LinewiseError } from '../core/errors.js';
import { fileError, fileKind } from './input.js';

/** A file to replace, as resolved and examined before it was read. */
export interface Target {
  /** the path as the user gave it, for messages */
  given: string;
  /** the file itself, symbolic links resolved: a link is written through, not replaced */
  real: string;
  /** what it looked like before it was read; compared again just before the rename */
  stat: fs.BigIntStats;
}

/**
 * Resolves and checks a file that is to be replaced. Refused: standard input, anything but a
 * regular file (a FIFO, device, directory or socket), a file with other hard links (the rename
 * would silently split them), and a file the user may not write.
 */
export function resolveTarget(given: string, cwd: string): Target {
  if (given === '-') {
    throw new LinewiseError('stdin-target', 'standard input cannot be edited in place; name a file', '-');
  }
  let real: string;
  let stat: fs.BigIntStats;
  try {
    real = fs.realpathSync(path.resolve(cwd, given));
    stat = fs.statSync(real, { bigint: true });
  } catch (e) {
    throw fileError(e, given);
  }
  if (!stat.isFile()) {
    throw new LinewiseError('not-a-file', `is ${fileKind(stat as unknown as fs.Stats)}, not a regular file; only regular files can be edited`, given);
  }
  if (stat.nlink > 1n) {
    throw new LinewiseError(
      'hard-link',
      `has ${stat.nlink} hard links; replacing it would split it from its other names (remove the other links, or edit it with a tool that writes in place)`,
      given,
    );
  }
  try {
    fs.accessSync(real, fs.constants.W_OK);
  } catch {
    throw new LinewiseError('eacces', 'permission denied: the file is not writable', given);
  }
  return { given, real, stat };
}

/** The same file, unchanged: same device and inode, size, modification and change times. */
function sameFile(a: fs.BigIntStats, b: fs.BigIntStats): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

/** Writes `length` bytes at `offset` of `buf` to `fd`; returns how many were written (fs.writeSync by default). */
export type WriteFn = (fd: number, buf: Uint8Array, offset: number, length: number) => number;

const BUFFER_SIZE = 1 << 20;
/** temporary files that exist now: removed on a signal or at exit */
const live = new Set<TempFile>();

/**
 * A temporary file beside a target. Bytes are buffered and written in 1 MiB blocks; `seal`
 * flushes them to disk with the target's mode and owner; `commit` renames; `discard` removes.
 */
export class TempFile {
  private fd: number | undefined;
  private readonly buf = Buffer.allocUnsafe(BUFFER_SIZE);
  private len = 0;
  /** bytes written so far */
  size = 0;

  private constructor(
    readonly target: Target,
    readonly path: string,
    fd: number,
    private readonly writeFn: WriteFn,
  ) {
    this.fd = fd;
  }

  /**
   * Creates the file exclusively (O_EXCL, so an existing file or a planted symbolic link is
   * never opened) under an unpredictable name in the target's directory, readable by the owner
   * only until `seal` gives it the target's mode.
   */
  static create(target: Target, writeFn: WriteFn = fs.writeSync): TempFile {
    const dir = path.dirname(target.real);
    // Keep the name short enough for any file system: the target's name may already be long.
    const base = path.basename(target.real).slice(0, 80);
    const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
    for (let attempt = 0; ; attempt++) {
      // Web Crypto (a global): no node:crypto import for every start-up to pay.
      const random = Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(8))).toString('hex');
      const name = path.join(dir, `.${base}.linewise-${random}.tmp`);
      try {
        const fd = fs.openSync(name, O_WRONLY | O_CREAT | O_EXCL | (O_NOFOLLOW ?? 0), 0o600);
        const t = new TempFile(target, name, fd, writeFn);
        live.add(t);
        watchSignals();
        return t;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST' && attempt < 8) continue;
        const err = fileError(e, target.given);
        throw new LinewiseError(err.code, `cannot create a temporary file beside it in ${dir}: ${err.message}`, target.given, undefined, { cause: e });
      }
    }
  }

  /** Appends bytes `[start, end)` of `b`. */
  write(b: Uint8Array, start = 0, end = b.length): void {
    const n = end - start;
    if (n <= 0) return;
    if (this.len + n > BUFFER_SIZE) this.flush();
    if (n >= BUFFER_SIZE) {
      this.writeAll(b, start, n);
      return;
    }
    // Buffer#copy, not set(subarray()): no object allocated per line on the hot path.
    Buffer.prototype.copy.call(b, this.buf, this.len, start, end);
    this.len += n;
  }

  private flush(): void {
    if (this.len === 0) return;
    const n = this.len;
    this.len = 0;
    this.writeAll(this.buf, 0, n);
  }

  private writeAll(b: Uint8Array, start: number, n: number): void {
    if (this.fd === undefined) throw new Error('TempFile written after it was closed');
    let at = 0;
    try {
      while (at < n) at += this.writeFn(this.fd, b, start + at, n - at);
    } catch (e) {
      const err = fileError(e, this.target.given);
      throw new LinewiseError(err.code, `cannot write the new content (${err.message}); the file was left as it was`, this.target.given, undefined, { cause: e });
    }
    this.size += n;
  }

  /** Flushes to disk with the target's owner (where permitted) and mode, and closes. */
  seal(): void {
    this.flush();
    const fd = this.fd!;
    const st = this.target.stat;
    try {
      try {
        // Owner first: changing it clears set-user-ID bits, which the mode then puts back.
        fs.fchownSync(fd, Number(st.uid), Number(st.gid));
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== 'EPERM' && code !== 'EINVAL') throw e; // not permitted: the new file is ours
      }
      fs.fchmodSync(fd, Number(st.mode & 0o7777n));
      fs.fsyncSync(fd);
    } catch (e) {
      throw fileError(e, this.target.given);
    } finally {
      this.close();
    }
  }

  private close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    try {
      fs.closeSync(fd);
    } catch {
      // closing can only fail for a bad fd here; the file is removed or renamed next anyway
    }
  }

  /** Removes the temporary file (quietly: it may already be gone). Safe to call twice. */
  discard(): void {
    this.close();
    unlinkQuietly(this.path);
    this.forget();
  }

  private forget(): void {
    live.delete(this);
    if (live.size === 0 && !committing) unwatchSignals();
  }

  /**
   * Renames the sealed file over the target, unless the target changed since it was examined
   * (then exit 3, nothing written). The directory is flushed so the rename itself is durable.
   */
  commit(): void {
    this.check();
    try {
      fs.renameSync(this.path, this.target.real);
    } catch (e) {
      throw fileError(e, this.target.given);
    }
    this.forget();
    syncDir(path.dirname(this.target.real));
  }

  /** Throws (exit 3) when the target is no longer the file that was read. */
  check(): void {
    let now: fs.BigIntStats | undefined;
    try {
      now = fs.statSync(this.target.real, { bigint: true });
    } catch {
      now = undefined;
    }
    if (now === undefined || !sameFile(now, this.target.stat)) {
      throw new LinewiseError(
        'changed',
        'the file changed while the edit was prepared; nothing was written (read it again and retry)',
        this.target.given,
        Exit.stale,
      );
    }
  }
}

/**
 * Commits several sealed files: all are checked first, then renamed one after another, under
 * a lock per target. A failure during the renames (a disk error, a crash) can leave the files
 * renamed so far written and the others not; the error says which. Call {@link settleSignals}
 * afterwards (also when this throws): the signal listeners stay until then.
 */
export function commitAll(temps: readonly TempFile[]): void {
  // The signal listeners stay while the renames run, so a signal that comes meanwhile is not
  // lost with them: settleSignals() honours it afterwards.
  committing = true;
  signalBeforeCommit = interruptedBy;
  // Checking that a file is unchanged and renaming over it must be one step for two linewise
  // processes editing one file: else both check, both rename, and the first edit is lost though
  // it was reported applied. A lock file per target (sorted, so two calls cannot deadlock)
  // makes it one step.
  const locks: string[] = [];
  try {
    for (const t of [...temps].sort((a, b) => (a.target.real < b.target.real ? -1 : 1))) locks.push(lock(t.target));
    for (const t of temps) t.check();
    const done: string[] = [];
    for (const t of temps) {
      try {
        t.commit();
      } catch (e) {
        if (done.length === 0 || !(e instanceof LinewiseError)) throw e;
        throw new LinewiseError(e.code, `${e.message}; already written: ${done.join(', ')}`, e.path, e.exitCode, { cause: e });
      }
      done.push(t.target.given);
    }
  } finally {
    for (const l of locks) unlock(l);
  }
}

/** How long to wait for another linewise's lock on a file before giving up (exit 3). */
const LOCK_WAIT_MS = 10_000;
/** lock files held now: removed on a signal or at exit, as temporary files are */
const locks = new Set<string>();

/**
 * Takes the lock of `target`: `.NAME.linewise.lock` beside it, created exclusively, holding our
 * pid. It is held only for the check and the rename. A lock whose process is gone (killed by
 * SIGKILL) is taken over; one held longer than LOCK_WAIT_MS is an exit-3 conflict.
 */
function lock(target: Target): string {
  const file = path.join(path.dirname(target.real), `.${path.basename(target.real).slice(0, 80)}.linewise.lock`);
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0), 0o600);
      locks.add(file);
      try {
        fs.writeSync(fd, `${process.pid}\n`);
      } finally {
        fs.closeSync(fd);
      }
      return file;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
        const err = fileError(e, target.given);
        throw new LinewiseError(err.code, `cannot create a lock file beside it: ${err.message}`, target.given, undefined, { cause: e });
      }
    }
    if (lockHolderGone(file)) {
      unlinkQuietly(file);
      continue;
    }
    if (Date.now() > deadline) {
      throw new LinewiseError('locked', `another linewise has been writing it for ${LOCK_WAIT_MS / 1000} s (lock ${file}); nothing was written`, target.given, Exit.stale);
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
  }
}

/** The lock's process no longer exists (a lock being written, with no pid yet, is not gone). */
function lockHolderGone(file: string): boolean {
  let pid: number;
  try {
    pid = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function unlock(file: string): void {
  unlinkQuietly(file);
  locks.delete(file);
}

function unlinkQuietly(p: string): void {
  try {
    fs.unlinkSync(p);
  } catch {
    // already gone
  }
}

function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // some file systems cannot fsync a directory; the rename has happened either way
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

// Signals. The copy loop is synchronous, so a handler runs only when the loop yields (see
// `checkpoint`): the handler removes every temporary file at once and records the signal; the
// loop then stops, and the command re-raises the signal once it has cleaned up.

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type Signal = (typeof SIGNALS)[number];
let interruptedBy: Signal | undefined;
let watching = false;
/** commitAll is renaming: the listeners stay until settleSignals() */
let committing = false;
/** a signal already seen when commitAll began (then handled by whoever saw it, not by settleSignals) */
let signalBeforeCommit: Signal | undefined;

function onSignal(signal: Signal): void {
  interruptedBy ??= signal;
  for (const t of live) unlinkQuietly(t.path);
}

function onExit(): void {
  for (const t of live) unlinkQuietly(t.path);
  for (const l of locks) unlinkQuietly(l);
}

function watchSignals(): void {
  if (watching) return;
  watching = true;
  for (const s of SIGNALS) process.on(s, onSignal);
  process.on('exit', onExit);
}

function unwatchSignals(): void {
  if (!watching) return;
  watching = false;
  for (const s of SIGNALS) process.off(s, onSignal);
  process.off('exit', onExit);
}

/** Thrown at a checkpoint after a signal: the edit stops, its temporary files already removed. */
export class Interrupted extends LinewiseError {
  constructor(readonly signal: Signal) {
    super('interrupted', `interrupted by ${signal}; nothing was written`);
  }
}

/**
 * Lets pending signals be handled (one turn of the event loop), then throws {@link Interrupted}
 * if one came. The copy loop calls it every few MiB.
 */
export async function checkpoint(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  if (interruptedBy !== undefined) throw new Interrupted(interruptedBy);
}

/**
 * Ends a commit: lets a signal that came during the renames be handled (one turn of the event
 * loop), drops the listeners, and if a signal came, ends the process by it. The files renamed
 * are whole either way; only the exit is the signal's, as a shell expects.
 */
export async function settleSignals(): Promise<void> {
  if (!committing) return;
  await new Promise<void>((resolve) => setImmediate(resolve));
  committing = false;
  const signal = signalBeforeCommit === undefined ? interruptedBy : undefined;
  if (live.size === 0) unwatchSignals();
  if (signal !== undefined && live.size === 0) process.kill(process.pid, signal);
}

/**
 * After cleaning up from an {@link Interrupted}, ends the process by the same signal, as a
 * shell expects of a program interrupted by Ctrl-C (our handlers are gone by then).
 */
export function reraise(e: Interrupted): void {
  unwatchSignals();
  process.kill(process.pid, e.signal);
}

/** For tests: forget a signal seen, so the next edit starts afresh. */
export function resetInterrupted(): void {
  interruptedBy = undefined;
}

/** For tests: how many temporary files exist now. */
export function liveTempFiles(): number {
  return live.size;
}
