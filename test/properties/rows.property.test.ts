// Properties of rows over hostile file names: for random names (tabs, newlines, carriage returns,
// quotes, backslashes, leading dashes and U+FEFF, digits, bytes that are not UTF-8, what a
// decoration looks like) and random
// contents, `grep | replace --rows -` is the identity, and an edited row edits its own line only;
// in text rows and under -0, with and without anchors and the guard trailer; and with the
// trailer, a row left as read never reverts a line changed since, and an edited one is refused.

import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { pathToBytes } from '../../src/core/path-names.js';
import { esc, referenceLines, run, tempDir, tree } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

/**
 * Pieces of a name: what a row or a decoration is made of; never "/", NUL or "@" (the tokens
 * below). '\uDCFF' and '\uDCFE' stand for the raw bytes 0xFF and 0xFE (see core/path-names.ts),
 * next to the look-alike U+FFFD.
 */
const piece = fc.constantFrom('a', 'b', '1', '12', '\t', '\n', '\r', '"', '\\', '-', ' ', '#', '#abcd', '[cut]', '--', '\uFEFF', 'é', '\uDCFF', '\uDCFE', '\uFFFD', '\\ No newline at end of file', '[Read 1 line (lines 1-1). More lines remain from offset 1.]', '\x01');
const name = fc
  .array(piece, { minLength: 1, maxLength: 4 })
  .map((p) => p.join(''))
  .filter((n) => !n.startsWith('.') && pathToBytes(n).length < 200); // hidden files are not walked

/** Line text: never "\n"; "\r", tabs, digits and bytes that are not UTF-8 included. */
const text = fc.array(fc.constantFrom('x', ' ', '\t', '3\t', '\r', 'é', '\xff', '"'), { maxLength: 5 }).map((p) => p.join(''));
const ending = fc.constantFrom('\n', '\r\n');

interface Spec {
  name: string;
  lines: { text: string; end: string }[];
  open: boolean;
}
const file = fc.record({ name, lines: fc.array(fc.record({ text, end: ending }), { minLength: 1, maxLength: 4 }), open: fc.boolean() });
const files = fc.uniqueArray(file, { minLength: 1, maxLength: 4, selector: (f) => f.name });

/** Line k of file i holds the token "@i.k@" first, so an edit of the rows stream can aim at it. */
function contentOf(f: Spec, i: number): Buffer {
  const parts = f.lines.map((l, k) => `@${i}.${k + 1}@${l.text}${f.open && k === f.lines.length - 1 ? '' : l.end}`);
  return Buffer.from(parts.join(''), 'latin1');
}

let seq = 0;
function makeTree(specs: Spec[]): string {
  const dir = path.join(tmp.dir, `t${seq++}`);
  fs.mkdirSync(dir);
  specs.forEach((f, i) => fs.writeFileSync(pathToBytes(path.join(dir, f.name)), contentOf(f, i)));
  return dir;
}

const modes = fc.record({ nul: fc.boolean(), anchor: fc.boolean(), guard: fc.constantFrom('always', 'never') });
/** `--guard always`: the rows end with their guard trailer (core/row-guard.ts), as in any pipe by default */
const flags = (m: { nul: boolean; anchor: boolean; guard?: string }) => [...(m.nul ? ['-0'] : []), ...(m.anchor ? ['--anchor'] : []), ...(m.guard ? ['--guard', m.guard] : [])];

