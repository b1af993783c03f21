// Writes to one file one after the other: a call waits for the calls before it that write any of
// its files (keyed by real path), so two concurrent edits of a file are both applied, in turn.

import * as path from 'node:path';
import { realPath } from '../io/real-path.js';

export class FileLocks {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `work` once every earlier call holding one of `files` (paths from `cwd`) is done. */
  async with<T>(files: readonly string[], cwd: string, work: () => Promise<T>): Promise<T> {
    const keys = [...new Set(files.map((f) => key(path.resolve(cwd, f))))].sort();
    const before = keys.map((k) => this.tails.get(k) ?? Promise.resolve());
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    for (const k of keys) this.tails.set(k, mine);
    try {
      await Promise.all(before);
      return await work();
    } finally {
      release();
      for (const k of keys) if (this.tails.get(k) === mine) this.tails.delete(k);
    }
  }
}

/** A file's real path (two names of one file wait for each other), or the path when it cannot be resolved. */
function key(abs: string): string {
  try {
    return realPath(abs);
  } catch {
    return abs;
  }
}
