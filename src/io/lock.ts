// The lock that makes "check the target is unchanged, then rename over it" one step between two
// linewise processes: a file beside the target, created exclusively, holding the owner's pid.

import * as fs from 'node:fs';
import { Exit, LinewiseError } from '../core/errors.js';
import { Interrupted } from './checkpoint.js';
import type { EditTarget } from './edit-target.js';
import { fileError } from './input.js';
import { besideName, unlinkQuietly } from './temp-file.js';

/** How long to wait for another linewise's lock on a file before giving up (exit 3). */
const LOCK_WAIT_MS = 10_000;
/** lock files held now (see releaseAllLocks) */
const held = new Set<string>();

/**
 * Takes the lock of `target`: `.NAME.linewise.lock` beside it, created exclusively, holding our
 * pid. It is held only for the check and the rename. A lock whose process is gone (killed by
 * SIGKILL) is taken over; one held longer than LOCK_WAIT_MS is an exit-3 conflict. The wait
 * ends at once when `signal` aborts.
 */
export async function lock(target: EditTarget, signal?: AbortSignal): Promise<string> {
  const file = besideName(target, '.linewise.lock');
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0), 0o600);
      held.add(file);
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
    await new Promise((resolve) => setTimeout(resolve, 2));
    if (signal?.aborted) throw new Interrupted(signal);
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

export function unlock(file: string): void {
  unlinkQuietly(file);
  held.delete(file);
}

/** Removes every lock still held: for a process about to exit abruptly (the CLI calls it on exit). */
export function releaseAllLocks(): void {
  for (const l of held) unlock(l);
}
