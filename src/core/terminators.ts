// Line terminators, the one definition: "\n", "\r\n", or none (only ever a file's last line).

/** A line ending: `"\n"`, `"\r\n"`, or `""` for a last line without one. */
export type Terminator = '' | '\n' | '\r\n';

/** The terminators by their length in bytes (0, 1, 2): `TERMINATORS[terminatorLength(...)]`. */
export const TERMINATORS: readonly [Terminator, Terminator, Terminator] = ['', '\n', '\r\n'];

/** Each terminator's bytes. */
export const TERMINATOR_BYTES: Readonly<Record<Terminator, Buffer>> = {
  '': Buffer.alloc(0),
  '\n': Buffer.from('\n'),
  '\r\n': Buffer.from('\r\n'),
};

const LF = 10;
const CR = 13;

/** Length of the terminator at the end of bytes `[start, end)`: 2 for "\r\n", 1 for "\n", else 0. */
export function terminatorLength(buf: Uint8Array, start: number, end: number): 0 | 1 | 2 {
  if (end <= start || buf[end - 1] !== LF) return 0;
  return end - 1 > start && buf[end - 2] === CR ? 2 : 1;
}

/** The terminator bytes `[start, end)` end with (the whole of `line` by default). */
export function terminatorOf(line: Uint8Array, start = 0, end = line.length): Terminator {
  return TERMINATORS[terminatorLength(line, start, end)];
}

/** A line's bytes without its terminator. */
export function bodyOf(line: Buffer): Buffer {
  return line.subarray(0, line.length - terminatorLength(line, 0, line.length));
}
