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

const full = (s: string | Buffer, nul = false) =>
  parseRows(typeof s === 'string' ? Buffer.from(s, 'latin1') : s, 'rows', { nul }).map((r) => ({
    path: r.path,
    line: r.line,
    bytes: esc(r.bytes),
    ...(r.anchor !== undefined ? { anchor: r.anchor } : {}),
    ...(r.alts !== undefined ? { alt: r.alts.map((a) => `${a.path}|${a.line}|${esc(a.bytes)}`).join(' ') } : {}),
  }));

describe('parseRows: quoted paths', () => {
  it('unquotes a path in double quotes, C escapes and octal bytes included; a tab inside is the name, not a separator', () => {
    expect(parse('"a\\t3"\t1\tmatch me\n')).toEqual(['a\t3|1|match me\\n']);
    expect(parse('"n\\nl"\t2\tx\n"q\\"b\\\\s"\t3\ty\n')).toEqual(['n\nl|2|x\\n', 'q"b\\s|3|y\\n']);
    expect(parse('"12"\t3\tfoo\n')).toEqual(['12|3|foo\\n']);
    expect(full('"x\\377"\t1\tx\n')[0]!.path).toBe('x\uDCFF'); // kept as its byte, never as U+FFFD
  });

  it('takes a leading U+FEFF of a quoted path as part of the name', () => {
    expect(parse('"\\357\\273\\277bom"\t1\tx\n')).toEqual(['\uFEFFbom|1|x\\n']);
  });

  it('refuses an unquoted path that quoting would have changed, and a broken quote', () => {
    expect(errorOf('a\\b\t1\tx\n')).toMatch(/^bad-row: row 1: the path "a\\\\b" holds characters that rows print quoted/);
    expect(errorOf('a"b\t1\tx\n')).toMatch(/holds characters that rows print quoted/);
    expect(errorOf('a\x01b\t1\tx\n')).toMatch(/holds characters that rows print quoted/);
    expect(errorOf('"a\\qb"\t1\tx\n')).toMatch(/unknown escape/);
    expect(errorOf('"ab"x\t1\tx\n')).toMatch(/a quoted path must be followed by a tab/);
    expect(errorOf('"ab')).toMatch(/no closing quote/);
    expect(errorOf('"ab\n')).toMatch(/raw control character/);
  });
});

describe('parseRows: rows that could be read two ways', () => {
  it('notes the other reading of a plain row whose text starts like a line field (12<TAB>3<TAB>...)', () => {
    expect(full('12\t3\tfoo\n')).toEqual([{ path: undefined, line: 12, bytes: '3\\tfoo\\n', alt: '12|3|foo\\n' }]);
    expect(full('12\t3x\tfoo\n')).toEqual([{ path: undefined, line: 12, bytes: '3x\\tfoo\\n' }]);
    expect(full('12\tfoo\n')).toEqual([{ path: undefined, line: 12, bytes: 'foo\\n' }]);
  });

  it('under --null, notes that a decoration line could be the start of the next path', () => {
    expect(full('a\x001\tx\n--\nb\x002\ty\n', true)).toEqual([
      { path: 'a', line: 1, bytes: 'x\\n' },
      { path: 'b', line: 2, bytes: 'y\\n', alt: '--\nb|2|y\\n' },
    ]);
    // a marker, then a separator: the path may start at either
    expect(full('a\x001\tx\n\\ No newline at end of file\n--\nb\x002\ty\n', true)[1]!.alt).toBe('\\ No newline at end of file\n--\nb|2|y\\n --\nb|2|y\\n');
  });

  it('under --null, a marker after no row and a separator before the first row start a path', () => {
    expect(full('\\ No newline at end of file\nq\x001\tx\n', true)).toEqual([{ path: '\\ No newline at end of file\nq', line: 1, bytes: 'x\\n' }]);
    expect(full('--\nq\x001\tx\n', true)).toEqual([{ path: '--\nq', line: 1, bytes: 'x\\n' }]);
  });
});

