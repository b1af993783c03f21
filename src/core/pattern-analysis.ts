// What grep learns from one pattern before searching: the literal text every match contains
// (per top-level alternative), and whether the pattern may run over a whole block of lines.
// Here: the result's shape, the algebra of required literals, and the analysis of a pattern
// that is plain text (-F, or a regex without syntax). Regexes are analysed over a parser's AST
// in regex-analysis.ts, loaded only when one needs it.

import { foldSafe } from './fold-case.js';

/** What one pattern (one line of grep's patterns) allows the searcher to do. */
export interface PatternAnalysis {
  /** per top-level alternative: a literal every match of it contains ('' for none) */
  branches: Array<{ literal: string; whole: boolean }>;
  /** nothing in the pattern can match a "\n" or a "\r" (see CompiledPattern.block) */
  blockSafe: boolean;
  /** every character it can match, and every one its assertions look at, is ASCII (without -i) */
  asciiOnly: boolean;
}

/**
 * What a piece of a pattern tells of the text its matches contain. Conservative: each field
 * holds for every match, and may say less than could be known.
 */
export interface Needs {
  /** every match is exactly this text (zero-width assertions aside), when known */
  exact: string | undefined;
  /** every match starts with this */
  prefix: string;
  /** every match ends with this */
  suffix: string;
  /** a longest text known to be in every match: at least as long as prefix and suffix */
  best: string;
  /** the piece matches exactly where `exact` occurs: no assertion or other condition */
  pure: boolean;
}

/** A piece that tells nothing (a class, a back reference, an optional part). */
export const NOTHING: Needs = { exact: undefined, prefix: '', suffix: '', best: '', pure: false };

/** A piece that always matches exactly `text`; an assertion is exactly '' but not pure. */
export function exactly(text: string, pure = true): Needs {
  return { exact: text, prefix: text, suffix: text, best: text, pure };
}

/** The longest repetition kept as one text: `a{100000}` must not build a 100 kB literal. */
const MAX_REPEAT = 256;

/**
 * The character a pattern character stands for in the raw bytes, or undefined when it is no
 * literal: U+FFFD (it also stands for bytes that are not UTF-8), a lone surrogate (never in
 * decoded text), "\n" (never in a line), and under -i anything but foldSafe characters.
 */
export function literalChar(cp: number, ignoreCase: boolean): Needs {
  if (cp === 0xfffd || cp === 0x0a || (cp >= 0xd800 && cp <= 0xdfff)) return NOTHING;
  if (ignoreCase && !foldSafe(cp)) return NOTHING;
  return exactly(String.fromCodePoint(cp));
}

/**
 * Pieces one after the other: adjacent texts join, across groups and assertions alike. `found`,
 * when given, collects every text the sequence's matches must contain (`best` is the longest):
 * a search may look for the one that is rarest in the text rather than the longest.
 */
export function sequence(parts: readonly Needs[], found?: Set<string>): Needs {
  let run = ''; // the text just before the next piece, matched exactly
  let prefix: string | undefined;
  let best = '';
  let pure = true;
  const keep = (s: string) => {
    if (s !== '') found?.add(s);
    if (Buffer.byteLength(s) > Buffer.byteLength(best)) best = s;
  };
  for (const p of parts) {
    pure &&= p.pure;
    if (p.exact !== undefined) {
      run += p.exact;
      continue;
    }
    prefix ??= run + p.prefix;
    keep(run + p.prefix);
    keep(p.best);
    run = p.suffix;
  }
  keep(run);
  if (prefix === undefined) return exactly(run, pure);
  return { exact: undefined, prefix, suffix: run, best, pure: false };
}

/** Alternatives of a group: only what all of them share, their common prefix and suffix. */
export function alternation(alts: readonly Needs[]): Needs {
  if (alts.length === 1) return alts[0]!;
  const first = alts[0]?.exact;
  if (first !== undefined && alts.every((a) => a.exact === first)) return exactly(first, alts.every((a) => a.pure));
  const prefix = alts.map((a) => a.prefix).reduce(commonPrefix);
  const suffix = alts.map((a) => a.suffix).reduce(commonSuffix);
  return { exact: undefined, prefix, suffix, best: prefix.length >= suffix.length ? prefix : suffix, pure: false };
}

/** A piece repeated `min` to `max` times. */
export function repeat(p: Needs, min: number, max: number): Needs {
  if (min === 0) return NOTHING;
  if (p.exact === undefined) return { ...p, exact: undefined, pure: false };
  const text = p.exact.length * min <= MAX_REPEAT ? p.exact.repeat(min) : p.exact;
  if (min === max && text.length === p.exact.length * min) return exactly(text, p.pure);
  return { exact: undefined, prefix: text, suffix: text, best: text, pure: false };
}

/** Common prefix of two well-formed strings, never ending in half of a surrogate pair. */
function commonPrefix(a: string, b: string): string {
  let n = 0;
  while (n < a.length && a.charCodeAt(n) === b.charCodeAt(n)) n++;
  if (n > 0 && isHighSurrogate(a.charCodeAt(n - 1))) n--;
  return a.slice(0, n);
}

/** Common suffix of two well-formed strings, never starting with half of a surrogate pair. */
function commonSuffix(a: string, b: string): string {
  let n = 0;
  while (n < a.length && n < b.length && a.charCodeAt(a.length - 1 - n) === b.charCodeAt(b.length - 1 - n)) n++;
  if (n > 0 && isLowSurrogate(a.charCodeAt(a.length - n))) n--;
  return a.slice(a.length - n);
}

const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** The whole answer for a top-level alternative from its Needs. */
export function branchOf(n: Needs): { literal: string; whole: boolean } {
  return { literal: n.best, whole: n.pure && n.best !== '' };
}

/**
 * A pattern that is plain text (-F, or a regex with no syntax character): matched as it is.
 * `factors`, when given, receives the texts every match contains, one list per branch (see
 * `sequence`): under -i, the pieces between the characters ASCII folding cannot find.
 */
export function analyseText(text: string, ignoreCase: boolean, factors?: string[][]): PatternAnalysis {
  const cps = Array.from(text, (c) => c.codePointAt(0)!);
  const found = factors === undefined ? undefined : new Set<string>();
  const branch = branchOf(sequence(cps.map((cp) => literalChar(cp, ignoreCase)), found));
  if (found !== undefined) factors!.push([...found]);
  return {
    branches: [branch],
    blockSafe: cps.every((cp) => cp !== 0x0a && cp !== 0x0d),
    asciiOnly: cps.every((cp) => cp < 0x80),
  };
}

/** What is safe to assume of a pattern nothing is known about: nothing. */
export const UNKNOWN: PatternAnalysis = { branches: [{ literal: '', whole: false }], blockSafe: false, asciiOnly: false };
