// Whether an edit into a line that is not valid UTF-8, made without --encoding, is safe whatever
// the file's encoding. Such a line is in an encoding linewise was not told, so it cannot know
// where a character starts (Shift_JIS "ア" is 83 41: an "A" matches its second byte) nor what a
// byte above 0x7F means. One rule for every edit path (content edits, rows, grep --replace rows
// fed back, the MCP tools): the edit may only replace ASCII bytes by ASCII bytes, starting at the
// line's start or end (a line ends on a character in every ASCII-compatible encoding: no trail
// byte is "\n") or right after an ASCII byte. Whole lines replaced by a range keep no byte of
// theirs and are not asked.

import { isUtf8 } from 'node:buffer';

/** Why the edit is a guess: a sentence fragment for the message, or undefined when it is safe. */
export type Unsafe = string | undefined;

const ascii = (b: Uint8Array) => b.every((c) => c < 0x80);

/**
 * Replacing `removed` (the bytes at `start` of `line`, the line's raw bytes) with `added`: safe
 * when `line` is valid UTF-8, or when the edit starts at a line's start or end or after an ASCII
 * byte, and both sides are ASCII.
 */
export function unsafeSplice(line: Uint8Array, start: number, removed: Uint8Array, added: Uint8Array): Unsafe {
  if (isUtf8(line)) return undefined;
  const atEnd = start === line.length || line[start] === 0x0a || (line[start] === 0x0d && line[start + 1] === 0x0a);
  if (start > 0 && !atEnd && line[start - 1]! >= 0x80) return `it would start right after byte 0x${line[start - 1]!.toString(16)} (column ${start + 1}), which may be the first byte of a character`;
  if (!ascii(removed)) return 'it would replace bytes that are not ASCII, whose characters are unknown without the encoding';
  if (!ascii(added)) return 'it would write bytes that are not ASCII into it, in an encoding that may not be the file\'s';
  return undefined;
}

/**
 * A whole line `current` (its raw bytes, without terminator) becoming `next`: the edit is the
 * span where they differ (the longest common prefix and suffix are kept), asked as {@link unsafeSplice}.
 */
export function unsafeLineChange(current: Uint8Array, next: Uint8Array): Unsafe {
  if (isUtf8(current)) return undefined;
  let p = 0;
  const max = Math.min(current.length, next.length);
  while (p < max && current[p] === next[p]) p++;
  let s = 0;
  while (s < max - p && current[current.length - 1 - s] === next[next.length - 1 - s]) s++;
  if (p === current.length && p === next.length) return undefined;
  return unsafeSplice(current, p, current.subarray(p, current.length - s), next.subarray(p, next.length - s));
}

/** The message of a refused guess (`advice`: how to name the encoding, with an example). */
export function unsafeMessage(where: string, why: string, advice: string): string {
  return `${where} is not valid UTF-8, so the file is in an encoding linewise was not told, and ${why}; nothing was written: give the file's encoding (${advice})`;
}
