// rg's pattern syntax (the Rust regex crate's, as rg documents it) read into a small tree: flags
// applied where they hold (each literal and class knows if it folds case), classes as set
// expressions, and every construct rg refuses refused here, with a message naming it and the fix.

import { posixClass, propertyClass } from './unicode-names.js';

/** A set of code points as a class expression; evaluated into JavaScript by emit.ts. */
export type ClassExpr =
  | { k: 'ranges'; r: Range[] }
  /** `\p{...}`: the JavaScript property body (`Script=Greek`, `L`), `neg` for `\P{...}` */
  | { k: 'prop'; name: string; neg: boolean }
  | { k: 'union'; items: ClassExpr[] }
  | { k: 'not'; e: ClassExpr }
  | { k: 'and' | 'minus' | 'xor'; a: ClassExpr; b: ClassExpr };

/** An inclusive range of code points. */
export type Range = [number, number];

/** Zero-width assertions; `u`: Unicode word characters (rg's default) or ASCII ones under (?-u). */
export type AssertKind = 'start' | 'end' | 'word' | 'not-word' | 'word-start' | 'word-end' | 'word-start-half' | 'word-end-half';

export type Node =
  | { t: 'empty' }
  /** `i`: folds case; `u`: Unicode mode (under (?-u) folding is ASCII's only) */
  | { t: 'lit'; cp: number; i: boolean; u: boolean }
  /** `.`; `crlf`: (?R) without (?s), where `.` does not match "\r" either */
  | { t: 'dot'; crlf: boolean }
  | { t: 'class'; e: ClassExpr; i: boolean; u: boolean }
  | { t: 'assert'; kind: AssertKind; u: boolean }
  | { t: 'group'; name: string | undefined; capture: boolean; body: Node }
  | { t: 'repeat'; min: number; max: number; greedy: boolean; body: Node }
  | { t: 'cat'; items: Node[] }
  | { t: 'alt'; items: Node[] };

/** A pattern rg's dialect refuses, or one the engine cannot run as rg would: the message says which construct and what to do. */
export class DialectError extends Error {}

interface Flags {
  i: boolean;
  s: boolean;
  U: boolean;
  u: boolean;
  x: boolean;
  R: boolean;
}

/** rg's limit on nested groups and classes. */
const NEST_LIMIT = 250;
const PCRE = 'use -P for the JavaScript (PCRE-like) dialect';
/** Characters with a meaning in rg's syntax: escaping one is always allowed. */
const META = new Set('\\.+*?()|[]{}^$#&-~');
const SIMPLE_ESCAPES: Record<string, number> = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 };
const WORD_CLASSES = ['\\p{Alphabetic}', '\\p{M}', '\\p{Nd}', '\\p{Pc}', '\\p{Join_Control}'];

/** rg's Unicode \w (Alphabetic, marks, decimal numbers, connector punctuation, Join_Control), as props. */
export const UNICODE_WORD: ClassExpr = { k: 'union', items: WORD_CLASSES.map((w) => ({ k: 'prop', name: w.slice(3, -1), neg: false })) };
export const ASCII_WORD: Range[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];

/** The parsed pattern and what the emitter needs to know of it. */
export interface Parsed {
  node: Node;
  /** the pattern uses case-insensitive parts, and case-sensitive ones (then folding is spelt out) */
  anyFold: boolean;
  anyExact: boolean;
}

/** Parses one pattern in rg's dialect; `ignoreCase` (-i) starts it under (?i), as rg does. */
export function parseRg(pattern: string, ignoreCase: boolean): Parsed {
  return new Parser(pattern, ignoreCase).parse();
}

class Parser {
  private pos = 0;
  private readonly cps: number[];
  private names = new Set<string>();
  /** groups and classes open around the position: rg refuses more than NEST_LIMIT (and recursion stays bounded) */
  private nest = 0;
  private anyFold = false;
  private anyExact = false;

  constructor(
    private readonly src: string,
    private readonly ignoreCase: boolean,
  ) {
    this.cps = Array.from(src, (c) => c.codePointAt(0)!);
  }

