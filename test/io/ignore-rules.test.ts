// DirRules answers exactly as `ignore` does, path by path, with a directory's verdict handed down
// from its parent: over random rule files (plain names, paths, suffixes, globs, negations,
// comments, escapes, case and non-ASCII look-alikes) and random paths.
import fc from 'fast-check';
import ignore from 'ignore';
import { describe, expect, it } from 'vitest';
import { DirRules, NO_SAY, type Verdict } from '../../src/io/ignore-rules.js';

const factory = (o?: Parameters<typeof ignore>[0]) => ignore(o);

/** Pieces of names: letters of both cases, a Kelvin sign and a long s (they fold to ASCII under Unicode rules only), dots, specials. */
const namePart = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('a', 'b', 'A', '.o') },
  { weight: 3, arbitrary: fc.constantFrom('B', 'k', 'K', 's', '\u212a', '\u017f', 'é', '.', '-', '+', '~', 'o') },
);
// (a name of dots alone is never listed by readdir, or refused by ignore: "..." is not a relative path to it)
const name = fc
  .array(namePart, { minLength: 1, maxLength: 3 })
  .map((p) => p.join(''))
  .filter((n) => !/^\.+$/.test(n));
const rulePart = fc.oneof(
  { weight: 6, arbitrary: namePart },
  { weight: 2, arbitrary: fc.constantFrom('*', '/', '**', '?', '[ab]', '[!a]', '[a-c]', '[', ']', '\\', ' ', '#', '!') },
);
const rule = fc.oneof(
  { weight: 3, arbitrary: fc.array(rulePart, { minLength: 1, maxLength: 6 }).map((p) => p.join('')) },
  // the plain forms the tables hold, often enough to matter
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('', '/', '!', '!/'), name, fc.constantFrom('', '/', '/a', '/b/')).map(([a, n, z]) => `${a}${n}${z}`) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('*', '!*'), name).map(([a, n]) => `${a}${n}`) },
  // simple classes, spelled out into the tables
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom('*', '*.', '', '/', '!'), name, fc.constantFrom('[ao]', '[a-c]', '[Kk]', '[1-3]', '[c-a]', '[a-z][a-z]'), fc.constantFrom('', '/', 'o'))
      .map((p) => p.join('')),
  },
);
const rulesText = fc.tuple(fc.array(rule, { maxLength: 8 }), fc.constantFrom('\n', '\r\n')).map(([rs, eol]) => rs.join(eol));
const pathOf = fc.array(name, { minLength: 1, maxLength: 4 });

/** The verdict of DirRules on `names` (a path), each directory on the way tested by its parent. */
function walked(rules: DirRules, names: string[], dir: boolean): Verdict {
  let parent: Verdict = NO_SAY;
  for (let i = 0; i < names.length; i++) {
    const sub = names.slice(0, i + 1).join('/');
    const last = i === names.length - 1;
    const v = rules.test(sub, names[i]!, last ? dir : true, parent);
    if (last) return v;
    parent = v;
  }
  return parent;
}

describe('DirRules', () => {
  it('property: the same verdict as ignore for every path, file or directory', () => {
    let said = 0;
    let asked = 0;
    fc.assert(
      fc.property(rulesText, fc.array(pathOf, { minLength: 1, maxLength: 6 }), fc.boolean(), (text, paths, dir) => {
        const rules = new DirRules(factory);
        const bad = new Set(rules.add(text).map((b) => b.line));
        // the reference: ignore over the rules DirRules kept; the ones it left out are rules ignore
        // cannot compile (`\\\\[B`), so the reference itself must never throw
        const reference = ignore().add(text.split(/\r?\n/).filter((_, i) => !bad.has(i + 1)).join('\n'));
        for (const names of paths) {
          const p = names.join('/');
          const want = reference.test(dir ? `${p}/` : p);
          const got = walked(rules, names, dir);
          said += want.ignored || want.unignored ? 1 : 0;
          asked++;
          expect({ ignored: got.ignored, unignored: got.unignored }, `${JSON.stringify(text)} on ${p}${dir ? '/' : ''}`).toEqual({ ignored: want.ignored, unignored: want.unignored });
        }
      }),
      { numRuns: 3000 },
    );
    // the rules have a say on a good share of the paths, or the property would prove little
    expect(said / asked).toBeGreaterThan(0.1);
  });

  it('holds the plain forms in its tables and still answers each as ignore does', () => {
    const rules = new DirRules(factory);
    rules.add('/git-add\n*.o\nbuild/\nDebug\n/docs/api/\n*.[aos]\n!keep.o\n');
    const cases: Array<[string[], boolean, boolean]> = [
      [['git-add'], false, true],
      [['sub', 'git-add'], false, false], // anchored to the rules' directory
      [['x.o'], false, true],
      [['keep.o'], false, false], // negated after *.o
      [['build'], true, true],
      [['build'], false, false], // build/ matches directories only
      [['a', 'debug'], false, true], // case-insensitive, at any depth
      [['docs', 'api'], true, true],
      [['x.s'], false, true], // a class: asked of ignore
      [['x.c'], false, false],
    ];
    for (const [names, dir, ignored] of cases) expect(walked(rules, names, dir).ignored, names.join('/')).toBe(ignored);
  });

  it('leaves out, and names by line, the rules ignore cannot compile; the others still apply', () => {
    const rules = new DirRules(factory);
    expect(() => ignore().add('\\\\[B').test('x')).toThrow(SyntaxError); // what the walk met before
    const bad = rules.add('*.log\r\n\\\\[B\r\n!\\\\[x\r\n[ab].txt\r\n');
    expect(bad).toEqual([
      { line: 2, rule: '\\\\[B' },
      { line: 3, rule: '!\\\\[x' },
    ]);
    expect(walked(rules, ['x.log'], false).ignored).toBe(true);
    expect(walked(rules, ['a.txt'], false).ignored).toBe(true);
    expect(walked(rules, ['c.txt'], false).ignored).toBe(false);
  });
});
