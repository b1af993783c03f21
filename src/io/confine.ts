// Confinement to a set of directories, checked on what was opened, not on a path looked at before
// the open: a symbolic link swapped in between a check and an open, or a directory swapped under
// an edit, is caught here. Only a server passes one (the CLI's paths are the user's own).
//
// Linux names an open descriptor's file by /proc/self/fd/N, which the kernel resolves to that
// very file or directory whatever happens to the path meanwhile: a descriptor's real path is
// read there, and every system call of an edit goes through its directory's descriptor that way
// (the openat() Node does not have). Elsewhere, the descriptor is compared (device and inode)
// with the file its path resolves to, just after the open and again just before the rename:
// that narrows the window to those moments instead of closing it.

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LinewiseError } from '../core/errors.js';
import { fsPath, pathFromBytes } from '../core/path-names.js';
import { closeQuietly } from './streams.js';

/** The directories a server may touch. */
export interface Confinement {
  /** Whether a real path (every symbolic link resolved) is inside. */
  allows(real: string): boolean;
  /** The refusal of `name` (as the caller gave it), which led to `real` (undefined: it could not be told). */
  refuse(name: string, real: string | undefined): LinewiseError;
}

/** For tests only: `noProc` makes Linux take the portable way, as without /proc. */
export const confineTestHooks: { noProc?: boolean } = {};

/** Where the kernel names an open descriptor, or undefined where it does not (not Linux, no /proc). */
function procPath(fd: number): string | undefined {
  if (process.platform !== 'linux' || confineTestHooks.noProc) return undefined;
  return `/proc/self/fd/${fd}`;
}

/**
 * The real path of the file open at `fd`, opened by the path `opened`: the kernel's name for the
 * descriptor, or (without /proc) the real path of `opened` when it still leads to that very file.
 * Undefined when neither tells.
 */
export function openedRealPath(fd: number, opened: string): string | undefined {
  const proc = procPath(fd);
  if (proc !== undefined) {
    try {
      return pathFromBytes(fs.readlinkSync(proc, { encoding: 'buffer' }));
    } catch {
      // no /proc mounted: as elsewhere
    }
  }
  try {
    const real = pathFromBytes(fs.realpathSync.native(fsPath(opened), { encoding: 'buffer' }));
    const st = fs.statSync(fsPath(real));
    const own = fs.fstatSync(fd);
    return st.dev === own.dev && st.ino === own.ino ? real : undefined;
  } catch {
    return undefined;
  }
}

/** Throws the confinement's refusal unless the file open at `fd` (opened as `opened`) is inside. */
export function checkOpened(c: Confinement, fd: number, opened: string, name: string): void {
  const real = openedRealPath(fd, opened);
  if (real === undefined || !c.allows(real)) throw c.refuse(name, real);
}

/**
 * A directory held open and checked inside the confinement: the files an edit writes beside its
 * target (temporary file, lock, kept original) and the rename itself are named through it, so
 * none of them lands in another directory swapped in under its path.
 */
export class PinnedDir {
  private constructor(
    private fd: number | undefined,
    /** the prefix system calls use: /proc/self/fd/N, or the directory's real path */
    readonly at: string,
    private readonly c: Confinement,
    private readonly name: string,
  ) {}

  /**
   * Opens `dir` (a real path), refused unless it is inside `c`; `name` is the file edited, for
   * the refusal. A failed open throws the system's error.
   */
  static open(dir: string, c: Confinement, name: string): PinnedDir {
    const fd = fs.openSync(fsPath(dir), fs.constants.O_RDONLY | (fs.constants.O_DIRECTORY ?? 0));
    try {
      checkOpened(c, fd, dir, name);
      const proc = procPath(fd);
      return new PinnedDir(fd, proc !== undefined && fs.existsSync(proc) ? proc : dir, c, name);
    } catch (e) {
      fs.closeSync(fd);
      throw e;
    }
  }

  /** The path system calls use for `base` in this directory. */
  join(base: string): string {
    return path.join(this.at, base);
  }

  /**
   * Throws the refusal unless the directory is still inside: called just before a rename into
   * it (it may have been moved out of the roots while the edit was prepared).
   */
  recheck(): void {
    if (this.fd === undefined) throw new Error('PinnedDir used after it was closed');
    checkOpened(this.c, this.fd, this.at, this.name);
  }

  close(): void {
    const fd = this.fd;
    this.fd = undefined;
    if (fd !== undefined) closeQuietly(fd);
  }
}
