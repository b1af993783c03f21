// One cap on everything a long-lived process keeps between calls (the MCP server's --cache-mib):
// file contents, what is known of each file, directory walks and kept answers, each charged at
// its estimated size in memory against its share of the cap, so the total never passes it. Fixed
// shares: one kind growing never makes another throw away what it holds (and read it again).

/**
 * The cap a server uses unless told (MiB, `linewise mcp --cache-mib`): with it, the whole process
 * stayed under about 150 MiB searching three trees of 4,000 to 5,000 files (docs/MCP.md).
 */
export const DEFAULT_CACHE_MIB = 48;

/** What is kept. */
export type CacheKind = 'contents' | 'files' | 'walks' | 'answers';

/** The share of the cap each kind may hold at most. */
const SHARES: Record<CacheKind, number> = { contents: 5 / 8, files: 1 / 8, walks: 1 / 8, answers: 1 / 8 };

/**
 * Bytes a string takes in V8's heap, about: its header and one byte a character, two when it
 * holds one past U+00FF (V8 then stores all of it in two-byte form).
 */
export function stringBytes(s: string): number {
  // eslint-disable-next-line no-control-regex
  return 24 + s.length * (/[^\x00-\xff]/.test(s) ? 2 : 1);
}

export class CacheBudget {
  private readonly held: Record<CacheKind, number> = { contents: 0, files: 0, walks: 0, answers: 0 };

  /** `cap`: bytes in all (0: nothing is kept but what a cache cannot work without) */
  constructor(readonly cap: number) {}

  /** Bytes kept in all. */
  get total(): number {
    return this.held.contents + this.held.files + this.held.walks + this.held.answers;
  }

  /** Bytes kept of `kind`. */
  of(kind: CacheKind): number {
    return this.held[kind];
  }

  /** The most `kind` may hold: its share of the cap. */
  limit(kind: CacheKind): number {
    return this.cap * SHARES[kind];
  }

  /** Whether `bytes` more of `kind` fit within its {@link limit}. */
  fits(kind: CacheKind, bytes: number): boolean {
    return this.held[kind] + bytes <= this.limit(kind);
  }

  /** Charges `bytes` of `kind` (which {@link fits}). */
  add(kind: CacheKind, bytes: number): void {
    this.held[kind] += bytes;
  }

  /** Gives back `bytes` of `kind`. */
  remove(kind: CacheKind, bytes: number): void {
    this.held[kind] -= bytes;
  }
}
