// The temporary file an edit streams into: created exclusively beside its target, flushed to disk
// with the target's mode and owner, then renamed over it, or removed; never left behind.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { LinewiseError } from '../core/errors.js';
import { fsPath, quotePath } from '../core/path-names.js';
import { changedError, type EditTarget, sameFile, targetDir, targetPath } from './edit-target.js';
import { fileError } from './input.js';
import { closeQuietly } from './streams.js';

/** Writes `length` bytes at `offset` of `buf` to `fd`; returns how many were written (fs.writeSync by default). */
export type WriteFn = (fd: number, buf: Uint8Array, offset: number, length: number) => number;

const BUFFER_SIZE = 1 << 20;
/**
 * Write buffers not in use. A temporary file holds one only from its first write to its seal:
 * a patch of 500 files keeps several sealing at once and allocated a fresh MiB for each (500 MiB
 * of garbage, a fifth of the run in the collector, 90 MiB peak).
 */
const spare: Buffer[] = [];
const SPARE_KEPT = 2;
/** The longest name a temporary or lock file may have, in bytes: file systems allow 255. */
const NAME_MAX = 255;
/** temporary files that exist now (see discardLiveTempFiles): these and new files' (new-file.ts) */
const live = new Set<{ discard(): void }>();

/** Registers a temporary file that {@link discardLiveTempFiles} must remove (or, `false`, no longer). */
export function trackTemp(t: { discard(): void }, on = true): void {
  if (on) live.add(t);
  else live.delete(t);
}

/**
 * A name beside `target` for a helper file: `.<name><suffix>`, the target's name cut (on a
 * character boundary, in bytes) so the whole fits in NAME_MAX bytes whatever the script. In its
 * pinned directory, when it has one (edit-target.ts).
 */
export function besideName(target: Pick<EditTarget, 'real' | 'dir'>, suffix: string): string {
  const base = path.basename(target.real);
  const room = NAME_MAX - 1 - Buffer.byteLength(suffix);
  let cut = base;
  while (Buffer.byteLength(cut) > room) cut = cut.slice(0, -1);
  // a lone high surrogate left by the cut is no character of the name
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  // appended, not path.join: the directory is a resolved path already, and join's normalizing
  // cost 18 us a name in a patch's 1,000 (it runs without TurboFan)
  const dir = targetDir(target);
  return `${dir.endsWith(path.sep) ? dir : dir + path.sep}.${cut}${suffix}`;
}

/** Exclusive (an existing file or a planted symbolic link is never opened), write only. */
const CREATE_FLAGS = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0);

/** Random bytes drawn ahead, 8 a name (see randomHex). */
let randomPool: Uint8Array | undefined;
let randomUsed = 0;
const RANDOM_POOL = 1024;

/**
 * 16 unpredictable hex digits for a helper file's name. Web Crypto (a global): no node:crypto
 * import for every start-up to pay; its bytes drawn 1 KiB at a time, not 8: each call asks
 * OpenSSL for its generator by name, 9 ms for the 1,000 names of a 500-file patch.
 */
export function randomHex(): string {
  if (randomPool === undefined || randomUsed + 8 > randomPool.length) {
    randomPool = globalThis.crypto.getRandomValues(new Uint8Array(RANDOM_POOL));
    randomUsed = 0;
  }
  const hex = Buffer.from(randomPool.buffer, randomPool.byteOffset + randomUsed, 8).toString('hex');
  randomUsed += 8; // each 8 bytes give one name
  return hex;
}

/** An unpredictable name beside the target for its temporary file. */
function tempName(target: EditTarget): string {
  return besideName(target, `.linewise-${randomHex()}.tmp`);
}

/** A name taken by chance is tried again with another, a few times. */
function retryCreate(e: unknown, attempt: number): boolean {
  return (e as NodeJS.ErrnoException).code === 'EEXIST' && attempt < 8;
}

function cannotCreate(e: unknown, target: EditTarget): LinewiseError {
  const err = fileError(e, target.given);
  return new LinewiseError(err.code, `cannot create a temporary file beside it in ${quotePath(path.dirname(target.real))}: ${err.message}`, target.given, undefined, { cause: e });
}

/**
 * A temporary file beside a target. Bytes are buffered and written in 1 MiB blocks; `seal`
 * flushes them to disk with the target's mode and owner; `commit` renames; `discard` removes.
 */
export class TempFile {
  private fd: number | undefined;
  /** the write buffer, from {@link spare} while there are bytes to write */
  private buf: Buffer | undefined;
  private len = 0;
  /** bytes written so far */
  size = 0;

