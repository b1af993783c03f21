// Which two bytes of a literal the SIMD pair search looks for (newlines.wat "pair"): for a
// literal without a rare byte, such as ` req=ff` in a log where every line holds "req=", and
// for every -i literal searched in place (its letters matching either case), chosen by counting
// each pair's candidates in a sample of the text.
//
// Why: Buffer.indexOf skips ahead with memchr on one byte; when every byte of the literal is on
// every line, it stops on every line (84 ms per 256 MiB for ` req=ff`). Two bytes at their
// offsets, checked 16 positions at a time, stop where both are in place: a fraction of that.

import type { PairSearch } from './newlines.js';

/**
 * Where the pair search looks: byte `b1` at offset `o1` of the literal and `b2` at `o2`, each
 * byte of the text ORed with its mask first (0, or 0x20 for a letter under -i: either case).
 */
export interface BytePair {
  o1: number;
  b1: number;
  m1: number;
  o2: number;
  b2: number;
  m2: number;
}

/** A byte seen at most this often per 64 KiB is rare: indexOf from it is faster than the pair search. */
const RARE_PER_64K = 16;
/** Offsets tried: the literal's rarest few bytes, every pair of them. */
const TRIED = 6;
/** Candidates counted per pair at most: enough to tell a good pair from a poor one. */
const COUNT_CAP = 256;

/**
 * The pair to search `lit` by, or undefined when its rarest byte (`anchor`) is rare enough for
 * indexOf, or when no pair stops less often than that byte would. `counts` are byte counts over
 * `sampled` bytes; candidates are counted in buf[start, end), through `search`.
 *
 * `fold` (-i searched in place): `lit` is lower-case and its letters match either case, `counts`
 * were taken case-folded; there is always a pair, the best one counted (indexOf cannot search
 * the block in place ignoring case), a literal of one byte paired with itself.
 */
export function choosePair(lit: Buffer, anchor: number, counts: Uint32Array, sampled: number, buf: Buffer, start: number, end: number, search: PairSearch, fold = false): BytePair | undefined {
  const mask = (o: number) => (fold && lit[o]! >= 0x61 && lit[o]! <= 0x7a ? 0x20 : 0);
  const at = (o1: number, o2: number): BytePair => ({ o1, b1: lit[o1]!, m1: mask(o1), o2, b2: lit[o2]!, m2: mask(o2) });
  if (fold && lit.length === 1) return at(0, 0);
  if (lit.length < 2 || sampled === 0) return undefined;
  const perByte = counts[lit[anchor]!]! / sampled;
  if (!fold && perByte * 65536 <= RARE_PER_64K) return undefined;
  const offsets = [...lit.keys()].sort((a, b) => counts[lit[a]!]! - counts[lit[b]!]! || a - b).slice(0, TRIED);
  const last = end - lit.length + 1;
  // too short a block to count on: by the bytes' counts alone
  if (last <= start) return fold ? at(Math.min(offsets[0]!, offsets[1]!), Math.max(offsets[0]!, offsets[1]!)) : undefined;
  let best: BytePair | undefined;
  let fewest = fold ? Infinity : perByte * (last - start) / 2; // a pair must at least halve the stops
  for (let i = 0; i < offsets.length; i++) {
    for (let j = i + 1; j < offsets.length; j++) {
      const pair = at(Math.min(offsets[i]!, offsets[j]!), Math.max(offsets[i]!, offsets[j]!));
      const n = candidates(search, pair, start, last, Math.min(COUNT_CAP, Math.ceil(fewest)));
      if (n < fewest) {
        fewest = n;
        best = pair;
      }
    }
  }
  return best;
}

/** Positions in [start, last) where the pair is in place, counted up to `cap`. */
function candidates(search: PairSearch, p: BytePair, start: number, last: number, cap: number): number {
  let n = 0;
  for (let q = pairAt(search, p, start, last); q !== -1 && n < cap; q = pairAt(search, p, q + 1, last)) n++;
  return n;
}

/** The first position in [from, last) where pair `p` is in place, or -1. */
export function pairAt(search: PairSearch, p: BytePair, from: number, last: number): number {
  return search(from, last, p.o1, p.b1, p.m1, p.o2, p.b2, p.m2);
}
