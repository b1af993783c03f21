// A file a patch changes, read whole (one file at a time: memory is bounded by the largest file,
// not by the patch): its byte order mark kept aside, decoded when an encoding is given or its
// mark says UTF-16/32, and put back the same way when it is written.

import * as fs from 'node:fs';
import { LinewiseError } from '../core/errors.js';
import { chunkedReader } from '../core/lines.js';
import { Pieces } from '../core/patch/content.js';
import { FileLines } from '../core/patch/file-lines.js';
import { fsPath } from '../core/path-names.js';
import type { Codec } from '../io/encodings/codec.js';
import { SNIFF_BYTES, sniff } from '../io/encodings/sniff.js';
import { fileError, OPEN_NOW } from '../io/input.js';

/** A file as the locator sees it, and how to write it back. */
export interface ReadFile {
  /** its lines (after the mark; decoded to UTF-8 with a codec), terminators included */
  file: FileLines;
  /** the mark it starts with (written back first) */
  bom: Buffer;
  codec: Codec | undefined;
  /** what it was when read: compared again before it is replaced or removed */
  stat: fs.BigIntStats;
}

/** Reads the file at `real` (`given` in messages) for patching; `encoding` as --encoding. */
export function readForPatch(real: string, given: string, encoding: string | undefined): ReadFile {
  let bytes: Buffer;
  let stat: fs.BigIntStats;
  let fd: number | undefined;
  try {
    // Without waiting (a named pipe swapped in is refused by its stat, never read), and the stat
    // of the very file read: what is compared before it is replaced.
    fd = fs.openSync(fsPath(real), OPEN_NOW);
    stat = fs.fstatSync(fd, { bigint: true });
    if (!stat.isFile()) throw new LinewiseError('not-a-file', 'is not a regular file; a patch changes regular files only', given);
    bytes = readWhole(fd, Number(stat.size));
  } catch (e) {
    throw e instanceof LinewiseError ? e : fileError(e, given);
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
  let sniffed;
  try {
    // the one sniff every reader makes: a file the readers call binary, a patch does too
    sniffed = sniff(bytes.subarray(0, SNIFF_BYTES), encoding, true);
  } catch (e) {
    throw e instanceof LinewiseError && e.path === undefined ? new LinewiseError(e.code, e.message, given, e.exitCode) : e;
  }
  if (sniffed.binary) throw new LinewiseError('binary', 'is a binary file (it holds NUL bytes): a patch of lines cannot change it; nothing was written', given);
  const bom = bytes.subarray(0, sniffed.bomLength);
  let text = bytes.subarray(sniffed.bomLength);
  const codec = sniffed.codec;
  if (codec !== undefined) {
    const read = codec.decodeReader(chunkedReader(text, [1 << 16]), sniffed.bomLength);
    const parts: Buffer[] = [];
    const chunk = Buffer.allocUnsafe(1 << 16);
    for (let n; (n = read(chunk, 0, chunk.length)) > 0; ) parts.push(Buffer.from(chunk.subarray(0, n)));
    text = Buffer.concat(parts);
    if (codec.invalidAt !== undefined) {
      throw new LinewiseError('invalid-encoding', `bytes at offset ${codec.invalidAt} are not valid ${codec.name}, so writing the file back would change them; nothing was written (check --encoding)`, given);
    }
  }
  return { file: new FileLines(text), bom: Buffer.from(bom), codec, stat };
}

/**
 * The `size` bytes of an open file its stat counted (fewer if it shrinks meanwhile; if it
 * changes at all, the check before the rename sees its new stat and refuses).
 */
function readWhole(fd: number, size: number): Buffer {
  const buf = Buffer.allocUnsafe(size);
  let n = 0;
  while (n < size) {
    const got = fs.readSync(fd, buf, n, size - n, null);
    if (got === 0) break;
    n += got;
  }
  return buf.subarray(0, n);
}

/** The bytes to write: the mark, then the content (encoded back with a codec). */
export function bytesToWrite(r: Pick<ReadFile, 'bom' | 'codec'>, content: Buffer): Buffer {
  if (r.codec === undefined) return r.bom.length === 0 ? content : Buffer.concat([r.bom, content]);
  return Buffer.concat([r.codec.bomBytes, r.codec.encode(content)]);
}

/**
 * {@link bytesToWrite} for content in pieces: the mark one more piece, nothing copied; with a
 * codec the content is joined to be encoded (an encoding's write copies either way).
 */
export function piecesToWrite(r: Pick<ReadFile, 'bom' | 'codec'>, content: Pieces): Pieces {
  if (r.codec === undefined) {
    if (r.bom.length === 0) return content;
    const out = Pieces.of(r.bom);
    for (const p of content.parts) out.push(p);
    return out;
  }
  return Pieces.of(bytesToWrite(r, content.join()));
}
