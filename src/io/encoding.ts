// Text encodings other than UTF-8: a codec that decodes a byte stream to UTF-8 for the scanner
// and encodes UTF-8 text back, refusing what the encoding cannot hold. iconv-lite loads lazily.
//
// Why UTF-16 is done here without iconv-lite: a UTF-16 byte order mark is detected while a file
// is opened, synchronously and without a flag; Node reads UTF-16LE natively, so that path never
// loads iconv-lite. Every other encoding comes from iconv-lite, which `prepareEncoding` loads
// (a dynamic import that esbuild splits into its own chunk) before a command opens a file, so a
// plain UTF-8 run never parses it.

import { isUtf8 } from 'node:buffer';
import { createRequire } from 'node:module';
import { LinewiseError } from '../core/errors.js';
import type { ReadFn } from '../core/lines.js';

type Iconv = typeof import('iconv-lite');

/**
 * An encoding, opened for one file. Made by `openText` (which knows the file's byte order
 * mark) or by `codecFor`.
 */
export interface Codec {
  /**
   * The encoding: `utf-16le`/`utf-16be` (`utf-32le`/`utf-32be`) when resolved from a byte order
   * mark, else the name as the user gave it, lowercased (`shift_jis`, `latin1`, ...).
   */
  readonly name: string;
  /** The byte order mark the file began with, to write back before the first line; empty if none. */
  readonly bomBytes: Buffer;
  /**
   * Encodes UTF-8 text (a line, terminator included, or several) into this encoding, without a
   * byte order mark. Throws `LinewiseError('unencodable')` (exit 2) when the text is not valid
   * UTF-8 or holds a character the encoding cannot represent exactly: the bytes written must
   * read back as the same text, so iconv-lite's silent `?` substitutions never reach a file.
   */
  encode(utf8: Buffer): Buffer;
  /**
   * A reader of UTF-8 bytes decoded from `read` (the file's bytes after its byte order mark),
   * streaming in constant memory: a character cut between two reads (a multi-byte sequence, a
   * UTF-16 code unit or surrogate pair) comes out whole. `offset` is the file offset of the
   * first byte `read` gives (the length of the byte order mark), for `invalidAt`.
   */
  decodeReader(read: ReadFn, offset?: number): ReadFn;
  /**
   * Offset in the file of the first bytes, among those decoded so far by `decodeReader`, that do
   * not survive decoding and encoding back: bytes not valid in the encoding (iconv-lite shows
   * them as U+FFFD), a lone surrogate, an odd byte at the end of UTF-16. Undefined while all
   * decoded bytes round-trip exactly. A writer that re-encodes the file must refuse when set.
   */
  readonly invalidAt: number | undefined;
}

/** How one encoding turns bytes into strings and back (iconv-lite's decoder/encoder shape). */
interface Backend {
  decoder(): { write(b: Buffer): string; end(): string | undefined };
  encoder(): { write(s: string): Buffer; end(): Buffer | undefined };
}

/** Byte order marks of the Unicode encodings, by canonical name. */
const BOMS: Record<string, Buffer> = {
  utf8: Buffer.of(0xef, 0xbb, 0xbf),
  utf16le: Buffer.of(0xff, 0xfe),
  utf16be: Buffer.of(0xfe, 0xff),
  utf32le: Buffer.of(0xff, 0xfe, 0, 0),
  utf32be: Buffer.of(0, 0, 0xfe, 0xff),
};

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
const NATIVE: Record<string, string> = { utf16le: 'utf16le', ucs2: 'utf16le', utf16be: 'utf16be' };

/** Names whose byte order is only known from the file's byte order mark. */
const BY_BOM: Record<string, string[]> = { utf16: ['utf16le', 'utf16be'], utf32: ['utf32le', 'utf32be'] };

/**
 * iconv-lite names refused as unknown: base64 and hex are no text encodings, and UTF-7's
 * decoder in iconv-lite 0.7.3 loses characters when a read ends inside a "+...-" run (and
 * UTF-7 has several spellings of one text, so it could not round-trip byte for byte anyway).
 */
