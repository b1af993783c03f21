// JSON Lines records: one per row, then a summary. Text as UTF-8, or base64 bytes where a line
// is not valid UTF-8, and the terminator apart, so a consumer can rebuild the bytes exactly.

import { isUtf8 } from 'node:buffer';
import { LinewiseError } from '../core/errors.js';
import { MAX_LINE_BYTES } from '../core/limits.js';
import { joinPieces, type PieceVisitor } from '../core/lines.js';
import type { RowSink } from '../core/read-range.js';
import { TERMINATORS, terminatorLength } from '../core/terminators.js';
import type { Output } from '../io/output.js';
import { type AnchorFn, anchorField } from './rows.js';

/** The text fields of a line record: `text` or `bytes` (base64), and `terminator`. */
export function lineFields(buf: Buffer, start: number, end: number): Record<string, string> {
  const t = terminatorLength(buf, start, end);
  const body = buf.subarray(start, end - t);
  return isUtf8(body)
    ? { text: body.toString('utf8'), terminator: TERMINATORS[t] }
    : { bytes: body.toString('base64'), terminator: TERMINATORS[t] };
}

/** The summary fields every reader ends with: how the input was decoded. */
export function inputFields(f: { encoding: string | undefined; bom: string | undefined; invalidAt: number | undefined }): Record<string, unknown> {
  return { encoding: f.encoding ?? null, bom: f.bom ?? null, invalid_at: f.invalidAt ?? null };
}

/** The `--json` record of what an edit did to one file. */
export function fileChangeRecord(f: {
  path: string;
  changed: boolean;
  written: boolean;
  linesBefore: number;
  linesAfter: number;
  edits: readonly { start: number; end: number; removed: number; added: number; changed: boolean }[];
  alreadyApplied?: boolean;
}): Record<string, unknown> {
  return {
    type: 'file',
    path: f.path,
    changed: f.changed,
    written: f.written,
    lines_before: f.linesBefore,
    lines_after: f.linesAfter,
    edits: f.edits,
    ...(f.alreadyApplied ? { already_applied: true } : {}),
  };
}

/** Writes one JSON record and a newline. */
export function writeRecord(out: Output, record: object): void {
  out.text(`${JSON.stringify(record)}\n`);
}

/** A RowSink that writes `{"type":"line",...}` records. */
export class JsonRows implements RowSink {
  private line = 0;
  /** the row in progress is the rest of its line from this byte (0: a whole line) */
  private part = 0;
  private readonly visit: PieceVisitor;

  constructor(
    private readonly out: Output,
    private readonly path: string,
    /** add each line's `anchor` (`--anchor`) */
    anchor?: AnchorFn,
  ) {
    this.visit = joinPieces(
      (buf, start, end) => {
        const part = this.part > 0 ? { from: this.part } : {};
        writeRecord(out, { type: 'line', path: this.path, line_number: this.line, ...lineFields(buf, start, end), ...part, ...(anchor && this.part === 0 ? { anchor: anchorField(anchor, buf, start, end).slice(1) } : {}) });
      },
      MAX_LINE_BYTES,
      () =>
        new LinewiseError('line-too-long', `line ${this.line} is longer than ${MAX_LINE_BYTES} bytes, too long for --json (read it without --json)`),
    );
  }

  row(line: number, buf: Buffer, start: number, end: number, ends: boolean): void {
    this.line = line;
    this.visit(buf, start, end, ends);
  }

  cutRow(line: number, buf: Buffer, start: number, end: number, from = 0): void {
    writeRecord(this.out, { type: 'line', path: this.path, line_number: line, ...lineFields(buf, start, end), cut: true, ...(from > 0 ? { from } : {}) });
  }

  /** The rest of a line from byte `from`: a record of those bytes with `from` (gathered, as a line is). */
  partRow(line: number, from: number, buf: Buffer, start: number, end: number, ends: boolean): void {
    this.part = from;
    this.row(line, buf, start, end, ends);
    if (ends) this.part = 0;
  }

  flush(): void {
    this.out.flush();
  }
}
