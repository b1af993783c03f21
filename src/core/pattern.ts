// grep's patterns: compiled into one JavaScript RegExp (Unicode mode), plus the literal bytes
// every match must contain, so a searcher can rule lines out with Buffer.indexOf before decoding
// (what a pattern requires is worked out in pattern-analysis.ts and regex-analysis.ts).

import { clipped, LinewiseError, quoted } from './errors.js';
import { analyseText } from './pattern-analysis.js';

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
  /**
   * Per top-level branch of the patterns (in order), every literal a match of that branch must
   * contain, its `literals` entry first: a search may look for the rarest one instead (each rules
   * lines out as well as any other). Undefined with `literals`.
   */
  literalChoices?: Buffer[][] | undefined;
  /** the literals must be searched ignoring ASCII case (-i) */
  literalsFoldCase: boolean;
  /** a line matches exactly when it contains a literal: the regex need not run at all */
  pureLiteral: boolean;
  /**
   * The pattern for a whole block of lines at once (flags `gmu`, no `s`), or undefined when that
   * would not be the same as matching line by line: set only when no part of the pattern can
   * match a "\n" or a "\r" (PatternAnalysis.blockSafe). On a block without "\r", "\u2028" or
   * "\u2029", a match of it lies inside one line and that line matches; with them it finds a
   * superset of the lines.
   */
  block: RegExp | undefined;
  /**
   * Every part of the pattern matches ASCII characters only (PatternAnalysis.asciiOnly): `block`
   * then finds the same lines in a block read as latin1 (one character per byte) whatever it
   * holds, since a non-ASCII character, or a byte that is not UTF-8, is no ASCII character
   * either way.
   */
  blockAnyBytes: boolean;
}

/** Characters with a meaning in a Unicode-mode pattern: escaped for -F. */
const SYNTAX = /[\\^$.*+?()[\]{}|]/g;

/** Letters, digits and underscore, Unicode-wide: what -w calls a word character. */
const WORD = '[\\p{L}\\p{N}\\p{M}_]';

/**
 * Compiles grep's patterns. Each pattern may hold several, one per line (as in grep); a line
 * matches when any of them matches. Rejects with a LinewiseError (`bad-pattern`) naming the
 * pattern when one is not a valid JavaScript regular expression.
 *
 * Async because a regex is analysed over a parser's AST, and the parser is loaded with import()
 * only then: -F patterns and regexes without syntax (a plain word) never load it.
 */
export async function compilePatterns(patterns: readonly string[], o: PatternOptions = {}): Promise<CompiledPattern> {
  const list = patterns.flatMap((p) => p.split('\n'));
  const sources: string[] = [];
  for (const p of list) {
    const source = o.fixed ? p.replace(SYNTAX, '\\$&') : p;
    try {
      new RegExp(source, 'su');
    } catch (e) {
      // V8's message repeats the whole pattern ("Invalid regular expression: /.../su: why"): keep the why.
      const reason = String((e as Error).message).replace(/^Invalid regular expression: \/[^]*\/[a-z]*: /, '');
      throw new LinewiseError('bad-pattern', `invalid pattern ${quoted(p)}: ${clipped(reason, 120)}`);
    }
    sources.push(source);
  }
  const ic = o.ignoreCase === true;
  const plain = (p: string) => o.fixed === true || p.search(SYNTAX) === -1;
  const regex = list.every(plain) ? undefined : await import('./regex-analysis.js');
  const factors: string[][] = [];
  const analyses = list.map((p) => (plain(p) ? analyseText(p, ic, factors) : regex!.analyseRegex(p, ic, factors)));

  let body = sources.length === 1 ? sources[0]! : sources.map((s) => `(?:${s})`).join('|');
  if (o.line) body = `^(?:${body})$`;
  else if (o.word) body = `(?<!${WORD})(?:${body})(?!${WORD})`;
  const flags = ic ? 'isu' : 'su';
  const compiled = { regex: new RegExp(body, flags), all: new RegExp(body, `g${flags}`) };
  const block = analyses.every((a) => a.blockSafe) ? new RegExp(body, ic ? 'gimu' : 'gmu') : undefined;
  const blockAnyBytes = block !== undefined && !ic && !o.word && !o.line && analyses.every((a) => a.asciiOnly);
  const noLiterals = { literals: undefined, literalsFoldCase: false, pureLiteral: false };

  // Every branch of every pattern must yield a literal, or nothing can be ruled out.
  const found: string[] = [];
  const literalChoices: Buffer[][] = [];
  let pure = !ic && !o.word && !o.line;
  analyses.flatMap((a) => a.branches).forEach((b, i) => {
    found.push(b.literal);
    const others = (factors[i] ?? []).filter((f) => f !== b.literal);
    literalChoices.push([b.literal, ...others].map((f) => Buffer.from(f, 'utf8')));
    // A "\r" found in the bytes may be the first half of a "\r\n" terminator, which the
    // pattern never sees: such a literal only rules lines out, the regex decides.
    if (!b.whole || b.literal.includes('\r')) pure = false;
  });
  if (found.includes('')) return { ...compiled, ...noLiterals, block, blockAnyBytes };
  const literals = [...new Set(found)].map((s) => Buffer.from(s, 'utf8'));
  return { ...compiled, literals, literalChoices, literalsFoldCase: ic, pureLiteral: pure, block, blockAnyBytes };
}
