// What the first bytes of an input say about it: binary content; and the byte order marks there are.
// (Which mark a file has is decided with its decoding, in io/encodings/decoding.ts chooseDecoding.)

/** Encodings a byte order mark can announce (UTF-32's only under an explicit --encoding). */
export type Bom = 'utf-8' | 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be';

/** How many bytes the first bytes read are examined for a NUL, as grep and git do. */
export const SNIFF_BYTES = 1 << 16;

/** Binary: a NUL byte among the bytes given (callers pass the first SNIFF_BYTES). */
export function looksBinary(head: Uint8Array): boolean {
  return head.indexOf(0) !== -1;
}
