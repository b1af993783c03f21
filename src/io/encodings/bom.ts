// Byte order marks: the bytes of each Unicode encoding's mark, and which mark a file starts with.

/** Byte order marks of the Unicode encodings, by canonical name. */
export const BOMS: Record<string, Buffer> = {
  utf8: Buffer.of(0xef, 0xbb, 0xbf),
  utf16le: Buffer.of(0xff, 0xfe),
  utf16be: Buffer.of(0xfe, 0xff),
  utf32le: Buffer.of(0xff, 0xfe, 0, 0),
  utf32be: Buffer.of(0, 0, 0xfe, 0xff),
};

/** Whether `head` (a file's first bytes) starts with the byte order mark of `canonical`. */
export function startsWithBom(head: Uint8Array, canonical: string): boolean {
  const mark = BOMS[canonical];
  return mark !== undefined && head.length >= mark.length && mark.equals(head.subarray(0, mark.length));
}

/** The encoding whose byte order mark `head` starts with, if any (`utf8`, `utf16le`, `utf16be`). */
export function markOf(head: Uint8Array): string | undefined {
  return ['utf8', 'utf16le', 'utf16be'].find((c) => startsWithBom(head, c));
}