const NOT_TEXT = new Set(['base64', 'hex', 'utf7', 'utf7imap']);

let iconv: Iconv | undefined;

/**
 * Loads iconv-lite (once). The CLI calls it, through `prepareEncoding`, before a command opens a
 * file; code that calls `codecFor` directly without it gets a synchronous fallback load.
 */
export async function loadEncodings(): Promise<void> {
  if (iconv) return;
  const m = (await import('iconv-lite')) as Iconv & { default?: Iconv };
  iconv = m.default ?? m;
}

function iconvSync(): Iconv {
  // Only reached when nothing awaited loadEncodings (a direct caller, not the CLI).
  iconv ??= createRequire(import.meta.url)('iconv-lite') as Iconv;
  return iconv;
}

/** Follows iconv-lite's aliases from a canonical name to the codec's own name; undefined if unknown. */
function resolveIconv(lib: Iconv, canonical: string): string | undefined {
  if (canonical.startsWith('_') || NOT_TEXT.has(canonical)) return undefined;
  if (!lib.encodingExists(canonical)) return undefined; // also fills lib.encodings
  const table = (lib as unknown as { encodings: Record<string, unknown> }).encodings;
  let c = canonical;
  for (let hops = 0; typeof table[c] === 'string' && hops < 10; hops++) c = table[c] as string;
  return NOT_TEXT.has(c) ? undefined : c;
}

function unknownEncoding(name: string): LinewiseError {
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
  await loadEncodings();
  if (resolveIconv(iconv!, c) === undefined) throw unknownEncoding(name);
}

/** Every name `--encoding` accepts: each codec's own name, then its aliases. */
export async function encodingNames(): Promise<{ name: string; aliases: string[] }[]> {
  await loadEncodings();
  const lib = iconv!;
  lib.encodingExists('utf8'); // fills lib.encodings
  const table = (lib as unknown as { encodings: Record<string, unknown> }).encodings;
  const groups = new Map<string, string[]>();
  for (const key of Object.keys(table)) {
    const own = resolveIconv(lib, key);
    if (own === undefined) continue;
    if (!groups.has(own)) groups.set(own, []);
    if (key !== own) groups.get(own)!.push(key);
  }
  return [...groups.keys()].sort().map((name) => ({ name, aliases: groups.get(name)!.sort() }));
}

/** UTF-16 with Node's own decoder: no iconv-lite needed. Byte-swapped copies for big-endian. */
function utf16(bigEndian: boolean): Backend {
  return {
    decoder() {
      let odd: number | undefined; // an odd byte waiting for its partner from the next read
      return {
        write(b) {
          let data = b;
          if (odd !== undefined) {
            data = Buffer.concat([Buffer.of(odd), b]);
            odd = undefined;
          }
          if (data.length % 2 === 1) {
            odd = data[data.length - 1];
            data = data.subarray(0, data.length - 1);
          }
          if (bigEndian) data = Buffer.from(data).swap16(); // a copy: never swap the reader's buffer
          return data.toString('utf16le');
        },
        end() {
          // An odd last byte is no character: shown as U+FFFD (and reported by invalidAt).
          const had = odd !== undefined;
          odd = undefined;
          return had ? '\uFFFD' : '';
        },
      };
    },
    encoder() {
      return {
        write(s) {
          const b = Buffer.from(s, 'utf16le');
          return bigEndian ? b.swap16() : b;
        },
        end: () => undefined,
      };
    },
  };
}

