import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Edit, type Expectation, planEdits, rowEdits, rowExpectations, sameLine } from '../../src/core/edit-plan.js';
import type { EolMode } from '../../src/core/eol.js';
import { Patcher } from '../../src/core/patcher.js';
import { splitLines } from '../../src/core/lines.js';
import { chunkedReader, LineScanner } from '../../src/core/lines.js';
import { parseRows } from '../../src/core/parse-rows.js';
import { esc, MARK, referenceLines, errorOf } from '../helpers.js';

const B = (s: string) => Buffer.from(s, 'latin1');

/** Runs the patcher over `file` read in chunks of `sizes` through a scanner of `bufferSize`. */
function patch(
  file: string | Buffer,
  edits: Edit[],
  o: { eol?: EolMode; expect?: Expectation[]; bufferSize?: number; sizes?: number[]; context?: number } = {},
) {
  const bytes = typeof file === 'string' ? B(file) : file;
  const chunks: Buffer[] = [];
  const first = referenceLines(bytes)[0];
  const firstEol = first === undefined ? undefined : first.subarray(-2).toString('latin1') === '\r\n' ? '\r\n' : first.at(-1) === 10 ? '\n' : undefined;
  const p = new Patcher(edits, {
    eol: o.eol ?? 'auto',
    emit: (b, s, e) => chunks.push(Buffer.from(b.subarray(s, e))),
    expect: o.expect,
    context: o.context,
    ...(firstEol ? { firstLineEol: firstEol as '\n' | '\r\n' } : {}),
  });
  const sc = new LineScanner(chunkedReader(bytes, o.sizes), o.bufferSize ?? 1 << 16);
  sc.scan((b, s, e, ends) => void p.piece(b, s, e, ends));
  const result = p.finish();
  return { out: Buffer.concat(chunks), result };
}

const range = (start: number, end: number, text: string, origin = 'range'): Edit => ({ start, end, lines: splitLines(B(text)), origin });
const edited = (file: string, edits: Edit[], eol: EolMode = 'auto') => esc(patch(file, edits, { eol }).out);
const rowsOf = (s: string) => parseRows(B(s), 'rows');


describe('splitLines', () => {
  it('follows the line model: terminators kept, no phantom last line', () => {
    expect(splitLines(B('a\r\nb\nc')).map(esc)).toEqual(['a\\r\\n', 'b\\n', 'c']);
    expect(splitLines(B('\n')).map(esc)).toEqual(['\\n']);
    expect(splitLines(B(''))).toEqual([]);
  });
});

describe('planEdits', () => {
  it('sorts edits and puts an insert before an edit of the same line', () => {
    const plan = planEdits([range(5, 5, 'x'), range(2, 1, 'ins'), range(2, 3, 'y')]);
    expect(plan.map((e) => `${e.start}-${e.end}`)).toEqual(['2-1', '2-3', '5-5']);
  });

  it('refuses duplicates, overlaps, two inserts at one place and an insert inside a range', () => {
    expect(errorOf(() => planEdits([range(3, 3, 'a', 'row 1'), range(3, 3, 'b', 'row 2')]))).toBe(
      'conflict: row 1 (line 3) and row 2 (line 3) both edit the same lines; every line may be edited once per call',
    );
    expect(errorOf(() => planEdits([range(2, 4, 'a'), range(4, 6, 'b')]))).toMatch(/^conflict: range \(lines 2-4\) and range \(lines 4-6\) overlap/);
    expect(errorOf(() => planEdits([range(3, 2, 'a'), range(3, 2, 'b')]))).toMatch(/^conflict: .*insert before line 3.*both edit the same lines/);
    expect(errorOf(() => planEdits([range(2, 4, 'a'), range(3, 2, 'b')]))).toMatch(/^conflict/);
    // adjacent is fine
    expect(planEdits([range(2, 4, 'a'), range(5, 5, 'b'), range(5, 4, 'c')])).toHaveLength(3);
  });

  it('refuses ranges that are not ranges', () => {
    expect(errorOf(() => planEdits([range(0, 0, 'a')]))).toBe('bad-range: range: START must be at least 1, not 0');
    expect(errorOf(() => planEdits([range(5, 3, 'a')]))).toBe('bad-range: range: END 3 is before START 5 (END = START - 1 inserts before START)');
  });
});

