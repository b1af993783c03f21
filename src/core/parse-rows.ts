// The row format read back: `<n>\t<line bytes>`, `<path>\t<n>\t...` (the path quoted when it
// must be) or `<path>\0<n>\t...` (--null), each `<n>` maybe `<n>#anchor`, parsed for
// `replace --rows`; the readers' decorations skipped, anything else refused rather than guessed.

import { countLF } from './newlines.js';
import { LinewiseError } from './errors.js';
import { needsQuoting, pathFromBytes, quoteRowPath, unquotePath } from './path-names.js';
import { altPathRow, type AltReading, type Row, RowTable } from './row-table.js';
import { CUT_MARK, NO_NEWLINE_MARK, parseLineField } from './row-fields.js';
import { parseGuardLine } from './row-guard.js';

export { CUT_MARK } from './row-fields.js';
export type { AltReading, Row, RowSet } from './row-table.js';
export { ArrayRows, RowTable } from './row-table.js';

/** The separator grep prints between groups of context. */
export const GROUP_SEPARATOR = '--';

export interface ParseRowsOptions {
  /** rows as `grep -0` prints them: every row starts with a path ended by a NUL */
  nul?: boolean;
}

const TAB = 9;
const NUL = 0;
const LF = 10;
const CR = 13;
const QUOTE = 0x22;

/**
 * Parses rows as the readers print them. Skips page's footer (and the blank line before it) and
 * grep's `--` separator; takes the no-newline marker as "the row before has no terminator";
 * refuses a row marked as cut and anything else that is not a row. `source` names the rows
 * input in messages. The rows as objects: {@link parseRowTable} keeps millions of them compactly.
 */
export function parseRows(input: Buffer, source: string, options: ParseRowsOptions = {}): Row[] {
  return parseRowTable(input, source, options).rows();
}

/** {@link parseRows} into a {@link RowTable}: the input and a few bytes a row. */
export function parseRowTable(input: Buffer, source: string, options: ParseRowsOptions = {}): RowTable {
  const nul = options.nul === true;
  if (input.includes(CR) && !input.includes(LF)) {
    throw rowError(source, 1, 'the rows end in lone carriage returns (no line feed anywhere), which cannot be told from a "\\r" inside a line; convert them to "\\n" endings');
  }
  let at = 0;
  // A UTF-8 BOM at the very start (an editor saved the rows file) is not part of the first row.
  // Never under --null: there the first bytes are a path, which may begin with U+FEFF.
  if (!nul && input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf) at = 3;
  // Every row holds a "\n" but perhaps the last: the columns never need to grow.
  const rows = new RowTable(input, countLF(input, 0, input.length) + 1, at);
  let rowNumber = 0;
  /** the row just read, which a marker may follow */
  let last: number | undefined;
  /** under --null: decoration lines just skipped, which could also be the start of the next path */
  let skipped: { line: Buffer; restore?: { index: number } }[] = [];
  while (at < input.length) {
    rowNumber++;
    const nl = input.indexOf(LF, at);
    const end = nl === -1 ? input.length : nl + 1;
    const text = mayBeDecoration(input[at]!) ? decorationText(input.subarray(at, end)) : undefined;
    // Under --null a path may begin like a decoration: where none can stand (a marker after no
    // row, a separator before the first row), those bytes start a path.
    const asPath = nul && (text === NO_NEWLINE_MARK ? last === undefined : text === GROUP_SEPARATOR && rows.length === 0);
    if (text === NO_NEWLINE_MARK && !asPath) {
      if (last === undefined) throw rowError(source, rowNumber, `"${NO_NEWLINE_MARK}" follows no row`);
      if (nul) skipped.push({ line: input.subarray(at, end), restore: { index: last } });
      rows.setStrip(last, separatorLength(rows.row(last).bytes, input.subarray(at, end)));
      rows.gap();
      last = undefined;
      at = end;
      continue;
    }
    // A guard trailer (`\ read {...}`, core/row-guard.ts) guards the rows before it, back to the previous one.
    const guard = text === undefined ? undefined : parseGuardLine(guardText(input.subarray(at, end)));
    if (guard !== undefined) {
      if ('bad' in guard) throw rowError(source, rowNumber, guard.bad);
      rows.addGuard(guard);
      last = undefined;
      if (nul) skipped.push({ line: input.subarray(at, end) });
      rows.gap();
      at = end;
      continue;
    }
    if ((text === GROUP_SEPARATOR && !asPath) || (!nul && (isFooter(text) || (text === '' && isFooter(decorationText(nextLine(input, end))))))) {
      last = undefined;
      if (nul) skipped.push({ line: input.subarray(at, end) });
      rows.gap();
      at = end;
      continue;
    }
    const parsed = nul ? nulRow(input, at, source, rowNumber) : { row: textRow(input.subarray(at, end), source, rowNumber), end };
    // An empty --null path is a row only when the lines skipped before it may start its path.
    if (nul && parsed.row.path === '' && skipped.length === 0) throw rowError(source, rowNumber, EMPTY_PATH);
    let alts: AltReading[] | undefined;
    if (skipped.length > 0) {
      // The lines skipped could be the first lines of this row's path (a path may hold "\n" here).
      const { row } = parsed;
      const tail = pathBytesOf(input, at);
      alts = skipped.map((d, i) => ({
        path: pathFromBytes(Buffer.concat([...skipped.slice(i).map((x) => x.line), tail])),
        line: row.line,
        bytes: row.bytes,
        ...(row.anchor !== undefined ? { anchor: row.anchor } : {}),
        why: 'the lines before it, taken as decorations, may be the start of its path',
        ...(d.restore ? { restore: d.restore } : {}),
      }));
    }
    skipped = [];
    last = rows.add(parsed.row, alts);
    at = parsed.end;
  }
  return rows;
}

