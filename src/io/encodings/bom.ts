// Byte order marks: the bytes of each Unicode encoding's mark, and which mark a file starts with.

/** Byte order marks of the Unicode encodings, by canonical name. */
const BOMS = new Map([
  ['utf8', Buffer.of(0xef, 0xbb, 0xbf)],
  ['utf16le', Buffer.of(0xff, 0xfe)],
  ['utf16be', Buffer.of(0xfe, 0xff)],
  ['utf32le', Buffer.of(0xff, 0xfe, 0, 0)],
  ['utf32be', Buffer.of(0, 0, 0xfe, 0xff)],
]);

/**
 * The marks a file is looked for, in this order. UTF-32LE's mark FF FE 00 00 also reads as
 * UTF-16LE's mark FF FE followed by U+0000. As ICU (ucnv_detectUnicodeSignature) and .NET's
 * StreamReader do, the UTF-32 mark wins: text rarely starts with a NUL character, and taking a
 * UTF-32 file for UTF-16 would write UTF-16 into it. A UTF-16LE file that does start with U+0000
 * is read as such with `--encoding utf-16le` (a name whose own mark begins the file wins).
 */
const DETECTED = ['utf32le', 'utf32be', 'utf8', 'utf16le', 'utf16be'];

/** The byte order mark of `canonical` (an empty Buffer for an encoding that has none). */
export function bomOf(canonical: string): Buffer {
  return BOMS.get(canonical) ?? Buffer.alloc(0);
}

/** Whether `head` (a file's first bytes) starts with the byte order mark of `canonical`. */
export function startsWithBom(head: Uint8Array, canonical: string): boolean {
  const mark = BOMS.get(canonical);
  if (mark === undefined || head.length < mark.length) return false;
  for (let i = 0; i < mark.length; i++) if (head[i] !== mark[i]) return false;
  return true;
}

/** First bytes of the marks: a file that starts with none of them (most do) is looked at no further. */
const FIRST = new Set([...BOMS.values()].map((m) => m[0]!));

/** The encoding whose byte order mark `head` starts with, if any (`utf8`, `utf16le`, `utf32be`, ...). */
export function markOf(head: Uint8Array): string | undefined {
  // (Runs once per file of a walk: the bytes are compared in place, no view made of them.)
  if (head.length === 0 || !FIRST.has(head[0]!)) return undefined;
  return DETECTED.find((c) => startsWithBom(head, c));
}

/**
 * Whether `head` could still be the start of a byte order mark that more bytes would complete: a
 * live input's first read is read further only while this holds, so a pipe's first line is not
 * held back waiting for bytes its writer has not sent.
 */
export function couldBeMarkStart(head: Uint8Array): boolean {
  for (const mark of BOMS.values()) {
    if (head.length >= mark.length) continue;
    let i = 0;
    while (i < head.length && head[i] === mark[i]) i++;
    if (i === head.length) return true;
  }
  return false;
}