  parse(): Parsed {
    const flags: Flags = { i: this.ignoreCase, s: false, U: false, u: true, x: false, R: false };
    const node = this.alternation(flags, 0);
    if (this.pos < this.cps.length) throw new DialectError('unmatched ")": escape it as \\) for a literal parenthesis');
    return { node, anyFold: this.anyFold, anyExact: this.anyExact };
  }

  private peek(off = 0): string | undefined {
    const c = this.cps[this.pos + off];
    return c === undefined ? undefined : String.fromCodePoint(c);
  }

  private eof(): boolean {
    return this.pos >= this.cps.length;
  }

  /** Under (?x): whitespace is skipped and `#` starts a comment to the end of the pattern's line. */
  private space(f: Flags): void {
    if (!f.x) return;
    while (!this.eof()) {
      const c = this.peek()!;
      if (/\s/u.test(c)) this.pos++;
      else if (c === '#') {
        while (!this.eof() && this.peek() !== '\n') this.pos++;
      } else break;
    }
  }

  /** Branches up to a `)` (at `depth` > 0) or the end; flags set by (?i) hold to the group's end, across `|`. */
  private alternation(flags: Flags, depth: number): Node {
    const branches: Node[] = [];
    let items: Node[] = [];
    for (;;) {
      this.space(flags);
      if (this.eof()) break;
      const c = this.peek()!;
      if (c === ')') {
        if (depth === 0) throw new DialectError('unmatched ")": escape it as \\) for a literal parenthesis');
        break;
      }
      if (c === '|') {
        this.pos++;
        branches.push(seq(items));
        items = [];
        continue;
      }
      if (c === '*' || c === '+' || c === '?' || c === '{') {
        this.repetition(flags, items);
        continue;
      }
      const atom = this.atom(flags, depth);
      if (atom !== undefined) items.push(atom);
    }
    branches.push(seq(items));
    return branches.length === 1 ? branches[0]! : { t: 'alt', items: branches };
  }

  private repetition(flags: Flags, items: Node[]): void {
    const c = this.peek()!;
    const start = this.pos;
    const prev = items.pop();
    if (prev === undefined) {
      if (c === '{') throw new DialectError('a lone "{" repeats nothing: escape it as \\{ for a literal brace (or use -F)');
      throw new DialectError(`"${c}" repeats nothing: escape it as \\${c} for a literal ${c} (or use -F)`);
    }
    this.pos++;
    let min: number;
    let max: number;
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else [min, max] = this.counted(start);
    let greedy = true;
    if (this.peek() === '?') {
      this.pos++;
      greedy = false;
    }
    if (flags.U) greedy = !greedy;
    items.push({ t: 'repeat', min, max, greedy, body: prev });
  }

  /** `{n}`, `{n,}`, `{n,m}` after the `{` (spaces allowed inside, as rg allows them). */
  private counted(start: number): [number, number] {
    const bad = (why: string) => new DialectError(`${why} in "${this.src.slice(start, Math.min(this.pos + 1, this.src.length))}": a repetition is {n}, {n,} or {n,m}; for a literal brace write \\{`);
    const num = (): number | undefined => {
      while (this.peek() === ' ') this.pos++;
      let s = '';
      while (this.peek() !== undefined && /[0-9]/.test(this.peek()!)) {
        s += this.peek()!;
        this.pos++;
      }
      while (this.peek() === ' ') this.pos++;
      return s === '' ? undefined : Number(s);
    };
    const min = num();
    if (min === undefined) throw bad(this.eof() ? 'an unclosed repetition' : 'a repetition without a number');
    let max = min;
    if (this.peek() === ',') {
      this.pos++;
      const m = num();
      max = m ?? Infinity;
    }
    if (this.peek() !== '}') throw bad('an unclosed repetition');
    this.pos++;
    if (max < min) throw bad('a repetition whose minimum is above its maximum');
    return [min, max];
  }

