// Inputs named by options (`--from`, `--rows`, `--expect`): a file, or `-` for standard input,
// read whole.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { LinewiseError } from '../core/errors.js';
import type { ReadFn } from '../core/lines.js';
import { fileError } from './input.js';

/** Where option inputs are read from. */
export interface OptionSource {
  cwd: string;
  stdin: ReadFn;
  stdinIsTTY: boolean;
}

/**
 * Reads a whole input given to an option `what`: a file, or "-" for standard input (refused when
 * it is a terminal, except for `--from`, whose text may be typed).
 */
export function readOptionInput(src: OptionSource, source: string, what: string): Buffer {
  if (source === '-') {
    if (src.stdinIsTTY && what !== '--from') {
      throw new LinewiseError('usage', `${what} -: standard input is a terminal; pipe the rows in or name a file`);
    }
    return readAll(src.stdin);
  }
  try {
    return fs.readFileSync(path.resolve(src.cwd, source));
  } catch (e) {
    throw fileError(e, source);
  }
}

function readAll(read: ReadFn): Buffer {
  const chunks: Buffer[] = [];
  for (;;) {
    const buf = Buffer.allocUnsafe(1 << 16);
    const n = read(buf, 0, buf.length);
    if (n <= 0) break;
    chunks.push(buf.subarray(0, n));
  }
  return Buffer.concat(chunks);
}