describe('Patcher: range edits under --eol auto', () => {
  it('replaces a line in an LF file and in a CRLF file, taking the replaced line ending', () => {
    expect(edited('a\nb\nc\n', [range(2, 2, 'B')])).toBe('a\\nB\\nc\\n');
    expect(edited('a\r\nb\r\nc\r\n', [range(2, 2, 'B\n')])).toBe('a\\r\\nB\\r\\nc\\r\\n');
  });

  it('turns multi-line LF text into CRLF in a CRLF file, and CRLF text into LF in an LF file', () => {
    expect(edited('a\r\nb\r\nc\r\n', [range(2, 2, 'x\ny\nz\n')])).toBe('a\\r\\nx\\r\\ny\\r\\nz\\r\\nc\\r\\n');
    expect(edited('a\nb\nc\n', [range(2, 2, 'x\r\ny\r\n')])).toBe('a\\nx\\ny\\nc\\n');
  });

  it('keeps the layout of a mixed range line by line; extra lines take the last replaced ending', () => {
    expect(edited('1\r\n2\n3\r\n4\n', [range(1, 3, 'A\nB\nC\nD\nE\n')])).toBe('A\\r\\nB\\nC\\r\\nD\\r\\nE\\r\\n4\\n');
    expect(edited('1\r\n2\n3\r\n4\n', [range(1, 3, 'A')])).toBe('A\\r\\n4\\n');
  });

  it('keeps no final newline when the replaced last line had none', () => {
    expect(edited('first\nsecond', [range(2, 2, 'SECOND\n')])).toBe('first\\nSECOND');
    expect(edited('one\r\ntwo', [range(2, 2, 'x\ny\n')])).toBe('one\\r\\nx\\r\\ny');
    expect(edited('only', [range(1, 1, 'x\ny')])).toBe('x\\ny');
  });

  it('deletes with empty text', () => {
    expect(edited('a\nb\nc\n', [range(2, 2, '')])).toBe('a\\nc\\n');
    expect(edited('a\nb\nc\n', [range(1, 3, '')])).toBe('');
    expect(edited('a\nb', [range(2, 2, '')])).toBe('a\\n');
  });

  it('inserts before START (END = START - 1) in the neighbours\' style, always terminated', () => {
    expect(edited('a\r\nb\r\n', [range(2, 1, 'x\ny')])).toBe('a\\r\\nx\\r\\ny\\r\\nb\\r\\n');
    expect(edited('a\r\nb\r\n', [range(1, 0, 'x')])).toBe('x\\r\\na\\r\\nb\\r\\n');
    expect(edited('a\nb\r\n', [range(2, 1, 'x')])).toBe('a\\nx\\nb\\r\\n');
  });

  it('appends (START = count + 1) to a CRLF file and after a last line without terminator', () => {
    expect(edited('a\r\nb\r\n', [range(3, 2, 'c\nd\n')])).toBe('a\\r\\nb\\r\\nc\\r\\nd\\r\\n');
    // the last line gets a terminator (the file's dominant one) and the new text ends without one
    expect(edited('one\r\ntwo\nthree\r\nfour', [range(5, 4, 'five\n')])).toBe('one\\r\\ntwo\\nthree\\r\\nfour\\r\\nfive');
    expect(edited('', [range(1, 0, 'x')])).toBe('x\\n');
    expect(edited('solo', [range(2, 1, 'x')])).toBe('solo\\nx');
  });

  it('replaces a range by one line', () => {
    expect(edited('a\nb\nc\nd\n', [range(2, 3, 'X')])).toBe('a\\nX\\nd\\n');
  });

  it('applies every edit against the original numbering', () => {
    expect(edited('1\n2\n3\n4\n5\n', [range(4, 4, 'four\nFOUR'), range(1, 2, ''), range(6, 5, 'six')])).toBe('3\\nfour\\nFOUR\\n5\\nsix\\n');
  });

  it('refuses lines past the end, naming the count, after reading the file', () => {
    expect(errorOf(() => patch('a\nb\n', [range(3, 3, 'x')]))).toBe('past-end: line 3 is past the end: the file has 2 lines (START 3 END 2 appends after the last line: END = START - 1 inserts)');
    expect(errorOf(() => patch('a\nb\n', [range(2, 4, 'x')]))).toBe('past-end: line 4 is past the end: the file has 2 lines');
    expect(errorOf(() => patch('a\nb\n', [range(4, 3, 'x')]))).toBe(
      'past-end: line 4 is past the end: the file has 2 lines (append with START 3)',
    );
  });
});

