// The tree of an rg pattern (syntax.ts) written as a JavaScript regex source with rg's meaning:
// Unicode \w \d \s \b by default, ASCII under (?-u), classes with set operations computed or
// written as `v`-mode classes, and case folding spelt out where only part of a pattern folds.
// The source is valid with the flags `su` (or `sv` when `needsV`), and `i` when folding is global.

import { foldExtras, variants } from './case-fold.js';
import { type AssertKind, type ClassExpr, type Node, type Range } from './syntax.js';

/** A class as the emitter holds it: a flat union of ranges and properties (maybe negated), or a `v`-mode class. */
type Val = { ranges: Range[]; props: string[]; neg: boolean } | { v: string };

export interface Emitted {
  source: string;
  /** a class needs the `v` flag (a set operation or negation the `u` flag cannot write) */
  needsV: boolean;
}

const UNICODE_WORD = '[\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}]';
const ASCII_WORD = '[0-9A-Za-z_]';

/**
 * Writes `node`. `expandFold`: the `i` flag is not used, so the parts under (?i) are written out
 * as classes of case variants; otherwise folding is left to the flag (or is not wanted).
 */
export function emit(node: Node, expandFold: boolean, globalFold: boolean): Emitted {
  const e = new Emitter(expandFold, globalFold);
  return { source: e.node(node), needsV: e.needsV };
}

class Emitter {
  needsV = false;
  /** the class being written is under (?-u): folding is ASCII's */
  private asciiFold = false;

  constructor(
    private readonly expandFold: boolean,
    private readonly globalFold: boolean,
  ) {}

  node(n: Node): string {
    switch (n.t) {
      case 'empty':
        return '';
      case 'lit': {
        if (this.expandFold && n.i) {
          const vs = n.u ? variants(n.cp) : asciiVariants(n.cp);
          if (vs.length > 1) return `[${vs.map(classChar).join('')}]`;
        }
        return literal(n.cp);
      }
      case 'dot':
        return n.crlf ? '[^\\n\\r]' : '.';
      case 'class':
        // Under the `i` flag a complement is folded first (rg folds, then negates; the flag would fold the complement)
        this.asciiFold = !n.u;
        return this.classSource(this.evalClass(n.e, n.i && (this.expandFold || (this.globalFold && complements(n.e)))));
      case 'assert':
        return this.assertion(n.kind, n.u);
      case 'group': {
        const body = this.node(n.body);
        if (!n.capture) return `(?:${body})`;
        return n.name === undefined ? `(${body})` : `(?<${n.name}>${body})`;
      }
      case 'repeat': {
        const body = this.node(n.body);
        const atom = isAtom(n.body) ? body : `(?:${body})`;
        const q = n.min === 0 && n.max === Infinity ? '*' : n.min === 1 && n.max === Infinity ? '+' : n.min === 0 && n.max === 1 ? '?' : n.max === Infinity ? `{${n.min},}` : n.min === n.max ? `{${n.min}}` : `{${n.min},${n.max}}`;
        return `${atom}${q}${n.greedy ? '' : '?'}`;
      }
      case 'cat':
        return n.items.map((x) => this.node(x)).join('');
      case 'alt':
        return n.items.map((x) => this.node(x)).join('|');
    }
  }

  private assertion(kind: AssertKind, unicode: boolean): string {
    if (kind === 'start') return '^';
    if (kind === 'end') return '$';
    // JavaScript's own \b is ASCII; with the `i` flag it also counts U+017F and U+212A as word characters
    if (!unicode && !this.globalFold && (kind === 'word' || kind === 'not-word')) return kind === 'word' ? '\\b' : '\\B';
    const w = unicode ? UNICODE_WORD : ASCII_WORD;
    switch (kind) {
      case 'word':
        return `(?:(?<=${w})(?!${w})|(?<!${w})(?=${w}))`;
      case 'not-word':
        return `(?:(?<=${w})(?=${w})|(?<!${w})(?!${w}))`;
      case 'word-start':
        return `(?:(?<!${w})(?=${w}))`;
      case 'word-end':
        return `(?:(?<=${w})(?!${w}))`;
      case 'word-start-half':
        return `(?<!${w})`;
      case 'word-end-half':
        return `(?!${w})`;
    }
  }

  /** A class expression as a value; `fold`: close it under case folding (before any negation, as rg does). */
  private evalClass(e: ClassExpr, fold: boolean): Val {
    switch (e.k) {
      case 'ranges': {
        const r = normalize(e.r);
        if (!fold) return { ranges: r, props: [], neg: false };
        const extras = this.asciiFold ? asciiExtras(r) : foldExtras((cp) => inRanges(r, cp));
        return { ranges: normalize([...r, ...extras]), props: [], neg: false };
      }
      case 'prop': {
        if (e.neg && fold) return this.complement(this.evalClass({ ...e, neg: false }, true));
        const val = { ranges: [] as Range[], props: [`\\${e.neg ? 'P' : 'p'}{${e.name}}`], neg: false };
        return fold ? this.folded(val) : val;
      }
      case 'union':
        return this.union(e.items.map((x) => this.evalClass(x, fold)));
      case 'not':
        return this.complement(this.evalClass(e.e, fold));
      default: {
        const a = this.evalClass(e.a, fold);
        const b = this.evalClass(e.b, fold);
        if (plainRanges(a) && plainRanges(b)) {
          if (e.k === 'and') return { ranges: intersect(a.ranges, b.ranges), props: [], neg: false };
          if (e.k === 'minus') return { ranges: intersect(a.ranges, complement(b.ranges)), props: [], neg: false };
          return { ranges: normalize([...intersect(a.ranges, complement(b.ranges)), ...intersect(b.ranges, complement(a.ranges))]), props: [], neg: false };
        }
        this.needsV = true;
        const A = vClass(a);
        const B = vClass(b);
        if (e.k === 'and') return { v: `[${A}&&${B}]` };
        if (e.k === 'minus') return { v: `[${A}--${B}]` };
        return { v: `[[${A}--${B}][${B}--${A}]]` };
      }
    }
  }

