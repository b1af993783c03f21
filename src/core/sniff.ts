// What the first bytes of an input say about it: a byte order mark, or binary content.

/** Encodings a byte order mark can announce (UTF-32's only under an explicit --encoding). */
export type Bom = 'utf-8' | 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be';

/** How many bytes the first bytes read are examined for a NUL, as grep and git do. */
export const SNIFF_BYTES = 1 << 16;

/** The byte order mark at the start of `head`, and its length; `head` must hold 3 bytes if the input does. */
export function detectBom(head: Uint8Array): { bom: Bom; length: number } | undefined {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { bom: 'utf-8', length: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { bom: 'utf-16le', length: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { bom: 'utf-16be', length: 2 };
  return undefined;
}

/** Binary: a NUL byte among the bytes given (callers pass the first SNIFF_BYTES). */
export function looksBinary(head: Uint8Array): boolean {
  return head.indexOf(0) !== -1;
}
