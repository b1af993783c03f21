// Inputs named by options (`--from`, `--rows`, `--expect`): a regular file, or `-` for standard
// input, read whole but bounded: a device, FIFO or socket named where a file was meant is refused
// before a byte is read, and no input may pass its cap (so `--from /dev/zero`, or an endless
// pipe on standard input, ends with one clear line instead of eating all memory).

import * as fs from 'node:fs';
import * as path from 'node:path';
import { LinewiseError } from '../core/errors.js';
import { fsPath } from '../core/path-names.js';
import type { ReadFn } from '../core/lines.js';
import { fileError, fileKind } from './input.js';

/** Where option inputs are read from. */
export interface OptionSource {
  cwd: string;
  stdin: ReadFn;
  stdinIsTTY: boolean;
}

/**
 * The most an option input may hold. The new text (`--from`) and the rows (`--rows`, `--expect`)
 * are edits, held in memory until the file is written; the cap is far past any edit a person or
 * an agent makes. Rows are kept beside their input in about 9 bytes each (13 with paths; see
 * core/row-table.ts), so this cap bounds them too: 64 MiB of the shortest rows cost about three
 * times that at most.
 */
export const OPTION_INPUT_MAX = 64 << 20;

/**
 * Reads a whole input given to an option `what`: a regular file, or "-" for standard input
 * (refused when it is a terminal, except for `--from`, whose text may be typed).
 */
export function readOptionInput(src: OptionSource, source: string, what: string, max = OPTION_INPUT_MAX): Buffer {
  if (source === '-') {
    if (src.stdinIsTTY && what !== '--from') {
      throw new LinewiseError('usage', `${what} -: standard input is a terminal; pipe the rows in or name a file`);
    }
    return readCapped(src.stdin, max, undefined, () => tooLarge(what, '<stdin>', max));
  }
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer before it can be refused.
    fd = fs.openSync(fsPath(path.resolve(src.cwd, source)), fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOCTTY ?? 0));
  } catch (e) {
    throw fileError(e, source);
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) {
      throw new LinewiseError('not-a-file', `is ${fileKind(st)}, not a file: ${what} reads a regular file (or - for standard input)`, source);
    }
    if (st.size > max) throw tooLarge(what, source, max);
    return readCapped((buf, offset, length) => fs.readSync(fd, buf, offset, length, null), max, st.size, () => tooLarge(what, source, max));
  } catch (e) {
    throw fileError(e, source);
  } finally {
    fs.closeSync(fd);
  }
}

function tooLarge(what: string, source: string, max: number): LinewiseError {
  const advice = what === '--from' ? 'edit the file in several calls' : what === 'PATCH' ? 'split the patch into several' : 'split the rows into several calls (each call is all or nothing)';
  return new LinewiseError('too-large', `${what} holds more than ${max >> 20} MiB, more than one edit may bring; ${advice}`, source);
}

/**
 * Reads until the end, at most `max` bytes (one byte more throws `tooLarge`). A file's size is
 * known: its bytes go into one buffer of that size (growing only if it grew meanwhile), so the
 * peak is the input once, not twice.
 */
function readCapped(read: ReadFn, max: number, size: number | undefined, tooLarge: () => Error): Buffer {
  let buf = Buffer.allocUnsafe(Math.min(max + 1, (size ?? 1 << 16) + 1));
  let n = 0;
  for (;;) {
    if (n === buf.length) {
      if (n > max) throw tooLarge();
      const grown = Buffer.allocUnsafe(Math.min(max + 1, buf.length * 2));
      buf.copy(grown, 0, 0, n);
      buf = grown;
    }
    const k = read(buf, n, buf.length - n);
    if (k <= 0) break;
    n += k;
  }
  if (n > max) throw tooLarge();
  return buf.subarray(0, n);
}
