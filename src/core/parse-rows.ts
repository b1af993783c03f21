// The row format read back: `<n>\t<line bytes>` (optionally `<path>\t` or `<path>\0` first) parsed
// for `replace --rows`, the readers' decorations skipped, anything else refused rather than guessed.

import { LinewiseError } from './errors.js';

/** Marks the number of a row whose line `page --max-bytes` cut short: `17[cut]\t...`. */
export const CUT_MARK = '[cut]';

/** The separator grep prints between groups of context. */
export const GROUP_SEPARATOR = '--';

/** One row parsed back: which line of which file, and the new bytes (terminator included, if any). */
export interface Row {
  /** the path the row carried, or undefined for a plain `<n>\t` row */
  path: string | undefined;
  line: number;
  /** the line's bytes as the row gives them, terminator included when present */
  bytes: Buffer;
  /** 1-based number of the row in the rows input, for messages */
  rowNumber: number;
}

const TAB = 9;
const NUL = 0;
const LF = 10;

/**
 * Parses rows as the readers print them. Skips page's footer (and the blank line before it) and
 * grep's `--` separator; refuses a row marked as cut and anything else that is not a row.
 * `source` names the rows input in messages.
 */
export function parseRows(input: Buffer, source: string): Row[] {
  const rows: Row[] = [];
  let at = 0;
  let rowNumber = 0;
  // A UTF-8 BOM at the very start (an editor saved the rows file) is not part of the first row.
  if (input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf) at = 3;
  while (at < input.length) {
    rowNumber++;
    const nl = input.indexOf(LF, at);
    const end = nl === -1 ? input.length : nl + 1;
    const row = input.subarray(at, end);
    at = end;
    if (isDecoration(row, input, end)) continue;
    rows.push(parseRow(row, source, rowNumber));
  }
  return rows;
}

/** Footer, its blank line, and group separators: printed by the readers, never an edit. */
function isDecoration(row: Buffer, input: Buffer, end: number): boolean {
  const text = stripEol(row);
  if (text === GROUP_SEPARATOR || isFooter(text)) return true;
  if (text !== '') return false;
  // the blank line that precedes a footer, and only that one
  const nl = input.indexOf(LF, end);
  return isFooter(stripEol(input.subarray(end, nl === -1 ? input.length : nl + 1)));
}

/** page's footer (`[Read ...]`) and a receipt's (`[Edited ...]`, see format/receipt.ts). */
function isFooter(text: string): boolean {
  return (text.startsWith('[Read ') || text.startsWith('[Edited ')) && text.endsWith(']');
}

/** A decoration's text without its line ending and without color (`--color always` colors them). */
function stripEol(b: Buffer): string {
  return b
    .toString('latin1')
    .replace(/\r?\n$/, '')
    .replace(/\x1b\[[0-9;]*m/g, '');
}

function parseRow(row: Buffer, source: string, rowNumber: number): Row {
  const bad = (what: string) =>
    new LinewiseError('bad-row', `row ${rowNumber}: ${what}`, source);
  const firstSep = findSeparator(row, 0);
  if (firstSep === -1) throw bad('not a row: expected <line number><TAB><text>');
  const first = row.toString('utf8', 0, firstSep);
  if (row[firstSep] === TAB && first.endsWith(CUT_MARK) && isNumber(first.slice(0, -CUT_MARK.length))) {
    throw bad(
      `line ${first.slice(0, -CUT_MARK.length)} was cut by page --max-bytes and cannot be written back; read it whole with readlines`,
    );
  }
  if (row[firstSep] === TAB && isNumber(first)) {
    return { path: undefined, line: toLine(first, bad), bytes: row.subarray(firstSep + 1), rowNumber };
  }
  // <path>\t<n>\t or <path>\0<n>\t
  const secondSep = row.indexOf(TAB, firstSep + 1);
  if (secondSep === -1) throw bad('not a row: expected <line number><TAB><text> or <path><TAB><line number><TAB><text>');
  const num = row.toString('utf8', firstSep + 1, secondSep);
  if (num.endsWith(CUT_MARK) && isNumber(num.slice(0, -CUT_MARK.length))) {
    throw bad(`line ${num.slice(0, -CUT_MARK.length)} was cut by page --max-bytes and cannot be written back; read it whole with readlines`);
  }
  if (!isNumber(num)) throw bad(`"${num.slice(0, 40)}" is not a line number`);
  return { path: first, line: toLine(num, bad), bytes: row.subarray(secondSep + 1), rowNumber };
}

/** A path ends at a NUL (`--null`) or at the first tab. */
function findSeparator(row: Buffer, from: number): number {
  const nul = row.indexOf(NUL, from);
  const tab = row.indexOf(TAB, from);
  if (nul !== -1 && (tab === -1 || nul < tab)) return nul;
  return tab;
}

function isNumber(s: string): boolean {
  return /^[0-9]+$/.test(s);
}

function toLine(s: string, bad: (what: string) => Error): number {
  const n = Number(s);
  if (!Number.isSafeInteger(n) || n < 1) throw bad(`line number ${s} is out of range`);
  return n;
}
