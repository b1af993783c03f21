// What a file's first bytes say, decided in one place: its byte order mark, the codec that reads
// it (the mark's, or --encoding's), and whether it is binary, from the bytes of the first read.

import { looksBinary } from '../../core/sniff.js';
import { type Codec } from './codec.js';
import { chooseDecoding } from './decoding.js';

/** What the first bytes of an input decide about reading it. */
export interface Sniffed {
  /** bytes of byte order mark at the start, passed over before the first line */
  bomLength: number;
  /** the codec that decodes the text after the mark; undefined: the bytes are read as they are */
  codec: Codec | undefined;
  /**
   * A NUL among the first bytes after the mark (in the decoded text when there is a codec: UTF-16
   * text is full of NUL bytes). Always false when not asked for (`checkBinary` false).
   */
  binary: boolean;
}

/**
 * Sniffs `head`, the bytes of an input's first read (the whole input when it is that short), with
 * `--encoding NAME` (undefined: none). Throws what `chooseDecoding` throws: an unknown name, a
 * byte order mark that contradicts the name. `checkBinary` false (under `-a`) looks for no NUL.
 */
export function sniff(head: Uint8Array, encoding: string | undefined, checkBinary: boolean): Sniffed {
  const { codec, bomLength } = chooseDecoding(head, encoding);
  const text = head.subarray(bomLength);
  const binary = checkBinary && (codec === undefined ? looksBinary(text) : codec.holdsNul(text));
  return { bomLength, codec, binary };
}