describe('Patcher: the other --eol modes', () => {
  it('keep writes the text literally', () => {
    expect(edited('a\r\nb\r\n', [range(1, 1, 'x\n')], 'keep')).toBe('x\\nb\\r\\n');
    expect(edited('a\nb\n', [range(1, 1, 'x')], 'keep')).toBe('xb\\n');
  });

  it('lf and crlf force the ending, but a replaced unterminated last line stays unterminated', () => {
    expect(edited('a\r\nb\r\n', [range(1, 1, 'x\r\ny')], 'lf')).toBe('x\\ny\\nb\\r\\n');
    expect(edited('a\nb\n', [range(1, 1, 'x\ny')], 'crlf')).toBe('x\\r\\ny\\r\\nb\\n');
    expect(edited('a\nb', [range(2, 2, 'x\n')], 'crlf')).toBe('a\\nx');
  });
});

describe('Patcher: rows fed back', () => {
  const file = 'one\r\ntwo\nthree\r\nfour';
  it('applies rows unchanged as the identity', () => {
    expect(edited(file, rowEdits(rowsOf('1\tone\r\n2\ttwo\n3\tthree\r\n4\tfour')))).toBe(esc(file));
  });

  it('puts back a CRLF row whose \\r a tool dropped as CRLF', () => {
    expect(edited(file, rowEdits(rowsOf('1\tONE\n3\tTHREE\n')))).toBe('ONE\\r\\ntwo\\nTHREE\\r\\nfour');
  });

  it('keeps an unterminated last line unterminated when its row was followed by a separator', () => {
    expect(edited(file, rowEdits(rowsOf('4\tFOUR\n')))).toBe('one\\r\\ntwo\\nthree\\r\\nFOUR');
    // a lone \r at the end of that line survives the separator
    expect(edited('x\nalpha\r', rowEdits(rowsOf('2\talpha\r\n')))).toBe('x\\nalpha\\r');
  });

  it('reports whether anything changed, per edit', () => {
    const { result } = patch(file, rowEdits(rowsOf('1\tone\r\n2\tTWO\n')));
    expect(result.edits.map((e) => e.changed)).toEqual([false, true]);
    expect(result.changed).toBe(true);
    expect(patch(file, rowEdits(rowsOf('1\tone\n'))).result.changed).toBe(false);
  });
});

