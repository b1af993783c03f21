// The streaming line reader: one reused buffer, split on "\n" alone, every line keeps its terminator.
//
// Why "\n" alone: a "\r\n" cut between two reads is then never a special case (the "\r" is
// simply content until the "\n" arrives), and a lone "\r" needs no look-ahead or timer.
// Why one reused buffer and synchronous reads: a fresh Buffer or an `await` per chunk or per
// line costs ten times the speed (measured in issue 2), and the memory stays the buffer's size.

import { countLF, type NewlineCounter, simdNewlineCounter } from './newlines.js';
import { LineGatherer } from './pieces.js';


/** Reads up to `length` bytes into `buf` at `offset`; returns how many, 0 at end of input. */
export type ReadFn = (buf: Uint8Array, offset: number, length: number) => number;

/**
 * Receives a line, or a piece of one, as bytes `[start, end)` of `buf`.
 * `ends` is true when these bytes complete the line; the completing piece always holds the
 * whole terminator ("\n" or "\r\n"), and a piece with `ends` false never ends inside a UTF-8
 * sequence. The bytes are only valid during the call. Return `false` to stop reading.
 */
export type PieceVisitor = (buf: Buffer, start: number, end: number, ends: boolean) => boolean | void;

/**
 * Default read size. Large enough that per-read costs vanish, and small enough to stay in the
 * CPU cache: reading a 1 GiB file into a 64 KiB buffer measured 2-3x faster than into 1 MiB.
 */
export const DEFAULT_BUFFER_SIZE = 1 << 16;

const LF = 10;
const CR = 13;

/**
 * Counting kernels given back by scanners that are done (`release`), by buffer size, for the next
 * scanner. grep opens a scanner per file: a new WebAssembly instance and memory per file cost
 * more than searching a small file (3,200 files: 0.27 s of instantiation and 0.18 s of GC).
 * A few per size, so a burst of scanners does not pin memory for good.
 */
const released = new Map<number, NewlineCounter[]>();
const RELEASED_MAX = 4;
/** A skip this long moves the buffer into a counting kernel (about a buffer's worth of lines). */
const KERNEL_FROM_LINES = 1000;

/**
 * Where a piece of an unfinished line may be cut: before a trailing "\r" (it may be the first
 * half of "\r\n") and before an incomplete UTF-8 sequence, so no consumer ever sees either split.
 */
/**
 * Where to cut bytes `[start, end)` of a line to show at most `keep` of them ({@link safeCut}),
 * but never before its first character: a part that shows nothing would leave a cursor inside
 * the line where it was, and following it would never end. `start` when what is left is the
 * line's terminator: no part holds it, the caller shows it as the line's last part, whatever
 * the budget.
 */
export function advancingCut(buf: Uint8Array, start: number, end: number, keep: number): number {
  const cut = safeCut(buf, start, Math.min(end, start + Math.max(0, keep)));
  if (cut > start || end <= start) return cut;
  if (buf[start] === 10 || (buf[start] === CR && buf[start + 1] === 10)) return start;
  let s = start + 1;
  while (s < end && (buf[s]! & 0xc0) === 0x80) s++;
  return s;
}

export function safeCut(buf: Uint8Array, start: number, end: number): number {
  let cut = end;
  if (cut > start && buf[cut - 1] === CR) cut--;
  let lead = cut - 1;
  while (lead >= start && lead > cut - 4 && (buf[lead]! & 0xc0) === 0x80) lead--;
  if (lead >= start) {
    const b = buf[lead]!;
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    if (need > cut - lead) cut = lead;
  }
  return cut;
}

/** Result of a bounded skip or count. */
export interface SkipResult {
  /** complete lines passed over (a final line without terminator counts) */
  lines: number;
  /** true when the end of input was reached */
  eof: boolean;
}

/**
 * Splits a byte stream into lines, in one fixed buffer that is refilled.
 * Lines longer than the buffer are handed on in pieces, so memory never grows with the input.
 */
