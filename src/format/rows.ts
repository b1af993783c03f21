// Rows as text: `<n>\t<line bytes>`, written piece by piece so a line of any length streams through.

import { terminatorLength } from '../core/terminators.js';
import type { RowSink } from '../core/read-range.js';
import { CUT_MARK } from '../core/parse-rows.js';
import type { Output } from '../io/output.js';
import type { Style } from './style.js';

/** Writes rows as text. Pieces of one row follow its `<n>\t` prefix directly. */
export class TextRows implements RowSink {
  private inRow = false;

  constructor(
    private readonly out: Output,
    private readonly style: Style,
  ) {}

  row(line: number, buf: Buffer, start: number, end: number, ends: boolean): void {
    if (!this.inRow) this.out.text(`${this.style.number(String(line))}\t`);
    this.out.bytes(buf, start, end);
    this.inRow = !ends;
    // A line without a terminator ends the file; anything printed after it starts on a new line.
    if (ends && terminatorLength(buf, start, end) === 0) this.out.leaveOpen();
  }

  cutRow(line: number, buf: Buffer, start: number, end: number): void {
    this.out.text(`${this.style.number(String(line))}${CUT_MARK}\t`);
    this.out.bytes(buf, start, end);
    this.out.text('\n');
  }
}

/** What a terminal shows after a last row without a terminator; never written to a pipe. */
export const NO_NEWLINE_MARK = '\\ No newline at end of file';

