// Directory walks kept for the next search of the same tree: the files a walk found, with the
// key of every directory it listed and every ignore file it read, all checked by a stat before
// the list is used again (a file added, removed or renamed changes its directory; an edited
// .gitignore changes itself). A walk with a problem, or of a tree changed a moment ago, is not kept;
// what is kept is charged to the process's CacheBudget ('walks').

import * as fs from 'node:fs';
import { fsPath } from '../core/path-names.js';
import { type CacheBudget, stringBytes } from './cache-budget.js';
import { changedTooRecently, RACY_MS } from './file-cache.js';
import { loadWalker, type SearchTarget, type WalkOptions, type WalkProblem } from './walk.js';

/** Walks kept at most (each is one tree searched with one set of options). */
const WALKS = 8;
/** What a file or directory of a walk costs besides its names (bytes; measured as the heap's growth after a full GC, about 280 with them): its object, slots and stamp. */
const ITEM_BYTES = 160;

interface Stamp {
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
}

interface Walk {
  items: (SearchTarget | WalkProblem)[];
  stamps: Map<string, Stamp>;
  /** what it is charged in the budget */
  cost: number;
}

/** What a walk costs in memory, about: its items, their names, and the stamps of its directories. */
function walkCost(key: string, items: readonly (SearchTarget | WalkProblem)[], stamps: ReadonlyMap<string, Stamp>): number {
  let n = stringBytes(key);
  for (const i of items) n += ITEM_BYTES + ('error' in i ? 256 : stringBytes(i.display) + stringBytes(i.abs));
  for (const p of stamps.keys()) n += ITEM_BYTES + stringBytes(p);
  return n;
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

  /** `budget`: what kept walks are charged to; `racyMs`: see RACY_MS (tests use 0: nothing is racy) */
  constructor(
    private readonly budget: CacheBudget,
    private readonly racyMs = RACY_MS,
  ) {}

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
      this.budget.remove('walks', kept.cost);
    }
    const started = Date.now();
    const stamps = new Map<string, Stamp>();
    let complete = true;
    const walker = await loadWalker(
      {
        ...o,
        seen: (p) => {
          const s = stamp(p);
          if (s === undefined || changedTooRecently(s, started, this.racyMs)) complete = false;
          else stamps.set(p, s);
        },
      },
      false,
    );
    const items = [...walker.walk(dirAbs, display)];
    // Following links, a change behind one would not show in the directories listed.
    if (complete && !o.follow && !items.some((i) => 'error' in i)) this.keep(key, { items, stamps, cost: walkCost(key, items, stamps) });
    return items;
  }

  /** Keeps a walk, the least recently used giving way to it (past WALKS, or the budget's share); one too large is not kept. */
  private keep(key: string, w: Walk): void {
    for (const [k, old] of this.walks) {
      if (this.walks.size < WALKS && this.budget.fits('walks', w.cost)) break;
      this.walks.delete(k);
      this.budget.remove('walks', old.cost);
    }
    if (!this.budget.fits('walks', w.cost)) return;
    this.walks.set(key, w);
    this.budget.add('walks', w.cost);
  }

  private valid(w: Walk): boolean {
    for (const [p, s] of w.stamps) {
      const now = stamp(p);
      if (now === undefined || now.ino !== s.ino || now.mtimeMs !== s.mtimeMs || now.ctimeMs !== s.ctimeMs) return false;
    }
    return true;
  }
}
