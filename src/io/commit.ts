// Commits the sealed temporary files of one call, all or nothing: every target locked and checked
// (unchanged, replaceable) before any rename; if a rename still fails, the files already renamed
// get their originals back.
//
// What a crash of the machine in the middle can leave (docs/HARDENING.md, "Batches"): each
// target is whole, either as it was or as edited (a rename is atomic); beside them, temporary
// files `.NAME.linewise-*.tmp`, originals kept for the undo `.NAME.linewise-*.orig` (hard links
// to the files as they were), and lock directories `.linewise.lock` whose holder is gone.
// Running the same command again finishes the batch: the files already edited are "already
// applied" (or unchanged rows), the others are written, and the locks are taken over (a file
// whose kept original is still linked to it, a crash between the two steps, is named to remove).

import * as fs from 'node:fs';
import * as path from 'node:path';
import { LinewiseError } from '../core/errors.js';
import { fsPath, quotePath } from '../core/path-names.js';
import { fileError } from './input.js';
import { discardPrepared, type HeldLock, lock, type PreparedLock, unlock } from './lock.js';
import { shownBeside, targetDir, targetPath } from './edit-target.js';
import { checkReplaceable, type DirFacts, mountPoints } from './replaceable.js';
import { besideName, randomHex, syncDir, syncDirs, type TempFile, unlinkQuietly } from './temp-file.js';

/** For tests only: called before each rename, so a test can make one fail as a busy mount would. */
export const commitTestHooks: { beforeRename?: (target: string) => void } = {};

/** A file renamed over, and where its original is kept until the batch is done. */
interface Renamed {
  t: TempFile;
  /** a hard link to the original (undefined for the last file: nothing comes after it to fail) */
  original: string | undefined;
}

/**
 * Commits several sealed files: their directories are locked (sorted, so two calls cannot
 * deadlock), the files checked unchanged (else exit 3) and replaceable (else exit 2), then
 * renamed one after another. A rename that still fails puts back the files renamed before it,
 * and nothing is written.
 */
export async function commitAll(temps: readonly TempFile[], signal?: AbortSignal, prepared?: ReadonlyMap<string, Promise<PreparedLock>>): Promise<void> {
  // Checking that a file is unchanged and renaming over it must be one step for two linewise
  // processes editing one file: else both check, both rename, and the first edit is lost though
  // it was reported applied. A lock per directory of the targets makes it one step.
  const locks: HeldLock[] = [];
  // locks prepared ahead (prepareLock) by directory; each is taken, or removed in the end
  const ready = new Map<string, PreparedLock>();
  try {
    // Under a confinement each directory must still be inside it: before a lock is made there,
    // and again at the moment of the renames.
    for (const t of temps) t.target.dir?.recheck();
    if (prepared !== undefined) for (const [dir, p] of prepared) ready.set(dir, await p);
    for (const t of oneFilePerDirectory(temps)) {
      const dir = path.dirname(t.target.real);
      const p = ready.get(dir);
      ready.delete(dir); // lock() removes it if it fails
      locks.push(await lock(t.target, signal, undefined, p));
    }
    for (const t of temps) t.check();
    for (const t of temps) t.target.dir?.recheck();
    const mounts = temps.length > 0 ? mountPoints() : undefined;
    // a directory's facts asked once for all its files (a 500-file patch: 1,000 system calls fewer)
    const dirs = new Map<string, DirFacts>();
    for (const t of temps) checkReplaceable(t, mounts, dirs);
    await renameAll(temps);
  } finally {
    for (const l of locks) unlock(l);
    for (const p of ready.values()) discardPrepared(p);
  }
}

/** One of the files in each directory (the lock is the directory's), the directories sorted. */
function oneFilePerDirectory(temps: readonly TempFile[]): TempFile[] {
  const byDir = new Map<string, TempFile>();
  for (const t of temps) {
    const dir = path.dirname(t.target.real);
    if (!byDir.has(dir)) byDir.set(dir, t);
  }
  return [...byDir.keys()].sort().map((d) => byDir.get(d)!);
}

async function renameAll(temps: readonly TempFile[]): Promise<void> {
  const done: Renamed[] = [];
  for (let i = 0; i < temps.length; i++) {
    const t = temps[i]!;
    let original: string | undefined;
    try {
      original = i < temps.length - 1 ? keepOriginal(t) : undefined;
      commitTestHooks.beforeRename?.(t.target.real);
      t.renameOver();
    } catch (e) {
      if (original !== undefined) unlinkQuietly(original);
      throw renameFailed(e, t, undo(done));
    }
    done.push({ t, original });
  }
  // Durable first, then the originals go: a crash in between leaves extra names, never a loss.
  await syncDirs(new Set(temps.map((t) => targetDir(t.target))));
  await unlinkQuietlyAll(done.flatMap((r) => (r.original === undefined ? [] : [r.original])));
}

/**
 * Removes the kept originals on libuv's thread pool, a few at once: each is the last name of a
 * replaced file, so its removal frees the inode and its blocks (the commit's dearest step after
 * the renames; a 500-file patch spent a sixth of its time here, one after another).
 */
async function unlinkQuietlyAll(names: string[]): Promise<void> {
  const worker = async (): Promise<void> => {
    for (let n = names.pop(); n !== undefined; n = names.pop()) {
      const name = n;
      await new Promise<void>((resolve) => fs.unlink(fsPath(name), () => resolve())); // as unlinkQuietly: gone already is fine
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
}

/** A hard link to the target as it is, beside it: the undo of its rename while the batch goes on. */
function keepOriginal(t: TempFile): string {
  const name = besideName(t.target, `.linewise-${randomHex()}.orig`);
  try {
    fs.linkSync(fsPath(targetPath(t.target)), fsPath(name));
  } catch (e) {
    const err = fileError(e, t.target.given);
    throw new LinewiseError(err.code, `cannot keep its original beside it while the batch is written (${err.message})`, t.target.given, undefined, { cause: e });
  }
  return name;
}

/** Puts the originals back over the files renamed so far, last first; returns what could not be. */
function undo(done: readonly Renamed[]): string[] {
  const failed: string[] = [];
  for (const r of [...done].reverse()) {
    try {
      fs.renameSync(fsPath(r.original!), fsPath(targetPath(r.t.target)));
    } catch {
      failed.push(`${quotePath(r.t.target.given)} (its original is ${quotePath(shownBeside(r.t.target, r.original!))})`);
    }
  }
  for (const dir of new Set(done.map((r) => targetDir(r.t.target)))) syncDir(dir);
  return failed;
}

function renameFailed(e: unknown, t: TempFile, notUndone: readonly string[]): LinewiseError {
  const err = fileError(e, t.target.given);
  const outcome =
    notUndone.length === 0
      ? 'nothing was written'
      : `the files written before it could not all be put back: ${notUndone.join(', ')}; move each original back over its file`;
  return new LinewiseError(err.code, `cannot replace it: ${err.message}; ${outcome}`, t.target.given, err.exitCode, { cause: e });
}
