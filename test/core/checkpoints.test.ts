// Checkpoints kept while counting, and page --last read from one: for any text (CRLF, no final
// newline, lines longer than the buffer), any chunking of the reads, any buffer size and any
// spacing or capacity of the checkpoints, the rows are those read from the top, which are the
// last lines of the file, numbered.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Checkpoints, countMarking } from '../../src/core/checkpoints.js';
import { chunkedReader, LineScanner, safeCut, splitLines } from '../../src/core/lines.js';
import { lastFirstLine, readLast } from '../../src/core/read-last.js';
import { readPage, rowPrefixLength } from '../../src/core/read-page.js';
import type { RowSink } from '../../src/core/read-range.js';
import { esc } from '../helpers.js';

/** Rows as `n:bytes` (`n[cut]:bytes` for a cut row), pieces joined. */
class Collect implements RowSink {
  rows: string[] = [];
  private pieces: Buffer[] = [];
  row(n: number, buf: Buffer, start: number, end: number, ends: boolean) {
    this.pieces.push(Buffer.from(buf.subarray(start, end)));
    if (ends) {
      this.rows.push(`${n}:${esc(Buffer.concat(this.pieces))}`);
      this.pieces = [];
    }
  }
  cutRow(n: number, buf: Buffer, start: number, end: number) {
    this.rows.push(`${n}[cut]:${esc(buf.subarray(start, end))}`);
  }
}

/** Text of lines: short and long ones (longer than the buffers below), LF and CRLF, maybe no final newline. */
const textArb = fc
  .record({
    lines: fc.array(fc.record({ len: fc.oneof(fc.nat(6), fc.integer({ min: 20, max: 90 })), crlf: fc.boolean(), c: fc.constantFrom('a', 'é', '\r', ' ') }), { maxLength: 60 }),
    open: fc.boolean(),
  })
  .map(({ lines, open }) => Buffer.from(lines.map((l, i) => l.c.repeat(l.len) + (open && i === lines.length - 1 ? '' : l.crlf ? '\r\n' : '\n')).join('')));
const reads = fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 4 });
const bufferArb = fc.constantFrom(16, 17, 32, 64);

describe('Checkpoints', () => {
  it('keeps at most its capacity, in order, and finds the last one before a line', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 9 }), fc.array(fc.nat(5), { maxLength: 200 }), fc.nat(400), (capacity, gaps, line) => {
        const marks = new Checkpoints(3, capacity);
        let lines = 0;
        const offered = [{ offset: 3, lines: 0 }];
        for (const g of gaps) {
          lines += g;
          offered.push({ offset: 3 + lines * 10, lines });
          marks.add(3 + lines * 10, lines);
        }
        expect(marks.size).toBeLessThanOrEqual(capacity);
        const found = marks.before(line + 1);
        expect(offered).toContainEqual(found);
        expect(found.lines).toBeLessThan(line + 1);
        // close to the line: of the checkpoints offered after the one found and before the line,
        // fewer than the thinning's spacing (at most 2 × offered ÷ capacity) were let go
        const at = offered.findLastIndex((c) => c.offset === found.offset);
        const passed = offered.slice(at + 1).filter((c) => c.lines < line + 1).length;
        expect(passed).toBeLessThan(Math.max(1, (2 * offered.length) / capacity));
      }),
    );
  });

  it('countMarking counts every line and marks only line starts, with the lines before each', () => {
    fc.assert(
      fc.property(textArb, reads, bufferArb, fc.integer({ min: 1, max: 100 }), fc.integer({ min: 2, max: 8 }), (text, sizes, buffer, step, capacity) => {
        const marks = new Checkpoints(0, capacity);
        const scanner = new LineScanner(chunkedReader(text, sizes), buffer);
        expect(countMarking(scanner, marks, step)).toBe(splitLines(text).length);
        for (let line = 1; line <= splitLines(text).length + 1; line++) {
          const at = marks.before(line);
          expect(at.offset === 0 || text[at.offset - 1] === 10, `offset ${at.offset}`).toBe(true);
          expect(splitLines(text.subarray(0, at.offset)).length).toBe(at.lines);
        }
      }),
    );
  });
});

/** The last `want` lines that fit in `maxBytes` of rows, as page --last shows them (the model). */
function model(text: Buffer, want: number, maxBytes: number): string[] {
  const lines = splitLines(text);
  const total = lines.length;
  const tail = lines.slice(Math.max(0, total - want)).map((l, i) => ({ n: Math.max(0, total - want) + i + 1, l }));
  if (maxBytes === 0) return tail.map((r) => `${r.n}:${esc(r.l)}`);
  let used = 0;
  let k = 0;
  for (let i = tail.length - 1; i >= 0; i--) {
    used += rowPrefixLength(tail[i]!.n) + tail[i]!.l.length;
    if (used > maxBytes) break;
    k++;
  }
  if (k > 0) return tail.slice(tail.length - k).map((r) => `${r.n}:${esc(r.l)}`);
  const lastLine = lines[total - 1]!;
  const stop = safeCut(lastLine, 0, Math.max(0, Math.min(lastLine.length, maxBytes - rowPrefixLength(total))));
  return [`${total}[cut]:${esc(lastLine.subarray(0, stop))}`];
}

describe('page --last from a checkpoint', () => {
  it('gives the rows read from the top, which are the model: the last lines, numbered, within the cap', () => {
    fc.assert(
      fc.property(textArb, reads, bufferArb, fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 70 }), fc.constantFrom(0, 5, 12, 40, 200, 100_000), (text, sizes, buffer, step, want, maxBytes) => {
        const marks = new Checkpoints(0, 4);
        const total = countMarking(new LineScanner(chunkedReader(text, sizes), buffer), marks, step);
        if (total === 0) return;
        const tailFrom = (line: number) => {
          const at = marks.before(line);
          return { scanner: new LineScanner(chunkedReader(text.subarray(at.offset), sizes), buffer), linesBefore: at.lines, size: text.length - at.offset };
        };
        const top = () => ({ scanner: new LineScanner(chunkedReader(text, sizes), buffer), linesBefore: 0, size: text.length });
        const page = (from: { scanner: LineScanner; linesBefore: number; size: number }) => {
          const c = new Collect();
          if (maxBytes > 0) {
            readLast(from.scanner, { total, want, maxBytes, prefixBytes: (n) => rowPrefixLength(n), linesBefore: from.linesBefore }, c);
          } else {
            const offset = Math.max(0, total - want);
            readPage(from.scanner, { offset, limit: want, maxBytes: 0, countBytes: 1 << 20, prefixBytes: (n) => rowPrefixLength(n), inputSize: from.size, linesBefore: from.linesBefore }, c);
          }
          return c.rows;
        };
        const first = maxBytes > 0 ? lastFirstLine({ total, want, maxBytes }) : Math.max(0, total - want) + 1;
        const expected = model(text, want, maxBytes);
        expect(page(top())).toEqual(expected);
        expect(page(tailFrom(first))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
