// Rows as text, the readers' and grep's: `<n>\t<line bytes>` (`<n>#<anchor>\t...` with anchors),
// written piece by piece so a line of any length streams through, and the marker after a line
// without terminator; grep's rows (`[path<TAB|NUL>]n[#anchor]<TAB>line`, the path quoted when it
// must be), `--` between context groups, and the lines of -c (counts) and -l (file names).

import { MAX_LINE_BYTES } from '../core/limits.js';
import { joinPieces, type PieceVisitor } from '../core/lines.js';
import { GROUP_SEPARATOR } from '../core/parse-rows.js';
import { pathToBytes, quotePath, quoteRowPath } from '../core/path-names.js';
import type { RowSink } from '../core/read-range.js';
import { ANCHOR_DIGITS, CUT_MARK, NO_NEWLINE_MARK, partMark } from '../core/row-fields.js';
import type { RowHasher } from '../core/row-guard.js';
import { LinewiseError } from '../core/errors.js';
import type { MatchSink } from '../core/searcher.js';
import { terminatorLength } from '../core/terminators.js';
import type { Output } from '../io/output.js';
import { plain, type Style } from './style.js';

export { NO_NEWLINE_MARK } from '../core/row-fields.js';

/** The anchor of a line's text (without its terminator): {@link ANCHOR_DIGITS} lowercase hex digits or more. */
export type AnchorFn = (body: Uint8Array) => string;

const NO_PREFIX = new Uint8Array(0);

/** The bytes that end the row of a line without terminator, on every output: "\n", the marker, "\n". */
const MARK_AFTER_OPEN_ROW = Buffer.from(`\n${NO_NEWLINE_MARK}\n`);

/**
 * Ends a row whose bytes `[start, end)` of `buf` were just written: after a line without a
 * terminator (only ever a file's last line) comes a "\n" and the no-newline marker, so nothing
 * printed next, and no row stream joined after it with `cat`, runs into the row.
 */
export function endRow(out: Output, buf: Uint8Array, start: number, end: number): void {
  if (terminatorLength(buf, start, end) === 0) out.bytes(MARK_AFTER_OPEN_ROW);
}

/** `#<anchor>` for a line's text, as rows print it after the number. */
export function anchorField(anchor: AnchorFn, buf: Uint8Array, start: number, end: number): string {
  const body = buf.subarray(start, end - terminatorLength(buf, start, end));
  return `#${anchor(body).slice(0, ANCHOR_DIGITS)}`;
}

/** Writes rows as text. Pieces of one row follow its `<n>\t` prefix directly. */
export class TextRows implements RowSink {
  private inRow = false;
  /** with anchors: whole lines (the anchor, printed first, needs the whole text) */
  private readonly joined: PieceVisitor | undefined;
  private line = 0;

  constructor(
    private readonly out: Output,
    private readonly style: Style,
    /** print `<n>#<anchor>` (`--anchor`) */
    private readonly anchor?: AnchorFn,
    /** hash the rows for the guard trailer (`--guard`) */
    readonly guard?: RowHasher,
  ) {
    if (anchor === undefined) return;
    this.joined = joinPieces(
      (buf, start, end) => {
        this.out.text(`${this.style.number(`${this.line}${anchorField(anchor, buf, start, end)}`)}\t`);
        this.out.bytes(buf, start, end);
        endRow(this.out, buf, start, end);
      },
      MAX_LINE_BYTES,
      () => new LinewiseError('line-too-long', `line ${this.line} is longer than ${MAX_LINE_BYTES} bytes, too long to anchor (read it without --anchor)`),
    );
  }

  row(line: number, buf: Buffer, start: number, end: number, ends: boolean): void {
    if (this.joined !== undefined) {
      this.line = line;
      this.joined(buf, start, end, ends);
      return;
    }
    // Uncoloured (always, when piped): the number's digits written straight into the output
    // buffer, no string made per row.
    if (this.inRow) this.out.bytes(buf, start, end);
    else if (this.style === plain) this.out.row(NO_PREFIX, line, buf, start, end);
    else {
      this.out.text(`${this.style.number(String(line))}\t`);
      this.out.bytes(buf, start, end);
    }
    this.guard?.piece(line, buf, start, end, ends);
    this.inRow = !ends;
    if (ends) endRow(this.out, buf, start, end);
  }

  /** A line cut short: never anchored (its anchor would be of the part shown), always ended by "\n". */
  cutRow(line: number, buf: Buffer, start: number, end: number, from = 0): void {
    this.out.text(`${this.style.number(String(line))}${partMark(from, true)}\t`);
    this.out.bytes(buf, start, end);
    this.out.text('\n');
  }