export class LineScanner {
  private buf: Buffer;
  /**
   * Counts "\n" in buf[start, end) in place, once the buffer has moved into a SIMD kernel's
   * memory (see `skip`); until then countLF copies through a shared kernel.
   */
  private kernel: ((start: number, end: number) => number) | undefined;
  /** the kernel whose memory holds `buf` since moveIntoKernel, until released */
  private simd: NewlineCounter | undefined;
  /** buf[0, end): `indexOf` must never see stale bytes past `end` */
  private view: Buffer;
  private pos = 0;
  private end = 0;
  /** [pos, searched) is known to hold no "\n": a long line is never searched twice */
  private searched = 0;
  /** file offset of buf[0] */
  private base = 0;
  private eof = false;
  /** part of the current line was already handed on or skipped */
  private midLine = false;

  constructor(
    private read: ReadFn,
    size = DEFAULT_BUFFER_SIZE,
  ) {
    if (size < 16) throw new RangeError('LineScanner buffer must hold at least 16 bytes');
    // A kernel a scanner before this one gave back (grep over a tree: one per file, so no file
    // allocates a buffer), else a plain buffer: a new kernel instance costs ~0.2 ms, too much for
    // every one of thousands of small files; the buffer moves into a kernel only when a long skip
    // makes it pay.
    const pooled = released.get(size)?.pop();
    if (pooled !== undefined) {
      this.simd = pooled;
      this.kernel = pooled.count;
      this.buf = pooled.buffer;
    } else this.buf = Buffer.allocUnsafe(size);
    this.view = this.buf.subarray(0, 0);
  }

  /**
   * Ends the scan and gives a counting kernel back for the next scanner (grep opens one per
   * file). The scanner reads nothing more afterwards: it behaves as at the end of its input.
   */
  release(): void {
    this.eof = true;
    this.pos = this.end = this.searched = 0;
    this.midLine = false;
    this.view = this.buf.subarray(0, 0);
    const simd = this.simd;
    if (simd !== undefined) {
      const list = released.get(simd.buffer.length) ?? [];
      if (list.length < RELEASED_MAX && !list.includes(simd)) list.push(simd);
      released.set(simd.buffer.length, list);
    }
    this.simd = undefined;
  }

  /**
   * Starts over on another input, keeping the buffer (and the counting kernel it lives in): grep
   * reads thousands of small files through one scanner, where a buffer per file cost as much in
   * allocation and garbage collection as the search. Call `release` when no input is left.
   *
   * `head`: the input's first `filled` bytes are already in `buffer` (its opener read them there
   * to sniff them: no byte is read twice), and scanning starts at `start` of them, past a byte
   * order mark, so `offset` stays an offset in the input. `ended`: the input ended within them,
   * so it is not read again (a terminal is not asked for more after its end).
   */
  restart(read: ReadFn, head?: { filled: number; start: number; ended: boolean }): void {
    this.read = read;
    this.base = 0;
    this.midLine = false;
    if (head === undefined) {
      this.eof = false;
      this.pos = this.end = this.searched = 0;
    } else {
      if (head.start > head.filled || head.filled > this.buf.length) throw new RangeError('restart: the head does not fit the buffer');
      this.eof = head.ended;
      this.end = head.filled;
      this.pos = this.searched = head.start;
    }
    this.view = this.buf.subarray(0, this.end);
  }

  /** The buffer, for an input's first read before `restart(read, head)` (see there). */
  get buffer(): Buffer {
    return this.buf;
  }

  /** Offset in the input of the next byte not yet handed on or skipped. */
  get offset(): number {
    return this.base + this.pos;
  }

  /** The size of the buffer: a skip bounded by fewer bytes than this may return without reading. */
  get bufferSize(): number {
    return this.buf.length;
  }

  /** True when `offset` is where a line starts: no part of the current line was handed on or skipped. */
  get atLineStart(): boolean {
    return !this.midLine;
  }

