// Case folding spelt out, for a pattern that is case-insensitive in parts only ((?i:...) beside
// case-sensitive text, or -i with (?-i)): Node 20's engine has no scoped flags, so each folded
// character or class is replaced by the class of every character that folds as it does.
// The classes of equivalent characters are the engine's own (simple case folding, as rg's).

import type { Range } from './syntax.js';

let orbits: Map<number, number[]> | undefined;

/**
 * Code point -> every code point equivalent to it under case folding (itself included), for the
 * code points that have another; built once, on first use (a few milliseconds).
 */
function table(): Map<number, number[]> {
  if (orbits !== undefined) return orbits;
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let r = x;
    while (parent.has(r) && parent.get(r) !== r) r = parent.get(r)!;
    return r;
  };
  const union = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    if (!parent.has(ra)) parent.set(ra, ra);
    if (!parent.has(rb)) parent.set(rb, rb);
    if (ra !== rb) parent.set(ra, rb);
  };
  const single = (s: string) => {
    const cp = s.codePointAt(0)!;
    return String.fromCodePoint(cp) === s ? cp : undefined;
  };
  // Candidates from the case mappings of the characters that have one (found by one scan of a
  // string of every code point), each pair confirmed by the engine's own folding: a back
  // reference under the `i` flag compares characters as folded.
  const same = /^(.)\1$/isu;
  for (const m of everyCodePoint().matchAll(/\p{Changes_When_Casemapped}/gu)) {
    const s = m[0];
    const cp = s.codePointAt(0)!;
    for (const other of [single(s.toLowerCase()), single(s.toUpperCase())]) {
      if (other === undefined || other === cp) continue;
      if (same.test(s + String.fromCodePoint(other))) union(cp, other);
    }
  }
  const groups = new Map<number, number[]>();
  for (const cp of parent.keys()) {
    const r = find(cp);
    const g = groups.get(r) ?? [];
    g.push(cp);
    groups.set(r, g);
  }
  orbits = new Map();
  for (const g of groups.values()) {
    if (g.length < 2) continue;
    g.sort((a, b) => a - b);
    for (const cp of g) orbits.set(cp, g);
  }
  return orbits;
}

/** U+0000 to U+1FFFF (where every cased character is) in one string, surrogates as U+0000. */
function everyCodePoint(): string {
  const u = new Uint16Array(0x10000 * 3);
  let j = 0;
  for (let cp = 0; cp < 0x10000; cp++) u[j++] = cp >= 0xd800 && cp <= 0xdfff ? 0 : cp;
  for (let v = 0; v < 0x10000; v++) {
    u[j++] = 0xd800 + (v >> 10);
    u[j++] = 0xdc00 + (v & 0x3ff);
  }
  return new TextDecoder('utf-16le').decode(u);
}

/** Every character equivalent to `cp` under case folding, `cp` first. */
export function variants(cp: number): number[] {
  const g = table().get(cp);
  return g === undefined ? [cp] : [cp, ...g.filter((c) => c !== cp)];
}

/**
 * The characters to add to a class so that it holds every case variant of its members: `has`
 * says whether a character is in the class.
 */
export function foldExtras(has: (cp: number) => boolean): Range[] {
  const extra: Range[] = [];
  for (const [cp, g] of table()) {
    if (has(cp)) continue;
    if (g.some((c) => c !== cp && has(c))) extra.push([cp, cp]);
  }
  return extra;
}
