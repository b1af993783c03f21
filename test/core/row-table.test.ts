// Rows kept compactly (RowTable): every row the input holds, read back by index as parseRows
// reads it, numbered as read, with its other reading taken when the planner takes it.
import { describe, expect, it } from 'vitest';
import { parseRows, parseRowTable } from '../../src/core/parse-rows.js';
import { ArrayRows } from '../../src/core/row-table.js';
import { esc } from '../helpers.js';

const table = (s: string, nul = false) => parseRowTable(Buffer.from(s, 'latin1'), 'rows', { nul });
const shown = (t: { length: number; row(i: number): { path?: string; line: number; bytes: Buffer; rowNumber: number; anchor?: string } }) =>
  Array.from({ length: t.length }, (_, i) => {
    const r = t.row(i);
    return `${r.path ?? ''}|${r.line}|${esc(r.bytes)}|row ${r.rowNumber}${r.anchor ? `|#${r.anchor}` : ''}`;
  });

describe('RowTable', () => {
  it('reads back each row as parseRows does, numbered by its line in the input (decorations and markers count)', () => {
    const input = '1\ta\n--\n2#abcd\tb\n\\ No newline at end of file\n"f g"\t3\tc\r\n\n[Read 3 lines (lines 1-3).]\nh\t4\td';
    expect(shown(table(input))).toEqual(['|1|a\\n|row 1', '|2|b|row 3|#abcd', 'f g|3|c\\r\\n|row 5', 'h|4|d|row 8']);
    expect(parseRows(Buffer.from(input, 'latin1'), 'rows').map((r) => r.rowNumber)).toEqual([1, 3, 5, 8]);
  });

  it('holds more than a million rows: no cap but the 64 MiB of the input, a row costing its columns', () => {
    const n = 1_500_000;
    const t = parseRowTable(Buffer.from(Array.from({ length: n }, (_, i) => `${i + 1}\tx${i + 1}\n`).join('')), 'rows');
    expect(t.length).toBe(n);
    expect([t.line(0), t.line(n - 1), esc(t.row(n - 1).bytes), t.row(n - 1).rowNumber]).toEqual([1, n, `x${n}\\n`, n]);
  });

  it('keeps a line number past 2^32 exact', () => {
    expect(shown(table('1\ta\n9007199254740991\tb\n'))).toEqual(['|1|a\\n|row 1', '|9007199254740991|b\\n|row 2']);
  });

  it('reads the other reading of a plain row again from its line, and takes it when told', () => {
    const t = table('\uFEFF5\t2\tx\n\\ No newline at end of file\n7\ty\n'.replace('\uFEFF', '\xef\xbb\xbf'));
    expect(t.mayReadTwoWays(0)).toBe(true);
    expect(t.mayReadTwoWays(1)).toBe(false);
    expect(t.row(0).alts).toBeUndefined(); // made only when asked for
    const alt = t.row(0, true).alts![0]!;
    expect([alt.path, alt.line, esc(alt.bytes)]).toEqual(['5', 2, 'x']);
    t.take(0, alt);
    expect([t.path(0), t.line(0), t.mayReadTwoWays(0)]).toEqual(['5', 2, false]);
    expect(shown(t)).toEqual(['5|2|x|row 1', '|7|y\\n|row 3']);
  });

  it('under --null, taking the reading that starts a path with a marker gives the row before it its separator back', () => {
    const t = table('a\x001\tx\n\\ No newline at end of file\nb\x002\ty\n', true);
    expect(shown(t)).toEqual(['a|1|x|row 1', 'b|2|y\\n|row 3']);
    t.take(1, t.row(1, true).alts![0]!);
    expect(shown(t)).toEqual(['a|1|x\\n|row 1', '\\ No newline at end of file\nb|2|y\\n|row 3']);
    // as objects (parseRows), the same reading restores the object of the row before
    const rows = new ArrayRows(parseRows(Buffer.from('a\x001\tx\n\\ No newline at end of file\nb\x002\ty\n', 'latin1'), 'rows', { nul: true }));
    rows.take(1, rows.row(1).alts![0]!);
    expect(shown(rows)).toEqual(['a|1|x\\n|row 1', '\\ No newline at end of file\nb|2|y\\n|row 3']);
  });

  // Found by the rows property (a file named "\ No newline at end of file<LF>", three lines, the
  // second CRLF): each row after the first reads two ways, and the second row, once taken in its
  // other reading, kept the bytes the marker after it had cut: "y\r", written as "y\r\r\n".
  it('under --null, a row taken in its other reading still gets its separator back from the reading after it', () => {
    const M = '\\ No newline at end of file\n';
    const input = `${M}\x001\tx\n${M}\x002\ty\r\n${M}\x003\tz\n`;
    const want = [`${M}|1|x\\n|row 1`, `${M}|2|y\\r\\n|row 3`, `${M}|3|z\\n|row 5`];
    const t = table(input, true);
    t.take(1, t.row(1, true).alts![0]!);
    t.take(2, t.row(2, true).alts![0]!);
    expect(shown(t)).toEqual(want);
    const rows = new ArrayRows(parseRows(Buffer.from(input, 'latin1'), 'rows', { nul: true }));
    rows.take(1, rows.row(1).alts![0]!);
    rows.take(2, rows.row(2).alts![0]!);
    expect(shown(rows)).toEqual(want);
  });
});
