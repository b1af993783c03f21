// The lock that makes "check the target is unchanged, then rename over it" one step between two
// linewise processes: a directory in the target's directory, `DIR/.linewise.lock`, holding one
// entry that names its owner (`pid-<pid>-<random>`).
//
// One lock per directory, not per file: a commit holds it only for its checks and renames
// (milliseconds), so two edits of different files in one directory waiting for each other cost
// nothing, while a batch of 500 files in 20 directories takes 20 locks, not 500. Taking a lock
// creates two inodes (the staged directory and its entry), the costliest metadata operations a
// commit makes: per file they made `linewise patch` of a 500-file diff 3.5 x `git apply`.
// The name is fixed and short, so no name is ever cut to fit 255 bytes.
//
// Why this scheme, and not check-then-unlink or a library:
// - Taking the lock is one rename(2) of a directory prepared beforehand, owner entry inside, onto
//   the lock's name. rename succeeds when the name is free or an empty directory and fails when a
//   non-empty directory is there, so at most one process holds the lock at any time, and a lock
//   never exists without its owner entry (no empty lock from a full disk or a power cut: those
//   fail while the directory is prepared, before the lock exists).
// - Taking over from a holder that is gone is the unlink of that holder's entry, whose name (its
//   pid and 64 random bits) belongs to that one acquisition: it can only ever remove the dead
//   holder's claim, never a live holder's that took its place in the meantime. The old scheme
//   (read the pid, then unlink the lock file) could remove a lock another process had just
//   created, and two processes then both held it.
// - Nothing at the lock's name is ever opened or read (the pid is in the entry's name): a FIFO,
//   a device or a symbolic link planted there is only lstat'ed and, once old, unlinked; unlink
//   removes a name, never what it points to, and fails on a directory, so a real lock is never
//   removed that way.
// - proper-lockfile (the well-kept library) judges staleness by modification time alone: a
//   holder killed mid-edit blocks every other writer for its whole stale period, a live holder
//   must keep touching the lock from a timer, it cannot say which process holds the lock, and
//   its own takeover of a stale lock is a check then a remove.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { Exit, LinewiseError } from '../core/errors.js';
import { fsPath, pathFromBytes, quotePath } from '../core/path-names.js';
import { Interrupted, stopIfAborted } from './checkpoint.js';
import { type EditTarget, shownBeside, targetDir } from './edit-target.js';
import { fileError, fileKind } from './input.js';
import { randomHex, unlinkQuietly } from './temp-file.js';

/** How long to wait for a live holder before giving up (exit 3). */
const LOCK_WAIT_MS = 10_000;
/** Something at the lock's name that no linewise of this version made is removed once this old. */
const FOREIGN_AGE_MS = 2_000;
/** Entries looked at per round: a directory stuffed with names cannot make the lock read it all. */
const ENTRIES_PER_ROUND = 64;
/**
 * An owner entry: `pid-<pid>-<16 hex digits>`, then `-<place>` where this process can tell its
 * place (see `place`). An entry without one (an older linewise, or no /proc) is judged by
 * its pid alone.
 */
const OWNER = /^pid-([1-9][0-9]{0,9})-[0-9a-f]{16}(?:-([0-9a-f]{1,48}))?$/;
/**
 * A holder in another place (another PID namespace: a container sharing the directory; another
 * machine) cannot be probed: its pid means nothing here. It is taken for live while its entry is
 * younger than this, then for gone. A lock is held only for a commit's check and rename
 * (milliseconds), so only a holder stopped or stuck that long is taken over.
 */
const ELSEWHERE_STALE_MS = 30_000;

/**
 * Where this process's pids mean something: the kernel's boot (boot_id, one per machine and
 * boot) and the inode of its PID namespace, as hex; undefined where Linux's /proc cannot tell.
 */
function place(): string | undefined {
  if (placeOf === undefined) {
    try {
      const boot = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'latin1').replace(/[^0-9a-f]/g, '').slice(0, 16);
      const ns = /^pid:\[([0-9]+)\]$/.exec(fs.readlinkSync('/proc/self/ns/pid'));
      placeOf = boot.length === 16 && ns ? `${boot}${Number(ns[1]).toString(16)}` : null;
    } catch {
      placeOf = null;
    }
  }
  return placeOf ?? undefined;
}
let placeOf: string | null | undefined;