  /**
   * Reads once more. Unconsumed bytes move to the front only when the buffer is full, so a
   * long line arriving in small reads is not copied again on every read.
   * Returns false at end of input.
   */
  private fill(): boolean {
    if (this.eof) return false;
    if (this.end === this.buf.length && this.pos > 0) {
      this.buf.copyWithin(0, this.pos, this.end);
      this.base += this.pos;
      this.end -= this.pos;
      this.searched -= this.pos;
      this.pos = 0;
      this.view = this.buf.subarray(0, this.end);
    }
    const n = this.read(this.buf, this.end, this.buf.length - this.end);
    if (n <= 0) {
      this.eof = true;
      return false;
    }
    this.end += n;
    this.view = this.buf.subarray(0, this.end);
    return true;
  }

  /** The next bytes without consuming them: at least `n` (at most the buffer size) unless the input is shorter. */
  peek(n: number): Buffer {
    const want = Math.min(n, this.buf.length);
    while (this.end - this.pos < want && this.fill());
    return this.view.subarray(this.pos, Math.min(this.end, this.pos + want));
  }

  /**
   * Hands every line (or piece of a line) to `visit` until it returns false or the input ends.
   * Returns true when the input ended, false when the visitor stopped.
   */
  scan(visit: PieceVisitor): boolean {
    for (;;) {
      const view = this.view;
      let pos = this.pos;
      let nl: number;
      // Hot loop: one indexOf and one call per line, nothing allocated.
      while ((nl = view.indexOf(LF, this.searched)) !== -1) {
        this.pos = this.searched = nl + 1;
        this.midLine = false;
        if (visit(view, pos, nl + 1, true) === false) return false;
        pos = nl + 1;
      }
      const done = this.refill(visit);
      if (done !== undefined) return done;
    }
  }

  /**
   * What `scan` and `scanBlocks` do once the buffer holds no further "\n": hand on the part of
   * a line that fills the whole buffer, then read more. Returns false when the visitor stopped,
   * true at the end of input (the last line closed), undefined to go on scanning.
   */
  private refill(visit: PieceVisitor): boolean | undefined {
    this.searched = this.end;
    if (this.pos === 0 && this.end === this.buf.length) {
      // The buffer holds only part of one line: hand that part on and keep going.
      const cut = safeCut(this.view, 0, this.end);
      this.pos = cut;
      this.midLine = true;
      if (visit(this.view, 0, cut, false) === false) return false;
    }
    if (this.fill()) return undefined;
    if (this.pos < this.end || this.midLine) {
      const start = this.pos;
      this.pos = this.end;
      this.midLine = false;
      visit(this.view, start, this.end, true);
    }
    return true;
  }

  /**
   * Like `scan`, but hands on whole runs of lines at once: each call with `ends` true covers
   * complete lines only (`end` is just past a "\n", or the end of input), so a searcher can run
   * `indexOf` over many lines in one call. A line longer than the buffer still comes in pieces
   * (`ends` false), and the call that completes it covers that line alone. For grep's block search.
   */
  scanBlocks(visit: PieceVisitor): boolean {
    // grep numbers every line it passes: count in place (countLF finds this buffer's kernel).
    if (this.kernel === undefined) this.moveIntoKernel();
    for (;;) {
      const view = this.view;
      // Forward first, to the first "\n" among the new bytes, so a long line is never scanned twice.
      const first = view.indexOf(LF, this.searched);
      if (first !== -1) {
        const start = this.pos;
        // The rest of a line that came in pieces goes alone, so the piece sequence stays simple.
        const nl = this.midLine ? first : view.lastIndexOf(LF, this.end - 1);
        this.pos = this.searched = nl + 1;
        this.midLine = false;
        if (visit(view, start, nl + 1, true) === false) return false;
        continue;
      }
      const done = this.refill(visit);
      if (done !== undefined) return done;
    }
  }

  /**
   * Moves the buffer into a SIMD kernel's memory (a released one when there is one), so whole
   * buffers are counted in place.
   */
  private moveIntoKernel(): void {
    const simd = released.get(this.buf.length)?.pop() ?? simdNewlineCounter(this.buf.length);
    if (simd === undefined) {
      this.kernel = (start, end) => countLF(this.buf, start, end);
      return;
    }
    simd.buffer.set(this.view);
    this.simd = simd;
    this.buf = simd.buffer;
    this.view = this.buf.subarray(0, this.end);
    this.kernel = simd.count;
  }

