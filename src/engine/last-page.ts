// page --last N in one read of the file and a short one: the count keeps checkpoints (a byte
// offset and the lines before it), and the page is read from the nearest one before its first
// line, up to where the count ended. Decoded text has no byte offsets to go back to: it is read
// again from the top.

import { Checkpoints, countMarking } from '../core/checkpoints.js';
import { LineScanner } from '../core/lines.js';
import { lastFirstLine, readLast } from '../core/read-last.js';
import { readPage } from '../core/read-page.js';
import { countRest, type RowSink } from '../core/read-range.js';
import type { OpenedText } from '../io/input.js';

export interface LastOptions {
  /** the N of --last */
  want: number;
  /** cap on the bytes of the rows; 0: none */
  maxBytes: number;
  countBytes: number;
  prefixBytes: (line: number) => number;
}

/** What the page showed, as pageTo reports it. */
export interface LastPage {
  offset: number;
  first: number;
  shown: number;
  total: number | undefined;
  nextOffset: number | undefined;
  /** lines of the N left out at the top because the cap could not hold them */
  dropped?: number;
  cut?: { line: number; shown: number; length: number | undefined; from: number };
}

/**
 * The last `want` lines of the file `t` (its size known): under a cap, the last rows that fit
 * (readLast); without one, the page at offset `total - want`. `again` opens the file anew.
 */
export function lastPage(t: OpenedText, o: LastOptions, sink: RowSink, again: () => OpenedText): LastPage {
  const marks = t.codec === undefined && t.input.readAt !== undefined ? new Checkpoints(t.scanner.offset) : undefined;
  const total = marks ? countMarking(t.scanner, marks) : countRest(t.scanner);
  const end = t.scanner.offset;
  const capped = total > 0 && o.maxBytes > 0;
  const offset = Math.max(0, total - o.want);
  const first = capped ? lastFirstLine({ total, want: o.want, maxBytes: o.maxBytes }) : offset + 1;

  /** Runs `read` over a scanner that starts `linesBefore` lines into the file and holds `size` bytes. */
  const fromLine = <T>(read: (scanner: LineScanner, linesBefore: number, size: number | undefined) => T): T => {
    if (marks) {
      const at = marks.before(first);
      const scanner = new LineScanner(t.input.readAt!(at.offset, end));
      try {
        return read(scanner, at.lines, end - at.offset);
      } finally {
        scanner.release();
      }
    }
    const u = again();
    try {
      return read(u.scanner, 0, u.codec ? undefined : u.input.size);
    } finally {
      u.input.close();
    }
  };

  if (capped) {
    return fromLine((scanner, linesBefore) => {
      const r = readLast(scanner, { total, want: o.want, maxBytes: o.maxBytes, prefixBytes: o.prefixBytes, linesBefore }, sink);
      return { offset: r.first - 1, first: r.first, shown: r.shown, total, nextOffset: undefined, dropped: r.dropped, ...(r.cut ? { cut: r.cut } : {}) };
    });
  }
  return fromLine((scanner, linesBefore, size) => {
    const r = readPage(scanner, { offset, limit: o.want, maxBytes: o.maxBytes, countBytes: o.countBytes, prefixBytes: o.prefixBytes, inputSize: size, linesBefore }, sink);
    const more = r.total === undefined || r.total > r.nextOffset;
    return { offset, first: r.first, shown: r.shown, total: r.total, nextOffset: more ? r.nextOffset : undefined, ...(r.cut ? { cut: r.cut } : {}) };
  });
}