/** A lock held by this process. */
export interface HeldLock {
  /** the lock directory */
  readonly path: string;
  /** its owner entry (ours) */
  readonly entry: string;
}

/**
 * For tests only: called when a holder that is gone is about to be taken over, after it was
 * judged gone and before its entry is removed, so a test can widen that window and show that
 * another process taking the lock meanwhile is never robbed of it.
 */
export const lockTestHooks: { beforeTakeover?: (lockPath: string) => Promise<void> } = {};

/** locks held now, and directories prepared for taking one (see releaseAllLocks) */
const held = new Set<HeldLock>();
const staged = new Set<string>();

/** The lock's name in a directory. */
export const LOCK_NAME = '.linewise.lock';

/** The lock's path for `target`: `.linewise.lock` in its directory (through the pinned one, if any). */
export function lockPath(target: Pick<EditTarget, 'real' | 'dir'>): string {
  return path.join(targetDir(target), LOCK_NAME);
}

/**
 * Takes the lock of `target`'s directory. It is held only for the check and the rename of a commit. A lock
 * whose holder is gone (killed by SIGKILL, a crash) is taken over at once; something at the
 * lock's name that is not a lock is removed once it is old; a live holder is waited for, up to
 * `waitMs` (10 s), then exit 3 naming its pid. The wait ends at once when `signal` aborts.
 */
export async function lock(target: EditTarget, signal?: AbortSignal, waitMs = LOCK_WAIT_MS, prepared?: PreparedLock): Promise<HeldLock> {
  const file = lockPath(target);
  const { dir: staging, entry } = prepared ?? stage(target);
  try {
    const deadline = Date.now() + waitMs;
    let pause = 1;
    // Steps taken since the last wait: a lock that changes under us is looked at again at once,
    // a few times, but a name that cannot be read or claimed never makes this loop spin.
    let steps = 0;
    for (;;) {
      stopIfAborted(signal);
      if (claim(staging, file, target)) {
        staged.delete(staging);
        const h = { path: file, entry: path.join(file, entry) };
        held.add(h);
        return h;
      }
      const state = inspect(file, target);
      if (state.kind === 'takeover') {
        await lockTestHooks.beforeTakeover?.(file);
        removeEntry(state.entry, file, target);
      }
      if (state.kind !== 'held' && steps++ < 8) continue;
      if (Date.now() > deadline) throw waitedTooLong(state, file, target, waitMs);
      await sleep(pause, signal);
      pause = Math.min(pause * 2, 50);
      steps = 0;
    }
  } catch (e) {
    unstage(staging);
    throw e;
  }
}

/** Releases a lock taken by {@link lock}. Safe to call twice. */
export function unlock(h: HeldLock): void {
  unlinkQuietly(h.entry);
  try {
    fs.rmdirSync(fsPath(h.path));
  } catch {
    // gone already, or another process took the empty directory over: it is theirs now
  }
  held.delete(h);
}

/** Removes every lock held and every directory prepared for one: for a process about to exit abruptly. */
export function releaseAllLocks(): void {
  for (const h of held) unlock(h);
  for (const s of staged) unstage(s);
}

/** The directory that becomes a lock, its owner entry inside: made by {@link lock}, or ahead by {@link prepareLock}. */
export interface PreparedLock {
  dir: string;
  entry: string;
}

/** Names for a lock's staged directory and owner entry. */
function lockNames(target: EditTarget): PreparedLock {
  const here = place();
  return { dir: path.join(targetDir(target), `.linewise-${randomHex()}.lock-new`), entry: `pid-${process.pid}-${randomHex()}${here === undefined ? '' : `-${here}`}` };
}

function cannotStage(e: unknown, dir: string, target: EditTarget): LinewiseError {
  unstage(dir);
  const err = fileError(e, target.given);
  return new LinewiseError(err.code, `cannot create a lock beside it: ${err.message}; nothing was written`, target.given, undefined, { cause: e });
}

