// Commits the sealed temporary files of one call: every target locked and checked first, then
// each renamed over its target, so a batch is written whole or (before the renames) not at all.

import { LinewiseError } from '../core/errors.js';
import { lock, unlock } from './lock.js';
import type { TempFile } from './temp-file.js';

/**
 * Commits several sealed files: all are locked (sorted, so two calls cannot deadlock) and
 * checked first, then renamed one after another. A failure during the renames (a disk error, a
 * crash) can leave the files renamed so far written and the others not; the error says which.
 */
export async function commitAll(temps: readonly TempFile[], signal?: AbortSignal): Promise<void> {
  // Checking that a file is unchanged and renaming over it must be one step for two linewise
  // processes editing one file: else both check, both rename, and the first edit is lost though
  // it was reported applied. A lock file per target makes it one step.
  const locks: string[] = [];
  try {
    for (const t of [...temps].sort((a, b) => (a.target.real < b.target.real ? -1 : 1))) locks.push(await lock(t.target, signal));
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
