// Where in a line the pattern matches, as byte ranges: for highlighting, --json submatches and -o.

import { terminatorLength } from './terminators.js';
import type { CompiledPattern } from './pattern.js';
import { ByteCursor } from './utf8.js';

/**
 * When matches were last being made (`performance.now()`, noted every 1024 matches): a search
 * stopped by its deadline while matches kept coming was slow with output (a line of millions of
 * matches), not stuck in one match that backtracks; the engine tells the two apart by this.
 */
export const matchProgress = { matches: 0, at: 0 };

/** Counts one match found, or shown (a row, a record's part): the work of a line of many matches going on. */
export function noteMatch(): void {
  if ((++matchProgress.matches & 1023) === 0) matchProgress.at = performance.now();
}

/**
 * The byte ranges, relative to `start`, of every match of `pattern` in line `[start, end)`
 * (terminator excluded from matching), as pairs `[s0, e0, s1, e1, ...]`. Packed, and converted to
 * bytes as the matches come: a 4 MB line of 4 million matches takes 32 MB here, where an array of
 * pairs took hundreds.
 */
export function matchRanges(pattern: CompiledPattern, buf: Buffer, start: number, end: number): Uint32Array {
  const te = end - terminatorLength(buf, start, end);
  const text = buf.toString('utf8', start, te);
  const cursor = new ByteCursor(buf, start, te);
  const re = pattern.all;
  re.lastIndex = 0;
  let out = new Uint32Array(16);
  let n = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (n + 2 > out.length) {
      const grown = new Uint32Array(out.length * 2);
      grown.set(out);
      out = grown;
    }
    noteMatch();
    out[n++] = cursor.offset(m.index);
    out[n++] = cursor.offset(m.index + m[0].length);
    if (m[0].length === 0) {
      if (re.lastIndex >= text.length) break;
      re.lastIndex += (text.codePointAt(re.lastIndex) ?? 0) > 0xffff ? 2 : 1;
    }
  }
  return out.subarray(0, n);
}
