import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyseRegex } from '../../src/core/regex-analysis.js';
import { regexSource } from './regex-sources.js';

const literals = (source: string, ic = false) => analyseRegex(source, ic).branches.map((b) => b.literal);
const whole = (source: string) => analyseRegex(source, false).branches.map((b) => b.whole);
const blockSafe = (source: string, ic = false) => analyseRegex(source, ic).blockSafe;
const asciiOnly = (source: string) => analyseRegex(source, false).asciiOnly;

describe('required literals over the AST', () => {
  it('reads escapes and classes of one character as the character they stand for', () => {
    expect(literals('a\\.b\\x41\\u0042\\u{1F600}\\t\\/')).toEqual(['a.bAB😀\t/']);
    expect(literals('[.][\\]]x')).toEqual(['.]x']);
    expect(literals('\\ud83d\\ude00!')).toEqual(['😀!']); // a pair of escapes is one character
  });

  it('ends a run at a class, a set, a back reference or an optional part', () => {
    expect(literals('ERROR\\s+[0-9]{3}')).toEqual(['ERROR']);
    expect(literals('ab?cdef')).toEqual(['cdef']);
    expect(literals('[^a]bc.de')).toEqual(['bc']);
    expect(literals('(a)\\1bc')).toEqual(['bc']);
    expect(literals('(?<n>xy)\\k<n>zz')).toEqual(['xy']);
    expect(literals('\\p{L}ab\\P{L}')).toEqual(['ab']);
    expect(literals('[a-z]{6}')).toEqual(['']);
  });

  it('looks into groups: nested, named, capturing, and across them', () => {
    expect(literals('(?:foo)bar')).toEqual(['foobar']);
    expect(literals('x(?:a(?:bc)d)(e)y')).toEqual(['xabcdey']);
    expect(literals('(?<word>ab)cd')).toEqual(['abcd']);
  });

  it('keeps what the alternatives of a group share: their common prefix and suffix', () => {
    expect(literals('(?:a|b)c')).toEqual(['c']);
    expect(literals('x(?:foo|fob)')).toEqual(['xfo']);
    expect(literals('(?:ab|cb)cd')).toEqual(['bcd']);
    expect(literals('(?:😀a|😁a)!')).toEqual(['a!']); // never half of a surrogate pair
    expect(literals('(?:x|)abc')).toEqual(['abc']);
    expect(literals('x(?:y|)')).toEqual(['x']);
  });

  it('opens a top-level group of alternatives into several literals, one per branch', () => {
    expect(literals('(?:foo|bar)')).toEqual(['foo', 'bar']);
    expect(literals('((foo)|ba(r))|baz')).toEqual(['foo', 'bar', 'baz']);
    expect(literals('foo||bar')).toEqual(['foo', '', 'bar']); // an empty branch: no prefilter
  });

  it('counts quantifiers: a fixed count repeats, a minimum keeps one copy, an optional part gives none', () => {
    expect(literals('a{2}bc')).toEqual(['aabc']);
    expect(literals('(?:ab){3}!')).toEqual(['ababab!']);
    expect(literals('fo+bar')).toEqual(['obar']);
    expect(literals('x(yz)+ Hello\\.World')).toEqual(['yz Hello.World']);
    expect(literals('ab{2,5}?c')).toEqual(['abb']);
    expect(literals('a*?bc')).toEqual(['bc']);
    expect(literals('a{0}bc')).toEqual(['bc']);
    expect(literals('a{1000}')).toEqual(['a']); // not a 1000-byte literal
  });

  it('joins text across zero-width assertions, which make it not whole', () => {
    expect(literals('\\bfoo\\b')).toEqual(['foo']);
    expect(literals('ab(?=cd)ef')).toEqual(['abef']);
    expect(literals('(?<=x)ab(?!c)')).toEqual(['ab']);
    expect(literals('^foo$')).toEqual(['foo']);
    expect(whole('\\bfoo')).toEqual([false]);
    expect(whole('(?:foo)bar|(ba)z')).toEqual([true, true]);
    expect(whole('a+')).toEqual([false]);
  });

  it('never asks for U+FFFD, a lone surrogate or "\\n", which raw bytes of a line cannot hold as such', () => {
    expect(literals('caf\\uFFFDe')).toEqual(['caf']);
    expect(literals('ab\\ud83dc')).toEqual(['ab']);
    expect(literals('ab\\ncde')).toEqual(['cde']);
    expect(literals('x\\ry')).toEqual(['x\ry']); // kept: compilePatterns only makes it not pure
  });

  it('under -i keeps only printable ASCII without k or s', () => {
    expect(literals('Mask-ok', true)).toEqual(['Ma']);
    expect(literals('[k]eep é-mail', true)).toEqual(['-mail']);
  });
});

