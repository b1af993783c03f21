// Which codec reads a file: decided from its first bytes (a byte order mark) and --encoding, or
// made for a name; each encoding's backend is linewise's own (UTF-16, UTF-32) or iconv-lite's.

import { LinewiseError } from '../../core/errors.js';
import { bomOf, markOf, startsWithBom } from './bom.js';
import { type Codec, CodecImpl } from './codec.js';
import { iconvBackend, iconvSync } from './iconv.js';
import { displayName, resolveEncoding, unknownEncoding } from './names.js';
import { unicodeBackend } from './unicode.js';

/** What a file's first bytes and `--encoding` decide. */
export interface Decoding {
  /** undefined: the default byte path (no decoding) */
  codec: Codec | undefined;
  /** bytes of byte order mark to skip before the first line */
  bomLength: number;
}

const BYTE_PATH: Decoding = { codec: undefined, bomLength: 0 };

/**
 * Decides how to read a file from its first bytes (`head`, 4 bytes unless the file is shorter)
 * and `--encoding NAME` (undefined: none given). Without a name, a UTF-16 or UTF-32 byte order
 * mark gives that codec (a UTF-32 mark wins over UTF-16's: see bom.ts) and anything else the
 * byte path. `utf-8` is the byte path. A name whose own byte order mark begins the file skips it
 * (kept in `bomBytes`); a byte order mark of another encoding is refused, as the file then says
 * it is not what the name says.
 */
export function chooseDecoding(head: Uint8Array, name: string | undefined): Decoding {
  const mark = markOf(head);
  const enc = name === undefined ? undefined : resolveEncoding(name);
  if (name !== undefined && enc === undefined) throw unknownEncoding(name);
  if (enc === undefined || enc.kind === 'utf8') {
    if (mark === undefined) return BYTE_PATH;
    if (mark === 'utf8') return { codec: undefined, bomLength: bomOf(mark).length };
    if (name !== undefined) throw mismatch(name, mark);
    return withMark(mark);
  }
  if (enc.kind === 'by-bom') {
    const own = enc.family.find((c) => startsWithBom(head, c));
    if (own === undefined) {
      throw new LinewiseError('encoding', `${name} without a byte order mark: say which byte order, e.g. --encoding ${displayName(enc.family[0]!)}`);
    }
    return withMark(own);
  }
  if (startsWithBom(head, enc.canonical)) return withMark(enc.canonical);
  if (mark !== undefined) throw mismatch(name!, mark);
  return { codec: makeCodec(enc.kind, enc.canonical, displayName(enc.canonical, name), Buffer.alloc(0)), bomLength: 0 };
}

/** Reading a file that starts with the byte order mark of `canonical`, a native encoding. */
function withMark(canonical: string): Decoding {
  const bom = bomOf(canonical);
  return { codec: makeCodec('native', canonical, displayName(canonical), bom), bomLength: bom.length };
}

function mismatch(name: string, mark: string): LinewiseError {
  const shown = displayName(mark);
  return new LinewiseError(
    'encoding-mismatch',
    `the file starts with a ${shown.toUpperCase()} byte order mark, not ${name}: drop --encoding, or use --encoding ${shown}`,
  );
}

function makeCodec(kind: 'native' | 'iconv', canonical: string, name: string, bomBytes: Buffer): Codec {
  const backend = kind === 'native' ? unicodeBackend(canonical) : iconvBackend(iconvSync(), canonical);
  return new CodecImpl(name, bomBytes, backend);
}

/**
 * A codec for `name` (any name iconv-lite knows, or a UTF-16/UTF-32 name with its byte order),
 * for a file without a byte order mark unless `bomBytes` is given. Throws `unknown-encoding` for
 * a name it does not know, for UTF-8 names (UTF-8 is the byte path: no codec), and for names
 * whose byte order only a file's mark tells (`utf-16`).
 */
export function codecFor(name: string, bomBytes: Buffer = Buffer.alloc(0)): Codec {
  const enc = resolveEncoding(name);
  if (enc === undefined || enc.kind === 'utf8' || enc.kind === 'by-bom') throw unknownEncoding(name);
  return makeCodec(enc.kind, enc.canonical, displayName(enc.canonical, name), bomBytes);
}