/** Prepares the directory that becomes the lock: its owner entry inside. */
function stage(target: EditTarget): PreparedLock {
  const { dir, entry } = lockNames(target);
  try {
    fs.mkdirSync(fsPath(dir), 0o700);
    staged.add(dir);
    fs.writeFileSync(fsPath(path.join(dir, entry)), `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
  } catch (e) {
    throw cannotStage(e, dir, target);
  }
  return { dir, entry };
}

/**
 * Prepares the lock of `target`'s directory ahead of {@link lock}, on libuv's thread pool: a
 * batch that knows early which directories it will commit in (a patch, while it plans the next
 * files) makes their staged directories meanwhile. Taking a lock is then one rename: each
 * staging creates two inodes, among the dearest steps of a commit (a 500-file patch's 20
 * directories: 40 creations, 20-40 ms, which ran after every file was planned). Nothing is
 * locked until {@link lock} is given it; {@link discardPrepared} removes one never used.
 */
export async function prepareLock(target: EditTarget): Promise<PreparedLock> {
  const { dir, entry } = lockNames(target);
  try {
    // listed first: a process cut short meanwhile removes it (or finds nothing yet)
    staged.add(dir);
    await fs.promises.mkdir(fsPath(dir), 0o700);
    await fs.promises.writeFile(fsPath(path.join(dir, entry)), `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
  } catch (e) {
    throw cannotStage(e, dir, target);
  }
  return { dir, entry };
}

/** Removes a lock prepared by {@link prepareLock} that was not taken (safe once it was: then it is gone). */
export function discardPrepared(p: PreparedLock): void {
  unstage(p.dir);
}

function unstage(dir: string): void {
  try {
    for (const e of fs.readdirSync(fsPath(dir))) unlinkQuietly(path.join(dir, e)); // entries are ours: ASCII
    fs.rmdirSync(fsPath(dir));
  } catch {
    // already gone (renamed into place, or never made)
  }
  staged.delete(dir);
}

/** Renames the prepared directory onto the lock's name: true when the lock is ours. */
function claim(staging: string, file: string, target: EditTarget): boolean {
  try {
    fs.renameSync(fsPath(staging), fsPath(file));
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // a non-empty directory (a holder), or something that is not a directory, is there
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR') return false;
    const err = fileError(e, target.given);
    throw new LinewiseError(err.code, `cannot take the lock ${quotePath(shownBeside(target, file))}: ${err.message}; nothing was written`, target.given, undefined, { cause: e });
  }
}

/** What is at the lock's name, when it could not be claimed. */
type LockState =
  /** it changed, emptied or went away: claim again */
  | { kind: 'retry' }
  /** a holder that is gone: remove its entry, then claim again */
  | { kind: 'takeover'; entry: string }
  /** a live holder, or something foreign that is not old yet: wait */
  | { kind: 'held'; pid: number | undefined; foreign: string | undefined };

/** Looks at the lock's name without opening anything there or following a link. */
function inspect(file: string, target: EditTarget): LockState {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(fsPath(file));
  } catch {
    return { kind: 'retry' }; // released meanwhile
  }
  const old = Math.abs(Date.now() - st.mtimeMs) > FOREIGN_AGE_MS;
  if (!st.isDirectory()) {
    // Not a lock of this version (an older linewise's lock file, a planted FIFO, device or link).
    if (!old) return { kind: 'held', pid: undefined, foreign: fileKind(st) };
    removeForeign(file, file, target, fileKind(st));
    return { kind: 'retry' };
  }
  const names = listSome(file);
  // The name may have been swapped between lstat and the listing (for a link to elsewhere): look again.
  const again = statOrUndefined(file);
  if (names === undefined || again === undefined || again.ino !== st.ino || again.dev !== st.dev) return { kind: 'retry' };
  let live: number | undefined;
  let young: string | undefined;
  for (const name of names) {
    const owner = OWNER.exec(name);
    const pid = owner ? Number(owner[1]) : undefined;
    if (pid !== undefined) {
      const elsewhere = owner![2] !== undefined && owner![2] !== place();
      if (elsewhere ? !staleElsewhere(path.join(file, name)) : alive(pid)) live = pid;
      else return { kind: 'takeover', entry: path.join(file, name) };
    } else if (old) removeForeign(path.join(file, name), file, target, 'an entry that is not an owner');
    else young = `an entry ${JSON.stringify(name)} that is not an owner`;
  }
  if (live === undefined && young === undefined) return { kind: 'retry' };
  return { kind: 'held', pid: live, foreign: live === undefined ? young : undefined };
}

