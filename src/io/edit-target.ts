// The file an edit will replace: resolved (symbolic links followed, so a link is written through)
// and examined before it is read; only a regular, writable, singly-linked file qualifies. Under a
// confinement (a server) its directory is then pinned: every later system call goes through it.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { Exit, LinewiseError } from '../core/errors.js';
import { fsPath, pathFromBytes, quotePath } from '../core/path-names.js';
import { type Confinement, PinnedDir } from './confine.js';
import { fileError, fileKind, OPEN_NOW } from './input.js';
import { realPath } from './real-path.js';

/** A file to replace, as resolved and examined before it was read. */
export interface EditTarget {
  /** the path as the user gave it, for messages */
  given: string;
  /**
   * the file itself, symbolic links resolved: a link is written through, not replaced. A name
   * that is not UTF-8 (walked, unquoted from a row, or a link's target) keeps each such byte as
   * path-names.ts does: every system call takes it through `fsPath`, so it names that very file.
   */
  real: string;
  /** what it looked like before it was read; compared again just before the rename */
  stat: fs.BigIntStats;
  /**
   * Under a confinement: the file's directory, open and checked inside it ({@link pinTarget}).
   * The file itself and the files beside it are then named through it (see {@link targetPath}).
   */
  dir?: PinnedDir;
}

/** The directory of the target as system calls name it: the pinned descriptor's, else its real one. */
export function targetDir(target: Pick<EditTarget, 'real' | 'dir'>): string {
  return target.dir ? target.dir.at : path.dirname(target.real);
}

/** The target itself as system calls name it (through its pinned directory, if any). */
export function targetPath(target: Pick<EditTarget, 'real' | 'dir'>): string {
  return target.dir ? target.dir.join(path.basename(target.real)) : target.real;
}

/** A path beside the target (a lock, a kept original, made by besideName) as messages show it: in its real directory. */
export function shownBeside(target: Pick<EditTarget, 'real' | 'dir'>, p: string): string {
  const at = target.dir?.at;
  return at !== undefined && p.startsWith(at + path.sep) ? path.join(path.dirname(target.real), p.slice(at.length + 1)) : p;
}

/**
 * Pins the directory of `target` under the confinement `c`: refused (nothing read or written)
 * unless that directory, as opened, is inside, and the file in it, as found through it, is still
 * the regular file examined (exit 3 otherwise). The caller closes `target.dir` when done.
 */
export function pinTarget(target: EditTarget, c: Confinement): void {
  let dir: PinnedDir;
  try {
    dir = PinnedDir.open(path.dirname(target.real), c, target.given);
  } catch (e) {
    throw fileError(e, target.given);
  }
  let st: fs.BigIntStats;
  try {
    st = fs.lstatSync(fsPath(dir.join(path.basename(target.real))), { bigint: true });
  } catch (e) {
    dir.close();
    throw fileError(e, target.given);
  }
  if (!st.isFile() || st.dev !== target.stat.dev || st.ino !== target.stat.ino) {
    dir.close();
    throw changedError(target);
  }
  target.dir = dir;
}

/** Closes the target's pinned directory, if any (safe to call twice). */
export function unpinTarget(target: EditTarget): void {
  target.dir?.close();
  delete target.dir;
}

/**
 * Resolves and checks a file that is to be replaced. Refused: standard input, anything but a
 * regular file (a FIFO, device, directory or socket), a file with other hard links (the rename
 * would silently split them), and a file the user may not write.
 */
export function resolveTarget(given: string, cwd: string): EditTarget {
  if (given === '-') {
    throw new LinewiseError('stdin-target', 'standard input cannot be edited in place; name a file', '-');
  }
  let real: string;
  try {
    // As bytes: a link to a name that is not UTF-8 must not resolve to a look-alike (U+FFFD) name.
    real = realPath(path.resolve(cwd, given));
  } catch (e) {
    throw fileError(e, given);
  }
  return examineTarget(given, real);
}

/** {@link resolveTarget} for a path already resolved (`real`, its links followed). */
export function examineTarget(given: string, real: string): EditTarget {
  let stat: fs.BigIntStats;
  try {
    stat = fs.statSync(fsPath(real), { bigint: true });
  } catch (e) {
    throw fileError(e, given);
  }
  if (!stat.isFile()) {
    throw new LinewiseError('not-a-file', `is ${fileKind(stat as unknown as fs.Stats)}, not a regular file; only regular files can be edited`, given);
  }
  if (stat.nlink > 1n) {
    const kept = keptOriginal(real, stat);
    if (kept !== undefined) {
      throw new LinewiseError(
        'hard-link',
        `has ${stat.nlink} hard links: ${quotePath(kept)} is its original, kept by a linewise batch that was cut short (a crash or SIGKILL between two renames) and never removed; remove it and run the edit again`,
        given,
      );
    }
    throw new LinewiseError(
      'hard-link',
      `has ${stat.nlink} hard links; replacing it would split it from its other names (remove the other links, or edit it with a tool that writes in place)`,
      given,
    );
  }
  try {
    fs.accessSync(fsPath(real), fs.constants.W_OK);
  } catch {
    throw new LinewiseError('eacces', 'permission denied: the file is not writable', given);
  }
  return { given, real, stat };
}


/**
 * The other name of a file with hard links when it is an original a batch keeps beside its file
 * (`.NAME.linewise-<16 hex>.orig`, commit.ts): a crash between keeping it and the rename leaves
 * it linked to the file. Looked for only then, so the directory is read on this rare path alone.
 */
function keptOriginal(real: string, stat: fs.BigIntStats): string | undefined {
  const dir = path.dirname(real);
  try {
    for (const b of fs.readdirSync(fsPath(dir), { encoding: 'buffer' })) {
      const name = pathFromBytes(b);
      if (!/^\..*\.linewise-[0-9a-f]{16}\.orig$/s.test(name)) continue;
      const st = fs.lstatSync(fsPath(path.join(dir, name)), { bigint: true });
      if (st.ino === stat.ino && st.dev === stat.dev) return path.join(dir, name);
    }
  } catch {
    // the plain message then
  }
  return undefined;
}

/**
 * Opens the target's file for reading, by its own bytes; it must still be the very file examined
 * (same device and inode), else exit 3. Errors name the file as the user did.
 */
export function openTarget(target: EditTarget): number {
  let fd: number;
  try {
    // Without waiting: a named pipe swapped in since the file was examined is refused below, not waited on.
    fd = fs.openSync(fsPath(targetPath(target)), OPEN_NOW);
  } catch (e) {
    throw fileError(e, target.given);
  }
  let st: fs.BigIntStats;
  try {
    st = fs.fstatSync(fd, { bigint: true });
  } catch (e) {
    fs.closeSync(fd);
    throw fileError(e, target.given);
  }
  if (st.dev !== target.stat.dev || st.ino !== target.stat.ino) {
    fs.closeSync(fd);
    throw changedError(target);
  }
  return fd;
}

/** The same file, unchanged: same device and inode, size, modification and change times. */
export function sameFile(a: fs.BigIntStats, b: fs.BigIntStats): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

/** The exit-3 error for a target that is no longer the file that was read. */
export function changedError(target: EditTarget): LinewiseError {
  return new LinewiseError('changed', 'the file changed while the edit was prepared; nothing was written (read it again and retry)', target.given, Exit.stale);
}
