// Properties of the whole CLI, run in-process on temporary files, over hostile content: LF, CRLF,
// a lone CR, empty lines, no final newline, bytes that are not UTF-8, lines up to a few times
// the 64 KiB read buffer, a UTF-8 BOM; and standard input cut into random read sizes.
// fast-check prints the seed and the shrunk counterexample of a failure; replay with { seed, path }.
//
// What the unit properties (test/core/*.test.ts, test/commands/*.test.ts) already cover on small
// alphabets is not repeated: these add the long lines, the BOM and invalid UTF-8, and go through
// argument parsing, files and stdin the way a user does.

import * as fs from 'node:fs';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRows } from '../../src/core/parse-rows.js';
import { esc, MARK, referenceLines, run, tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const BUF = 1 << 16;

/** A piece of a line's text: never "\n" (that ends the line); "\r" and invalid bytes included. */
const atom = fc.oneof(
  { weight: 20, arbitrary: fc.constantFrom('a', 'b', 'ab', ' ', '\t', 'é', '€', '😀', '\r', '\x0c', '\u2028') },
  { weight: 4, arbitrary: fc.constantFrom('\xff', '\xc3', '\xe2\x82', '\x80') }, // latin1-coded: invalid UTF-8 bytes
  // a run that crosses the read buffer, up to three buffers long, with a multi-byte char near the edge
  { weight: 1, arbitrary: fc.integer({ min: BUF - 3, max: 3 * BUF + 5 }).map((n) => `${'x'.repeat(n)}é`) },
);
const textOf = (parts: string[]) => Buffer.from(parts.map((p) => Buffer.from(p, /^[\x80-\xff]+$/.test(p) ? 'latin1' : 'utf8').toString('latin1')).join(''), 'latin1');
const lineText = fc.array(atom, { maxLength: 6 }).map(textOf);
const terminator = fc.constantFrom('\n', '\n', '\r\n');

/** Random file content: lines with LF or CRLF, the last maybe without, maybe a BOM first. */
const content = fc
  .record({
    lines: fc.array(fc.tuple(lineText, terminator), { maxLength: 14 }),
    lastOpen: fc.boolean(),
    bom: fc.boolean(),
  })
  .map(({ lines, lastOpen, bom }) => {
    const parts = lines.map(([t, term], i) => (lastOpen && i === lines.length - 1 ? t : Buffer.concat([t, Buffer.from(term)])));
    // A text that is only a "\r" with no terminator after it would be read as content, which it is.
    return Buffer.concat([bom ? BOM : Buffer.alloc(0), ...parts]);
  })
  // a NUL never appears (that is a binary file, tested elsewhere)
  .filter((b) => !b.includes(0));

/** Read sizes for stdin: every size from 1 byte to past a buffer. */
const chunks = fc.array(fc.integer({ min: 1, max: 3 * BUF }), { minLength: 1, maxLength: 6 });

/** The lines of a file as the contract defines them, without its BOM. */
function linesOf(file: Buffer): Buffer[] {
  return referenceLines(file.subarray(file.subarray(0, 3).equals(BOM) ? 3 : 0));
}
const termOf = (l: Buffer) => (l.at(-1) !== 10 ? '' : l.at(-2) === 13 ? '\r\n' : '\n');
/** Rows as the readers print them: the no-newline marker after a line without terminator. */
const rowsOf = (lines: Buffer[], from = 1) => Buffer.concat(lines.map((l, i) => Buffer.concat([Buffer.from(`${from + i}\t`), l, Buffer.from(termOf(l) === '' ? MARK : '')])));

let seq = 0;
/** The refusal of an edit that would write a guess into a line that is not UTF-8 (core/encoding-safe.ts). */
const GUESS = /^linewise: .*: row \d+: line \d+ is not valid UTF-8, so the file is in an encoding linewise was not told, and it would /;

const fresh = (bytes: Buffer) => tmp.file(`p${seq++}.txt`, bytes);

describe('properties of the CLI over hostile content', () => {
  it('readlines F 1 | replace F --rows - is the identity: same bytes, file not even rewritten', async () => {
    await fc.assert(
      fc.asyncProperty(content, chunks, async (bytes, sizes) => {
        const f = fresh(bytes);
        const ino = fs.statSync(f).ino;
        const rows = await run(['readlines', f, '1']);
        if (linesOf(bytes).length === 0) {
          expect(rows.status).toBe(2); // START 1 of an empty file: past the end
          return;
        }
        expect(esc(rows.stdout)).toBe(esc(rowsOf(linesOf(bytes))));
        const r = await run(['replace', f, '--rows', '-'], { stdin: rows.stdout, stdinChunks: sizes });
        expect([r.status, r.stderr]).toEqual([0, '']);
        expect(esc(fs.readFileSync(f))).toBe(esc(bytes));
        expect(fs.statSync(f).ino).toBe(ino);
      }),
      { numRuns: 60 },
    );
  });

  it('editing any subset of rows changes exactly those lines (each keeps its terminator), BOM kept', async () => {
    const newText = fc.array(fc.constantFrom('N', 'é', '\t', '\xff', ' '), { maxLength: 4 }).map(textOf);
    await fc.assert(
      fc.asyncProperty(content, fc.infiniteStream(fc.option(newText, { nil: undefined })), fc.infiniteStream(fc.boolean()), async (bytes, edits, give) => {
        const lines = linesOf(bytes);
        fc.pre(lines.length > 0);
        const f = fresh(bytes);
        const want: Buffer[] = [];
        const rows: Buffer[] = [];
        const e = edits[Symbol.iterator]();
        const g = give[Symbol.iterator]();
        lines.forEach((l, i) => {
          const edit = e.next().value as Buffer | undefined;
          const line = edit === undefined ? l : Buffer.concat([edit, Buffer.from(termOf(l))]);
          want.push(line);
          // an edited row is always given; an unedited one sometimes
          if (edit !== undefined || g.next().value) rows.push(Buffer.concat([Buffer.from(`${i + 1}\t`), line, termOf(line) === '' ? Buffer.from('\n') : Buffer.alloc(0)]));
        });
        let r = await run(['replace', f, '--rows', '-'], { stdin: Buffer.concat(rows) });
        if (r.status === 2 && GUESS.test(r.stderr)) {
          // An edit into a line that is not UTF-8 that is not safe whatever the encoding: refused,
          // nothing written; -a says the bytes are meant as given.
          expect(esc(fs.readFileSync(f))).toBe(esc(bytes));
          r = await run(['replace', f, '--rows', '-', '-a'], { stdin: Buffer.concat(rows) });
        }
        expect([r.status, r.stderr]).toEqual([0, rows.length === 0 ? 'linewise: no rows to apply; nothing written\n' : '']);
        const bom = bytes.subarray(0, 3).equals(BOM) ? BOM : Buffer.alloc(0);
        expect(esc(fs.readFileSync(f))).toBe(esc(Buffer.concat([bom, ...want])));
        expect(fs.readdirSync(tmp.dir).filter((n) => n.includes('.linewise'))).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  it('walking page footers (file and stdin, random --limit and --max-bytes) sees every line once, rows verbatim unless cut', async () => {
    await fc.assert(
      fc.asyncProperty(content, fc.integer({ min: 1, max: 5 }), fc.constantFrom(0, 40, 1000, 100_000), chunks, async (bytes, limit, maxBytes, sizes) => {
        const lines = linesOf(bytes);
        const f = fresh(bytes);
        const seen: number[] = [];
        let offset = 0;
        for (let pages = 0; pages <= lines.length + 1; pages++) {
          const args = ['page', '--offset', String(offset), '--limit', String(limit), '--max-bytes', String(maxBytes)];
          const a = await run([...args, f]);
          const b = await run([...args, '-'], { stdin: bytes, stdinChunks: sizes });
          // where the reads ended never changes a byte of the output
          // (the footer's commands, "go on inside it" and "read it whole", name the input as given)
          expect(esc(b.stdout)).toBe(esc(a.stdout).replace(`page ${f} `, 'page - ').replace(`readlines ${f} `, 'readlines - '));
          if (lines.length === 0) {
            expect([a.status, a.stdout.length]).toEqual([0, 0]);
            break;
          }
          expect([a.status, a.stderr]).toEqual([0, '']);
          const out = a.stdout.toString('latin1');
          const footer = /\n\n\[Read \d+ lines? \(lines [^\n]*\]\n$/.exec(out);
          const body = Buffer.from(footer ? out.slice(0, footer.index + 1) : out, 'latin1');
          const cut = /^(\d+)\[cut\]\t/.exec(body.toString('latin1'));
          if (cut) {
            seen.push(Number(cut[1]));
            expect(lines[Number(cut[1]) - 1]!.subarray(0, body.length - cut[0].length - 1).equals(body.subarray(cut[0].length, -1))).toBe(true);
          } else {
            for (const row of parseRows(body, 'page')) {
              seen.push(row.line);
              expect(esc(row.bytes)).toBe(esc(lines[row.line - 1]!.subarray(0, row.bytes.length)));
            }
          }
          // no footer, or one that names no offset (a cut last line): the end
          const next = footer && / from offset (\d+)\./.exec(footer[0]);
          if (!next) break;
          expect(Number(next[1])).toBeGreaterThan(offset); // always advances
          offset = Number(next[1]);
        }
        expect(seen).toEqual(lines.map((_, i) => i + 1));
      }),
      { numRuns: 40 },
    );
  });

  it("grep's line numbers name the lines readlines prints, on the file and on stdin read in any sizes", async () => {
    const patterns = ['a', 'a$', '^$', '^b', '\\r', 'é', '\uFFFD', '[^ab]$', 'x{3}é'];
    await fc.assert(
      fc.asyncProperty(content, fc.constantFrom(...patterns), chunks, async (bytes, pattern, sizes) => {
        const lines = linesOf(bytes);
        const f = fresh(bytes);
        const g = await run(['grep', pattern, f]);
        const s = await run(['grep', pattern, '-'], { stdin: bytes, stdinChunks: sizes });
        expect(esc(s.stdout)).toBe(esc(g.stdout));
        const re = new RegExp(pattern, 'us');
        const chosen = lines.map((l, i) => [l, i + 1] as const).filter(([l]) => re.test(l.subarray(0, l.length - termOf(l).length).toString('utf8')));
        expect(g.status).toBe(chosen.length > 0 ? 0 : 1);
        // Each row is what readlines prints for its number (a last row without newline, then
        // nothing follows it within one file).
        let want = Buffer.alloc(0);
        for (const [, n] of chosen) want = Buffer.concat([want, (await run(['readlines', f, String(n), String(n)])).stdout]);
        expect(esc(g.stdout)).toBe(esc(want));
      }),
      { numRuns: 60 },
    );
  });

  it('readlines START END on stdin, in any read sizes, prints what it prints on the file', async () => {
    await fc.assert(
      fc.asyncProperty(content, fc.nat(16), fc.nat(16), chunks, async (bytes, a, b, sizes) => {
        const f = fresh(bytes);
        const [start, end] = [Math.min(a, b) + 1, Math.max(a, b) + 1];
        const x = await run(['readlines', f, String(start), String(end)]);
        const y = await run(['readlines', '-', String(start), String(end)], { stdin: bytes, stdinChunks: sizes });
        expect([y.status, esc(y.stdout), y.stderr.replace('-:', 'F:')]).toEqual([x.status, esc(x.stdout), x.stderr.replace(`${f}:`, 'F:')]);
        const lines = linesOf(bytes);
        if (start <= lines.length) expect(esc(x.stdout)).toBe(esc(rowsOf(lines.slice(start - 1, end), start)));
        else expect(x.status).toBe(2);
      }),
      { numRuns: 60 },
    );
  });

  it('a "\\r" in a pattern never matches the "\\r" of a CRLF terminator (literal and regex paths)', async () => {
    for (const pattern of ['\\r', 'a\\r', '[\\r]', '\\r$']) {
      const r = await run(['grep', '-c', pattern, '-'], { stdin: 'a\r\nb\na\rx\n' });
      expect([pattern, r.stdout.toString()]).toEqual([pattern, pattern === '\\r$' ? '0\n' : '1\n']);
    }
    const f = await run(['grep', '-c', '-F', 'a\r', '-'], { stdin: 'a\r\nb\n' });
    expect(f.stdout.toString()).toBe('0\n');
  });
});
