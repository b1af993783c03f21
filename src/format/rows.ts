// Rows as text: `<n>\t<line bytes>` (`<n>#<anchor>\t...` with anchors), written piece by piece
// so a line of any length streams through, and the marker after a line without terminator.

import { MAX_LINE_BYTES } from '../core/limits.js';
import { joinPieces, type PieceVisitor } from '../core/lines.js';
import type { RowSink } from '../core/read-range.js';
import { ANCHOR_DIGITS, NO_NEWLINE_MARK, partMark } from '../core/row-fields.js';
import { FNV_START, fnv1a, type GuardLog } from '../core/row-guard.js';
import { LinewiseError } from '../core/errors.js';
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

/**
 * Hashes each row's line as it is printed, for the guard trailer (core/row-guard.ts): the text
 * without its terminator, piece by piece, so a line of any length needs no copy.
 */
export class RowHasher {
  private h = FNV_START;

  constructor(
    readonly log: GuardLog,
    /** the file the rows are of, as the trailer names it */
    public path: string,
  ) {}

  /** A piece of line `line`; `ends`: it completes the line (terminator included, if any). */
  piece(line: number, buf: Uint8Array, start: number, end: number, ends: boolean): void {
    this.h = fnv1a(buf, start, ends ? end - terminatorLength(buf, start, end) : end, this.h);
    if (!ends) return;
    this.log.add(this.path, line, this.h);
    this.h = FNV_START;
  }

  /** A whole line `[start, end)`, terminator included if any. */
  line(line: number, buf: Uint8Array, start: number, end: number): void {
    this.piece(line, buf, start, end, true);
  }

  /** Writes the trailer (nothing when no row was guarded). */
  writeTrailer(out: Output): void {
    this.log.write((piece) => out.text(piece));
  }
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