/** No file has the empty name: such a row would otherwise name the current directory. */
export const EMPTY_PATH = 'the path is empty: a row names a file before its line number';

function rowError(source: string, rowNumber: number, what: string): LinewiseError {
  return new LinewiseError('bad-row', `row ${rowNumber}: ${what}`, source);
}

function nextLine(input: Buffer, at: number): Buffer {
  const nl = input.indexOf(LF, at);
  return input.subarray(at, nl === -1 ? input.length : nl + 1);
}

/** How many bytes at the end of a row were the line ending that separated it from the marker after it. */
function separatorLength(row: Buffer, marker: Buffer): number {
  // Rows whose endings were all turned into CRLF (an editor, a Windows tool) have "\r\n" there.
  const crlf = marker.length >= 2 && marker[marker.length - 2] === CR && marker[marker.length - 1] === LF;
  if (crlf && row.length >= 2 && row[row.length - 2] === CR && row[row.length - 1] === LF) return 2;
  return row[row.length - 1] === LF ? 1 : 0;
}

/**
 * page's footer (`[Read 2 lines (lines 1-2 ...).]`) and a receipt's (`[Edited ...]`, see
 * format/receipt.ts); never holding a tab, which every row does (paths in them are quoted).
 */
/**
 * The footers the readers print, in their exact openings (docs/COMMANDS.md#footers): page's and
 * readlines' (`[Read 3 lines (lines 5-7)` then `.` or `;`), grep's budgets (`[Read 2 of 3
 * matching lines (in 1 of 1 file).`, `[Read 4 rows: ...`, `[Read 1 of 2 files.`), a receipt's
 * `[Edited `. Never a tab, so no row is mistaken for one.
 */
const FOOTER =
  /^\[(?:Read \d+ (?:lines? \(lines \d+-\d+(?: of \d+ total)?\)[.;]|(?:of \d+ )?files?[.;]|rows?: |(?:of \d+ )?matching lines? \(in \d+(?: of \d+)? files?\)[.;])|Edited )[^\t]*\]$/;

function isFooter(text: string | undefined): boolean {
  return text !== undefined && FOOTER.test(text);
}

/** Decorations start with "-", "\\", "[", a colour's ESC, or end at once; most rows with a digit. */
function mayBeDecoration(first: number): boolean {
  return first === 0x2d || first === 0x5c || first === 0x5b || first === 0x1b || first === LF || first === CR;
}