/** Up to ENTRIES_PER_ROUND names in the lock directory; undefined when it went away. */
function listSome(file: string): string[] | undefined {
  let d: fs.Dir | undefined;
  try {
    // names as bytes: a planted entry that is not UTF-8 is removed by its own name
    // (Node takes 'buffer' here as readdir does; its types say only BufferEncoding)
    d = fs.opendirSync(fsPath(file), { encoding: 'buffer' as BufferEncoding });
    const names: string[] = [];
    let e: fs.Dirent | null;
    while (names.length < ENTRIES_PER_ROUND && (e = d.readSync()) !== null) names.push(pathFromBytes(e.name as unknown as Buffer));
    return names;
  } catch {
    return undefined;
  } finally {
    d?.closeSync();
  }
}

function statOrUndefined(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(fsPath(file));
  } catch {
    return undefined;
  }
}

/** An entry of a holder in another place is older than ELSEWHERE_STALE_MS (or already gone). */
function staleElsewhere(entry: string): boolean {
  const st = statOrUndefined(entry);
  return st === undefined || Math.abs(Date.now() - st.mtimeMs) > ELSEWHERE_STALE_MS;
}

/** The process `pid` exists (the probe sends no signal; EPERM: it exists, as another user). */
function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Removes a gone holder's entry (another process may have done it first). */
function removeEntry(entry: string, file: string, target: EditTarget): void {
  try {
    fs.unlinkSync(fsPath(entry));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    const err = fileError(e, target.given);
    throw new LinewiseError(err.code, `the process that held the lock ${quotePath(shownBeside(target, file))} is gone, but its entry cannot be removed (${err.message}); remove ${quotePath(shownBeside(target, file))} and retry; nothing was written`, target.given, undefined, { cause: e });
  }
}

/** Removes something old at (or in) the lock that no linewise made; a directory there is refused. */
function removeForeign(name: string, file: string, target: EditTarget, kind: string): void {
  try {
    fs.unlinkSync(fsPath(name));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    const why = code === 'EISDIR' ? 'it is a directory' : fileError(e, target.given).message;
    throw new LinewiseError('lock-in-the-way', `${quotePath(shownBeside(target, name))} is in the way of the lock (${kind}, not linewise's) and cannot be removed: ${why}; remove ${quotePath(shownBeside(target, file))} and retry; nothing was written`, target.given, Exit.usage, { cause: e });
  }
}

function waitedTooLong(state: LockState, lockFile: string, target: EditTarget, waitMs: number): LinewiseError {
  const secs = waitMs / 1000;
  const file = quotePath(shownBeside(target, lockFile));
  if (state.kind !== 'held') {
    return new LinewiseError('locked', `could not take the lock ${file} in ${secs} s: it cannot be read, or keeps changing; nothing was written. Remove it and retry`, target.given, Exit.stale);
  }
  if (state.pid !== undefined) {
    return new LinewiseError(
      'locked',
      `another linewise (pid ${state.pid}) has held the lock ${file} for ${secs} s; nothing was written. Retry later; if pid ${state.pid} is not a linewise editing files in this directory, remove ${file} and retry`,
      target.given,
      Exit.stale,
    );
  }
  return new LinewiseError('locked', `${file} is in the way of the lock (${state.foreign ?? 'not a lock'}, not made by this linewise) and was changed in the last ${FOREIGN_AGE_MS / 1000} s; nothing was written. Remove it and retry`, target.given, Exit.stale);
}

/** Waits `ms`, or less when `signal` aborts (then throws Interrupted). */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      if (signal?.aborted) reject(new Interrupted(signal));
      else resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