  /** One atom, or undefined for a flag group `(?i)` (which changes `flags` in place). */
  private atom(flags: Flags, depth: number): Node | undefined {
    const c = this.peek()!;
    this.pos++;
    switch (c) {
      case '(':
        return this.group(flags, depth);
      case '[':
        return this.classNode(flags);
      case '.':
        return { t: 'dot', crlf: flags.R && !flags.s };
      case '^':
        return { t: 'assert', kind: 'start', u: flags.u };
      case '$':
        return { t: 'assert', kind: 'end', u: flags.u };
      case '\\':
        return this.escape(flags);
      default:
        return this.literal(this.cps[this.pos - 1]!, flags);
    }
  }

  private literal(cp: number, flags: Flags): Node {
    if (foldable(cp)) this.cased(flags);
    return { t: 'lit', cp, i: flags.i, u: flags.u };
  }

  private klass(e: ClassExpr, flags: Flags): Node {
    this.cased(flags);
    return { t: 'class', e, i: flags.i, u: flags.u };
  }

  /** Notes a part whose case matters; ASCII folding under (?-u) cannot be the `i` flag's, so it is written out too. */
  private cased(flags: Flags): void {
    if (flags.i) this.anyFold = true;
    if (!flags.i || !flags.u) this.anyExact = true;
  }