/** A line's text as a decoration: without its line ending and without color (`--color always`). */
function decorationText(b: Buffer): string {
  return b
    .toString('latin1')
    .replace(/\r?\n$/, '')
    .replace(/\x1b\[[0-9;]*m/g, '');
}

/** A trailer line's text: UTF-8 (its JSON may hold any character), without line ending and colour. */
function guardText(b: Buffer): string {
  return b
    .toString('utf8')
    .replace(/\r?\n$/, '')
    .replace(/\x1b\[[0-9;]*m/g, '');
}

/** The bytes of a --null row's path: up to its NUL (or the whole rest when there is none). */
function pathBytesOf(input: Buffer, at: number): Buffer {
  const nul = input.indexOf(NUL, at);
  return input.subarray(at, nul === -1 ? input.length : nul);
}

/** Reads `<field>\t<text>` from `at`: the line field and the bytes to the end of the row. */
function lineAndText(row: Buffer, at: number, bad: (what: string) => LinewiseError): { line: number; anchor?: string; bytes: Buffer } {
  const tab = row.indexOf(TAB, at);
  if (tab === -1) throw bad('not a row: expected <line number><TAB><text> after the path');
  const s = row.toString('utf8', at, tab);
  const f = parseLineField(s);
  if (f === undefined && s.includes('\0')) throw bad('a path ends in a NUL byte, as grep -0 prints it: read such rows with replace --null');
  if (f === undefined) throw bad(`${JSON.stringify(s.slice(0, 40))} is not a line number`);
  if ('bad' in f) throw bad(f.bad);
  if (f.cut || f.from !== undefined) throw cutError(f, bad);
  return { line: toLine(f.line, bad), ...(f.anchor !== undefined ? { anchor: f.anchor } : {}), bytes: row.subarray(tab + 1) };
}

function cutError(f: { line: string; from?: number }, bad: (what: string) => LinewiseError): LinewiseError {
  if (f.from !== undefined) return bad(`line ${f.line} was read in parts (this row holds it from byte ${f.from}) and cannot be written back; read it whole with readlines`);
  return bad(`line ${f.line} was cut by page --max-bytes and cannot be written back; read it whole with readlines`);
}

/** One row of text rows (not --null): a plain row, or a path row with its path quoted or plain. */
function textRow(row: Buffer, source: string, rowNumber: number): Row {
  const bad = (what: string) => rowError(source, rowNumber, what);
  if (row[0] === QUOTE) {
    const q = unquotePath(row, 0);
    if ('bad' in q) throw bad(q.bad);
    if (row[q.end] !== TAB) throw bad('a quoted path must be followed by a tab');
    if (q.bytes.length === 0) throw bad(EMPTY_PATH);
    return { path: pathFromBytes(q.bytes), ...lineAndText(row, q.end + 1, bad), rowNumber };
  }
  const tab = row.indexOf(TAB);
  if (tab === -1) throw bad('not a row: expected <line number><TAB><text> or <path><TAB><line number><TAB><text>');
  const first = row.subarray(0, tab);
  if (first.includes(NUL)) throw bad('the path ends in a NUL byte, as grep -0 prints it: read such rows with replace --null');
  const firstText = first.toString('utf8');
  const f = parseLineField(first.toString('latin1'));
  if (f !== undefined) {
    if ('bad' in f) throw bad(f.bad);
    if (f.cut || f.from !== undefined) throw cutError(f, bad);
    const plain: Row = { path: undefined, line: toLine(f.line, bad), bytes: row.subarray(tab + 1), rowNumber, ...(f.anchor !== undefined ? { anchor: f.anchor } : {}) };
    const alt = altPathRow(row, tab, firstText);
    if (alt !== undefined) plain.alts = [alt];
    return plain;
  }
  if (first.length === 0) throw bad(EMPTY_PATH);
  const path = pathFromBytes(first);
  if (needsQuoting(path)) throw bad(`the path ${quoteRowPath(path)} holds characters that rows print quoted: write it so, in double quotes`);
  return { path, ...lineAndText(row, tab + 1, bad), rowNumber };
}

/** One --null row from `at`: `<path>\0<field>\t<text>`, the path running to the NUL whatever it holds. */
function nulRow(input: Buffer, at: number, source: string, rowNumber: number): { row: Row; end: number } {
  const bad = (what: string) => rowError(source, rowNumber, what);
  const nul = input.indexOf(NUL, at);
  if (nul === -1) throw bad('no NUL: under --null every row is <path><NUL><line number><TAB><text>, as grep -0 -H prints it');
  const nl = input.indexOf(LF, nul);
  const end = nl === -1 ? input.length : nl + 1;
  const row = input.subarray(nul + 1, end);
  const tab = row.indexOf(TAB);
  const lf = row.indexOf(LF);
  if (tab === -1 || (lf !== -1 && lf < tab)) throw bad('not a row: expected <line number><TAB><text> after the NUL that ends the path');
  return { row: { path: pathFromBytes(input.subarray(at, nul)), ...lineAndText(row, 0, bad), rowNumber }, end };
}

function toLine(s: string, bad: (what: string) => Error): number {
  const n = Number(s);
  if (!Number.isSafeInteger(n) || n < 1) throw bad(`line number ${s} is out of range`);
  return n;
}
