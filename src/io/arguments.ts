// The command line's arguments as the bytes the user gave. Node decodes argv lossily (a byte that
// is not UTF-8 becomes U+FFFD), so `replace $'x\xff' 1` would edit a file named `x\uFFFD`. On
// Linux the kernel keeps the exact bytes in /proc/self/cmdline; an argument is taken from there,
// as path-names.ts keeps raw bytes in a string, and where that is impossible it is refused.

import * as fs from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { LinewiseError } from '../core/errors.js';
import { pathFromBytes } from '../core/path-names.js';

const REPLACEMENT = '\uFFFD';

/**
 * `given` (the arguments after the script, as Node decoded them) with each one that Node decoded
 * lossily replaced by its exact bytes (kept as path-names.ts keeps them). `cmdline` is the
 * process's command line as the kernel holds it (NUL-terminated arguments), or undefined where
 * there is none. Its last `given.length` arguments must decode, one by one, to `given`: anything
 * else (an argv changed since, a platform without /proc) recovers nothing, and an argument that
 * holds U+FFFD is then refused rather than guessed.
 */
export function exactArguments(given: readonly string[], cmdline: () => Buffer | undefined): string[] {
  // The common case reads nothing: no argument was (or could have been) decoded lossily.
  if (!given.some((a) => a.includes(REPLACEMENT))) return [...given];
  const raw = splitCmdline(cmdline());
  const tail = raw === undefined || raw.length < given.length ? undefined : raw.slice(raw.length - given.length);
  if (tail === undefined || tail.some((b, i) => b.toString('utf8') !== given[i])) {
    const i = given.findIndex((a) => a.includes(REPLACEMENT));
    throw new LinewiseError(
      'usage',
      `argument ${i + 1} ("${given[i]}") holds U+FFFD, which is how this system shows bytes that are not UTF-8, and its exact bytes cannot be read back here; nothing was done: name the file by a path in UTF-8 (or through a directory argument, whose walk keeps names as bytes)`,
    );
  }
  return tail.map((b, i) => (isUtf8(b) ? given[i]! : pathFromBytes(b)));
}

/** The arguments of a command line as the kernel keeps it, or undefined. */
function splitCmdline(bytes: Buffer | undefined): Buffer[] | undefined {
  if (bytes === undefined || bytes.length === 0 || bytes[bytes.length - 1] !== 0) return undefined;
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; ) {
    const end = bytes.indexOf(0, at);
    out.push(bytes.subarray(at, end));
    at = end + 1;
  }
  return out;
}

/** This process's command line from /proc/self/cmdline (Linux), or undefined. */
export function processCmdline(): Buffer | undefined {
  try {
    return fs.readFileSync('/proc/self/cmdline');
  } catch {
    return undefined;
  }
}