  private group(flags: Flags, depth: number): Node | undefined {
    const start = this.pos - 1;
    if (this.peek() !== '?') return { t: 'group', name: undefined, capture: true, body: this.groupBody({ ...flags }, depth) };
    this.pos++;
    const c = this.peek();
    if (c === '=' || c === '!' || (c === '<' && (this.peek(1) === '=' || this.peek(1) === '!'))) {
      const what = c === '<' ? `(?<${this.peek(1)}` : `(?${c}`;
      throw new DialectError(`look-around ${what}...) is not in rg's dialect: ${PCRE}`);
    }
    if (c === "'") throw new DialectError(`unknown group syntax "(?'": a named group is (?P<name>...) or (?<name>...)`);
    if (c === 'P' || c === '<') {
      if (c === 'P') this.pos++;
      if (this.peek() === '=' || this.peek() === '>') throw new DialectError(`(?P${this.peek()}name) (a back reference or a recursion) is not in rg's dialect: ${PCRE}`);
      if (this.peek() !== '<') throw new DialectError(`unknown group syntax "${this.src.slice(start, this.pos + 1)}": a named group is (?P<name>...) or (?<name>...)`);
      this.pos++;
      let name = '';
      while (!this.eof() && this.peek() !== '>') name += this.peek()!, (this.pos += 1);
      if (this.eof()) throw new DialectError(`unclosed group name "(?<${name}": a named group is (?<name>...)`);
      this.pos++;
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
        throw new DialectError(`group name "${name}" is not one the engine can keep: a name is letters, digits and _ (not first a digit)`);
      }
      if (this.names.has(name)) throw new DialectError(`duplicate group name "${name}": each named group needs its own name`);
      this.names.add(name);
      return { t: 'group', name, capture: true, body: this.groupBody({ ...flags }, depth) };
    }
    // flags: (?flags) for the rest of the group, (?flags:...) for a group of its own
    const inner = { ...flags };
    let negate = false;
    let any = false;
    let lastNegation = false;
    for (;;) {
      const f = this.peek();
      if (f === undefined) throw new DialectError(`unclosed flag group "${this.src.slice(start)}": write (?i) or (?i:...)`);
      this.pos++;
      if (f === ')' || f === ':') {
        if (lastNegation) throw new DialectError(`a dangling "-" in "${this.src.slice(start, this.pos)}": name the flags it turns off, as (?-i)`);
        if (!any && !negate && f === ')') throw new DialectError(`an empty flag group "${this.src.slice(start, this.pos)}": write the flags, as (?i)`);
        if (f === ')') {
          Object.assign(flags, inner);
          return undefined;
        }
        return { t: 'group', name: undefined, capture: false, body: this.groupBody(inner, depth) };
      }
      if (f === '-') {
        if (negate) throw new DialectError(`two "-" in the flag group "${this.src.slice(start, this.pos)}"`);
        negate = true;
        lastNegation = true;
        continue;
      }
      if (!'imsUuxR'.includes(f)) throw new DialectError(`unknown flag "${f}" in "${this.src.slice(start, this.pos)}": rg's flags are i m s U u x R`);
      any = true;
      lastNegation = false;
      if (f !== 'm') inner[f as keyof Flags] = !negate;
    }
  }

  private groupBody(flags: Flags, depth: number): Node {
    this.enter();
    const body = this.alternation(flags, depth + 1);
    this.nest--;
    if (this.peek() !== ')') throw new DialectError('unclosed group: a "(" without its ")" (escape it as \\( for a literal parenthesis)');
    this.pos++;
    return body;
  }

  /** After a `\` outside a class. */
  private escape(flags: Flags): Node {
    const c = this.peek();
    if (c === undefined) throw new DialectError('a "\\" ends the pattern: write \\\\ for a literal backslash');
    switch (c) {
      case 'A':
        this.pos++;
        return { t: 'assert', kind: 'start', u: flags.u };
      case 'z':
        this.pos++;
        return { t: 'assert', kind: 'end', u: flags.u };
      case 'b': {
        this.pos++;
        if (this.peek() === '{') {
          const close = this.src.indexOf('}', this.offset());
          const body = close === -1 ? '' : this.src.slice(this.offset() + 1, close);
          const kinds: Record<string, AssertKind> = { start: 'word-start', end: 'word-end', 'start-half': 'word-start-half', 'end-half': 'word-end-half' };
          if (Object.hasOwn(kinds, body)) {
            this.pos += Array.from(body).length + 2;
            return { t: 'assert', kind: kinds[body]!, u: flags.u };
          }
          throw new DialectError(`unknown word boundary "\\b{${body}...": rg's are \\b{start}, \\b{end}, \\b{start-half}, \\b{end-half}`);
        }
        return { t: 'assert', kind: 'word', u: flags.u };
      }
      case 'B':
        this.pos++;
        return { t: 'assert', kind: 'not-word', u: flags.u };
      case '<':
        this.pos++;
        return { t: 'assert', kind: 'word-start', u: flags.u };
      case '>':
        this.pos++;
        return { t: 'assert', kind: 'word-end', u: flags.u };
    }
    const cls = this.classEscape(flags);
    if (cls !== undefined) return this.klass(cls, flags);
    return this.literal(this.literalEscape(flags), flags);
  }

  /** The string offset (UTF-16) of the current position. */
  private offset(): number {
    let n = 0;
    for (let k = 0; k < this.pos; k++) n += this.cps[k]! > 0xffff ? 2 : 1;
    return n;
  }

  /** `\d \s \w \D \S \W \p \P` at the current position (after the `\`), or undefined. */
  private classEscape(flags: Flags): ClassExpr | undefined {
    const c = this.peek()!;
    const lower = c.toLowerCase();
    if (lower === 'd' || lower === 's' || lower === 'w') {
      this.pos++;
      const e = perlClass(lower, flags.u);
      return c === lower ? e : negate(e);
    }
    if (c === 'p' || c === 'P') {
      const start = this.pos - 1;
      this.pos++;
      let name: string;
      if (this.peek() === '{') {
        const close = this.cps.indexOf(0x7d, this.pos);
        if (close === -1) throw new DialectError(`an unclosed Unicode class "${this.src.slice(this.offsetOf(start))}": write \\p{Name}`);
        name = String.fromCodePoint(...this.cps.slice(this.pos + 1, close));
        this.pos = close + 1;
      } else {
        const l = this.peek();
        if (l === undefined) throw new DialectError(`"\\${c}" ends the pattern: write \\${c}{Name} or \\${c}L`);
        name = l;
        this.pos++;
      }
      const written = this.src.slice(this.offsetOf(start), this.offset());
      if (!flags.u) throw new DialectError(`${written} under (?-u): a Unicode class needs Unicode mode, as in rg (drop the -u)`);
      const e = propertyClass(name, written);
      return c === 'P' ? negate(e) : e;
    }
    return undefined;
  }

  private offsetOf(pos: number): number {
    let n = 0;
    for (let k = 0; k < pos; k++) n += this.cps[k]! > 0xffff ? 2 : 1;
    return n;
  }

  /** A character written as an escape, at the current position (after the `\`). */
  private literalEscape(flags: Flags): number {
    const c = this.peek()!;
    const cp = this.cps[this.pos]!;
    this.pos++;
    if (Object.hasOwn(SIMPLE_ESCAPES, c)) return SIMPLE_ESCAPES[c]!;
    if (c === 'x' || c === 'u' || c === 'U') {
      const digits = c === 'x' ? 2 : c === 'u' ? 4 : 8;
      let hex: string;
      const start = this.pos - 2;
      if (this.peek() === '{') {
        const close = this.cps.indexOf(0x7d, this.pos);
        hex = close === -1 ? '' : String.fromCodePoint(...this.cps.slice(this.pos + 1, close));
        if (close === -1 || !/^[0-9A-Fa-f]{1,8}$/.test(hex)) throw new DialectError(`a bad hexadecimal escape "${this.src.slice(this.offsetOf(start), this.offsetOf(close === -1 ? this.cps.length : close + 1))}": write \\x{1F600}`);
        this.pos = close + 1;
      } else {
        hex = '';
        for (let k = 0; k < digits; k++) {
          const d = this.peek();
          if (d === undefined || !/[0-9A-Fa-f]/.test(d)) throw new DialectError(`a bad hexadecimal escape "\\${c}${hex}": \\${c} takes ${digits} hex digits or {...}, as \\x{41}`);
          hex += d;
          this.pos++;
        }
      }
      const value = parseInt(hex, 16);
      const written = this.src.slice(this.offsetOf(start), this.offset());
      if (value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) throw new DialectError(`${written} is not a Unicode scalar value (rg refuses it too)`);
      if (!flags.u && value > 0x7f) throw new DialectError(`${written} under (?-u) is a raw byte, which this engine cannot match (lines are decoded): drop (?-u) to match the character U+${hex.toUpperCase().padStart(4, '0')}`);
      return value;
    }
    if (/[0-9]/.test(c)) throw new DialectError(`\\${c}: rg's dialect has no back references (and no octal escapes): ${PCRE}, or write a character as \\x{..}`);
    if (cp < 0x80 && META.has(c)) return cp;
    if (cp < 0x80 && !/[0-9A-Za-z<>]/.test(c)) return cp; // rg lets any ASCII punctuation be escaped
    if (c === 'Q' || c === 'E') throw new DialectError(`\\${c} (quoting) is not in rg's dialect: use -F for a literal pattern`);
    throw new DialectError(`unknown escape "\\${c}": rg's dialect does not have it; write \\\\ for a backslash, or ${PCRE}`);
  }

  private enter(): void {
    if (++this.nest > NEST_LIMIT) throw new DialectError(`groups and classes nested more than ${NEST_LIMIT} deep, rg's limit: flatten the pattern`);
  }

  // ---- classes ----

  private classNode(flags: Flags): Node {
    const e = this.classBody(flags);
    return this.klass(e, flags);
  }

  /** After a `[`: the class up to its `]`, negation applied last. */
  private classBody(flags: Flags): ClassExpr {
    const open = this.pos - 1;
    this.enter();
    let neg = false;
    if (this.peek() === '^') {
      this.pos++;
      neg = true;
    }
    let expr: ClassExpr | undefined;
    let op: 'and' | 'minus' | 'xor' | undefined;
    let items: ClassExpr[] = [];
    let first = true;
    const close = () => {
      const u: ClassExpr = items.length === 1 ? items[0]! : { k: 'union', items };
      expr = expr === undefined ? u : { k: op!, a: expr, b: u };
      items = [];
    };
    for (;;) {
      this.space(flags);
      const c = this.peek();
      if (c === undefined) throw new DialectError(`an unclosed class "${this.src.slice(this.offsetOf(open))}": close it with ], or write \\[ for a literal bracket`);
      if (c === ']' && !first) {
        this.pos++;
        break;
      }
      const two = c + (this.peek(1) ?? '');
      if (!first && (two === '&&' || two === '--' || two === '~~')) {
        this.pos += 2;
        close();
        op = two === '&&' ? 'and' : two === '--' ? 'minus' : 'xor';
        continue;
      }
      first = false;
      items.push(this.classItem(flags));
    }
    close();
    this.nest--;
    return neg ? negate(expr!) : expr!;
  }

  /** One item of a class: a nested class, a POSIX class, a class escape, a character or a range. */
  private classItem(flags: Flags): ClassExpr {
    const c = this.peek()!;
    if (c === '[') {
      const posix = this.posix();
      if (posix !== undefined) return posix;
      this.pos++;
      return this.classBody(flags);
    }
    const lo = this.classChar(flags);
    if (typeof lo !== 'number') return lo;
    this.space(flags);
    if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== '-' && this.peek(1) !== undefined) {
      const save = this.pos;
      this.pos++;
      this.space(flags);
      const hi = this.classChar(flags);
      if (typeof hi !== 'number') throw new DialectError(`a range "${this.src.slice(this.offsetOf(save - 1), this.offset())}" must end in a character, not a class: escape the - as \\- for a literal dash`);
      if (hi < lo) throw new DialectError(`a range "${String.fromCodePoint(lo)}-${String.fromCodePoint(hi)}" whose start is above its end: write the smaller first`);
      return { k: 'ranges', r: [[lo, hi]] };
    }
    return { k: 'ranges', r: [[lo, lo]] };
  }

  /** `[:name:]` or `[:^name:]` at the current `[`, or undefined (then the `[` opens a nested class). */
  private posix(): ClassExpr | undefined {
    if (this.peek(1) !== ':') return undefined;
    const rest = String.fromCodePoint(...this.cps.slice(this.pos, this.pos + 20));
    const m = /^\[:(\^?)([a-z]+):\]/.exec(rest);
    if (m === null) return undefined;
    const ranges = posixClass(m[2]!);
    if (ranges === undefined) return undefined;
    this.pos += m[0].length;
    const e: ClassExpr = { k: 'ranges', r: ranges };
    return m[1] === '^' ? negate(e) : e;
  }

  /** A character in a class, or a class escape found where a character could stand. */
  private classChar(flags: Flags): number | ClassExpr {
    const c = this.peek()!;
    if (c !== '\\') {
      this.pos++;
      return this.cps[this.pos - 1]!;
    }
    this.pos++;
    const n = this.peek();
    if (n === undefined) throw new DialectError('a "\\" ends the pattern: write \\\\ for a literal backslash');
    if ('AzbB<>'.includes(n)) throw new DialectError(`"\\${n}" (an assertion) inside a class: rg refuses it; write it outside the [...]`);
    return this.classEscape(flags) ?? this.literalEscape(flags);
  }
}

/** `\d`, `\s`, `\w`: Unicode as rg's defaults are, ASCII under (?-u). */
function perlClass(which: string, unicode: boolean): ClassExpr {
  if (which === 'd') return unicode ? { k: 'prop', name: 'Nd', neg: false } : { k: 'ranges', r: [[0x30, 0x39]] };
  if (which === 's') return unicode ? { k: 'prop', name: 'White_Space', neg: false } : { k: 'ranges', r: posixClass('space')! };
  return unicode ? UNICODE_WORD : { k: 'ranges', r: ASCII_WORD };
}

function negate(e: ClassExpr): ClassExpr {
  if (e.k === 'prop') return { ...e, neg: !e.neg };
  if (e.k === 'not') return e.e;
  return { k: 'not', e };
}

function seq(items: Node[]): Node {
  if (items.length === 0) return { t: 'empty' };
  return items.length === 1 ? items[0]! : { t: 'cat', items };
}

/** A character whose case can change: (?i) matters for it (a cheap, generous test). */
function foldable(cp: number): boolean {
  const s = String.fromCodePoint(cp);
  return s.toLowerCase() !== s || s.toUpperCase() !== s || cp === 0x212a || cp === 0x17f;
}