describe('parseRows: the no-newline marker', () => {
  it('takes "\\ No newline at end of file" as: the row before has no terminator', () => {
    expect(parse('1\ta\n2\tb\n\\ No newline at end of file\n')).toEqual(['|1|a\\n', '|2|b']);
    // a lone "\r" ending the line is the line's own, and stays
    expect(parse('2\talpha\r\n\\ No newline at end of file\n')).toEqual(['|2|alpha\\r']);
    expect(parse('p\t2\tb\n\\ No newline at end of file\n"q"\t1\tc\n')).toEqual(['p|2|b', 'q|1|c\\n']);
  });

  it('keeps streams joined with cat apart: each row its own', () => {
    const one = '1\ta1\n2\ta2\n\\ No newline at end of file\n';
    expect(parse(`${one}${one}`)).toEqual(['|1|a1\\n', '|2|a2', '|1|a1\\n', '|2|a2']);
  });

  it('in rows turned CRLF by a tool, the "\\r\\n" before the marker is the separator', () => {
    expect(parse('1\ta\r\n2\tb\r\n\\ No newline at end of file\r\n')).toEqual(['|1|a\\r\\n', '|2|b']);
    expect(parse('2\tb\r\r\n\\ No newline at end of file\r\n')).toEqual(['|2|b\\r']);
  });

  it('is read colored too, and under --null; refused where it follows no row', () => {
    expect(parse('1\ta\n\x1b[2m\\ No newline at end of file\x1b[22m\n')).toEqual(['|1|a']);
    expect(full('a\x001\tx\n\\ No newline at end of file\n', true)).toEqual([{ path: 'a', line: 1, bytes: 'x' }]);
    expect(errorOf('\\ No newline at end of file\n')).toMatch(/^bad-row: row 1: "\\ No newline at end of file" follows no row/);
    expect(errorOf('1\ta\n--\n\\ No newline at end of file\n')).toMatch(/^bad-row: row 3: .* follows no row/);
    expect(errorOf('1\ta\n\\ No newline at end of file\n\\ No newline at end of file\n')).toMatch(/^bad-row: row 3: .* follows no row/);
  });
});

describe('parseRows: anchors', () => {
  it('reads N#anchor (4 to 16 lowercase hex digits) on plain and path rows', () => {
    expect(full('12#9f86d081\tx\n"a b"\t3#abcd\ty\n')).toEqual([
      { path: undefined, line: 12, bytes: 'x\\n', anchor: '9f86d081' },
      { path: 'a b', line: 3, bytes: 'y\\n', anchor: 'abcd' },
    ]);
    expect(full('p\x003#0123456789abcdef\tz\n', true)).toEqual([{ path: 'p', line: 3, bytes: 'z\\n', anchor: '0123456789abcdef' }]);
  });

  it('refuses an anchor that is not 4 to 16 lowercase hex digits', () => {
    for (const bad of ['12#ABCD', '12#abc', '12#0123456789abcdef0', '12#', '12#xyz1']) expect(errorOf(`${bad}\tx\n`)).toMatch(/is not an anchor/);
    expect(errorOf('a\t12#ABCD\tx\n')).toMatch(/is not an anchor/);
  });
});

describe('parseRows: --null', () => {
  it('runs the path to the NUL, whatever it holds: tabs, newlines, a leading U+FEFF, digits', () => {
    expect(parseNul('a\tb\x001\tx\nn\nl\x002\ty\n12\x003\tz\n')).toEqual(['a\tb|1|x\\n', 'n\nl|2|y\\n', '12|3|z\\n']);
    expect(parseRows(Buffer.from('\uFEFFbom\x001\tx\n', 'utf8'), 'rows', { nul: true }).map((r) => r.path)).toEqual(['\uFEFFbom']);
  });

  it('refuses a row without a path under --null, and a NUL-ended path without it', () => {
    expect(rowsError(() => parseRows(Buffer.from('1\tx\n'), 'rows', { nul: true }))).toMatch(/^bad-row: row 1: no NUL/);
    expect(errorOf('a\x001\tx\n')).toMatch(/read such rows with replace --null/);
    expect(errorOf('a\tb\x001\tx\n')).toMatch(/read such rows with replace --null/);
  });
});

describe('parseRows: what else a rows input can hold', () => {
  it('refuses rows ended by lone carriage returns (no line feed anywhere): a CR inside a line could not be told apart', () => {
    expect(errorOf('1\ta\r2\tb\r')).toMatch(/^bad-row: row 1: the rows end in lone carriage returns/);
    expect(parse('1\ta\rb\n')).toEqual(['|1|a\\rb\\n']); // with line feeds, a lone CR is text
  });

  it('takes only a real footer as one: "[Read ..." text in a row, or a row shaped like a footer, is a row or an error', () => {
    expect(errorOf('[Read 1 line (x)]\n')).toMatch(/not a row/);
    expect(parse('"[Read 1 line (lines 1-1). More lines remain from offset 1.]"\t1\tx\n')).toEqual(['[Read 1 line (lines 1-1). More lines remain from offset 1.]|1|x\\n']);
    // a row of a file named "[Read 1" is a row: footers never hold a tab
    expect(parse('[Read 1\t1\tb]\n')).toEqual(['[Read 1|1|b]\\n']);
  });

  it('keeps a tab in the text, and rows that start with digits', () => {
    expect(parse('5\ta\tb\tc\n6\t7\n')).toEqual(['|5|a\\tb\\tc\\n', '|6|7\\n']);
  });

  it('refuses an empty path, quoted, plain or NUL-ended (it named the current directory)', () => {
    for (const [rows, nul] of [['""\t1\tx\n', false], ['\t1\tx\n', false], ['\x001\tx\n', true]] as const) {
      expect(() => parseRows(Buffer.from(rows), 'x', { nul })).toThrow(/^row 1: the path is empty: a row names a file before its line number$/);
    }
  });
});
