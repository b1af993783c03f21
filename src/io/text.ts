// Opens an input as lines: the scanner, with the byte order mark taken off and binary refused.

import { LinewiseError } from '../core/errors.js';
import { LineScanner } from '../core/lines.js';
import { type Bom, detectBom, looksBinary, SNIFF_BYTES } from '../core/sniff.js';
import { type Input, openInput } from './input.js';
import type { Io } from './streams.js';

export interface TextOptions {
  /** read a file with NUL bytes as text (`-a/--text`) */
  allowBinary?: boolean;
  /** scanner buffer size (tests use small ones) */
  bufferSize?: number;
}

export interface OpenedText {
  input: Input;
  scanner: LineScanner;
  /** the byte order mark the input began with, if any (kept by replace) */
  bom: Bom | undefined;
}

/**
 * Opens `path` and positions a scanner after its byte order mark. A file with a NUL byte in its
 * first bytes is refused unless `allowBinary`. The caller closes `input`.
 */
export function openText(path: string, io: Io, opts: TextOptions = {}): OpenedText {
  const input = openInput(path, io);
  try {
    const scanner = new LineScanner(input.read, opts.bufferSize);
    const head = scanner.peek(SNIFF_BYTES);
    const mark = detectBom(head);
    if (mark && mark.bom !== 'utf-8') {
      // UTF-16 text is full of NUL bytes; it is decoded, never treated as binary.
      throw new LinewiseError('encoding', `${mark.bom.toUpperCase()} files are not supported yet`, input.name);
    }
    if (mark) scanner.skipBytes(mark.length);
    if (!opts.allowBinary && looksBinary(head)) {
      throw new LinewiseError('binary', 'binary file (it has a NUL byte); use -a/--text to read it as text', input.name);
    }
    return { input, scanner, bom: mark?.bom };
  } catch (e) {
    input.close();
    throw e;
  }
}
