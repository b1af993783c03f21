// grep's patterns: compiled into one JavaScript RegExp (Unicode mode), plus the literal bytes
// every match must contain, so a searcher can rule lines out with Buffer.indexOf before decoding.

import { LinewiseError } from './errors.js';

/** How the patterns are read (grep's -i, -F, -w, -x). */
export interface PatternOptions {
  ignoreCase?: boolean;
  fixed?: boolean;
  word?: boolean;
  /** the pattern must match the whole line (-x): wins over `word` */
  line?: boolean;
}

/** The patterns, ready to match one line's text (the line without its terminator). */
export interface CompiledPattern {
  /** tests a line's text; flags `su` (+`i`): `.` matches a lone "\r", `^`/`$` the text's ends */
  regex: RegExp;
  /** the same with `g`, to list every match in a line (color, --json) */
  all: RegExp;
  /**
   * Prefilter: a line can match only if its bytes contain one of these (case-sensitively, or
   * ASCII-case-insensitively when `literalsFoldCase`). Undefined when no literal is required.
   */
  literals: Buffer[] | undefined;
  /** the literals must be searched ignoring ASCII case (-i) */
  literalsFoldCase: boolean;
  /** a line matches exactly when it contains a literal: the regex need not run at all */
  pureLiteral: boolean;
  /**
   * The pattern for a whole block of lines at once (flags `gmu`, no `s`), or undefined when that
   * would not be the same as matching line by line: set only when no part of the pattern can
   * match a "\n" (see `blockSafe`). On a block without "\r", "\u2028" or "\u2029", a match of
   * it lies inside one line and that line matches; with them it finds a superset of the lines.
   */
  block: RegExp | undefined;
  /**
   * Every part of the pattern matches ASCII characters only (see `asciiOnly`): `block` then
   * finds the same lines in a block read as latin1 (one character per byte) whatever it holds,
   * since a non-ASCII character, or a byte that is not UTF-8, is no ASCII character either way.
   */
  blockAnyBytes: boolean;
}

/** Characters with a meaning in a Unicode-mode pattern: escaped for -F. */
const SYNTAX = /[\\^$.*+?()[\]{}|/]/g;

/** Letters, digits and underscore, Unicode-wide: what -w calls a word character. */
const WORD = '[\\p{L}\\p{N}\\p{M}_]';

/**
 * Compiles grep's patterns. Each pattern may hold several, one per line (as in grep); a line
 * matches when any of them matches. Throws a LinewiseError (`bad-pattern`) naming the pattern
 * when one is not a valid JavaScript regular expression.
 */
export function compilePatterns(patterns: readonly string[], o: PatternOptions = {}): CompiledPattern {
  const list = patterns.flatMap((p) => p.split('\n'));
  const sources: string[] = [];
  for (const p of list) {
    const source = o.fixed ? p.replace(SYNTAX, '\\$&') : p;
    try {
      new RegExp(source, 'su');
    } catch (e) {
      const reason = String((e as Error).message).replace(/^.*: /, '');
      throw new LinewiseError('bad-pattern', `invalid pattern ${JSON.stringify(p)}: ${reason}`);
    }
    sources.push(source);
  }
  let body = sources.length === 1 ? sources[0]! : sources.map((s) => `(?:${s})`).join('|');
  if (o.line) body = `^(?:${body})$`;
  else if (o.word) body = `(?<!${WORD})(?:${body})(?!${WORD})`;
  const flags = o.ignoreCase ? 'isu' : 'su';
  const regex = new RegExp(body, flags);
  const all = new RegExp(body, `g${flags}`);
  const block = sources.every(blockSafe) ? new RegExp(body, o.ignoreCase ? 'gimu' : 'gmu') : undefined;
  const blockAnyBytes = block !== undefined && !o.ignoreCase && !o.word && !o.line && sources.every(asciiOnly);

  // Every branch of every pattern must yield a literal, or nothing can be ruled out.
  const found: string[] = [];
  let pure = !o.ignoreCase && !o.word && !o.line;
  for (let k = 0; k < sources.length; k++) {
    const branches = o.fixed ? [{ literal: list[k]!, whole: true }] : splitBranches(sources[k]!).map(requiredLiteral);
    for (const b of branches) {
      const lit = o.ignoreCase ? foldSafe(b.literal) : b.literal;
      if (lit === '' || lit.includes('\n')) {
        return { regex, all, literals: undefined, literalsFoldCase: false, pureLiteral: false, block, blockAnyBytes };
      }
      found.push(lit);
      // A "\r" found in the bytes may be the first half of a "\r\n" terminator, which the
      // pattern never sees: such a literal only rules lines out, the regex decides.
      if (!b.whole || lit.includes('\r')) pure = false;
    }
  }
  const literals = [...new Set(found)].map((s) => Buffer.from(s, 'utf8'));
  return { regex, all, literals, literalsFoldCase: o.ignoreCase === true, pureLiteral: pure, block, blockAnyBytes };
}

/**
 * The longest fragment of `literal` that ASCII case folding finds exactly as `iu` matching
 * would: ASCII only, and without k or s (which also match U+212A KELVIN SIGN and U+017F LONG S).
 */
function foldSafe(literal: string): string {
  let best = '';
  for (const part of literal.split(/[^\x20-\x7e\t]|[ksKS]/)) if (part.length > best.length) best = part;
  return best;
}

/**
 * True when nothing in `source` can match a "\n" or a "\r": no negated class, no \s \W \D,
 * no \p or \P, no escape naming a character by code (\n \r \x \u \c \0), no control
 * character. Conservative: a safe pattern may be refused, never the reverse. (`.` is safe: the
 * block RegExp has no `s` flag, so `.` stops at line ends there.)
 */
