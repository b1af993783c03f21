// grep's analysis of a regex over the AST of @eslint-community/regexpp: required literals, block
// safety, ASCII only (pattern-analysis.ts says what each means). pattern.ts loads this file with
// import() only when a pattern is a regex with syntax in it, so -F and plain words never parse.

import { type AST, RegExpParser } from '@eslint-community/regexpp';
import {
  alternation,
  branchOf,
  exactly,
  literalChar,
  type Needs,
  NOTHING,
  type PatternAnalysis,
  repeat,
  sequence,
  UNKNOWN,
} from './pattern-analysis.js';

/** ES2025: what Node 24 accepts, modifiers `(?i:...)` included. */
const parser = new RegExpParser({ ecmaVersion: 2025 });

/** A node that matches one character: what block safety and ASCII-onliness are decided on. */
type CharMatcher = AST.Character | AST.CharacterClass | AST.CharacterSet;

/**
 * Analyses `source`, which `new RegExp(source, 'su')` accepted (`sv` with `unicodeSets`), as it
 * is compiled (flags `su`, `isu` under -i; `v` for `u` with `unicodeSets`). A pattern the parser refuses gets the analysis that assumes nothing; a group
 * with modifiers (`(?i:...)`, which change flags inside it) requires no literal and makes the
 * pattern neither block-safe nor ASCII-only.
 */
export function analyseRegex(source: string, ignoreCase: boolean, factors?: string[][], unicodeSets = false): PatternAnalysis {
  let ast: AST.Pattern;
  try {
    ast = parser.parsePattern(source, 0, source.length, unicodeSets ? { unicodeSets: true } : { unicode: true });
  } catch {
    factors?.push([]);
    return UNKNOWN;
  }
  const matchers: CharMatcher[] = [];
  const understood = collectMatchers(ast, matchers);
  const branches = topBranches(ast.alternatives).map((a) => {
    const found = factors === undefined ? undefined : new Set<string>();
    const branch = branchOf(needs(a, ignoreCase, found));
    if (found !== undefined) factors!.push([...found]);
    return branch;
  });
  return {
    branches,
    blockSafe: understood && matchers.every((m) => !matchesLineEnd(m, ignoreCase, unicodeSets)),
    asciiOnly: understood && matchers.every(asciiMatcher),
  };
}

/**
 * The top-level alternatives, a lone group opened: `(?:foo|bar)` has the two branches of
 * `foo|bar`, each with its own literal, where as one piece it would share none.
 */
function topBranches(alts: readonly AST.Alternative[]): AST.Alternative[] {
  return alts.flatMap((a) => {
    const only = a.elements.length === 1 ? a.elements[0]! : undefined;
    if (only?.type === 'CapturingGroup' || (only?.type === 'Group' && only.modifiers === null)) return topBranches(only.alternatives);
    return [a];
  });
}

/**
 * What a node of the AST tells of the text its matches contain. `found` (see `sequence`) collects
 * the texts every match of the node contains; it is handed down only where a part must match
 * for the whole to: not into one of several alternatives, nor into an optional part.
 */
function needs(node: AST.Alternative | AST.Element, ic: boolean, found?: Set<string>): Needs {
  switch (node.type) {
    case 'Alternative':
      return sequence(
        node.elements.map((e) => needs(e, ic, found)),
        found,
      );
    case 'Character':
      return literalChar(node.value, ic);
    case 'CharacterClass': {
      // `[.]` or `[\]]`: one character written as a class
      const only = node.elements.length === 1 ? node.elements[0]! : undefined;
      return !node.negate && only?.type === 'Character' ? literalChar(only.value, ic) : NOTHING;
    }
    case 'Group':
      if (node.modifiers !== null) return NOTHING;
      return alternatives(node.alternatives, ic, found);
    case 'CapturingGroup':
      return alternatives(node.alternatives, ic, found);
    case 'Quantifier':
      return repeat(needs(node.element, ic, node.min > 0 ? found : undefined), node.min, node.max);
    case 'Assertion':
      // zero width: what comes before and after it is adjacent in the match
      return exactly('', false);
    default:
      // character sets, back references, and what only the `v` flag allows
      return NOTHING;
  }
}

/** A group's alternatives: what one alone requires is required only when it is the only one. */
function alternatives(alts: readonly AST.Alternative[], ic: boolean, found: Set<string> | undefined): Needs {
  return alternation(alts.map((a) => needs(a, ic, alts.length === 1 ? found : undefined)));
}

/**
 * Gathers every node that matches a character, lookarounds included (a class is one matcher: its
 * members are not visited). False when a part is not understood: a group with modifiers, or a
 * node only the `v` flag allows.
 */
function collectMatchers(node: AST.Node, out: CharMatcher[]): boolean {
  switch (node.type) {
    case 'Character':
    case 'CharacterClass':
    case 'CharacterSet':
      out.push(node);
      return true;
    case 'Group':
      if (node.modifiers !== null) return false;
      return node.alternatives.every((a) => collectMatchers(a, out));
    case 'Pattern':
    case 'CapturingGroup':
      return node.alternatives.every((a) => collectMatchers(a, out));
    case 'Alternative':
      return node.elements.every((e) => collectMatchers(e, out));
    case 'Quantifier':
      return collectMatchers(node.element, out);
    case 'Assertion':
      return node.kind === 'lookahead' || node.kind === 'lookbehind' ? node.alternatives.every((a) => collectMatchers(a, out)) : true;
    case 'Backreference':
      return true; // matches what its group matched
    default:
      return false;
  }
}

/**
 * Can this matcher match a "\n" or a "\r", with the flags of the block RegExp (no `s`, so `.`
 * cannot)? A class or set is asked by compiling it alone: exact, `\p{...}` and -i included.
 */
function matchesLineEnd(m: CharMatcher, ic: boolean, unicodeSets: boolean): boolean {
  if (m.type === 'Character') return m.value === 0x0a || m.value === 0x0d;
  const re = new RegExp(m.raw, `${ic ? 'i' : ''}${unicodeSets ? 'v' : 'u'}`);
  return re.test('\n') || re.test('\r');
}

/** Does this matcher match ASCII characters only (without -i)? */
function asciiMatcher(m: CharMatcher | AST.CharacterClassElement): boolean {
  switch (m.type) {
    case 'Character':
      return m.value < 0x80;
    case 'CharacterClassRange':
      return m.max.value < 0x80;
    case 'CharacterSet':
      // \d and \w (ASCII without `i`); not `.`, \s, \p{...} or a negated set
      return (m.kind === 'digit' || m.kind === 'word') && !m.negate;
    case 'CharacterClass':
      return !m.negate && (m.elements as AST.CharacterClassElement[]).every(asciiMatcher);
    default:
      return false;
  }
}
