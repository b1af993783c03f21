// A new file written atomically and never over another: its bytes go to a temporary file beside it,
// flushed to disk, then hard-linked to the name, which fails if anything took the name meanwhile.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { Exit, LinewiseError } from '../core/errors.js';
import { fsPath, quotePath } from '../core/path-names.js';
import { type Confinement, PinnedDir } from './confine.js';
import { fileError } from './input.js';
import { realPath } from './real-path.js';
import { besideName, randomHex, syncDir, trackTemp, unlinkQuietly, type WriteFn } from './temp-file.js';

/** The error for a name that is taken (exit 3: the caller believed there was no file). */
export function existsError(given: string): LinewiseError {
  return new LinewiseError('exists', 'already exists; nothing was written (edit it, or give --force to replace it whole)', given, Exit.stale);
}

/** For tests only: called as a new file is about to be written, so a test can swap its directory then. */
export const newFileTestHooks: { beforeWrite?: (real: string) => void } = {};

/**
 * Writes `bytes` (or its pieces in turn) as the new file `real` (`given` in messages): mode from the umask (0666 masked)
 * unless `mode` is given (set before the file has its name), owned by the caller. The parent
 * directory must exist. Throws `exists` (exit 3) when the name is taken, before or during the
 * write; nothing is left behind on any failure.
 */
export function writeNewFile(real: string, given: string, bytes: Uint8Array | readonly Uint8Array[], writeFn: WriteFn = fs.writeSync, mode?: number): void {
  const dir = path.dirname(real);
  try {
    if (!fs.statSync(fsPath(dir)).isDirectory()) throw new LinewiseError('enotdir', `${quotePath(dir)} is not a directory`, given);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new LinewiseError('enoent', `no such directory: ${quotePath(path.dirname(given))} (create it first; linewise does not)`, given);
    throw fileError(e, given);
  }
  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
  const temp = besideName({ real }, `.linewise-${randomHex()}.tmp`);
  let fd: number | undefined;
  const entry = { discard: () => unlinkQuietly(temp) };
  try {
    // 0666: the kernel applies the umask, as for any file a program creates.
    fd = fs.openSync(fsPath(temp), O_WRONLY | O_CREAT | O_EXCL | (O_NOFOLLOW ?? 0), 0o666);
    trackTemp(entry);
    // a patched file's pieces (a rename with hunks) each written from where it is, not joined
    for (const b of bytes instanceof Uint8Array ? [bytes] : bytes) for (let at = 0; at < b.length; ) at += writeFn(fd, b, at, b.length - at);
    if (mode !== undefined) fs.fchmodSync(fd, mode & 0o7777);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    link(temp, real, given);
    syncDir(dir);
  } catch (e) {
    throw e instanceof LinewiseError ? e : fileError(e, given);
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
    unlinkQuietly(temp);
    trackTemp(entry, false);
  }
}

/**
 * {@link writeNewFile} under a confinement (a server's roots): through the directory opened and
 * checked inside it, so a directory swapped for a link to elsewhere after the path was checked
 * is refused, never written through. A directory that does not exist is left to writeNewFile,
 * which names it.
 */
export function writeNewFileIn(real: string, given: string, bytes: Uint8Array | readonly Uint8Array[], confine: Confinement | undefined, writeFn?: WriteFn, mode?: number): void {
  newFileTestHooks.beforeWrite?.(real);
  if (confine === undefined) return writeNewFile(real, given, bytes, writeFn, mode);
  let dir: PinnedDir;
  try {
    dir = PinnedDir.open(realPath(path.dirname(real)), confine, given);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return writeNewFile(real, given, bytes, writeFn, mode);
    throw e instanceof LinewiseError ? e : fileError(e, given);
  }
  try {
    writeNewFile(dir.join(path.basename(real)), given, bytes, writeFn, mode);
  } finally {
    dir.close();
  }
}

/** Makes the directory `dir` (its parent exists); under a confinement, in its parent opened and checked inside it. */
export function makeDirIn(dir: string, given: string, confine: Confinement | undefined): void {
  if (confine === undefined) return fs.mkdirSync(fsPath(dir));
  const parent = PinnedDir.open(realPath(path.dirname(dir)), confine, given);
  try {
    fs.mkdirSync(fsPath(parent.join(path.basename(dir))));
  } finally {
    parent.close();
  }
}

/** Gives the temporary file its name, never replacing a file that took the name meanwhile. */
function link(temp: string, real: string, given: string): void {
  try {
    fs.linkSync(fsPath(temp), fsPath(real));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw existsError(given);
    // A file system without hard links: check, then rename (a file created between the two
    // steps would be replaced; no such file system is known to linewise's users so far).
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw e;
    if (taken(real)) throw existsError(given);
    fs.renameSync(fsPath(temp), fsPath(real));
  }
}

/** Something, even a dangling symbolic link, has the name. */
export function taken(real: string): boolean {
  try {
    fs.lstatSync(fsPath(real));
    return true;
  } catch {
    return false;
  }
}