export function blockSafe(source: string): boolean {
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c < 0x20 || c === 0x2028 || c === 0x2029) return false;
    if (source[i] === '[' && source[i + 1] === '^') return false;
    if (source[i] === '\\') {
      if ('sWDpPnrxuc0'.includes(source[i + 1] ?? '')) return false;
      i++;
    }
  }
  return true;
}

/**
 * True when every character `source` can match is ASCII, and every assertion in it looks only at
 * ASCII characters: the source is ASCII, with no `.`, no negated class, and no escape but \d \w
 * \b \B, back references and escaped punctuation. (Without `i`: under `iu`, \w and letters
 * such as k and s also match U+212A and U+017F.) Conservative: a safe pattern may be refused.
 */
export function asciiOnly(source: string): boolean {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c >= 0x80) return false;
    const ch = source[i]!;
    if (ch === '\\') {
      const e = source[i + 1] ?? '';
      if (/[A-Za-z]/.test(e) && !'dwbBk'.includes(e)) return false;
      i++;
    } else if (inClass) inClass = ch !== ']';
    else if (ch === '[') {
      if (source[i + 1] === '^') return false;
      inClass = true;
    } else if (ch === '.') return false;
  }
  return true;
}

/** Splits a pattern at its top-level `|` (not inside a group or a character class). */
export function splitBranches(source: string): string[] {
  const branches: string[] = [];
  let depth = 0;
  let inClass = false;
  let from = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      branches.push(source.slice(from, i));
      from = i + 1;
    }
  }
  branches.push(source.slice(from));
  return branches;
}

const SIMPLE_ESCAPES: Record<string, string> = { t: '\t', r: '\r', f: '\f', v: '\v' };

/**
 * The longest run of literal characters every match of `branch` (a pattern without top-level
 * `|`) must contain, and whether the branch is nothing but that literal. Conservative: a group,
 * a class, an assertion or a quantifier ends a run; an optional atom is dropped from it.
 */
export function requiredLiteral(branch: string): { literal: string; whole: boolean } {
  let best = '';
  let run: string[] = [];
  let whole = true;
  const end = () => {
    const s = run.join('');
    if (Buffer.byteLength(s) > Buffer.byteLength(best)) best = s;
    run = [];
  };
  const cps = Array.from(branch);
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i]!;
    let atom: string | undefined; // the literal character this token stands for, if it is one
    if (c === '\\') {
      const e = cps[++i] ?? '';
      if (SIMPLE_ESCAPES[e] !== undefined) atom = SIMPLE_ESCAPES[e];
      else if (e === 'x' && /^[0-9a-fA-F]{2}$/.test(cps.slice(i + 1, i + 3).join(''))) {
        atom = String.fromCharCode(parseInt(cps.slice(i + 1, i + 3).join(''), 16));
        i += 2;
      } else if (e === 'u' && cps[i + 1] === '{') {
        const close = cps.indexOf('}', i);
        atom = String.fromCodePoint(parseInt(cps.slice(i + 2, close).join(''), 16));
        i = close;
      } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(cps.slice(i + 1, i + 5).join(''))) {
        atom = String.fromCharCode(parseInt(cps.slice(i + 1, i + 5).join(''), 16));
        i += 4;
        if (/[\ud800-\udfff]/.test(atom)) atom = undefined; // half of a pair: not worth pairing up
      } else if (/^[\^$\\.*+?()[\]{}|/-]$/.test(e)) atom = e;
      else if (e === 'k') {
        // a named back reference: \k<name>
        const close = cps.indexOf('>', i);
        if (close !== -1) i = close;
      } else if (e === 'p' || e === 'P') {
        const close = cps.indexOf('}', i);
        if (close !== -1) i = close;
      } else if (e === 'c') i++;
      // anything else (\d, \w, \b, \s, back references, \0, \n) is not a literal character
    } else if (c === '[') {
      for (i++; i < cps.length && cps[i] !== ']'; i++) if (cps[i] === '\\') i++;
    } else if (c === '(') {
      let depth = 1;
      let inClass = false;
      for (i++; i < cps.length && depth > 0; i++) {
        const d = cps[i];
        if (d === '\\') i++;
        else if (inClass) inClass = d !== ']';
        else if (d === '[') inClass = true;
        else if (d === '(') depth++;
        else if (d === ')') depth--;
      }
      i--;
    } else if (c === '.' || c === '^' || c === '$') {
      // not a literal
    } else atom = c;

    // A quantifier after the atom: optional atoms are dropped, repeated ones end the run.
    const q = cps[i + 1];
    let min = 1;
    let quantified = false;
    if (q === '*' || q === '?' || q === '+') {
      quantified = true;
      min = q === '+' ? 1 : 0;
      i++;
    } else if (q === '{') {
      const m = /^\{(\d+)(,\d*)?\}/.exec(cps.slice(i + 1, i + 24).join(''));
      if (m) {
        quantified = true;
        min = Number(m[1]);
        i += Array.from(m[0]).length;
      }
    }
    if (quantified && cps[i + 1] === '?') i++; // lazy
    if (atom === undefined) {
      whole = false;
      end();
      continue;
    }
    if (atom === '\ufffd') {
      // U+FFFD also stands for bytes that are not UTF-8: it is not in the raw bytes
      whole = false;
      end();
      continue;
    }
    if (quantified) {
      whole = false;
      if (min > 0) run.push(atom);
      end();
      continue;
    }
    run.push(atom);
  }
  end();
  return { literal: best, whole: whole && best.length > 0 };
}
