import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkedReader, LineScanner } from '../../src/core/lines.js';
import { type PageOptions, readPage } from '../../src/core/read-page.js';
import { readRange, type RowSink } from '../../src/core/read-range.js';
import { pageFooter } from '../../src/format/footer.js';
import { cliWords, mcpWords } from '../../src/surface/words.js';
import { esc, referenceLines, errorOf } from '../helpers.js';

/** Collects rows (pieces joined) and cut rows. */
class Collect implements RowSink {
  rows: { n: number; bytes: Buffer; cut?: boolean }[] = [];
  private pieces: Buffer[] = [];
  row(n: number, buf: Buffer, start: number, end: number, ends: boolean) {
    this.pieces.push(Buffer.from(buf.subarray(start, end)));
    if (ends) {
      this.rows.push({ n, bytes: Buffer.concat(this.pieces) });
      this.pieces = [];
    }
  }
  cutRow(n: number, buf: Buffer, start: number, end: number) {
    this.rows.push({ n, bytes: Buffer.from(buf.subarray(start, end)), cut: true });
  }
  get shown() {
    return this.rows.map((r) => `${r.n}${r.cut ? '[cut]' : ''}:${esc(r.bytes)}`);
  }
}

const scanner = (s: string | Buffer, sizes = [3], buffer = 16) =>
  new LineScanner(chunkedReader(typeof s === 'string' ? Buffer.from(s) : s, sizes), buffer);


describe('readRange', () => {
  const five = 'l1\r\nl2\nl3\r\nl4\nl5';
  it('is inclusive, clamps END, and keeps terminators', () => {
    const c = new Collect();
    expect(readRange(scanner(five), { start: 2, end: 3 }, c)).toEqual({ shown: 2 });
    expect(c.shown).toEqual(['2:l2\\n', '3:l3\\r\\n']);
    const d = new Collect();
    expect(readRange(scanner(five), { start: 4, end: 99 }, d)).toEqual({ shown: 2 });
    expect(d.shown).toEqual(['4:l4\\n', '5:l5']);
    const e = new Collect();
    readRange(scanner(five), { start: 5, end: undefined }, e);
    expect(e.shown).toEqual(['5:l5']);
  });

  it('names the line count when the range is wrong', () => {
    expect(errorOf(() => readRange(scanner(five), { start: 6, end: undefined }, new Collect()))).toBe('past-end: line 6 is past the end: the file has 5 lines');
    expect(errorOf(() => readRange(scanner(five), { start: 0, end: 2 }, new Collect()))).toBe('bad-range: START must be at least 1, not 0 (the file has 5 lines)');
    expect(errorOf(() => readRange(scanner(five), { start: 3, end: 2 }, new Collect()))).toBe('bad-range: END 2 is before START 3 (the file has 5 lines)');
    expect(errorOf(() => readRange(scanner(''), { start: 1, end: 1 }, new Collect()))).toBe('past-end: line 1 is past the end: the file has 0 lines');
    expect(errorOf(() => readRange(scanner('one\n'), { start: 2, end: 2 }, new Collect()))).toBe('past-end: line 2 is past the end: the file has 1 line');
  });

  it('reads no further than the end of line END', () => {
    // A source that fails if asked for a byte past line 3: bounded I/O, proven.
    const data = Buffer.from('one\ntwo\nthree\nfour\nfive\n');
    const limit = data.indexOf('four');
    let at = 0;
    const read = (buf: Uint8Array, offset: number, length: number) => {
      if (at >= limit) throw new Error('read past line 3');
      const n = Math.min(length, 2, limit - at);
      buf.set(data.subarray(at, at + n), offset);
      at += n;
      return n;
    };
    const c = new Collect();
    readRange(new LineScanner(read, 16), { start: 2, end: 3 }, c);
    expect(c.shown).toEqual(['2:two\\n', '3:three\\n']);
  });
});

const pageOpts = (o: Partial<PageOptions> = {}): PageOptions => ({
  offset: 0,
  limit: 100,
  maxBytes: 0,
  countBytes: 1 << 20,
  prefixBytes: (n) => String(n).length + 1,
  ...o,
});

