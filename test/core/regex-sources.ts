// Generated regex sources for the property tests of the pattern analysis and the searcher.
import fc from 'fast-check';

/** Regex sources from a small grammar: classes, escapes, groups, lookarounds, quantifiers, alternation. */
const ATOM_SOURCES = [
  'a', 'b', 'A', 'k', 'x', 'é', '😀', '1', ']', '\\.', '.', '\\r', '\\n', '\\x61', '\\u{e9}', '\\u{1F600}', '\\ud83d\\ude00', '\\uFFFD', '\\ud83d',
  '\\w', '\\W', '\\d', '\\s', '\\S', '\\p{L}', '\\P{L}', '[ab]', '[^a]', '[\\]a]', '[.]', '[k]', '[^\\n\\r]', '[\\s\\S]',
  '\\b', '\\B', '^', '$', '(?=a)', '(?!b)', '(?<=x)', '(?<!a)', '(?![^b])', '(?![^\\n])', '[^\\n]', '\\1', '\\k<n>',
];
const QUANTIFIERS = ['', '', '', '?', '*', '+', '{2}', '{1,2}', '{0,1}?', '+?', '{2,}'];
export const regexSource: fc.Arbitrary<string> = fc.letrec<{ alt: string; seq: string; piece: string }>((tie) => ({
  alt: fc.array(tie('seq'), { minLength: 1, maxLength: 3 }).map((s) => s.join('|')),
  seq: fc.array(tie('piece'), { maxLength: 4 }).map((p) => p.join('')),
  piece: fc.tuple(
    fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.noBias(fc.constantFrom(...ATOM_SOURCES)), tie('alt').map((a) => `(${a})`), tie('alt').map((a) => `(?:${a})`), tie('alt').map((a) => `(?<n>${a})`)),
    fc.noBias(fc.constantFrom(...QUANTIFIERS)),
  ).map(([a, q]) => a + q),
})).alt;
