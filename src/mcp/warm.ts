// What the server keeps between calls so that the next search is fast, all of it checked against
// the files as they are now before use: walks (io/walk-cache.ts), file contents and the searches
// that found nothing in a file (io/file-cache.ts), and the answers of recent searches, each kept
// with a digest of the key (device, inode, size, times) of every file it searched. All of it is
// charged to one CacheBudget, the --cache-mib cap.

import { createHash } from 'node:crypto';
import { CacheBudget, DEFAULT_CACHE_MIB, stringBytes } from '../io/cache-budget.js';
import type { Confinement } from '../io/confine.js';
import { FileCache, type FileKey } from '../io/file-cache.js';
import { WalkCache } from '../io/walk-cache.js';
import type { ToolResult } from './result.js';

/** Answers kept at most (their bytes count against the budget's share for answers). */
const ANSWERS = 16;

/** The files an answer was found in: each path and its key when searched. */
export type Basis = readonly (readonly [string, FileKey])[];

interface Answer {
  /** the result, serialized: its exact size is known, and a hit cannot be changed by its reader */
  json: string;
  digest: string;
  cost: number;
}

/**
 * A digest of the files an answer was found in, paths and keys, in order: an answer is served
 * again only when this is the same (SHA-256: a different set of files never passes for it).
 */
export function digestOf(basis: Basis): string {
  const h = createHash('sha256');
  const keys = new Float64Array(basis.length * 5);
  basis.forEach(([p, k], i) => {
    h.update(p).update('\0');
    keys.set([k.dev, k.ino, k.size, k.mtimeMs, k.ctimeMs], i * 5);
  });
  return h.update(new Uint8Array(keys.buffer)).digest('base64');
}

export class Warm {
  readonly budget: CacheBudget;
  readonly files: FileCache;
  readonly walks: WalkCache;
  /** least recently used first */
  private readonly answers = new Map<string, Answer>();
  answerHits = 0;

  /** `confine`: what each file read into memory is checked against once opened (the roots). */
  constructor(cacheMib = DEFAULT_CACHE_MIB, confine?: Confinement) {
    this.budget = new CacheBudget(cacheMib * 2 ** 20);
    this.files = new FileCache(this.budget, undefined, confine);
    this.walks = new WalkCache(this.budget);
  }

  /** The answer kept for `call`, if it was found in exactly the files of `digest` ({@link digestOf}), each unchanged. */
  answer(call: string, digest: string): ToolResult | undefined {
    const a = this.answers.get(call);
    if (a === undefined || a.digest !== digest) return undefined;
    this.answers.delete(call);
    this.answers.set(call, a);
    this.answerHits++;
    return JSON.parse(a.json) as ToolResult;
  }

  /** Keeps `result` as the answer to `call`, found in the files of `basis` (its `digest`), unless one changed a moment ago. */
  keep(call: string, basis: Basis, digest: string, result: ToolResult): void {
    if (basis.some(([, k]) => this.files.isRacy(k))) return;
    const json = JSON.stringify(result);
    const cost = stringBytes(json) + stringBytes(call) + stringBytes(digest) + 128;
    this.forget(call);
    for (const [k] of this.answers) {
      if (this.answers.size < ANSWERS && this.budget.fits('answers', cost)) break;
      this.forget(k);
    }
    if (!this.budget.fits('answers', cost)) return;
    this.answers.set(call, { json, digest, cost });
    this.budget.add('answers', cost);
  }

  private forget(call: string): void {
    const a = this.answers.get(call);
    if (a === undefined) return;
    this.answers.delete(call);
    this.budget.remove('answers', a.cost);
  }
}
