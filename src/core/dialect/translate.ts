// grep's default dialect, rg's, translated to JavaScript sources: every pattern of one search is
// parsed (syntax.ts), then written (emit.ts) with one set of flags for them all. A pattern rg
// refuses, or one this engine cannot run as rg would, is refused with a message naming it.

import { emit } from './emit.js';
import { DialectError, parseRg } from './syntax.js';

/** The patterns as JavaScript sources, and the flags they need beyond `s` (and `g`, `m` as used). */
export interface Translated {
  sources: string[];
  /** `u`, or `v` when a class needs set operations the `u` flag cannot write */
  unicodeFlag: 'u' | 'v';
  /** the `i` flag: every case-sensitive part of every pattern folds case (-i or a leading (?i)) */
  ignoreCase: boolean;
}

/**
 * Translates patterns written in rg's dialect; `ignoreCase` is -i (each pattern starts under
 * (?i), which (?-i) turns off where it says). Throws a DialectError (the caller names the pattern).
 */
export function translate(patterns: readonly string[], ignoreCase: boolean): Translated {
  const parsed = patterns.map((p) => {
    try {
      return parseRg(p, ignoreCase);
    } catch (e) {
      if (e instanceof DialectError) throw Object.assign(e, { pattern: p });
      throw e;
    }
  });
  // One flag for all: `i` when nothing case-sensitive is left, else folding is written out.
  const anyFold = parsed.some((p) => p.anyFold);
  const anyExact = parsed.some((p) => p.anyExact);
  const globalFold = anyFold && !anyExact;
  const emitted = parsed.map((p) => emit(p.node, anyFold && !globalFold, globalFold));
  return { sources: emitted.map((e) => e.source), unicodeFlag: emitted.some((e) => e.needsV) ? 'v' : 'u', ignoreCase: globalFold };
}

export { DialectError } from './syntax.js';