  private union(vals: Val[]): Val {
    if (vals.every((x): x is Exclude<Val, { v: string }> => !('v' in x) && !x.neg)) {
      return { ranges: normalize(vals.flatMap((x) => x.ranges)), props: vals.flatMap((x) => x.props), neg: false };
    }
    this.needsV = true;
    return { v: `[${vals.map(vClass).join('')}]` };
  }

  private complement(x: Val): Val {
    if ('v' in x) return { v: `[^${x.v}]` };
    if (x.neg) return { ...x, neg: false };
    if (x.props.length === 0) return { ranges: complement(x.ranges), props: [], neg: false };
    if (x.ranges.length === 0 && x.props.length === 1) return { ranges: [], props: [x.props[0]!.replace(/^\\([pP])/, (_, p: string) => `\\${p === 'p' ? 'P' : 'p'}`)], neg: false };
    return { ...x, neg: true };
  }

  /** A class with properties closed under case folding: its members found by asking the engine. */
  private folded(x: Val): Val {
    const src = this.classSource(x);
    const re = new RegExp(`^${src}$`, 'v' in x ? 'v' : 'u');
    const extras = foldExtras((cp) => re.test(String.fromCodePoint(cp)));
    if (extras.length === 0) return x;
    return this.union([x, { ranges: normalize(extras), props: [], neg: false }]);
  }

  private classSource(x: Val): string {
    if ('v' in x) return x.v;
    if (!x.neg && x.props.length === 0 && x.ranges.length === 1 && x.ranges[0]![0] === x.ranges[0]![1]) return literal(x.ranges[0]![0]);
    if (!x.neg && x.ranges.length === 0 && x.props.length === 1) return x.props[0]!;
    return flatSource(x);
  }
}

function flatSource(x: { ranges: Range[]; props: string[]; neg: boolean }): string {
  const body = x.ranges.map(([lo, hi]) => (lo === hi ? classChar(lo) : hi === lo + 1 ? classChar(lo) + classChar(hi) : `${classChar(lo)}-${classChar(hi)}`)).join('') + x.props.join('');
  return `[${x.neg ? '^' : ''}${body}]`;
}

function vClass(x: Val): string {
  return 'v' in x ? x.v : flatSource(x);
}

function plainRanges(x: Val): x is { ranges: Range[]; props: string[]; neg: false } {
  return !('v' in x) && !x.neg && x.props.length === 0;
}

/** Does the class take a complement anywhere (negation, \P, difference)? */
function complements(e: ClassExpr): boolean {
  switch (e.k) {
    case 'ranges':
      return false;
    case 'prop':
      return e.neg;
    case 'union':
      return e.items.some(complements);
    case 'not':
      return true;
    default:
      return e.k !== 'and' || complements(e.a) || complements(e.b);
  }
}

/** ASCII case folding, as rg's under (?-u): a-z and A-Z only. */
function asciiVariants(cp: number): number[] {
  if (cp >= 0x41 && cp <= 0x5a) return [cp, cp + 0x20];
  if (cp >= 0x61 && cp <= 0x7a) return [cp, cp - 0x20];
  return [cp];
}

function asciiExtras(r: readonly Range[]): Range[] {
  const out: Range[] = [];
  for (let cp = 0x41; cp <= 0x7a; cp++) {
    const v = asciiVariants(cp);
    if (v.length > 1 && !inRanges(r, cp) && inRanges(r, v[1]!)) out.push([cp, cp]);
  }
  return out;
}

function isAtom(n: Node): boolean {
  return n.t === 'lit' || n.t === 'dot' || n.t === 'class' || n.t === 'group';
}

/** Characters written as themselves outside a class; syntax characters escaped, controls as \u{...}. */
function literal(cp: number): string {
  if (cp < 0x20 || cp === 0x7f) return `\\u{${cp.toString(16)}}`;
  const c = String.fromCodePoint(cp);
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c;
}

/** Characters in a class: letters, digits and _ as themselves, anything else as \u{...} (valid with `u` and `v`). */
function classChar(cp: number): string {
  return (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || cp === 0x5f ? String.fromCodePoint(cp) : `\\u{${cp.toString(16)}}`;
}

// ---- range sets (sorted, disjoint, inclusive) ----

function normalize(rs: readonly Range[]): Range[] {
  const s = [...rs].sort((a, b) => a[0] - b[0]);
  const out: Range[] = [];
  for (const [lo, hi] of s) {
    const last = out[out.length - 1];
    if (last !== undefined && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

function complement(rs: readonly Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [lo, hi] of rs) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= 0x10ffff) out.push([next, 0x10ffff]);
  return out;
}

function intersect(a: readonly Range[], b: readonly Range[]): Range[] {
  const out: Range[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const lo = Math.max(a[i]![0], b[j]![0]);
    const hi = Math.min(a[i]![1], b[j]![1]);
    if (lo <= hi) out.push([lo, hi]);
    if (a[i]![1] < b[j]![1]) i++;
    else j++;
  }
  return out;
}

function inRanges(rs: readonly Range[], cp: number): boolean {
  return rs.some(([lo, hi]) => cp >= lo && cp <= hi);
}
