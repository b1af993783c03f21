import { describe, expect, it } from 'vitest';
import { LinewiseError } from '../../src/core/errors.js';
import { compilePatterns } from '../../src/core/pattern.js';

const lits = async (patterns: string[], o = {}) => (await compilePatterns(patterns, o)).literals?.map((b) => b.toString('utf8'));

describe('compilePatterns', () => {
  it('matches the line text in Unicode mode; . matches a lone \\r; $ is the end of the text', async () => {
    const p = await compilePatterns(['a.b$']);
    expect(p.regex.test('xa\rb')).toBe(true);
    expect(p.regex.test('a😀b')).toBe(true); // one code point, Unicode mode
    expect(p.regex.test('a\rb\r')).toBe(false);
  });

  it('-F escapes every syntax character; -w needs non-word characters around the match', async () => {
    const f = await compilePatterns(['a.b(c/d'], { fixed: true });
    expect([f.regex.test('xa.b(c/dx'), f.regex.test('axb(c/d')]).toEqual([true, false]);
    expect(f.pureLiteral).toBe(true);
    const w = await compilePatterns(['cat'], { word: true });
    expect([w.regex.test('concatenate'), w.regex.test('a cat.'), w.regex.test('écat'), w.regex.test('cat_')]).toEqual([false, true, false, false]);
  });

  it('-x matches the whole line text only, with every pattern, and never as a pure literal', async () => {
    const x = await compilePatterns(['cat', 'd.g'], { line: true, word: true });
    expect(['cat', 'a cat', 'cats', 'dog', 'dogs', 'd\rg'].map((s) => x.regex.test(s))).toEqual([true, false, false, true, false, true]);
    const f = await compilePatterns(['a.b'], { line: true, fixed: true });
    expect([f.regex.test('a.b'), f.regex.test('xa.b'), f.pureLiteral, f.blockAnyBytes]).toEqual([true, false, false, false]);
    expect(await lits(['a.b'], { line: true, fixed: true })).toEqual(['a.b']); // still a prefilter
    // the block form finds the same lines in a block of several
    const block = (await compilePatterns(['ab'], { line: true })).block!;
    expect([...'ab\nxab\nab\n'.matchAll(block)].map((m) => m.index)).toEqual([0, 7]);
  });

  it('an invalid pattern is one LinewiseError naming it', async () => {
    const e = await compilePatterns(['(']).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(LinewiseError);
    expect((e as LinewiseError).code).toBe('bad-pattern');
    expect((e as LinewiseError).message).toBe('invalid pattern "(": unclosed group: a "(" without its ")" (escape it as \\( for a literal parenthesis)');
    const js = await compilePatterns(['('], { perl: true }).catch((x: unknown) => x);
    expect((js as LinewiseError).message).toBe('invalid pattern "(" (-P: JavaScript regex syntax): Unterminated group');
  });

  it('several patterns (or lines of one) match when any matches', async () => {
    const p = await compilePatterns(['^a$', 'b\nc']);
    expect(['a', 'xbx', 'c', 'd'].map((s) => p.regex.test(s))).toEqual([true, true, true, false]);
    expect(await lits(['foo', 'bar|baz'])).toEqual(['foo', 'bar', 'baz']);
  });
});

describe('the prefilter', () => {
  it('takes one literal per top-level alternative of every pattern, looking into groups', async () => {
    expect(await lits(['(?:ERROR|WARN): disk \\d+', 'took \\d+ms'])).toEqual([': disk ', 'took ']);
    expect(await lits(['(?:foo)bar|(baz|qux)'])).toEqual(['foobar', 'baz', 'qux']);
  });

  it('gives none when a branch has no literal, or the pattern can be empty', async () => {
    expect(await lits(['foo|[0-9]+'])).toBeUndefined();
    expect(await lits(['foo|'])).toBeUndefined();
    expect(await lits([''])).toBeUndefined();
    expect(await lits(['^$'])).toBeUndefined();
  });

  it('is pure (the regex need not run) only for plain text without "\\r", -i or -w', async () => {
    expect((await compilePatterns(['foo|(?:bar)'])).pureLiteral).toBe(true);
    expect((await compilePatterns(['foo\\b'])).pureLiteral).toBe(false);
    expect((await compilePatterns(['a\\r'])).pureLiteral).toBe(false); // "\r" may start the terminator
    expect((await compilePatterns(['a\r'], { fixed: true })).pureLiteral).toBe(false);
    expect((await compilePatterns(['foo'], { ignoreCase: true })).pureLiteral).toBe(false);
    expect((await compilePatterns(['foo'], { word: true })).pureLiteral).toBe(false);
  });

  it('under -i keeps ASCII fragments without k or s (they also match U+212A and U+017F)', async () => {
    const p = await compilePatterns(['Mask-ok'], { ignoreCase: true });
    expect(p.literalsFoldCase).toBe(true);
    expect(await lits(['Mask-ok'], { ignoreCase: true })).toEqual(['Ma']);
    expect(p.regex.test('MA\u017FK-O\u212A')).toBe(true);
    expect(await lits(['élan vital'], { ignoreCase: true })).toEqual(['lan vital']);
    expect(await lits(['élan vital'], { ignoreCase: true, fixed: true })).toEqual(['lan vital']);
  });

  it('never asks for U+FFFD, which also stands for bytes that are not UTF-8, with -F too', async () => {
    const f = await compilePatterns(['caf\ufffd!'], { fixed: true });
    expect(f.literals?.map(String)).toEqual(['caf']);
    expect(f.pureLiteral).toBe(false);
    expect(f.regex.test(Buffer.from([0x63, 0x61, 0x66, 0xff, 0x21]).toString('utf8'))).toBe(true);
  });
});

describe('the block RegExp', () => {
  it('is set when nothing can match "\\n" or "\\r", and reads any block as latin1 only for ASCII patterns', async () => {
    expect((await compilePatterns(['[0-9]{6}'])).blockAnyBytes).toBe(true);
    expect((await compilePatterns(['[^"]*x'])).block).toBeUndefined();
    expect((await compilePatterns(['a\r'], { fixed: true })).block).toBeUndefined();
    const p = await compilePatterns(['a|\\S+é']);
    expect([p.block?.flags, p.blockAnyBytes]).toEqual(['gmu', false]);
  });

  it('reads any block as latin1 only without -i and -w', async () => {
    expect((await compilePatterns(['[0-9]{6}'], { ignoreCase: true })).blockAnyBytes).toBe(false);
    expect((await compilePatterns(['[0-9]{6}'], { word: true })).blockAnyBytes).toBe(false);
  });

  it("rg's (?i:...) is written out as classes: the rest stays a literal and the block form holds", async () => {
    const c = await compilePatterns(['(?i:ab)cd']);
    expect([c.literals?.map(String), c.block !== undefined, c.regex.test('ABcd'), c.regex.test('abCD')]).toEqual([['cd'], true, true, false]);
  });

  it('-P: a group with modifiers, where the runtime has them, requires nothing and is not run over blocks', async () => {
    // Node 24 accepts (?i:...); Node 20 does not. Either way nothing case-sensitive is required.
    const p = await compilePatterns(['(?i:ab)cd'], { perl: true }).catch((e: unknown) => e);
    if (p instanceof LinewiseError) expect(p.code).toBe('bad-pattern');
    else {
      const c = p as Awaited<ReturnType<typeof compilePatterns>>;
      expect([c.literals?.map(String), c.block, c.regex.test('ABcd')]).toEqual([['cd'], undefined, true]);
    }
  });
});
