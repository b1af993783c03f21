// What the library hands back: lines as data, collected from the same core the CLI prints from.

import { isUtf8 } from 'node:buffer';
import { LinewiseError } from '../core/errors.js';
import { MAX_LINE_BYTES } from '../core/limits.js';
import { joinPieces, type PieceVisitor } from '../core/lines.js';
import type { RowSink } from '../core/read-range.js';
import { ANCHOR_DIGITS } from '../core/row-fields.js';
import { type Terminator, TERMINATORS, terminatorLength } from '../core/terminators.js';
import { lineHash } from '../io/line-hash.js';
import { textBytes } from './validate.js';

export type { Terminator } from '../core/terminators.js';
export { MAX_LINE_BYTES } from '../core/limits.js';

/** One line of a file, as the CLI would print it in a row. */
export interface Line {
  /** the file the line came from, as given (`-` for standard input) */
  path: string;
  /** 1-based line number: the same number every subcommand uses */
  line: number;
  /**
   * The line's bytes verbatim, terminator included: concatenating the `bytes` of every line gives
   * back the file exactly. For a cut line (see {@link Line.cut}) only the bytes shown.
   */
  bytes: Buffer;
  /** the line without its terminator, decoded as UTF-8; `undefined` when it is not valid UTF-8 */
  text: string | undefined;
  /** the terminator that ends `bytes` */
  terminator: Terminator;
  /** true when `page`'s byte cap cut this line short: `bytes` holds only its first bytes */
  cut?: true;
  /** the line's bytes from this byte on (the rest of a line a budget cut): not the whole line */
  from?: number;
  /**
   * With the `anchor` option: the line's anchor, as `--anchor` prints it (`12#<anchor>`), the
   * first 8 hex digits of the SHA-256 of its text. Fed back to {@link replaceRows} with the
   * line, it guards the edit: a line changed since is not edited (StaleEditError).
   */
  anchor?: string;
}

/** The anchor of a line's text (without its terminator), as rows print it. */
export function anchorOf(text: string | Uint8Array): string {
  // textBytes only for what is neither: it throws the caller's mistake as a LinewiseError.
  return anchorOfBody(typeof text === 'string' ? Buffer.from(text, 'utf8') : text instanceof Uint8Array ? text : textBytes(text, 'text'));
}

function anchorOfBody(body: Uint8Array): string {
  return lineHash(body).slice(0, ANCHOR_DIGITS);
}

/** Copies bytes `[start, end)` of a reused buffer into a {@link Line}; `anchored` adds its anchor. */
export function toLine(path: string, line: number, buf: Uint8Array, start: number, end: number, anchored = false): Line {
  const bytes = Buffer.from(buf.subarray(start, end)); // the scanner reuses its buffer: copy
  const t = terminatorLength(bytes, 0, bytes.length);
  const body = bytes.subarray(0, bytes.length - t);
  return { path, line, bytes, text: isUtf8(body) ? body.toString('utf8') : undefined, terminator: TERMINATORS[t], ...(anchored ? { anchor: anchorOfBody(body) } : {}) };
}

/** A RowSink that keeps every row as a {@link Line}; lines that arrive in pieces are joined first. */
export class LineCollector implements RowSink {
  readonly lines: Line[] = [];
  private line = 0;
  private readonly visit: PieceVisitor;

  constructor(
    private readonly path: string,
    private readonly anchored = false,
  ) {
    this.visit = joinPieces(
      (buf, start, end) => {
        this.lines.push(toLine(this.path, this.line, buf, start, end, this.anchored));
      },
      MAX_LINE_BYTES,
      () => new LinewiseError('line-too-long', `line ${this.line} is longer than ${MAX_LINE_BYTES} bytes, too long to hold in memory`),
    );
  }

  row(line: number, buf: Buffer, start: number, end: number, ends: boolean): void {
    this.line = line;
    this.visit(buf, start, end, ends);
  }

  cutRow(line: number, buf: Buffer, start: number, end: number, from = 0): void {
    this.lines.push({ ...toLine(this.path, line, buf, start, end), cut: true, ...(from > 0 ? { from } : {}) });
  }

  partRow(line: number, from: number, buf: Buffer, start: number, end: number, ends: boolean): void {
    this.row(line, buf, start, end, ends);
    if (ends) this.lines[this.lines.length - 1]!.from = from;
  }
}
