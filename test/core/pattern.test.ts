import { describe, expect, it } from 'vitest';
import { LinewiseError } from '../../src/core/errors.js';
import { asciiOnly, compilePatterns, requiredLiteral, splitBranches } from '../../src/core/pattern.js';

const lits = (patterns: string[], o = {}) => compilePatterns(patterns, o).literals?.map((b) => b.toString('utf8'));

describe('compilePatterns', () => {
  it('matches the line text in Unicode mode; . matches a lone \\r; $ is the end of the text', () => {
    const p = compilePatterns(['a.b$']);
    expect(p.regex.test('xa\rb')).toBe(true);
    expect(p.regex.test('a😀b')).toBe(true); // one code point, Unicode mode
    expect(p.regex.test('a\rb\r')).toBe(false);
  });

  it('-F escapes every syntax character; -w needs non-word characters around the match', () => {
    const f = compilePatterns(['a.b(c'], { fixed: true });
    expect([f.regex.test('xa.b(cx'), f.regex.test('axb(c')]).toEqual([true, false]);
    expect(f.pureLiteral).toBe(true);
    const w = compilePatterns(['cat'], { word: true });
    expect([w.regex.test('concatenate'), w.regex.test('a cat.'), w.regex.test('écat'), w.regex.test('cat_')]).toEqual([false, true, false, false]);
  });

  it('-x matches the whole line text only, with every pattern, and never as a pure literal', () => {
    const x = compilePatterns(['cat', 'd.g'], { line: true, word: true });
    expect(['cat', 'a cat', 'cats', 'dog', 'dogs', 'd\rg'].map((s) => x.regex.test(s))).toEqual([true, false, false, true, false, true]);
    const f = compilePatterns(['a.b'], { line: true, fixed: true });
    expect([f.regex.test('a.b'), f.regex.test('xa.b'), f.pureLiteral, f.blockAnyBytes]).toEqual([true, false, false, false]);
    expect(lits(['a.b'], { line: true, fixed: true })).toEqual(['a.b']); // still a prefilter
    // the block form finds the same lines in a block of several
    const block = compilePatterns(['ab'], { line: true }).block!;
    expect([...'ab\nxab\nab\n'.matchAll(block)].map((m) => m.index)).toEqual([0, 7]);
  });

  it('an invalid pattern is one LinewiseError naming it', () => {
    try {
      compilePatterns(['(']);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(LinewiseError);
      expect((e as LinewiseError).code).toBe('bad-pattern');
      expect((e as LinewiseError).message).toBe('invalid pattern "(": Unterminated group');
    }
  });

  it('several patterns (or lines of one) match when any matches', () => {
    const p = compilePatterns(['^a$', 'b\nc']);
    expect(['a', 'xbx', 'c', 'd'].map((s) => p.regex.test(s))).toEqual([true, true, true, false]);
    expect(lits(['foo', 'bar|baz'])).toEqual(['foo', 'bar', 'baz']);
  });
});

describe('literal extraction', () => {
  it('finds the longest literal every match must contain', () => {
    expect(requiredLiteral('ERROR\\s+[0-9]{3}').literal).toBe('ERROR');
    expect(requiredLiteral('ab?cdef').literal).toBe('cdef');
    expect(requiredLiteral('x(yz)+ Hello\\.World').literal).toBe(' Hello.World');
    expect(requiredLiteral('fo+bar').literal).toBe('bar');
    expect(requiredLiteral('a{2}bc').literal).toBe('bc');
    expect(requiredLiteral('\\u{1F600}x\\tq').literal).toBe('😀x\tq');
    expect(requiredLiteral('[0-9]{6}').literal).toBe('');
    expect(requiredLiteral('caf\\uFFFD').literal).toBe('caf'); // U+FFFD also stands for invalid bytes
    expect(requiredLiteral('beta').whole).toBe(true);
    expect(requiredLiteral('be.a').whole).toBe(false);
  });

  it('splits branches at top-level | only', () => {
    expect(splitBranches('a|(b|c)|[|]|d\\|e')).toEqual(['a', '(b|c)', '[|]', 'd\\|e']);
  });

  it('gives no prefilter when a branch has no literal, or the pattern can be empty', () => {
    expect(lits(['foo|[0-9]+'])).toBeUndefined();
    expect(lits([''])).toBeUndefined();
    expect(lits(['^$'])).toBeUndefined();
  });

  it('under -i keeps ASCII fragments without k or s (they also match U+212A and U+017F)', () => {
    const p = compilePatterns(['Mask-ok'], { ignoreCase: true });
    expect(p.literalsFoldCase).toBe(true);
    expect(lits(['Mask-ok'], { ignoreCase: true })).toEqual(['Ma']);
    expect(p.regex.test('MA\u017FK-O\u212A')).toBe(true);
    expect(lits(['élan vital'], { ignoreCase: true })).toEqual(['lan vital']);
  });
});

describe('asciiOnly (the block RegExp may read any block as latin1)', () => {
  it('accepts patterns whose every atom and assertion is ASCII, refuses the rest', () => {
    for (const p of ['[0-9]{6}', 'took \\d+ms', '\\bERROR\\b', '(a)\\1', 'a(?!b)|c', '[a-z_]+=\\w', 'x\\.y', '^$']) expect(asciiOnly(p), p).toBe(true);
    for (const p of ['a.b', '[^a]', '\\s', '\\S', '\\W', '\\D', '\\p{L}', 'é', '\\u00e9', '\\x41', 'caf\\xe9']) expect(asciiOnly(p), p).toBe(false);
  });

  it('is set only without -i and -w', () => {
    expect(compilePatterns(['[0-9]{6}']).blockAnyBytes).toBe(true);
    expect(compilePatterns(['[0-9]{6}'], { ignoreCase: true }).blockAnyBytes).toBe(false);
    expect(compilePatterns(['[0-9]{6}'], { word: true }).blockAnyBytes).toBe(false);
  });
});
