// The codec: decodes a byte stream to UTF-8 for the scanner and encodes UTF-8 text back, refusing
// what the encoding cannot hold, and checks while decoding that the bytes read would round-trip.

import { isUtf8 } from 'node:buffer';
import { LinewiseError } from '../../core/errors.js';
import type { ReadFn } from '../../core/lines.js';

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
   * first byte decoded (the length of the byte order mark), for `invalidAt`. `head`: bytes already
   * read from the file (the first read, sniffed), decoded before anything `read` gives; they are
   * copied at once, so their buffer may be reused.
   */
  decodeReader(read: ReadFn, offset?: number, head?: Uint8Array): ReadFn;
  /** Whether `raw` (a file's first bytes after its mark) decodes to text holding U+0000: binary. */
  holdsNul(raw: Uint8Array): boolean;
  /**
   * Offset in the file of the first bytes, among those decoded so far by `decodeReader`, that do
   * not survive decoding and encoding back: bytes not valid in the encoding (iconv-lite shows
   * them as U+FFFD), a lone surrogate, an odd byte at the end of UTF-16. Undefined while all
   * decoded bytes round-trip exactly. A writer that re-encodes the file must refuse when set.
   */
  readonly invalidAt: number | undefined;
}

/** How one encoding turns bytes into strings and back (iconv-lite's decoder/encoder shape). */
export interface Backend {
  decoder(): { write(b: Buffer): string; end(): string | undefined };
  encoder(): { write(s: string): Buffer; end(): Buffer | undefined };
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

export class CodecImpl implements Codec {
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

  holdsNul(raw: Uint8Array): boolean {
    // A decoder of its own: a character cut at the end is held back, never guessed at.
    return this.backend.decoder().write(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength)).includes('\0');
  }

  decodeReader(read: ReadFn, offset = 0, head?: Uint8Array): ReadFn {
    const raw = Buffer.allocUnsafe(Math.max(RAW_CHUNK, head?.length ?? 0));
    let first = head === undefined ? 0 : head.length; // bytes of raw holding the head, not yet decoded
    if (head !== undefined) raw.set(head);
    const decoder = this.backend.decoder();
    const roundTrip = new RoundTripCheck(this.backend, offset, (at) => {
      if (this.invalidAt === undefined) this.invalidAt = at;
    });
    let high = ''; // a high surrogate held back until its low half arrives
    let out: Buffer = Buffer.alloc(0);
    let at = 0;
    let done = false;

    const refill = (): boolean => {
      while (!done) {
        const n = first > 0 ? first : read(raw, 0, RAW_CHUNK);
        first = 0;
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
        roundTrip.add(chunk, text, utf8, done);
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

/**
 * The round-trip check of one `decodeReader`: what was decoded, encoded again, must equal the
 * bytes read. At the first bytes that do not survive it calls `onFail` with their file offset,
 * and checks no more.
 */
class RoundTripCheck {
  private readonly encoder: ReturnType<Backend['encoder']>;
  private pending: Buffer = Buffer.alloc(0); // bytes read whose text is not yet encoded back
  private checking = true;

  constructor(
    private readonly backend: Backend,
    private matched: number, // file offset of pending[0]
    private readonly onFail: (at: number) => void,
  ) {
    this.encoder = backend.encoder();
  }

  private fail(at: number): void {
    this.onFail(at);
    this.checking = false;
    this.pending = Buffer.alloc(0);
  }

  /**
   * Checks `text` (as `utf8`), decoded from the bytes read so far and `chunk` (undefined at the
   * end); `last` once the input has ended.
   */
  add(chunk: Buffer | undefined, text: string, utf8: Buffer, last: boolean): void {
    if (!this.checking) return;
    if (chunk) this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const pending = this.pending;
    let back = this.encoder.write(text);
    if (last) {
      const tail = this.encoder.end();
      if (tail && tail.length > 0) back = Buffer.concat([back, tail]);
    }
    if (back.length > pending.length || !back.equals(pending.subarray(0, back.length))) {
      let i = 0;
      while (i < back.length && i < pending.length && back[i] === pending[i]) i++;
      return this.fail(this.matched + i);
    }
    // A lone surrogate: JavaScript strings keep it, but the UTF-8 output has U+FFFD for it.
    // Only when that output holds a U+FFFD (a fast native search) is the text searched.
    // (With the u flag a valid pair is one code point, so \p{Cs} finds only lone halves.)
    const lone = utf8.includes(REPLACEMENT) ? text.search(/\p{Cs}/u) : -1;
    if (lone !== -1) return this.fail(this.matched + encodeAll(this.backend, text.slice(0, lone)).length);
    this.matched += back.length;
    // Keep only the unmatched tail, copied: the reader's buffer is reused by the next read.
    this.pending = Buffer.from(pending.subarray(back.length));
    if ((last && this.pending.length > 0) || this.pending.length > MAX_PENDING) this.fail(this.matched);
  }
}