function iconvBackend(lib: Iconv, canonical: string): Backend {
  // The byte order mark is handled by openText; a U+FEFF after it is content, never stripped.
  const fresh = () => lib.getDecoder(canonical, { stripBOM: false }) as ReturnType<Iconv['getDecoder']> & { prevBytes?: number[] };
  return {
    decoder() {
      let d = fresh();
      let held: Buffer | undefined;
      return {
        write(b) {
          const input = held ? Buffer.concat([held, b]) : b;
          held = undefined;
          const text = d.write(input);
          // iconv-lite 0.7.3's double-byte decoder sizes its output by the bytes of one write, so
          // a character begun in an earlier write (a 4-byte GB18030 one, a Big5 plane-2 one)
          // overflows it and silently loses a code unit (pillarjs/iconv-lite#417). So the bytes it
          // holds of an unfinished character are taken back and given, with the next read, to a
          // fresh decoder: every write then starts at a character.
          if (d.prevBytes !== undefined && d.prevBytes.length > 0) {
            held = Buffer.from(d.prevBytes);
            d = fresh();
          }
          return text;
        },
        end() {
          const text = held ? d.write(held) : '';
          held = undefined;
          return text + (d.end() ?? '');
        },
      };
    },
    encoder: () => lib.getEncoder(canonical, { addBOM: false }),
  };
}

function encodeAll(backend: Backend, text: string): Buffer {
  const e = backend.encoder();
  const head = e.write(text);
  const tail = e.end();
  return tail && tail.length > 0 ? Buffer.concat([head, tail]) : head;
}

function decodeAll(backend: Backend, bytes: Buffer): string {
  const d = backend.decoder();
  return d.write(bytes) + (d.end() ?? '');
}