describe('readPage', () => {
  const five = 'a\nb\r\nc\nd\ne\n';
  it('shows a window and counts the rest', () => {
    const c = new Collect();
    const r = readPage(scanner(five), pageOpts({ offset: 1, limit: 2 }), c);
    expect(c.shown).toEqual(['2:b\\r\\n', '3:c\\n']);
    expect(r).toEqual({ first: 2, shown: 2, total: 5, nextOffset: 3, left: 2 });
  });

  it('says the total was not counted past the count bound', () => {
    const many = 'x\n'.repeat(10_000);
    const r = readPage(scanner(many, [4096], 4096), pageOpts({ limit: 1, countBytes: 1000 }), new Collect());
    expect(r.total).toBeUndefined();
    expect(r.nextOffset).toBe(1);
  });

  it('does not start counting when the known input size says the bound cannot be met', () => {
    const many = 'x\n'.repeat(10_000);
    const s = scanner(many, [4096], 4096);
    const r = readPage(s, pageOpts({ limit: 1, countBytes: 1000, inputSize: many.length }), new Collect());
    expect(r.total).toBeUndefined();
    expect(s.offset).toBeLessThanOrEqual(4096); // only the first read happened
    const small = readPage(scanner('a\nb\n'), pageOpts({ limit: 1, countBytes: 1000, inputSize: 4 }), new Collect());
    expect(small.total).toBe(2);
  });

  it('an empty file at offset 0 is an empty page; an offset at the end is an error naming the count', () => {
    expect(readPage(scanner(''), pageOpts(), new Collect())).toEqual({ first: 1, shown: 0, total: 0, nextOffset: 0, left: 0 });
    expect(errorOf(() => readPage(scanner(five), pageOpts({ offset: 5 }), new Collect()))).toMatch(/^past-end: offset 5 is at or past the end: the file has 5 lines/);
    expect(errorOf(() => readPage(scanner(''), pageOpts({ offset: 1 }), new Collect()))).toMatch(/the file has 0 lines/);
  });

  it('stops before a line that would overflow the byte cap', () => {
    const c = new Collect();
    // rows "1\taaaa\n" = 7 bytes, "2\tbbbb\n" = 7: a cap of 10 holds one
    const r = readPage(scanner('aaaa\nbbbb\ncc\n'), pageOpts({ maxBytes: 10 }), c);
    expect(c.shown).toEqual(['1:aaaa\\n']);
    expect(r).toEqual({ first: 1, shown: 1, total: 3, nextOffset: 1, left: 2 });
  });

  it('shows a single line longer than the cap cut, marked, and still advances', () => {
    const c = new Collect();
    const r = readPage(scanner(`${'é'.repeat(10)}\nnext\n`), pageOpts({ maxBytes: 8 }), c);
    // room = 8 - "1\t" = 6 bytes = three é
    expect(c.shown).toEqual([`1[cut]:${esc('ééé')}`]);
    expect(r).toEqual({ first: 1, shown: 1, total: 2, nextOffset: 1, left: 1, cut: { line: 1, shown: 6, length: 21, from: 0 } });
  });

  it('cuts a line longer than the scanner buffer and measures it', () => {
    const c = new Collect();
    const line = `${'y'.repeat(5000)}\r\n`;
    const r = readPage(scanner(`${line}z\n`, [100], 64), pageOpts({ maxBytes: 50 }), c);
    expect(c.shown).toEqual([`1[cut]:${'y'.repeat(48)}`]);
    expect(r.cut).toEqual({ line: 1, shown: 48, length: 5002, from: 0 });
    expect(r.total).toBe(2);
  });

  it('property: walking a file page by page through nextOffset sees every line exactly once', () => {
    const line = fc
      .array(fc.constantFrom('a', 'é', '\r', ' ', 'xyz'), { maxLength: 30 })
      .chain((parts) => fc.constantFrom('\n', '\r\n').map((t) => parts.join('') + t));
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 30 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 6, max: 60 }),
        fc.integer({ min: 1, max: 9 }),
        (lines, dropLast, limit, maxBytes, readSize) => {
          let input = Buffer.from(lines.join(''));
          if (dropLast) input = input.subarray(0, input.length - (lines.at(-1)!.endsWith('\r\n') ? 2 : 1));
          const want = referenceLines(input);
          const seen: number[] = [];
          let offset = 0;
          for (let guard = 0; guard < 1000; guard++) {
            const c = new Collect();
            const r = readPage(scanner(input, [readSize], 16), pageOpts({ offset, limit, maxBytes }), c);
            for (const row of c.rows) {
              seen.push(row.n);
              if (!row.cut) expect(esc(row.bytes)).toBe(esc(want[row.n - 1]!));
              else expect(want[row.n - 1]!.subarray(0, row.bytes.length).equals(row.bytes)).toBe(true);
            }
            if (input.length === 0) {
              expect(r).toEqual({ first: 1, shown: 0, total: 0, nextOffset: 0, left: 0 }); // the empty page
              break;
            }
            expect(r.nextOffset).toBeGreaterThan(offset); // always advances
            const footer = pageFooter({ first: r.first, shown: r.shown, total: r.total }, cliWords('page'));
            if (r.total !== undefined && r.nextOffset >= r.total) {
              expect(footer).toBeUndefined();
              break;
            }
            expect(footer).toContain(`from offset ${r.nextOffset}.`);
            offset = r.nextOffset;
          }
          expect(seen).toEqual(want.map((_, i) => i + 1));
        },
      ),
    );
  });
});

describe('pageFooter', () => {
  it('has the contract strings, singular and plural, and none at the end', () => {
    expect(pageFooter({ first: 1, shown: 2, total: 5 }, cliWords('page'))).toBe('[Read 2 lines (lines 1-2 of 5 total). 3 lines remaining from offset 2.]');
    expect(pageFooter({ first: 1, shown: 1, total: 5 }, cliWords('page'))).toBe('[Read 1 line (lines 1-1 of 5 total). 4 lines remaining from offset 1.]');
    expect(pageFooter({ first: 3, shown: 2, total: 5 }, cliWords('page'))).toBe('[Read 2 lines (lines 3-4 of 5 total). 1 line remaining from offset 4.]');
    expect(pageFooter({ first: 1, shown: 2, total: undefined }, cliWords('page'))).toBe('[Read 2 lines (lines 1-2). More lines remain from offset 2.]');
    expect(pageFooter({ first: 4, shown: 2, total: 5 }, cliWords('page'))).toBeUndefined();
  });
  it('says how to read a cut line whole', () => {
    expect(pageFooter({ first: 1, shown: 1, total: 1, cut: { line: 1, shown: 6, length: 21, path: 'my file' } }, cliWords('page'))).toBe(
      "[Read 1 line (lines 1-1 of 1 total). Line 1 was cut at 6 of 21 bytes; go on inside it with: linewise page 'my file' --offset 0 --from-byte 6; or read it whole with: linewise readlines 'my file' 1 1]",
    );
  });
});
