// Where each line of a text starts, found in bulk: the newline kernel (newlines.wat "starts")
// writes the positions into its memory and they are copied out a block at a time, with no
// JavaScript call per line. patch runs without TurboFan (src/cli/heap.ts), where one indexOf
// call per line took 108 ms for a 64 MiB file; that loop stays the fallback, for texts under
// 1 MiB and where WebAssembly SIMD is missing.

import { simdNewlineCounter, startWriter, type StartWriter } from './newlines.js';

/**
 * Line starts: entry i is where line i starts, and one more entry holds the text's length.
 * Uint32Array while the text is shorter than 4 GiB (every position fits), else Float64Array.
 */
export type LineStarts = Uint32Array | Float64Array;

/** The largest position a Uint32Array holds: a longer text's starts are a Float64Array. */
export const U32_LIMIT = 0xffffffff;

/** How the starts are found (tests choose; callers take the defaults). */
export interface StartsOptions {
  /** false: the indexOf fallback even where WebAssembly SIMD is there; true: the kernel for a short text too */
  kernel?: boolean;
  /** bytes copied into the kernel's memory at a time (at most {@link CHUNK}) */
  chunk?: number;
  /** starts the kernel writes before they are copied out (at most {@link CAP}) */
  cap?: number;
  /** the largest text length kept in a Uint32Array (tests lower it to reach the Float64Array) */
  u32Limit?: number;
}

/** The text is copied into the kernel's memory this many bytes at a time. */
export const CHUNK = 1 << 20;
/** The kernel's output area holds this many starts (256 KiB) before they are copied out. */
export const CAP = 1 << 16;
/**
 * Below this many bytes a text's starts are found with indexOf. Compiling and running the kernel
 * costs 1 ms once, and its code, memory and the garbage of its calls kept 5 MiB more resident in
 * the bench's 500-file patch (10 KiB files: 57 MiB against 52, of a budget of 64); one indexOf
 * per line costs 1.7 ms a MiB without TurboFan, the kernel a fifth of that, so from 1 MiB on it
 * pays at once, and a file that large dwarfs the memory.
 */
export const KERNEL_FROM = 1 << 20;

/** The kernel the text is copied into: CHUNK bytes of text, then the output area. */
interface Scratch {
  mem: Uint8Array;
  out: Uint32Array;
  count: (start: number, end: number) => number;
  write: StartWriter;
}
let scratch: Scratch | null | undefined;

function kernel(): Scratch | null {
  if (scratch === undefined) {
    const c = simdNewlineCounter(CHUNK + CAP * 4);
    const write = c === undefined ? undefined : startWriter(c.buffer);
    scratch = c === undefined || write === undefined ? null : { mem: c.buffer, out: new Uint32Array(c.buffer.buffer, CHUNK, CAP), count: c.count, write };
  }
  return scratch;
}

/** Where each line of `text` starts (see {@link LineStarts}); a last line without "\n" counts. */
export function lineStarts(text: Uint8Array, o: StartsOptions = {}): LineStarts {
  const n = text.length;
  const wide = n > (o.u32Limit ?? U32_LIMIT);
  const k = o.kernel === false || wide || (o.kernel === undefined && n < KERNEL_FROM) || n === 0 ? null : kernel();
  if (!k) return byIndexOf(text, wide);
  const chunk = Math.max(1, Math.min(o.chunk ?? CHUNK, CHUNK));
  // the count sizes the array: the first line's start, one after each "\n", and the text's end
  // unless a "\n" ends the text (the start after that one is the end)
  let lf = 0;
  for (let at = 0; at < n; at += chunk) {
    const len = Math.min(chunk, n - at);
    k.mem.set(text.subarray(at, at + len), 0);
    lf += k.count(0, len);
  }
  const starts = new Uint32Array(1 + lf + (text[n - 1] !== 10 ? 1 : 0));
  let filled = fill(k, text, starts, 1, chunk, Math.max(1, Math.min(o.cap ?? CAP, CAP)));
  if (text[n - 1] !== 10) starts[filled++] = n;
  return starts;
}

/** The typed array's own indexOf (a V8 builtin; Buffer's checks its arguments in JavaScript first). */
const u8IndexOf = Uint8Array.prototype.indexOf;

/**
 * The starts after each "\n" of `text`, from `starts[filled]` on: the text copied into the
 * kernel's memory `chunk` bytes at a time (a text of one chunk is there from the count already),
 * each copy's starts written by the kernel `cap` at a time and copied out in one `set`. Returns
 * how many entries are filled.
 */
function fill(k: Scratch, text: Uint8Array, starts: Uint32Array, filled: number, chunk: number, cap: number): number {
  for (let at = 0; at < text.length; at += chunk) {
    const len = Math.min(chunk, text.length - at);
    if (text.length > chunk) k.mem.set(text.subarray(at, at + len), 0);
    // the chunk sits at address 0, the output area at CHUNK: a start there, plus `at`, is the text's
    for (let p = 0; ; ) {
      const got = k.write(p, len, CHUNK, cap, at);
      starts.set(k.out.subarray(0, got), filled);
      filled += got;
      if (got < cap) break;
      p = k.out[got - 1]! - at;
    }
  }
  return filled;
}

/**
 * The fallback (and short texts): one indexOf call per line into a plain array, then one copy
 * into the typed array (counting first would be a second call per line).
 */
function byIndexOf(text: Uint8Array, wide: boolean): LineStarts {
  const n = text.length;
  const found: number[] = [];
  for (let at = 0; at < n; ) {
    found.push(at);
    const nl = u8IndexOf.call(text, 10, at);
    at = nl === -1 ? n : nl + 1;
  }
  found.push(n);
  return wide ? new Float64Array(found) : new Uint32Array(found);
}
