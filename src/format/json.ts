// JSON Lines records: one per row, then a summary. Text as UTF-8, or base64 bytes where a line
// is not valid UTF-8, and the terminator apart, so a consumer can rebuild the bytes exactly.

import { isUtf8 } from 'node:buffer';
import { joinPieces, type PieceVisitor, terminatorLength } from '../core/lines.js';
import { LinewiseError } from '../core/errors.js';
import type { RowSink } from '../core/read.js';
import type { Output } from '../io/output.js';

/** The longest line a JSON record holds (it must be whole in memory to be encoded). */
export const MAX_JSON_LINE = 64 << 20;

const TERMINATORS = ['', '\n', '\r\n'] as const;

/** The text fields of a line record: `text` or `bytes` (base64), and `terminator`. */
export function lineFields(buf: Buffer, start: number, end: number): Record<string, string> {
  const t = terminatorLength(buf, start, end);
  const body = buf.subarray(start, end - t);
  return isUtf8(body)
    ? { text: body.toString('utf8'), terminator: TERMINATORS[t] }
    : { bytes: body.toString('base64'), terminator: TERMINATORS[t] };
}

/** Writes one JSON record and a newline. */
export function writeRecord(out: Output, record: object): void {
  out.text(`${JSON.stringify(record)}\n`);
}

/** A RowSink that writes `{"type":"line",...}` records. */
export class JsonRows implements RowSink {
  private line = 0;
  private readonly visit: PieceVisitor;

  constructor(
    private readonly out: Output,
    private readonly path: string,
  ) {
    this.visit = joinPieces(
      (buf, start, end) => {
        writeRecord(out, { type: 'line', path: this.path, line_number: this.line, ...lineFields(buf, start, end) });
      },
      MAX_JSON_LINE,
      (bytes) =>
        new LinewiseError('line-too-long', `line ${this.line} is longer than ${MAX_JSON_LINE} bytes, too long for --json (read it without --json)`),
    );
  }

  row(line: number, buf: Buffer, start: number, end: number, ends: boolean): void {
    this.line = line;
    this.visit(buf, start, end, ends);
  }

  cutRow(line: number, buf: Buffer, start: number, end: number): void {
    writeRecord(this.out, { type: 'line', path: this.path, line_number: line, ...lineFields(buf, start, end), cut: true });
  }
}