describe('Patcher: the stale-edit guard', () => {
  it('passes when the lines hold the text read, compared without terminators', () => {
    const { result } = patch('a\r\nb\r\nc', [range(2, 2, 'B')], { expect: rowExpectations(rowsOf('2\tb\n3\tc\n')) });
    expect(result.mismatches).toEqual([]);
  });

  it('reports the current lines that differ, and lines that are gone', () => {
    const { result } = patch('a\nb\nc\n', [range(2, 2, 'B')], { expect: rowExpectations(rowsOf('1\ta\n2\tOLD\n9\tz\n')) });
    expect(result.mismatches.map((m) => `${m.line}:${m.current ? esc(m.current) : '-'}`)).toEqual(['2:b\\n', '9:-']);
  });

  it('sameLine ignores terminators and a separating newline only', () => {
    expect(sameLine(B('x\n'), B('x\r\n'))).toBe(true);
    expect(sameLine(B('x\r\n'), B('x'))).toBe(true);
    expect(sameLine(B('x\r\n'), B('x\r'))).toBe(true);
    expect(sameLine(B('x '), B('x\n'))).toBe(false);
  });
});

describe('Patcher: lines longer than the scanner buffer', () => {
  it('copies and edits pieces without joining them', () => {
    const long = 'L'.repeat(5000);
    const file = `${long}\r\nshort\r\n${long}`;
    const { out } = patch(file, [range(2, 2, 'S\n')], { bufferSize: 64, sizes: [7, 100, 3] });
    expect(esc(out)).toBe(esc(`${long}\r\nS\r\n${long}`));
    const ins = patch(file, [range(1, 0, 'top')], { bufferSize: 64 });
    expect(esc(ins.out)).toBe(esc(`top\r\n${file}`));
  });
});

// Random files of the bytes that matter: LF, CRLF, lone CR, invalid UTF-8, tabs, no final newline.
const ALPHABET = ['a', 'b', ' ', '\t', '\r', '\n', '\r\n', '\n', '\xff', '\xc3\xa9', '\xe2\x80', 'long line '.repeat(9)];
const files = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 60 }).map((parts) => B(parts.join('')));
const reads = fc.record({ bufferSize: fc.integer({ min: 16, max: 80 }), sizes: fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 4 }) });

/** The rows readlines prints for the whole file: a last line without terminator gets the marker. */
function rowsFor(file: Buffer): Buffer {
  return Buffer.concat(referenceLines(file).flatMap((l, i) => [B(`${i + 1}\t`), l, B(l.at(-1) === 10 ? '' : MARK)]));
}

describe('Patcher: properties', () => {
  it('feeding every row back unchanged is the identity, and reports no change', () => {
    fc.assert(
      fc.property(files, reads, (file, r) => {
        const { out, result } = patch(file, rowEdits(parseRows(rowsFor(file), 'rows')), r);
        expect(esc(out)).toBe(esc(file));
        expect(result.changed).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  it('editing any subset of rows changes exactly those lines, endings kept', () => {
    const content = fc.array(fc.constantFrom('x', 'y', '\t', '\xff', '\r'), { maxLength: 8 }).map((p) => p.join('').replace(/\r+$/, '')); // a trailing \r would join the terminator
    fc.assert(
      fc.property(files, reads, fc.infiniteStream(fc.option(content, { nil: undefined })), (file, r, picks) => {
        const lines = referenceLines(file);
        const rowsText: Buffer[] = [];
        const expected: string[] = [];
        lines.forEach((line, i) => {
          const pick = picks.next().value as string | undefined;
          const eol = line.subarray(line.length - (line.at(-1) === 10 ? (line.at(-2) === 13 ? 2 : 1) : 0));
          if (pick === undefined) {
            expected.push(esc(line));
            return;
          }
          // a tool that edits rows writes "\n" whatever the line ended with, and leaves the marker be
          rowsText.push(B(`${i + 1}\t${pick}${eol.length > 0 ? '\n' : MARK}`));
          expected.push(esc(Buffer.concat([B(pick), eol])));
        });
        const { out } = patch(file, rowEdits(parseRows(Buffer.concat(rowsText), 'rows')), r);
        expect(referenceLines(out).map(esc)).toEqual(expected.filter((l) => l !== ''));
      }),
      { numRuns: 400 },
    );
  });
});
