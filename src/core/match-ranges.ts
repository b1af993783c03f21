// Where in a line the pattern matches, as byte ranges: for highlighting and --json submatches.

import { terminatorLength } from './terminators.js';
import type { CompiledPattern } from './pattern.js';
import { byteOffsets } from './utf8.js';

/**
 * The byte ranges, relative to `start`, of every match of `pattern` in line `[start, end)`
 * (terminator excluded from matching), for highlighting and --json submatches.
 */
export function matchRanges(pattern: CompiledPattern, buf: Buffer, start: number, end: number): Array<[number, number]> {
  const te = end - terminatorLength(buf, start, end);
  const text = buf.toString('utf8', start, te);
  const re = pattern.all;
  re.lastIndex = 0;
  const idx: number[] = [];
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    idx.push(m.index, m.index + m[0].length);
    if (m[0].length === 0) {
      if (re.lastIndex >= text.length) break;
      re.lastIndex += (text.codePointAt(re.lastIndex) ?? 0) > 0xffff ? 2 : 1;
    }
  }
  const bytes = byteOffsets(buf, start, te, idx);
  const out: Array<[number, number]> = [];
  for (let i = 0; i < bytes.length; i += 2) out.push([bytes[i]!, bytes[i + 1]!]);
  return out;
}
