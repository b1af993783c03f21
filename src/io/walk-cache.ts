// Directory walks kept for the next search of the same tree: the files a walk found, with the
// key of every directory it listed and every ignore file it read, all checked by a stat before
// the list is used again (a file added, removed or renamed changes its directory; an edited
// .gitignore changes itself). A walk with a problem, or of a tree changed a moment ago, is not kept.

import * as fs from 'node:fs';
import { fsPath } from '../core/path-names.js';
import { RACY_MS } from './file-cache.js';
import { loadWalker, type SearchTarget, type WalkOptions, type WalkProblem } from './walk.js';

/** Walks kept at most (each is one tree searched with one set of options). */
const WALKS = 8;

interface Stamp {
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
}

interface Walk {
  items: (SearchTarget | WalkProblem)[];
  stamps: Map<string, Stamp>;
}

function stamp(p: string): Stamp | undefined {
  try {
    const st = fs.statSync(fsPath(p), { throwIfNoEntry: false });
    return st && { ino: st.ino, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
  } catch {
    return undefined;
  }
}

export class WalkCache {
  /** least recently used first */
  private readonly walks = new Map<string, Walk>();
  hits = 0;

  /** `racyMs`: see RACY_MS (tests use 0: nothing is racy) */
  constructor(private readonly racyMs = RACY_MS) {}

  /** The files and problems of walking `dirAbs` (rows name them from `display`), from memory when nothing changed. */
  async walk(dirAbs: string, display: string | undefined, o: WalkOptions): Promise<(SearchTarget | WalkProblem)[]> {
    const key = JSON.stringify([dirAbs, display ?? null, o.hidden, o.noIgnore, o.follow, o.globs]);
    const kept = this.walks.get(key);
    if (kept !== undefined) {
      this.walks.delete(key);
      if (this.valid(kept)) {
        this.walks.set(key, kept);
        this.hits++;
        return kept.items;
      }
    }
    const started = Date.now();
    const stamps = new Map<string, Stamp>();
    let complete = true;
    const walker = await loadWalker(
      {
        ...o,
        seen: (p) => {
          const s = stamp(p);
          if (s === undefined || (this.racyMs > 0 && started - Math.max(s.mtimeMs, s.ctimeMs) < this.racyMs)) complete = false;
          else stamps.set(p, s);
        },
      },
      false,
    );
    const items = [...walker.walk(dirAbs, display)];
    // Following links, a change behind one would not show in the directories listed.
    if (complete && !o.follow && !items.some((i) => 'error' in i)) {
      this.walks.set(key, { items, stamps });
      if (this.walks.size > WALKS) this.walks.delete(this.walks.keys().next().value!);
    }
    return items;
  }

  private valid(w: Walk): boolean {
    for (const [p, s] of w.stamps) {
      const now = stamp(p);
      if (now === undefined || now.ino !== s.ino || now.mtimeMs !== s.mtimeMs || now.ctimeMs !== s.ctimeMs) return false;
    }
    return true;
  }
}