/** How a character is named in a message: itself when printable, and its code point. */
function describeChar(ch: string): string {
  const code = `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(ch) ? `'${ch}' (${code})` : code;
}

/** Raw bytes read per decode step: the decoded UTF-8 is at most 3 times this. */
const RAW_CHUNK = 1 << 16;
/** U+FFFD in UTF-8. */
const REPLACEMENT = Buffer.from('\uFFFD', 'utf8');
/** Unmatched bytes the round-trip check holds at most (a decoder holds a few; more is a failure). */
const MAX_PENDING = 1 << 16;

class CodecImpl implements Codec {
  invalidAt: number | undefined;

  constructor(
    readonly name: string,
    readonly bomBytes: Buffer,
    private readonly backend: Backend,
  ) {}

  encode(utf8: Buffer): Buffer {
    if (!isUtf8(utf8)) {
      throw new LinewiseError('unencodable', `the new text is not valid UTF-8, so it cannot be encoded as ${this.name}`);
    }
    const text = utf8.toString('utf8');
    const bytes = encodeAll(this.backend, text);
    if (decodeAll(this.backend, bytes) === text) return bytes;
    // Name the first character that does not survive (only on this error path).
    for (const ch of text) {
      if (decodeAll(this.backend, encodeAll(this.backend, ch)) !== ch) {
        throw new LinewiseError('unencodable', `the new text has ${describeChar(ch)}, which ${this.name} cannot represent`);
      }
    }
    throw new LinewiseError('unencodable', `the new text cannot be represented in ${this.name}`);
  }

  decodeReader(read: ReadFn, offset = 0): ReadFn {
    const raw = Buffer.allocUnsafe(RAW_CHUNK);
    const decoder = this.backend.decoder();
    // The round-trip check: what was decoded, encoded again, must equal the bytes read.
    const encoder = this.backend.encoder();
    let pending: Buffer = Buffer.alloc(0); // bytes read whose text is not yet encoded back
    let matched = offset; // file offset of pending[0]
    let checking = true;
    let high = ''; // a high surrogate held back until its low half arrives
    let out: Buffer = Buffer.alloc(0);
    let at = 0;
    let done = false;

    const fail = (where: number) => {
      if (this.invalidAt === undefined) this.invalidAt = where;
      checking = false;
      pending = Buffer.alloc(0);
    };
    const check = (chunk: Buffer | undefined, text: string, utf8: Buffer, last: boolean) => {
      if (!checking) return;
      if (chunk) pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      let back = encoder.write(text);
      if (last) {
        const tail = encoder.end();
        if (tail && tail.length > 0) back = Buffer.concat([back, tail]);
      }
      if (back.length > pending.length || !back.equals(pending.subarray(0, back.length))) {
        let i = 0;
        while (i < back.length && i < pending.length && back[i] === pending[i]) i++;
        return fail(matched + i);
      }
      // A lone surrogate: JavaScript strings keep it, but the UTF-8 output has U+FFFD for it.
      // Only when that output holds a U+FFFD (a fast native search) is the text searched.
      // (With the u flag a valid pair is one code point, so \p{Cs} finds only lone halves.)
      const lone = utf8.includes(REPLACEMENT) ? text.search(/\p{Cs}/u) : -1;
      if (lone !== -1) return fail(matched + encodeAll(this.backend, text.slice(0, lone)).length);
      matched += back.length;
      // Keep only the unmatched tail, copied: `raw` is reused by the next read.
      pending = Buffer.from(pending.subarray(back.length));
      if ((last && pending.length > 0) || pending.length > MAX_PENDING) fail(matched);
    };

    const refill = (): boolean => {
      while (!done) {
        const n = read(raw, 0, RAW_CHUNK);
        let text: string;
        let chunk: Buffer | undefined;
        if (n > 0) {
          chunk = raw.subarray(0, n);
          text = high + decoder.write(chunk);
          high = '';
          const last = text.charCodeAt(text.length - 1);
          if (last >= 0xd800 && last <= 0xdbff) {
            high = text.slice(-1);
            text = text.slice(0, -1);
          }
        } else {
          done = true;
          text = high + (decoder.end() ?? '');
          high = '';
        }
        const utf8 = Buffer.from(text, 'utf8');
        check(chunk, text, utf8, done);
        if (utf8.length > 0) {
          out = utf8;
          at = 0;
          return true;
        }
      }
      return false;
    };

    return (buf, off, length) => {
      while (at >= out.length) if (!refill()) return 0;
      const n = Math.min(length, out.length - at);
      out.copy(buf, off, at, at + n);
      at += n;
      return n;
    };
  }
}

/** The codec's own name for display: `utf-16le` rather than iconv-lite's `utf16le`. */
const DISPLAY: Record<string, string> = { utf16le: 'utf-16le', utf16be: 'utf-16be', utf32le: 'utf-32le', utf32be: 'utf-32be' };

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
  const starts = (c: string) => head.length >= BOMS[c]!.length && BOMS[c]!.equals(head.subarray(0, BOMS[c]!.length));
  const markOf = () => ['utf8', 'utf16le', 'utf16be'].find(starts);
  if (name === undefined || isUtf8Name(name)) {
    const mark = markOf();
    if (mark === undefined || mark === 'utf8') return { codec: undefined, bomLength: mark ? 3 : 0 };
    if (name !== undefined) throw mismatch(name, mark);
    return { codec: makeCodec(mark, DISPLAY[mark]!, BOMS[mark]!), bomLength: BOMS[mark]!.length };
  }
  let c = canonicalName(name);
  if (NATIVE[c] === undefined && BY_BOM[c] === undefined) c = resolveIconv(iconvSync(), c) ?? '';
  if (c === '') throw unknownEncoding(name);
  const family = BY_BOM[c];
  if (family) {
    const own = family.find(starts);
    if (own === undefined) {
      throw new LinewiseError('encoding', `${name} without a byte order mark: say which byte order, e.g. --encoding ${family[0]!.replace(/^utf/, 'utf-')}`);
    }
    return { codec: makeCodec(own, DISPLAY[own]!, BOMS[own]!), bomLength: BOMS[own]!.length };
  }
  c = NATIVE[c] ?? c;
  const shown = DISPLAY[c] ?? name.toLowerCase();
  if (BOMS[c] && starts(c)) return { codec: makeCodec(c, shown, BOMS[c]!), bomLength: BOMS[c]!.length };
  const mark = markOf();
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
