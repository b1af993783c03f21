// Issue 24.4 as a property: for random files (long lines, CRLF, a last line without newline),
// random byte budgets and random starts, following the footers of `page --max-bytes` and
// `readlines --max-bytes` from page to page (inside a cut line through its --from-byte cursor)
// prints every byte of every line from the start on exactly once, in order.
// fast-check prints the seed and the shrunk counterexample of a failure; replay with { seed, path }.

import * as path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { referenceLines, run, tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const atom = fc.constantFrom('a', 'é', ' ', '\t', '\r', 'xyzé'.repeat(12), 'b'.repeat(70));
const content = fc
  .tuple(fc.array(fc.array(atom, { maxLength: 4 }).map((p) => p.join('')), { minLength: 1, maxLength: 8 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
  .map(([lines, eol, last]) => lines.map((l, i) => (i < lines.length - 1 || last ? `${l}${eol}` : l)).join(''))
  .filter((c) => c.length > 0);

const MARKER = '\\ No newline at end of file';

/** The rows of one output as [line, from, bytes, cut]: bytes as the line holds them (the separator a cut row gets dropped). */
function rowsOf(out: string): { rows: { line: number; from: number; bytes: string }[]; footer: string | undefined } {
  const lines = out.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let footer: string | undefined;
  if (lines.length >= 2 && lines.at(-1)!.startsWith('[Read ') && lines.at(-2) === '') {
    footer = lines.pop();
    lines.pop();
  }
  const rows: { line: number; from: number; bytes: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\d+)(\[cut\]|\[@(\d+)(,cut)?\])?\t(.*)$/s.exec(lines[i]!);
    if (m === null) throw new Error(`not a row: ${JSON.stringify(lines[i])}`);
    const cut = m[2] === '[cut]' || m[4] !== undefined;
    const open = lines[i + 1] === MARKER;
    if (open) i++;
    // a whole row or the rest of a line ends with its own terminator; a cut one with the separator
    rows.push({ line: Number(m[1]), from: Number(m[3] ?? 0), bytes: m[5]! + (cut || open ? '' : '\n') });
  }
  return { rows, footer };
}

/** The call a footer says to go on with, as argv: inside a cut line first, else the next lines. */
function nextCall(footer: string, command: 'page' | 'readlines', args: string[]): string[] | undefined {
  const inside = /go on inside it with: linewise (.*?)(?:;|\]$)/.exec(footer);
  if (inside) return inside[1]!.split(' ');
  const go = /Go on with: linewise (.*?)(?:;|\]$)/.exec(footer);
  if (go) return go[1]!.split(' ');
  const offset = /(?:remaining|More lines remain) from offset (\d+)\./.exec(footer);
  if (command === 'page' && offset) return ['page', args[1]!, '--offset', offset[1]!, '--max-bytes', args[args.indexOf('--max-bytes') + 1]!];
  return undefined;
}

let n = 0;

describe('budgets never lose bytes: readlines and page followed through their footers', () => {
  for (const command of ['page', 'readlines'] as const) {
    it(`${command}: every byte of every line from the start, exactly once`, async () => {
      await fc.assert(
        fc.asyncProperty(content, fc.integer({ min: 1, max: 90 }), fc.nat(), async (text, budget, at) => {
          const dir = path.join(tmp.dir, `r${n++}`);
          const f = path.join(dir, 'f.txt');
          const { mkdirSync, writeFileSync } = await import('node:fs');
          mkdirSync(dir);
          writeFileSync(f, Buffer.from(text, 'latin1'));
          const want = referenceLines(Buffer.from(text, 'latin1')).map((b) => b.toString('latin1'));
          const start = at % want.length;
          let args: string[] | undefined = command === 'page' ? ['page', f, '--offset', String(start), '--max-bytes', String(budget)] : ['readlines', f, String(start + 1), '--max-bytes', String(budget)];
          const got = new Map<number, string>();
          let last = 0;
          for (let call = 0; args !== undefined; call++) {
            expect(call).toBeLessThanOrEqual(text.length + want.length); // every call advances
            const r = await run(args);
            expect([r.status, r.stderr]).toEqual([0, '']);
            const { rows, footer } = rowsOf(r.stdout.toString('latin1'));
            expect(rows.length).toBeGreaterThan(0);
            for (const row of rows) {
              const sofar = got.get(row.line) ?? '';
              // in order: a line goes on where it stopped, or is the next line, begun at its start
              if (row.from > 0) expect([row.line, row.from]).toEqual([last, sofar.length]);
              else expect([row.line, sofar]).toEqual([last === 0 ? start + 1 : last + 1, '']);
              got.set(row.line, sofar + row.bytes);
              last = row.line;
            }
            args = footer === undefined ? undefined : nextCall(footer, command, args);
          }
          expect([...got.keys()]).toEqual(want.map((_, i) => i + 1).slice(start));
          expect([...got.values()]).toEqual(want.slice(start));
        }),
        { numRuns: 150 },
      );
    }, 180_000);
  }
});