describe('block safety over the AST', () => {
  it('refuses whatever can match "\\n" or "\\r", wherever it is', () => {
    for (const p of ['[^a]', '[^\\n]', '\\s', '\\W', '\\D', '\\P{L}', 'a\\r', '\\n', '[\\x00-\\x7f]', '(?![^b])', '(?<=\\s)a', 'a|b\\r', '(?:x[\\r])?', '\\cM'])
      expect(blockSafe(p), p).toBe(false);
  });

  it('accepts the rest, more than a scan of the source could', () => {
    for (const p of ['.', 'a.b', '\\S+', '\\w\\d', '\\p{L}+', '[^\\n\\r]', '[^"\\n\\r]*', '\\x41', '\\u{1F600}', '(a)\\1', '\\bfoo\\b', 'a\tb', '(?<n>x)\\k<n>'])
      expect(blockSafe(p), p).toBe(true);
  });

  it('asks a class with the flags the pattern is compiled with', () => {
    expect(blockSafe('[\\x0a-\\x0d]', true)).toBe(false);
    expect(blockSafe('[a-z]', true)).toBe(true);
  });
});

describe('ASCII only over the AST', () => {
  it('accepts patterns whose every atom and assertion is ASCII', () => {
    for (const p of ['[0-9]{6}', 'took \\d+ms', '\\bERROR\\b', '(a)\\1', 'a(?!b)|c', '[a-z_]+=\\w', 'x\\.y', '^$', '\\x41', '\\t', '[\\]a-c]'])
      expect(asciiOnly(p), p).toBe(true);
  });

  it('refuses the rest', () => {
    for (const p of ['a.b', '[^a]', '\\s', '\\S', '\\W', '\\D', '\\p{L}', 'é', '\\u00e9', 'caf\\xe9', '[a-é]', '[\\w\\s]', '(?<!é)a'])
      expect(asciiOnly(p), p).toBe(false);
  });
});

describe('the analysis', () => {
  it('property: every string a generated regex matches holds a literal of one of its branches; a whole literal is the match', () => {
    const text = fc.array(fc.constantFrom('a', 'b', 'A', 'k', '\u212a', 'x', '\r', 'é', '😀', '\ufffd', '1', ' ', ']', '.', '\n'), { maxLength: 12 }).map((p) => p.join(''));
    fc.assert(
      fc.property(regexSource, fc.array(text, { minLength: 1, maxLength: 6 }), fc.boolean(), (source, texts, ic) => {
        let re: RegExp;
        try {
          re = new RegExp(source, ic ? 'isu' : 'su');
        } catch {
          return; // a generated source V8 refuses
        }
        const { branches } = analyseRegex(source, ic);
        const fold = (s: string) => (ic ? s.replace(/[A-Z]/g, (c) => c.toLowerCase()) : s);
        const holds = (t: string) => branches.some((b) => fold(t).includes(fold(b.literal)));
        for (const t of texts) {
          if (re.test(t)) expect(holds(t), `${source} on ${JSON.stringify(t)}`).toBe(true);
          if (!ic && branches.every((b) => b.whole)) expect(re.test(t), `${source} on ${JSON.stringify(t)}`).toBe(holds(t));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('a source the parser refuses is analysed as unknown', () => {
    expect(analyseRegex('(', false)).toEqual({ branches: [{ literal: '', whole: false }], blockSafe: false, asciiOnly: false });
  });

  it('a group with modifiers (flags changed inside it) requires no literal, and is neither block-safe nor ASCII-only', () => {
    expect(analyseRegex('(?i:ab)cd', false)).toEqual({ branches: [{ literal: 'cd', whole: false }], blockSafe: false, asciiOnly: false });
    expect(analyseRegex('a(?s:.)b', false)).toMatchObject({ blockSafe: false }); // `.` there matches "\n"
    expect(analyseRegex('(?-i:k)', true).branches).toEqual([{ literal: '', whole: false }]);
  });
});
