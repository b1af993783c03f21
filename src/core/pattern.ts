// grep's patterns: compiled into one JavaScript RegExp (Unicode mode), plus the literal bytes
// every match must contain, so a searcher can rule lines out with Buffer.indexOf before decoding
// (what a pattern requires is worked out in pattern-analysis.ts and regex-analysis.ts). Patterns
// are rg's dialect by default (translated in dialect/), JavaScript's own under -P, text under -F.

import { clipped, LinewiseError, quoted } from './errors.js';
import { analyseText } from './pattern-analysis.js';

/** How the patterns are read (grep's -i, -F, -P, -w, -x). */
export interface PatternOptions {
  ignoreCase?: boolean;
  fixed?: boolean;
  /** -P: JavaScript's own regex syntax (lookaround, back references); else rg's dialect */
  perl?: boolean;
  word?: boolean;
  /** the pattern must match the whole line (-x): wins over `word` */
  line?: boolean;
}

/** The patterns, ready to match one line's text (the line without its terminator). */
export interface CompiledPattern {
  /** tests a line's text; flags `su` or `sv` (+`i`): `.` matches a lone "\r", `^`/`$` the text's ends */
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

/** rg's word character (its Unicode \\w): what -w looks for around a match. */
const WORD = '[\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}]';

/**
 * Compiles grep's patterns. Each pattern may hold several, one per line (as in grep); a line
 * matches when any of them matches. Rejects with a LinewiseError (`bad-pattern`) naming the
 * pattern and the construct when one is not valid in its dialect: rg's (the default, translated
 * by dialect/translate.ts), JavaScript's (-P), or none (-F).
 *
 * Async because a regex is translated and analysed over parsed trees, and those modules are
 * loaded with import() only then: -F patterns and plain words never load them.
 */
export async function compilePatterns(patterns: readonly string[], o: PatternOptions = {}): Promise<CompiledPattern> {
  const list = patterns.flatMap((p) => p.split('\n'));
  const plain = (p: string) => o.fixed === true || p.search(SYNTAX) === -1;
  let sources: string[];
  let unicode: 'u' | 'v' = 'u';
  let ic = o.ignoreCase === true;
  if (o.fixed === true) sources = list.map((p) => p.replace(SYNTAX, '\\$&'));
  else if (o.perl === true || list.every(plain)) sources = list;
  else {
    const { translate, DialectError } = await import('./dialect/translate.js');
    try {
      const t = translate(list, ic);
      sources = t.sources;
      unicode = t.unicodeFlag;
      ic = t.ignoreCase;
    } catch (e) {
      if (!(e instanceof DialectError)) throw e;
      const p = (e as { pattern?: string }).pattern ?? list.join('\n');
      throw new LinewiseError('bad-pattern', `invalid pattern ${quoted(p)}: ${e.message}`);
    }
  }
  for (let k = 0; k < list.length; k++) {
    try {
      new RegExp(sources[k]!, `s${unicode}`);
    } catch (e) {
      // V8's message repeats the whole pattern ("Invalid regular expression: /.../su: why"): keep the why.
      const reason = String((e as Error).message).replace(/^Invalid regular expression: \/[^]*\/[a-z]*: /, '');
      const dialect = o.perl === true ? ' (-P: JavaScript regex syntax)' : o.fixed === true ? '' : ' (in rg\'s dialect; -F for a literal text)';
      throw new LinewiseError('bad-pattern', `invalid pattern ${quoted(list[k]!)}${dialect}: ${clipped(reason, 120)}`);
    }
  }
  // A plain pattern is its own source unless its folding was written out (-i beside (?-i)).
  const asText = (k: number) => plain(list[k]!) && (o.fixed === true || sources[k] === list[k]);
  const regex = list.every((_, k) => asText(k)) ? undefined : await import('./regex-analysis.js');
  const factors: string[][] = [];
  const analyses = list.map((p, k) => (asText(k) ? analyseText(p, ic, factors) : regex!.analyseRegex(sources[k]!, ic, factors, unicode === 'v')));

  let body = sources.length === 1 ? sources[0]! : sources.map((s) => `(?:${s})`).join('|');
  if (o.line) body = `^(?:${body})$`;
  else if (o.word) body = `(?<!${WORD})(?:${body})(?!${WORD})`;
  const flags = `${ic ? 'i' : ''}s${unicode}`;
  const compiled = { regex: new RegExp(body, flags), all: new RegExp(body, `g${flags}`) };
  const block = analyses.every((a) => a.blockSafe) ? new RegExp(body, `g${ic ? 'i' : ''}m${unicode}`) : undefined;
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
