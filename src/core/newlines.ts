// Counting "\n" at memory speed: the WebAssembly SIMD kernel of newlines.wat over a buffer that
// lives in the kernel's own memory, so counting needs no copy. Falls back to indexOf without it.

import { NEWLINES_WASM } from './newlines-wasm.js';

/** A buffer and a counter of the "\n" bytes in any range of it. */
export interface NewlineCounter {
  readonly buffer: Buffer;
  /** "\n" bytes in buffer[start, end) */
  count(start: number, end: number): number;
}

let compiled: WebAssembly.Module | null | undefined;

/** Counts with indexOf: one call per "\n" (the fallback, and the reference in tests). */
export function countByIndexOf(buf: Uint8Array, start: number, end: number): number {
  const b = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  let n = 0;
  for (let at = b.indexOf(10, start); at !== -1 && at < end; at = b.indexOf(10, at + 1)) n++;
  return n;
}

/**
 * A `size`-byte buffer with a SIMD newline counter over it, or undefined where WebAssembly SIMD
 * is not available (the caller then allocates a plain buffer and counts with indexOf).
 */
export function simdNewlineCounter(size: number): NewlineCounter | undefined {
  if (compiled === undefined) {
    try {
      compiled = new WebAssembly.Module(Buffer.from(NEWLINES_WASM, 'base64'));
    } catch {
      compiled = null;
    }
  }
  if (compiled === null) return undefined;
  const instance = new WebAssembly.Instance(compiled);
  const memory = instance.exports.memory as WebAssembly.Memory;
  memory.grow(Math.ceil(size / 65536));
  // The memory never grows again, so this view is never detached.
  const buffer = Buffer.from(memory.buffer, 0, size);
  const count = instance.exports.count as (start: number, end: number) => number;
  return { buffer, count };
}
