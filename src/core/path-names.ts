// How a path travels as text: quoted as git quotes it (core.quotePath) wherever it is printed,
// unquoted when rows come back, and a name that is not UTF-8 kept byte-exact inside a string.
//
// A file name is bytes. Node hands names to JavaScript as UTF-8 strings, turning bytes that are
// not UTF-8 into U+FFFD, so two different names could print alike and open a third file. Names
// read as bytes (readdir with encoding 'buffer') are made strings here with each such byte kept
// as the lone surrogate U+DC80 + byte (Python's "surrogateescape"), which no UTF-8 name can
// produce; `fsPath` turns them back into the exact bytes for a system call.

import { isUtf8 } from 'node:buffer';
import { looksLikeLineField } from './row-fields.js';

/** A lone low surrogate U+DC80..U+DCFF: one raw byte of a name that is not UTF-8. */
const RAW = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/;
const BOM_CHAR = '\uFEFF';
/** Characters git writes with a letter escape. */
const NAMED: Record<number, string> = { 7: 'a', 8: 'b', 9: 't', 10: 'n', 11: 'v', 12: 'f', 13: 'r', 0x22: '"', 0x5c: '\\' };
const ESCAPED: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 0x22, '\\': 0x5c };

/** The string for a name given as bytes: UTF-8, with each byte that is not kept as U+DC80 + byte. */
export function pathFromBytes(b: Uint8Array): string {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  if (isUtf8(buf)) return buf.toString('utf8');
  let s = '';
  for (let i = 0; i < buf.length; ) {
    const c = buf[i]!;
    const n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (n > 0 && i + n <= buf.length && isUtf8(buf.subarray(i, i + n))) {
      s += buf.toString('utf8', i, i + n);
      i += n;
    } else {
      s += String.fromCharCode(0xdc00 + c);
      i++;
    }
  }
  return s;
}

/** The bytes of a name made by {@link pathFromBytes} (any other string: its UTF-8). */
export function pathToBytes(s: string): Buffer {
  if (!RAW.test(s)) return Buffer.from(s, 'utf8');
  const out: Buffer[] = [];
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    out.push(cp >= 0xdc80 && cp <= 0xdcff ? Buffer.of(cp - 0xdc00) : Buffer.from(ch, 'utf8'));
  }
  return Buffer.concat(out);
}

/**
 * The bytes of a text given on the command line (`--text`, `--old`): its exact bytes, as
 * io/arguments.ts recovered them, never U+FFFD for a byte that is not UTF-8.
 */
export const argumentBytes: (s: string) => Buffer = pathToBytes;

/** The name holds bytes that are not UTF-8 (see {@link pathFromBytes}). */
export function hasRawBytes(s: string): boolean {
  return RAW.test(s);
}

/** What a system call takes for `s`: the string itself, or its exact bytes when it holds raw ones. */
export function fsPath(s: string): string | Buffer {
  return RAW.test(s) ? pathToBytes(s) : s;
}

/**
 * A name needs quoting (git's rule): a control character, DEL, `"`, `\`, a byte that is not
 * UTF-8; and, so no reader mistakes it, a leading U+FEFF (it would read as the byte order mark
 * of the output).
 */
export function needsQuoting(name: string): boolean {
  return /[\x00-\x1f\x7f"\\]/.test(name) || RAW.test(name) || name.startsWith(BOM_CHAR);
}

/**
 * A path as messages, `-l` and `-c` print it: unchanged when plain, else in double quotes with C
 * escapes (`"a\t3"`, `"x\\y"`) and octal for other control characters, bytes that are not UTF-8
 * and a U+FEFF (`"\357\273\277a"`). Other UTF-8 stays as it is (git's core.quotePath=false).
 */
export function quotePath(name: string): string {
  return needsQuoting(name) ? cQuote(name) : name;
}

/** A path as a row's first field: as {@link quotePath}, and quoted too when it would read as a line field (`"12"`). */
export function quoteRowPath(name: string): string {
  return needsQuoting(name) || looksLikeLineField(name) ? cQuote(name) : name;
}

function cQuote(name: string): string {
  let s = '"';
  for (const ch of name) {
    const cp = ch.codePointAt(0)!;
    const letter = NAMED[cp];
    if (letter !== undefined) s += `\\${letter}`;
    else if (cp < 0x20 || cp === 0x7f) s += octal(cp);
    else if (cp >= 0xdc80 && cp <= 0xdcff) s += octal(cp - 0xdc00);
    else if (cp === 0xfeff) s += '\\357\\273\\277';
    else s += ch;
  }
  return `${s}"`;
}

const octal = (b: number) => `\\${b.toString(8).padStart(3, '0')}`;

/**
 * Reads a quoted path that starts at `b[start]` (a `"`): its bytes, and the index after the
 * closing quote; or `{ bad }` saying what is wrong. Only what {@link quotePath} writes is taken:
 * a raw control character or an unknown escape inside the quotes is refused.
 */
export function unquotePath(b: Uint8Array, start: number): { bytes: Buffer; end: number } | { bad: string } {
  const out: number[] = [];
  for (let i = start + 1; i < b.length; i++) {
    const c = b[i]!;
    if (c === 0x22) return { bytes: Buffer.from(out), end: i + 1 };
    if (c < 0x20 || c === 0x7f) return { bad: 'a quoted path holds a raw control character (it is written as an escape, "\\t")' };
    if (c !== 0x5c) {
      out.push(c);
      continue;
    }
    const e = b[++i];
    const named = e === undefined ? undefined : ESCAPED[String.fromCharCode(e)];
    if (named !== undefined) {
      out.push(named);
    } else if (e !== undefined && e >= 0x30 && e <= 0x33 && isOctal(b[i + 1]) && isOctal(b[i + 2])) {
      out.push((e - 0x30) * 64 + (b[i + 1]! - 0x30) * 8 + (b[i + 2]! - 0x30));
      i += 2;
    } else {
      return { bad: 'a quoted path holds an unknown escape (known: \\a \\b \\t \\n \\v \\f \\r \\" \\\\ and \\NNN in octal)' };
    }
  }
  return { bad: 'a quoted path has no closing quote' };
}

const isOctal = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x37;