  /**
   * Passes over up to `maxLines` lines without handing them on, reading at most about
   * `maxBytes` further (whole buffers: the bound is checked after each read).
   */
  skip(maxLines: number, maxBytes = Infinity): SkipResult {
    const limit = this.offset + maxBytes;
    let lines = 0;
    for (;;) {
      // Fast path, for long skips: when the rest of the buffer holds fewer lines than are left
      // to skip, count them all at once and jump past the last "\n" (one kernel call per buffer,
      // not one indexOf per line). Short skips go line by line and never pay for a kernel, nor
      // does an input that fits in the buffer (the first kernel in a process compiles it).
      if (this.kernel === undefined && maxLines - lines > KERNEL_FROM_LINES && this.end === this.buf.length) this.moveIntoKernel();
      const view = this.view;
      const ahead = this.kernel ? this.kernel(this.searched, this.end) : 0;
      if (ahead > 0 && lines + ahead < maxLines) {
        lines += ahead;
        this.pos = view.lastIndexOf(LF, this.end - 1) + 1;
        this.midLine = false;
      } else {
        let nl: number;
        while (lines < maxLines && (nl = view.indexOf(LF, this.searched)) !== -1) {
          lines++;
          this.pos = this.searched = nl + 1;
          this.midLine = false;
        }
        if (lines >= maxLines) return { lines, eof: false };
      }
      this.searched = this.end;
      if (this.pos === 0 && this.end === this.buf.length) {
        // Part of a long line: drop it, but remember the line has begun.
        this.pos = this.end;
        this.midLine = true;
      }
      if (this.base + this.end >= limit) return { lines, eof: false };
      if (!this.fill()) {
        if (this.pos < this.end || this.midLine) {
          lines++;
          this.pos = this.end;
          this.midLine = false;
        }
        return { lines, eof: true };
      }
    }
  }

  /** True when every byte of the input has been consumed. */
  atEnd(): boolean {
    return this.peek(1).length === 0 && !this.midLine;
  }
}

/**
 * Joins pieces back into whole lines for consumers that need the whole text (matching, JSON).
 * A line that came in one read is passed on without a copy; a longer one is gathered, up to
 * `maxLine` bytes, past which `tooLong` decides what to throw.
 */
export function joinPieces(
  onLine: (buf: Buffer, start: number, end: number) => boolean | void,
  maxLine: number,
  tooLong: (bytes: number) => Error,
): PieceVisitor {
  const gatherer = new LineGatherer(maxLine, tooLong);
  return (buf, start, end, ends) => {
    if (gatherer.length === 0 && ends) return onLine(buf, start, end);
    gatherer.add(buf, start, end);
    if (!ends) return true;
    const whole = gatherer.take();
    return onLine(whole, 0, whole.length);
  };
}

/** Reads from an in-memory buffer in chunks of the given sizes (cycled): for tests and stdin-like sources. */
export function chunkedReader(data: Uint8Array, sizes: readonly number[] = [data.length || 1]): ReadFn {
  let at = 0;
  let i = 0;
  return (buf, offset, length) => {
    if (at >= data.length) return 0;
    const size = Math.max(1, sizes[i++ % sizes.length]!);
    const n = Math.min(size, length, data.length - at);
    buf.set(data.subarray(at, at + n), offset);
    at += n;
    return n;
  };
}

/** How many lines {@link splitLines} would give, counted without making them (the newline kernel counts). */
export function lineCount(text: Uint8Array): number {
  const n = text.length;
  return n === 0 ? 0 : countLF(text, 0, n) + (text[n - 1] === LF ? 0 : 1);
}

/** Splits bytes held in memory into lines by the same model: each keeps its "\n"; the last may have none. */
export function splitLines(text: Uint8Array): Buffer[] {
  const buf = Buffer.from(text.buffer, text.byteOffset, text.byteLength);
  const lines: Buffer[] = [];
  let at = 0;
  while (at < buf.length) {
    const nl = buf.indexOf(LF, at);
    const end = nl === -1 ? buf.length : nl + 1;
    lines.push(buf.subarray(at, end));
    at = end;
  }
  return lines;
}
