// Encoding names: their canonical form, what a name given to --encoding resolves to (linewise's
// own Unicode codecs, or iconv-lite's codecs and aliases), how a codec is named in messages, and
// the list "linewise encodings" prints.

import { LinewiseError } from '../../core/errors.js';
import { type Iconv, iconvSync, iconvTable, loadEncodings } from './iconv.js';

// Maps, never plain objects: a name such as "constructor" must not find Object.prototype's.

/** Names read by linewise's own Unicode codecs (no iconv-lite), to the canonical encoding. */
const NATIVE = new Map([
  ['utf16le', 'utf16le'],
  ['ucs2', 'utf16le'],
  ['utf16be', 'utf16be'],
  ['utf32le', 'utf32le'],
  ['ucs4le', 'utf32le'],
  ['utf32be', 'utf32be'],
  ['ucs4be', 'utf32be'],
]);

/** Names whose byte order is only known from the file's byte order mark: the encodings it may be. */
const BY_BOM = new Map([
  ['utf16', ['utf16le', 'utf16be']],
  ['utf32', ['utf32le', 'utf32be']],
  ['ucs4', ['utf32le', 'utf32be']],
]);

/** How a codec is named in messages and summaries: `utf-16le` rather than iconv-lite's `utf16le`. */
const DISPLAY = new Map([
  ['utf8', 'utf-8'],
  ['utf16le', 'utf-16le'],
  ['utf16be', 'utf-16be'],
  ['utf32le', 'utf-32le'],
  ['utf32be', 'utf-32be'],
]);

/**
 * iconv-lite names refused as unknown: base64 and hex are no text encodings, and UTF-7's
 * decoder in iconv-lite 0.7.3 loses characters when a read ends inside a "+...-" run (and
 * UTF-7 has several spellings of one text, so it could not round-trip byte for byte anyway).
 */
const NOT_TEXT = new Set(['base64', 'hex', 'utf7', 'utf7imap']);

/** iconv-lite's canonical form of a name: lowercase, punctuation and a `:YYYY` suffix dropped. */
export function canonicalName(name: string): string {
  return name.toLowerCase().replace(/:\d{4}$|[^0-9a-z]/g, '');
}

/** The names that mean linewise's default byte path (no decoding at all). */
export function isUtf8Name(name: string): boolean {
  const c = canonicalName(name);
  return c === 'utf8' || c === 'unicode11utf8';
}

/** What a name given to --encoding means. */
export type Encoding =
  /** UTF-8: the byte path, no codec */
  | { kind: 'utf8' }
  /** UTF-16 or UTF-32 in the byte order the file's mark says: one of `family` */
  | { kind: 'by-bom'; family: readonly string[] }
  /** linewise's own codec (`native`: UTF-16/UTF-32 in one byte order) or iconv-lite's */
  | { kind: 'native' | 'iconv'; canonical: string };

/** Whether `name` is resolved without iconv-lite (UTF-8, UTF-16, UTF-32). */
export function isBuiltIn(name: string): boolean {
  const c = canonicalName(name);
  return isUtf8Name(name) || NATIVE.has(c) || BY_BOM.has(c);
}

/**
 * What `name` means, or undefined for a name no encoding has. Names other than UTF-8, UTF-16
 * and UTF-32 need iconv-lite: loaded synchronously here if `prepareEncoding` did not load it.
 */
export function resolveEncoding(name: string): Encoding | undefined {
  const c = canonicalName(name);
  if (isUtf8Name(name)) return { kind: 'utf8' };
  const native = NATIVE.get(c);
  if (native !== undefined) return { kind: 'native', canonical: native };
  const family = BY_BOM.get(c);
  if (family !== undefined) return { kind: 'by-bom', family };
  const own = resolveIconv(iconvSync(), c);
  return own === undefined ? undefined : { kind: 'iconv', canonical: own };
}

/** Follows iconv-lite's aliases from a canonical name to the codec's own name; undefined if unknown. */
function resolveIconv(lib: Iconv, canonical: string): string | undefined {
  if (canonical.startsWith('_') || NOT_TEXT.has(canonical)) return undefined;
  if (!lib.encodingExists(canonical)) return undefined; // also fills lib.encodings
  const table = iconvTable(lib); // a null-prototype object: no inherited names
  let c = canonical;
  for (let hops = 0; typeof table[c] === 'string' && hops < 10; hops++) c = table[c] as string;
  return NOT_TEXT.has(c) ? undefined : c;
}

/** The name of the encoding `canonical` in messages: `utf-16le`, else `given` lowercased. */
export function displayName(canonical: string, given: string = canonical): string {
  return DISPLAY.get(canonical) ?? given.toLowerCase();
}

export function unknownEncoding(name: string): LinewiseError {
  return new LinewiseError('unknown-encoding', `unknown encoding '${name}'; "linewise encodings" lists the names --encoding accepts`);
}

/**
 * Checks that `--encoding NAME` names an encoding, and loads iconv-lite if that encoding needs it
 * (not for UTF-8, UTF-16 or UTF-32). Throws `LinewiseError('unknown-encoding')` (exit 2), one
 * line that says how to list the known names.
 */
export async function prepareEncoding(name: string): Promise<void> {
  if (!isBuiltIn(name)) await loadEncodings();
  if (resolveEncoding(name) === undefined) throw unknownEncoding(name);
}

/** Every name `--encoding` accepts: each codec's own name, then its aliases. */
export async function encodingNames(): Promise<{ name: string; aliases: string[] }[]> {
  const lib = await loadEncodings();
  const groups = new Map<string, string[]>();
  for (const key of Object.keys(iconvTable(lib))) {
    const own = resolveIconv(lib, key);
    if (own === undefined) continue;
    if (!groups.has(own)) groups.set(own, []);
    if (key !== own) groups.get(own)!.push(key);
  }
  return [...groups.keys()].sort().map((name) => ({ name, aliases: groups.get(name)!.sort() }));
}
