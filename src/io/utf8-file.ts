// What the rows rule (engine/decoding.ts) asks of a file's own bytes: whether it is valid UTF-8
// as a whole, read in bounded chunks (when the line a row replaces is ASCII and so cannot tell),
// and which wide encoding its first bytes look like (to name the --encoding its rows came from).

import { isUtf8 } from 'node:buffer';
import * as fs from 'node:fs';
import { LinewiseError } from '../core/errors.js';
import { SNIFF_BYTES, type WideEncoding, wideEncodingOf } from './encodings/sniff.js';
import { firstInvalidUtf8, utf8CutPoint } from '../core/utf8.js';
import { checkpoint, YIELD_BYTES } from './checkpoint.js';
import { type EditTarget, openTarget } from './edit-target.js';
import { fileError } from './input.js';

const CHUNK = 1 << 20;

/** The offset of the first byte of the target's file that is not valid UTF-8, or undefined when it all is. */
export async function firstInvalidUtf8InFile(target: EditTarget, signal?: AbortSignal): Promise<number | undefined> {
  const fd = openTarget(target);
  try {
    const buf = Buffer.allocUnsafe(CHUNK + 3);
    let pos = 0; // the file offset of buf[0]
    let carry = 0; // bytes of a sequence the last chunk cut, moved to buf[0]
    let sinceCheckpoint = 0;
    for (;;) {
      const n = fs.readSync(fd, buf, carry, CHUNK, null);
      const total = carry + n;
      if (n === 0) return carry > 0 ? pos : undefined; // a sequence the end of the file cuts
      const end = utf8CutPoint(buf, total);
      if (!isUtf8(buf.subarray(0, end))) return pos + firstInvalidUtf8(buf, 0, end);
      buf.copy(buf, 0, end, total);
      carry = total - end;
      pos += end;
      if ((sinceCheckpoint += n) >= YIELD_BYTES) {
        sinceCheckpoint = 0;
        await checkpoint(signal);
      }
    }
  } catch (e) {
    throw e instanceof LinewiseError ? e : fileError(e, target.given);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * UTF-16 or UTF-32 (LE or BE) when the file's first bytes have their NULs as that text without a
 * byte order mark has (io/encodings/sniff.ts), else undefined; undefined too when it cannot be read.
 */
export function wideEncodingOfFile(target: EditTarget): WideEncoding | undefined {
  let fd: number | undefined;
  try {
    fd = openTarget(target);
    const head = Buffer.allocUnsafe(SNIFF_BYTES);
    return wideEncodingOf(head.subarray(0, fs.readSync(fd, head, 0, SNIFF_BYTES, 0)));
  } catch {
    return undefined; // only a message's hint: the edit has failed already
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
