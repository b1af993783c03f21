// What the server keeps between calls so that the next search is fast, all of it checked against
// the files as they are now before use: walks (io/walk-cache.ts), file contents and the searches
// that found nothing in a file (io/file-cache.ts), and the answers of recent searches, each kept
// with the key (device, inode, size, times) of every file it searched.

import { FileCache, type FileKey, sameFile } from '../io/file-cache.js';
import { WalkCache } from '../io/walk-cache.js';
import type { ToolResult } from './result.js';

/** The most file contents a server holds in memory by default, MiB (`--cache-mib`; docs/MCP.md). */
export const CACHE_MIB = 64;
/** The most text the kept answers hold, and how many are kept. */
const ANSWER_BYTES = 8 << 20;
const ANSWERS = 16;

/** The files an answer was found in: each path and its key when searched. */
export type Basis = readonly (readonly [string, FileKey])[];

interface Answer {
  result: ToolResult;
  basis: Basis;
  bytes: number;
}

export class Warm {
  readonly files: FileCache;
  readonly walks = new WalkCache();
  /** least recently used first */
  private readonly answers = new Map<string, Answer>();
  private answerBytes = 0;
  answerHits = 0;

  constructor(cacheMib = CACHE_MIB) {
    this.files = new FileCache(cacheMib * 2 ** 20);
  }

  /** The answer kept for `call`, if it was found in exactly these files, each unchanged. */
  answer(call: string, basis: Basis): ToolResult | undefined {
    const a = this.answers.get(call);
    if (a === undefined || a.basis.length !== basis.length) return undefined;
    for (let i = 0; i < basis.length; i++) {
      const [p, k] = basis[i]!;
      const [q, l] = a.basis[i]!;
      if (p !== q || !sameFile(k, l)) return undefined;
    }
    this.answers.delete(call);
    this.answers.set(call, a);
    this.answerHits++;
    return a.result;
  }

  /** Keeps `result` as the answer to `call`, found in the files of `basis` (none of them changed a moment ago). */
  keep(call: string, basis: Basis, result: ToolResult): void {
    if (basis.some(([, k]) => this.files.isRacy(k))) return;
    const bytes = result.content.reduce((n, c) => n + c.text.length, 0) * 2 + JSON.stringify(result.structuredContent).length;
    if (bytes > ANSWER_BYTES / 4) return;
    const old = this.answers.get(call);
    if (old) {
      this.answers.delete(call);
      this.answerBytes -= old.bytes;
    }
    this.answers.set(call, { result, basis, bytes });
    this.answerBytes += bytes;
    for (const [k, a] of this.answers) {
      if (this.answers.size <= ANSWERS && this.answerBytes <= ANSWER_BYTES) break;
      this.answers.delete(k);
      this.answerBytes -= a.bytes;
    }
  }
}