  /** The rest of a line from byte `from`, `N[@from]\t...`: never anchored nor guarded (replace refuses it). */
  partRow(line: number, from: number, buf: Buffer, start: number, end: number, ends: boolean): void {
    if (!this.inRow) this.out.text(`${this.style.number(`${line}${partMark(from, false)}`)}\t`);
    this.out.bytes(buf, start, end);
    this.inRow = !ends;
    if (ends) endRow(this.out, buf, start, end);
  }

  flush(): void {
    this.out.flush();
  }
}

// ---- grep's rows

/** Byte ranges of the matches in a line, relative to its start, packed as pairs `[s0, e0, s1, e1, ...]`. */
export type RangesFn = (buf: Buffer, start: number, end: number) => Uint32Array;

export interface GrepPrinterOptions {
  /** print the path before each row */
  withPath: boolean;
  /** end the path with NUL instead of a tab (-0) */
  nul: boolean;
  /** style of rows: plain unless stdout is a terminal */
  rowStyle: Style;
  /** style of `--` separators */
  noteStyle: Style;
  /** where the matches are in a selected line; undefined when they are not highlighted */
  ranges?: RangesFn;
  /** print `n#anchor` (`--anchor`) */
  anchor?: AnchorFn;
  /** hash each row's line as read for the guard trailer (`--guard`; core/row-guard.ts) */
  guard?: RowHasher;
}

const EMPTY = new Uint8Array(0);

/** Prints rows for every file of one grep run; `file(path)` names the file the next rows are from. */
export class TextGrep implements MatchSink {
  /** the path and its separator that start each row, as bytes (a name under -0 may not be UTF-8) */
  private prefix: Uint8Array | undefined = EMPTY;
  /** the file the next rows are from */
  private path = '';
  /** rows are undecorated: numbers and paths go out as bytes (Output.row) */
  private readonly plain: boolean;
  private printed = false;
  /** under --replace: the line as the file holds it, which the anchor and the trailer's hash are of */
  private anchorSource: Buffer | undefined;
  private readonly open: Buffer;
  private readonly close: Buffer;

  constructor(
    private readonly out: Output,
    private readonly o: GrepPrinterOptions,
  ) {
    const [open = '', close = ''] = o.rowStyle.match('\u0000').split('\u0000');
    this.open = Buffer.from(open);
    this.close = Buffer.from(close);
    this.plain = o.rowStyle.number('1') === '1' && this.open.length === 0 && o.anchor === undefined;
  }

  file(path: string): void {
    // made at the file's first row: most files of a tree have none
    this.path = path;
    if (this.o.guard) this.o.guard.path = path;
    this.prefix = this.o.withPath ? undefined : EMPTY;
  }

  private get prefixBytes(): Uint8Array {
    return (this.prefix ??= rowPathPrefix(this.o, this.path));
  }

  /** The fast branch, when nothing is colored: the row goes straight into the output buffer. */
  private plainRow(line: number, buf: Buffer, start: number, end: number): boolean {
    if (!this.plain) return false;
    this.guardRow(line, buf, start, end);
    this.printed = true;
    this.out.row(this.prefixBytes, line, buf, start, end);
    endRow(this.out, buf, start, end);
    return true;
  }

  match(line: number, buf: Buffer, start: number, end: number): void {
    if (this.plainRow(line, buf, start, end)) return;
    this.guardRow(line, buf, start, end);
    this.head(line, buf, start, end);
    const ranges = this.open.length > 0 && this.o.ranges ? this.o.ranges(buf, start, end) : undefined;
    if (ranges === undefined || ranges.length === 0) this.out.bytes(buf, start, end);
    else {
      // Highlight on a terminal only: the escapes go around the line's own bytes.
      let at = start;
      for (let k = 0; k < ranges.length; k += 2) {
        const s = ranges[k]!;
        const e = ranges[k + 1]!;
        if (e === s) continue;
        this.out.bytes(buf, at, start + s);
        this.out.bytes(this.open);
        this.out.bytes(buf, start + s, start + e);
        this.out.bytes(this.close);
        at = start + e;
      }
      this.out.bytes(buf, at, end);
    }
    endRow(this.out, buf, start, end);
  }

  /** --replace: the row shows `buf`, its anchor is of `original`, the line the guard will check. */
  replacedMatch(line: number, buf: Buffer, start: number, end: number, original: Buffer): void {
    this.anchorSource = original;
    try {
      this.match(line, buf, start, end);
    } finally {
      this.anchorSource = undefined;
    }
  }