describe('properties of rows over hostile file names', () => {
  it('grep | replace --rows - is the identity: no byte, no name changed, no file rewritten', async () => {
    await fc.assert(
      fc.asyncProperty(files, modes, async (specs, m) => {
        const dir = makeTree(specs);
        const before = tree(dir);
        const inodes = specs.map((f) => fs.statSync(pathToBytes(path.join(dir, f.name))).ino);
        const g = await run(['grep', '-H', ...flags(m), ''], { cwd: dir });
        expect([g.status, g.stderr]).toEqual([0, '']);
        const r = await run(['replace', '--rows', '-', ...(m.nul ? ['-0'] : [])], { cwd: dir, stdin: g.stdout });
        expect([r.status, r.stderr]).toEqual([0, '']);
        expect(tree(dir)).toEqual(before);
        expect(specs.map((f) => fs.statSync(pathToBytes(path.join(dir, f.name))).ino)).toEqual(inodes);
      }),
      { numRuns: 60 },
    );
  });

  it('an edited row (as sed edits it) changes its own line of its own file, and nothing else', async () => {
    await fc.assert(
      // new text ending in "\r" would join the "\n" after it into a CRLF terminator: the line model, not a row's doing
      fc.asyncProperty(files, modes, fc.nat(), fc.nat(), text.filter((x) => !x.endsWith('\r')), async (specs, m, fi, li, newText) => {
        const dir = makeTree(specs);
        const before = tree(dir);
        const i = fi % specs.length;
        const f = specs[i]!;
        const k = (li % f.lines.length) + 1;
        const g = await run(['grep', '-H', ...flags(m), ''], { cwd: dir });
        const token = Buffer.from(`@${i}.${k}@`);
        const at = g.stdout.indexOf(token);
        expect(at).toBeGreaterThan(-1);
        expect(g.stdout.indexOf(token, at + 1)).toBe(-1); // the token is in that line only
        // the rest of the line, up to its end in the rows stream, becomes the new text
        const nl = g.stdout.indexOf(10, at);
        const rest = g.stdout.subarray(at, nl === -1 ? g.stdout.length : nl);
        const bodyEnd = rest.at(-1) === 13 && !(f.open && k === f.lines.length) ? rest.length - 1 : rest.length;
        const edited = Buffer.concat([g.stdout.subarray(0, at), Buffer.from(`@E@${newText}`, 'latin1'), g.stdout.subarray(at + bodyEnd)]);
        let r = await run(['replace', '--rows', '-', ...(m.nul ? ['-0'] : [])], { cwd: dir, stdin: edited });
        if (r.status === 2 && / is not valid UTF-8, so the file is in an encoding linewise was not told, and it would /.test(r.stderr)) {
          // a guess into a line that is not UTF-8 (core/encoding-safe.ts): nothing written; -a means the bytes as given
          expect(tree(dir)).toEqual(before);
          r = await run(['replace', '--rows', '-', '-a', ...(m.nul ? ['-0'] : [])], { cwd: dir, stdin: edited });
        }
        expect([r.status, r.stderr]).toEqual([0, '']);
        const after = tree(dir);
        const changed = Object.keys(after).filter((key) => after[key] !== before[key]);
        expect(changed).toEqual([esc(pathToBytes(f.name))]);
        const lines = referenceLines(fs.readFileSync(pathToBytes(path.join(dir, f.name))));
        const want = referenceLines(contentOf(f, i));
        const end = want[k - 1]!.subarray(want[k - 1]!.length - (want[k - 1]!.at(-1) !== 10 ? 0 : want[k - 1]!.at(-2) === 13 ? 2 : 1));
        want[k - 1] = Buffer.concat([Buffer.from(`@E@${newText}`, 'latin1'), end]);
        expect(lines.map(esc)).toEqual(want.map(esc));
      }),
      { numRuns: 60 },
    );
  });

  it('with the guard trailer, rows left as read never revert a line changed since; an edited row whose line changed is refused (3), nothing written', async () => {
    await fc.assert(
      fc.asyncProperty(files, fc.boolean(), fc.nat(), fc.nat(), fc.nat(), fc.nat(), async (specs, nul, fi, li, oi, ol) => {
        const dir = makeTree(specs);
        const i = fi % specs.length;
        const k = (li % specs[i]!.lines.length) + 1;
        const g = await run(['grep', '-H', ...flags({ nul, anchor: false, guard: 'always' }), ''], { cwd: dir });
        expect(g.status).toBe(0);
        // someone else changes line ok of file oi after the read: "@oi.ok@" becomes "@X@"
        const o = oi % specs.length;
        const ok = (ol % specs[o]!.lines.length) + 1;
        const other = pathToBytes(path.join(dir, specs[o]!.name));
        const changedByOther = Buffer.from(fs.readFileSync(other).toString('latin1').replace(`@${o}.${ok}@`, '@X@'), 'latin1');
        fs.writeFileSync(other, changedByOther);
        const before = tree(dir);
        // the user edits row k of file i only: its token becomes "@E@"
        const token = Buffer.from(`@${i}.${k}@`);
        const at = g.stdout.indexOf(token);
        const edited = Buffer.concat([g.stdout.subarray(0, at), Buffer.from('@E@'), g.stdout.subarray(at + token.length)]);
        const r = await run(['replace', '--rows', '-', '-a', ...(nul ? ['-0'] : [])], { cwd: dir, stdin: edited });
        if (o === i && ok === k) {
          expect(r.status).toBe(3);
          expect(tree(dir)).toEqual(before);
          return;
        }
        expect([r.status, r.stderr]).toEqual([0, '']);
        const want = Buffer.from((o === i ? changedByOther : contentOf(specs[i]!, i)).toString('latin1').replace(`@${i}.${k}@`, '@E@'), 'latin1');
        expect(esc(fs.readFileSync(pathToBytes(path.join(dir, specs[i]!.name))))).toBe(esc(want));
        if (o !== i) expect(esc(fs.readFileSync(other))).toBe(esc(changedByOther));
      }),
      { numRuns: 60 },
    );
  });
});
