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

/** Each kernel's memory, so a buffer that lives there (a scanner's) is counted in place. */
const kernels = new WeakMap<ArrayBuffer, (start: number, end: number) => number>();

/** Each kernel's ASCII lower-casing function, by its memory. */
const folds = new WeakMap<ArrayBuffer, (start: number, end: number) => void>();

/**
 * The first position q in [start, end) where byte `b1` is at q + `o1` and `b2` at q + `o2`, or -1;
 * each byte ORed with its mask first (`m1`, `m2`: 0, or 0x20 with a lower-case letter to find
 * either case of it). The bytes read reach end + max(o1, o2) + 15: within the buffer, or the page
 * after it.
 */
export type PairSearch = (start: number, end: number, o1: number, b1: number, m1: number, o2: number, b2: number, m2: number) => number;
const pairs = new WeakMap<ArrayBuffer, PairSearch>();

/**
 * The SIMD pair search over `buf` when it lives in a kernel's memory (a scanner's buffer, the
 * folder), positions relative to `buf`; undefined otherwise. Each kernel's memory holds a spare
 * page after its buffer, so the search may read a little past a block that ends the buffer.
 */
export function pairSearch(buf: Uint8Array): PairSearch | undefined {
  const pair = pairs.get(buf.buffer as ArrayBuffer);
  if (pair === undefined) return undefined;
  const at = buf.byteOffset;
  return at === 0 ? pair : (start, end, o1, b1, m1, o2, b2, m2) => {
    const q = pair(start + at, end + at, o1, b1, m1, o2, b2, m2);
    return q === -1 ? -1 : q - at;
  };
}

/** How many times a byte is in [start, end) of a buffer. */
export type ByteCount = (start: number, end: number, byte: number) => number;
const byteCounts = new WeakMap<ArrayBuffer, ByteCount>();

/** The SIMD byte count over `buf` when it lives in a kernel's memory (as pairSearch), else undefined. */
export function byteCount(buf: Uint8Array): ByteCount | undefined {
  const bytes = byteCounts.get(buf.buffer as ArrayBuffer);
  if (bytes === undefined) return undefined;
  const at = buf.byteOffset;
  return at === 0 ? bytes : (start, end, byte) => bytes(start + at, end + at, byte);
}

/**
 * The kernel's "starts" (newlines.wat): for each "\n" at q in memory[start, end), q + 1 + delta
 * (as a u32) stored at byte `out` of the memory onwards, at most `cap` of them; returns how many.
 * Addresses are the memory's, not a view's.
 */
export type StartWriter = (start: number, end: number, out: number, cap: number, delta: number) => number;
const startWriters = new WeakMap<ArrayBuffer, StartWriter>();

/** The "starts" writer of the kernel whose memory `buf` lives in (memory addresses), else undefined. */
export function startWriter(buf: Uint8Array): StartWriter | undefined {
  return startWriters.get(buf.buffer as ArrayBuffer);
}

/** `buf` lives in a kernel's memory: pairSearch(buf) is defined. */
export function inKernel(buf: Uint8Array): boolean {
  return pairs.has(buf.buffer as ArrayBuffer);
}

/** A kernel with its own small memory, for counting bytes that live elsewhere (copied in). */
let scratch: NewlineCounter | null | undefined;

/** Below this many bytes, indexOf per "\n" beats copying into WebAssembly memory. */
const COPY_FROM = 2048;

/**
 * Counts "\n" in `buf[start, end)`: in place when `buf` is a scanner's buffer (it lives in a
 * kernel's memory), else copied through a scratch kernel, else with indexOf.
 */
export function countLF(buf: Uint8Array, start: number, end: number): number {
  const own = kernels.get(buf.buffer as ArrayBuffer);
  if (own) return own(buf.byteOffset + start, buf.byteOffset + end);
  if (end - start >= COPY_FROM) {
    if (scratch === undefined) scratch = simdNewlineCounter(1 << 16) ?? null;
    if (scratch) {
      let n = 0;
      for (let at = start; at < end; at += scratch.buffer.length) {
        const len = Math.min(scratch.buffer.length, end - at);
        scratch.buffer.set(buf.subarray(at, at + len), 0);
        n += scratch.count(0, len);
      }
      return n;
    }
  }
  return countByIndexOf(buf, start, end);
}

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
  kernels.set(memory.buffer, count);
  folds.set(memory.buffer, instance.exports.fold as (start: number, end: number) => void);
  pairs.set(memory.buffer, instance.exports.pair as PairSearch);
  byteCounts.set(memory.buffer, instance.exports.bytes as ByteCount);
  startWriters.set(memory.buffer, instance.exports.starts as StartWriter);
  return { buffer, count };
}

/** A scratch buffer in WebAssembly memory whose ASCII letters `fold` lower-cases in place. */
export interface AsciiFolder {
  readonly buffer: Buffer;
  /** lower-cases A-Z in buffer[start, end) */
  fold(start: number, end: number): void;
}

let folder: AsciiFolder | null | undefined;

/**
 * The one shared folder (256 KiB), or undefined without WebAssembly SIMD. Shared: its bytes
 * are valid until the next user writes into it, so a user checks `lastFoldUser` before reading.
 */
export function asciiFolder(): AsciiFolder | undefined {
  if (folder === undefined) {
    const c = simdNewlineCounter(FOLD_SIZE);
    folder = c === undefined ? null : { buffer: c.buffer, fold: folds.get(c.buffer.buffer as ArrayBuffer)! };
  }
  return folder ?? undefined;
}

/** The size of the folder's buffer: blocks larger than this are searched another way. */
export const FOLD_SIZE = 1 << 18;

/** Whoever wrote into the shared folder last (see asciiFolder). */
export const foldUser: { current: unknown } = { current: undefined };