  private constructor(
    readonly target: EditTarget,
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
  static create(target: EditTarget, writeFn: WriteFn = fs.writeSync): TempFile {
    for (let attempt = 0; ; attempt++) {
      const name = tempName(target);
      try {
        return TempFile.opened(target, name, fs.openSync(fsPath(name), CREATE_FLAGS, 0o600), writeFn);
      } catch (e) {
        if (!retryCreate(e, attempt)) throw cannotCreate(e, target);
      }
    }
  }

  /**
   * {@link create} on libuv's thread pool. Creating an inode is the costliest step of writing a
   * small file (0.3-0.7 ms on an ext4 that has freed many inodes), so a patch of many files
   * creates the next ones while it locates and builds. The caller awaits it before it returns
   * or throws, so no file is created after the temporary files were discarded.
   */
  static async createAsync(target: EditTarget, writeFn: WriteFn = fs.writeSync): Promise<TempFile> {
    for (let attempt = 0; ; attempt++) {
      const name = tempName(target);
      try {
        const fd = await new Promise<number>((resolve, reject) => fs.open(fsPath(name), CREATE_FLAGS, 0o600, (e, fd) => (e ? reject(e) : resolve(fd))));
        return TempFile.opened(target, name, fd, writeFn);
      } catch (e) {
        if (!retryCreate(e, attempt)) throw cannotCreate(e, target);
      }
    }
  }

  private static opened(target: EditTarget, name: string, fd: number, writeFn: WriteFn): TempFile {
    const t = new TempFile(target, name, fd, writeFn);
    live.add(t);
    return t;
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
    this.buf ??= spare.pop() ?? Buffer.allocUnsafe(BUFFER_SIZE);
    // Buffer#copy, not set(subarray()): no object allocated per line on the hot path.
    Buffer.prototype.copy.call(b, this.buf, this.len, start, end);
    this.len += n;
  }

  /**
   * Appends each of `parts` in turn (a patched file's pieces): one of 1 MiB or more goes straight
   * to the file from where it is, smaller ones are gathered in the write buffer, so the pieces
   * are never joined and a write of a few large views is a few system calls.
   */
  writePieces(parts: readonly Uint8Array[]): void {
    for (let i = 0; i < parts.length; i++) this.write(parts[i]!);
  }

  private flush(): void {
    if (this.len === 0) return;
    const n = this.len;
    this.len = 0;
    this.writeAll(this.buf!, 0, n);
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
    const fd = this.ownAndMode();
    try {
      fs.fsyncSync(fd);
    } catch (e) {
      throw fileError(e, this.target.given);
    } finally {
      this.close();
    }
  }

  /**
   * {@link seal} with the flush to disk on libuv's thread pool, so the flushes of several files
   * overlap (a patch of many files waits for them together, not one after another).
   */
  async sealAsync(): Promise<void> {
    const fd = this.ownAndMode();
    try {
      await new Promise<void>((resolve, reject) => fs.fsync(fd, (e) => (e ? reject(e) : resolve())));
    } catch (e) {
      throw fileError(e, this.target.given);
    } finally {
      this.close();
    }
  }

  /** Writes out the buffer and gives the file the target's owner (where permitted) and mode; its descriptor. */
  private ownAndMode(): number {
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
    } catch (e) {
      this.close();
      throw fileError(e, this.target.given);
    }
    return fd;
  }

  private close(): void {
    if (this.buf !== undefined && spare.length < SPARE_KEPT) spare.push(this.buf);
    this.buf = undefined;
    this.len = 0;
    const fd = this.fd;
    this.fd = undefined;
    if (fd !== undefined) closeQuietly(fd); // the file is removed or renamed next anyway
  }

  /** Removes the temporary file (quietly: it may already be gone). Safe to call twice. */
  discard(): void {
    this.close();
    unlinkQuietly(this.path);
    live.delete(this);
  }

  /**
   * Renames the sealed file over the target. The caller has checked, under the lock, that the
   * target is unchanged ({@link check}) and can be replaced (commit.ts), and flushes the
   * directory afterwards ({@link syncDir}).
   */
  renameOver(): void {
    fs.renameSync(fsPath(this.path), fsPath(targetPath(this.target)));
    live.delete(this);
  }
  /** Throws (exit 3) when the target is no longer the file that was read. */
  check(): void {
    let now: fs.BigIntStats | undefined;
    try {
      now = fs.statSync(fsPath(targetPath(this.target)), { bigint: true });
    } catch {
      now = undefined;
    }
    if (now === undefined || !sameFile(now, this.target.stat)) throw changedError(this.target);
  }
}

/**
 * Removes every temporary file that still exists: for a process about to exit abruptly (the CLI
 * calls it on exit). Normal paths discard their own files.
 */
export function discardLiveTempFiles(): void {
  for (const t of live) t.discard();
}

/** For tests: how many temporary files exist now. */
export function liveTempFiles(): number {
  return live.size;
}

export function unlinkQuietly(p: string): void {
  try {
    fs.unlinkSync(fsPath(p));
  } catch {
    // already gone
  }
}

/** Flushes a directory, so the renames in it are durable. */
export function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(fsPath(dir), 'r');
    fs.fsyncSync(fd);
  } catch {
    // some file systems cannot fsync a directory; the rename has happened either way
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * {@link syncDir} for several directories at once, on libuv's thread pool: flushes that overlap
 * share the journal's commits (a batch over 20 directories waited for 20 in turn).
 */
export async function syncDirs(dirs: Iterable<string>): Promise<void> {
  await Promise.all(
    [...dirs].map(async (dir) => {
      let fd: number | undefined;
      try {
        fd = fs.openSync(fsPath(dir), 'r');
        const opened = fd;
        await new Promise<void>((resolve, reject) => fs.fsync(opened, (e) => (e ? reject(e) : resolve())));
      } catch {
        // as syncDir
      } finally {
        if (fd !== undefined) fs.closeSync(fd);
      }
    }),
  );
}
