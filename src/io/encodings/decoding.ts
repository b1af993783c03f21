// A codec made for an encoding: linewise's own backend (UTF-16, UTF-32) or iconv-lite's. Which
// codec a file is read with is decided from its first bytes in sniff.ts; this makes it.

import { type Codec, CodecImpl } from './codec.js';
import { iconvBackend, iconvSync } from './iconv.js';
import { displayName, resolveEncoding, unknownEncoding } from './names.js';
import { unicodeBackend } from './unicode.js';

/** The codec of `canonical`, named `name` in messages, that writes `bomBytes` first. */
export function makeCodec(kind: 'native' | 'iconv', canonical: string, name: string, bomBytes: Buffer): Codec {
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
