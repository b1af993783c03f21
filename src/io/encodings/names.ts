// Encoding names: their canonical form, which names --encoding accepts and what each resolves to,
// how a codec is named in messages, and the list "linewise encodings" prints.

import { LinewiseError } from '../../core/errors.js';
import { type Iconv, iconvTable, loadEncodings } from './iconv.js';

/** iconv-lite's canonical form of a name: lowercase, punctuation and a `:YYYY` suffix dropped. */
export function canonicalName(name: string): string {
  return name.toLowerCase().replace(/:\d{4}$|[^0-9a-z]/g, '');
}

/** The names that mean linewise's default byte path (no decoding at all). */
export function isUtf8Name(name: string): boolean {
  const c = canonicalName(name);
  return c === 'utf8' || c === 'unicode11utf8';
}

/** Names resolved without iconv-lite, to the canonical encoding. */
export const NATIVE: Record<string, string> = { utf16le: 'utf16le', ucs2: 'utf16le', utf16be: 'utf16be' };

/** Names whose byte order is only known from the file's byte order mark. */
export const BY_BOM: Record<string, string[]> = { utf16: ['utf16le', 'utf16be'], utf32: ['utf32le', 'utf32be'] };

/**
 * iconv-lite names refused as unknown: base64 and hex are no text encodings, and UTF-7's
 * decoder in iconv-lite 0.7.3 loses characters when a read ends inside a "+...-" run (and
 * UTF-7 has several spellings of one text, so it could not round-trip byte for byte anyway).
 */
const NOT_TEXT = new Set(['base64', 'hex', 'utf7', 'utf7imap']);

/** Follows iconv-lite's aliases from a canonical name to the codec's own name; undefined if unknown. */
export function resolveIconv(lib: Iconv, canonical: string): string | undefined {
  if (canonical.startsWith('_') || NOT_TEXT.has(canonical)) return undefined;
  if (!lib.encodingExists(canonical)) return undefined; // also fills lib.encodings
  const table = iconvTable(lib);
  let c = canonical;
  for (let hops = 0; typeof table[c] === 'string' && hops < 10; hops++) c = table[c] as string;
  return NOT_TEXT.has(c) ? undefined : c;
}

export function unknownEncoding(name: string): LinewiseError {
  return new LinewiseError('unknown-encoding', `unknown encoding '${name}'; "linewise encodings" lists the names --encoding accepts`);
}

/**
 * Checks that `--encoding NAME` names an encoding, and loads iconv-lite if that encoding needs it
 * (not for UTF-8 or UTF-16). Throws `LinewiseError('unknown-encoding')` (exit 2), one line that
 * says how to list the known names.
 */
export async function prepareEncoding(name: string): Promise<void> {
  const c = canonicalName(name);
  if (isUtf8Name(name) || NATIVE[c] !== undefined || c === 'utf16') return;
  if (resolveIconv(await loadEncodings(), c) === undefined) throw unknownEncoding(name);
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

/** The codec's own name for display: `utf-16le` rather than iconv-lite's `utf16le`. */
export const DISPLAY: Record<string, string> = { utf16le: 'utf-16le', utf16be: 'utf-16be', utf32le: 'utf-32le', utf32be: 'utf-32be' };
