import { describe, expect, it } from 'vitest';
import { parseRows } from '../../src/core/parse-rows.js';
import { esc, errorOf as rowsError } from '../helpers.js';

const parse = (s: string | Buffer) =>
  parseRows(typeof s === 'string' ? Buffer.from(s, 'latin1') : s, 'rows').map((r) => `${r.path ?? ''}|${r.line}|${esc(r.bytes)}`);

const parseNul = (s: string) => parseRows(Buffer.from(s, 'latin1'), 'rows', { nul: true }).map((r) => `${r.path ?? ''}|${r.line}|${esc(r.bytes)}`);

const errorOf = (s: string) => rowsError(() => parseRows(Buffer.from(s, 'latin1'), 'rows'));

describe('parseRows', () => {
  it('splits a row at its first tab and keeps the line verbatim', () => {
    expect(parse('1\talpha\r\n2\tbe\tta\n3\tlast')).toEqual(['|1|alpha\\r\\n', '|2|be\\tta\\n', '|3|last']);
    expect(parse('7\t\n')).toEqual(['|7|\\n']);
    expect(parse('')).toEqual([]);
  });

  it('reads path rows: a tab after the path, or a NUL under --null', () => {
    expect(parse('a.txt\t3\tx\r\nsub dir/b.txt\t4\ty\n')).toEqual(['a.txt|3|x\\r\\n', 'sub dir/b.txt|4|y\\n']);
    expect(parseNul('a.txt\x003\tx\r\nsub dir/b.txt\x004\ty\n')).toEqual(['a.txt|3|x\\r\\n', 'sub dir/b.txt|4|y\\n']);
    expect(errorOf('sub dir/b.txt\x004\ty\n')).toMatch(/^bad-row: row 1: .*read such rows with replace --null/);
  });

  it("skips page's footer and the blank line before it, and grep's -- separator, colored or not", () => {
    expect(parse('1\ta\n2\tb\n\n[Read 2 lines (lines 1-2 of 5 total). 3 lines remaining from offset 2.]\n')).toEqual(['|1|a\\n', '|2|b\\n']);
    expect(parse('1\ta\n--\n9\tb\n')).toEqual(['|1|a\\n', '|9|b\\n']);
    expect(parse('1\ta\n\x1b[2m--\x1b[22m\n')).toEqual(['|1|a\\n']);
  });

  it('refuses a row marked as cut, a blank line that is not before a footer, and anything not a row', () => {
    expect(errorOf('3[cut]\tabc\n')).toMatch(/^bad-row: row 1: line 3 was cut by page --max-bytes/);
    expect(errorOf('1\ta\n\n2\tb\n')).toMatch(/^bad-row: row 2: not a row/);
    expect(errorOf('hello world\n')).toMatch(/^bad-row: row 1: not a row/);
    expect(errorOf('x\ty\tz\n')).toMatch(/^bad-row: row 1: "y" is not a line number/);
    expect(errorOf('0\tzero\n')).toMatch(/line number 0 is out of range/);
    expect(errorOf('99999999999999999999\tbig\n')).toMatch(/out of range/);
  });

  it('takes rows that themselves end in CRLF as lines that end in CRLF', () => {
    expect(parse('1\ta\r\n2\tb\r\n')).toEqual(['|1|a\\r\\n', '|2|b\\r\\n']);
  });

  it('ignores a UTF-8 BOM at the start of the rows input', () => {
    expect(parse(Buffer.from('\uFEFF1\ta\n', 'utf8'))).toEqual(['|1|a\\n']);
  });
});
