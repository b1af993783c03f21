// Which codec reads a file: decided from its first bytes (a byte order mark) and --encoding, or
// made for a name; each encoding's backend is Node's own (UTF-16) or iconv-lite.

import { LinewiseError } from '../../core/errors.js';
import { BOMS, markOf, startsWithBom } from './bom.js';
import { type Codec, CodecImpl } from './codec.js';
import { iconvBackend, iconvSync } from './iconv.js';
import { BY_BOM, canonicalName, DISPLAY, isUtf8Name, NATIVE, resolveIconv, unknownEncoding } from './names.js';
import { utf16 } from './unicode.js';

/** What a file's first bytes and `--encoding` decide. */
export interface Decoding {
  /** undefined: the default byte path (no decoding) */
  codec: Codec | undefined;
  /** bytes of byte order mark to skip before the first line */
  bomLength: number;
}

/**
 * Decides how to read a file from its first bytes (`head`, 4 bytes unless the file is shorter)
 * and `--encoding NAME` (undefined: none given). Without a name, a UTF-16 byte order mark gives a
 * UTF-16 codec and anything else the byte path. `utf-8` is the byte path. A name whose own byte
 * order mark begins the file skips it (kept in `bomBytes`); a byte order mark of another
 * encoding is refused, as the file then says it is not what the name says.
 */
export function chooseDecoding(head: Uint8Array, name: string | undefined): Decoding {
  if (name === undefined || isUtf8Name(name)) {
    const mark = markOf(head);
    if (mark === undefined || mark === 'utf8') return { codec: undefined, bomLength: mark ? 3 : 0 };
    if (name !== undefined) throw mismatch(name, mark);
    return { codec: makeCodec(mark, DISPLAY[mark]!, BOMS[mark]!), bomLength: BOMS[mark]!.length };
  }
  let c = canonicalName(name);
  if (NATIVE[c] === undefined && BY_BOM[c] === undefined) c = resolveIconv(iconvSync(), c) ?? '';
  if (c === '') throw unknownEncoding(name);
  const family = BY_BOM[c];
  if (family) {
    const own = family.find((f) => startsWithBom(head, f));
    if (own === undefined) {
      throw new LinewiseError('encoding', `${name} without a byte order mark: say which byte order, e.g. --encoding ${family[0]!.replace(/^utf/, 'utf-')}`);
    }
    return { codec: makeCodec(own, DISPLAY[own]!, BOMS[own]!), bomLength: BOMS[own]!.length };
  }
  c = NATIVE[c] ?? c;
  const shown = DISPLAY[c] ?? name.toLowerCase();
  if (BOMS[c] && startsWithBom(head, c)) return { codec: makeCodec(c, shown, BOMS[c]!), bomLength: BOMS[c]!.length };
  const mark = markOf(head);
  if (mark !== undefined) throw mismatch(name, mark);
  return { codec: makeCodec(c, shown, Buffer.alloc(0)), bomLength: 0 };
}

function mismatch(name: string, mark: string): LinewiseError {
  const shown = mark === 'utf8' ? 'utf-8' : DISPLAY[mark]!;
  return new LinewiseError(
    'encoding-mismatch',
    `the file starts with a ${shown.toUpperCase()} byte order mark, not ${name}: drop --encoding, or use --encoding ${shown}`,
  );
}

function makeCodec(canonical: string, name: string, bomBytes: Buffer): Codec {
  const backend = NATIVE[canonical] !== undefined ? utf16(canonical === 'utf16be') : iconvBackend(iconvSync(), canonical);
  return new CodecImpl(name, bomBytes, backend);
}

/**
 * A codec for `name` (any name iconv-lite knows, or utf-16le/utf-16be), for a file without a
 * byte order mark unless `bomBytes` is given. Throws `unknown-encoding` for a name it does not
 * know, and for UTF-8 names (UTF-8 is the byte path: no codec).
 */
export function codecFor(name: string, bomBytes: Buffer = Buffer.alloc(0)): Codec {
  const c = canonicalName(name);
  const own = NATIVE[c] ?? (isUtf8Name(name) || BY_BOM[c] ? undefined : resolveIconv(iconvSync(), c));
  if (own === undefined) throw unknownEncoding(name);
  return makeCodec(own, DISPLAY[own] ?? name.toLowerCase(), bomBytes);
}