  context(line: number, buf: Buffer, start: number, end: number): void {
    if (this.plainRow(line, buf, start, end)) return;
    this.guardRow(line, buf, start, end);
    this.head(line, buf, start, end);
    this.out.bytes(buf, start, end);
    endRow(this.out, buf, start, end);
  }

  /** The row's line as the file holds it (under --replace, before the replacement) into the trailer's hashes. */
  private guardRow(line: number, buf: Buffer, start: number, end: number): void {
    const g = this.o.guard;
    if (g === undefined) return;
    const from = this.anchorSource;
    if (from) g.line(line, from, 0, from.length);
    else g.line(line, buf, start, end);
  }

  gap(): void {
    if (this.printed) this.out.text(`${this.o.noteStyle.note(GROUP_SEPARATOR)}\n`);
  }

  /**
   * -o: one match, `[path<TAB>]n:column<TAB>match\n`. The number is not a line number alone, so
   * `replace --rows` refuses the row: a part of a line written back would replace the whole line.
   */
  part(line: number, column: number, buf: Buffer, start: number, end: number): void {
    this.printed = true;
    this.out.bytes(this.prefixBytes);
    this.out.text(`${this.o.rowStyle.number(`${line}:${column}`)}\t`);
    if (this.open.length > 0) this.out.text(this.o.rowStyle.match(buf.toString('utf8', start, end)));
    else this.out.bytes(buf, start, end);
    this.out.text('\n');
  }

  /** A row the byte budget cut: `n[cut]<TAB>` and its first bytes (refused by `replace --rows`). */
  cutRow(line: number, buf: Buffer, start: number, end: number, column?: number, from = 0): void {
    this.printed = true;
    const n = column === undefined ? String(line) : `${line}:${column}`;
    this.out.bytes(this.prefixBytes);
    this.out.text(`${this.o.rowStyle.number(n)}${from > 0 ? partMark(from, true) : CUT_MARK}\t`);
    this.out.bytes(buf, start, end);
    this.out.text('\n');
  }

  /** The rest of a row from its byte `from`, `n[@from]<TAB>...` to the line's end (refused by `replace --rows`). */
  restRow(line: number, from: number, buf: Buffer, start: number, end: number): void {
    this.printed = true;
    this.out.bytes(this.prefixBytes);
    this.out.text(`${this.o.rowStyle.number(`${line}${partMark(from, false)}`)}\t`);
    this.out.bytes(buf, start, end);
    endRow(this.out, buf, start, end);
  }

  private head(line: number, buf: Buffer, start: number, end: number): void {
    this.printed = true;
    const from = this.anchorSource;
    const anchor = this.o.anchor ? (from ? anchorField(this.o.anchor, from, 0, from.length) : anchorField(this.o.anchor, buf, start, end)) : '';
    this.out.bytes(this.prefixBytes);
    this.out.text(`${this.o.rowStyle.number(`${line}${anchor}`)}\t`);
  }
}

/** `path<TAB>` (the path quoted when it must be) or, under -0, `path<NUL>` with the path's own bytes. */
function rowPathPrefix(o: GrepPrinterOptions, path: string): Buffer {
  return o.nul ? pathField(o, path, '\0') : Buffer.from(`${o.rowStyle.path(quoteRowPath(path))}\t`);
}

/** A path, styled, then `end`: under -0 its own bytes (whatever they are), else quoted as messages quote it. */
function pathField(o: GrepPrinterOptions, path: string, end: string): Buffer {
  if (!o.nul) return Buffer.from(`${o.rowStyle.path(quotePath(path))}${end}`);
  const [open = '', close = ''] = o.rowStyle.path('\u0000').split('\u0000');
  return Buffer.concat([Buffer.from(open), pathToBytes(path), Buffer.from(`${close}${end}`)]);
}

/** A sink that prints nothing: -c and -l only need the searcher's count. */
export const NO_ROWS: MatchSink = { match() {}, context() {}, gap() {} };

/** `-c`: `[path<TAB|NUL>]count`. */
export function printCount(out: Output, o: GrepPrinterOptions, path: string, count: number): void {
  if (o.withPath) out.bytes(pathField(o, path, o.nul ? '\0' : '\t'));
  out.text(`${count}\n`);
}

/** `-l`: the path, ended by a newline (or by NUL under -0, as `grep -lZ`). */
export function printPath(out: Output, o: GrepPrinterOptions, path: string): void {
  out.bytes(pathField(o, path, o.nul ? '\0' : '\n'));
}

