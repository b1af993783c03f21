import { describe, expect, it } from 'vitest';
import { alternation, analyseText, exactly, literalChar, NOTHING, repeat, sequence } from '../../src/core/pattern-analysis.js';

const text = (s: string) => sequence(Array.from(s, (c) => literalChar(c.codePointAt(0)!, false)));

describe('the algebra of required literals', () => {
  it('joins exact pieces, and keeps the longest run in bytes where a piece breaks it', () => {
    expect(sequence([text('ab'), exactly('', false), text('cd')])).toEqual({ exact: 'abcd', prefix: 'abcd', suffix: 'abcd', best: 'abcd', pure: false });
    expect(sequence([text('abc'), NOTHING, text('éé')])).toEqual({ exact: undefined, prefix: 'abc', suffix: 'éé', best: 'éé', pure: false });
  });

  it('carries a piece\'s prefix and suffix into the runs around it', () => {
    const group = alternation([text('xay'), text('xby')]);
    expect(group).toMatchObject({ exact: undefined, prefix: 'x', suffix: 'y' });
    expect(sequence([text('12'), group, text('34')])).toMatchObject({ prefix: '12x', suffix: 'y34', best: '12x' });
  });

  it('repeats a fixed count up to a bound, keeps one copy for a range, nothing for an optional piece', () => {
    expect(repeat(text('ab'), 2, 2)).toEqual(exactly('abab'));
    expect(repeat(text('ab'), 2, Infinity)).toMatchObject({ exact: undefined, prefix: 'abab', suffix: 'abab' });
    expect(repeat(text('ab'), 300, 300)).toMatchObject({ exact: undefined, best: 'ab' });
    expect(repeat(text('ab'), 0, 1)).toEqual(NOTHING);
  });
});

describe('plain text patterns (-F, or a regex without syntax)', () => {
  it('is its own literal, whole', () => {
    expect(analyseText('a.b', false)).toEqual({ branches: [{ literal: 'a.b', whole: true }], blockSafe: true, asciiOnly: true });
    expect(analyseText('né', false)).toEqual({ branches: [{ literal: 'né', whole: true }], blockSafe: true, asciiOnly: false });
  });

  it('is not whole around U+FFFD, and not block-safe with a "\\r"', () => {
    expect(analyseText('ab\ufffdcde', false).branches).toEqual([{ literal: 'cde', whole: false }]);
    expect(analyseText('a\rb', false).blockSafe).toBe(false);
  });

  it('under -i keeps the longest fragment that ASCII folding finds exactly', () => {
    expect(analyseText('Mask-ok', true).branches).toEqual([{ literal: 'Ma', whole: false }]);
  });
});
