// Buffered output over a Sink: bytes, text and rows gathered into one buffer, written in big chunks.

import type { Sink } from './streams.js';

const SIZE = 1 << 16;

/**
 * Lines up to this long are copied into the buffer byte by byte, longer ones by `set` over a
 * view. A view is an object: one per row is most of what `readlines` of a large file allocates,
 * and that garbage made V8 grow its young generation to 16 MiB a half (Node 20's peak went from
 * 42 to 81 MiB). A loop over a short line costs no more than making the view.
 */
const LOOP_COPY_MAX = 128;

/** Copies `src[start, end)` into `dst` at `at`: a short run without allocating. */
function copyInto(dst: Uint8Array, at: number, src: Uint8Array, start: number, end: number): void {
  if (end - start <= LOOP_COPY_MAX) {
    for (let i = start; i < end; i++) dst[at++] = src[i]!;
  } else dst.set(src.subarray(start, end), at);
}

export class Output {
  private readonly buf = Buffer.allocUnsafe(SIZE);
  private len = 0;
  /** bytes written so far */
  written = 0;

  constructor(readonly sink: Sink) {}

  get isTTY(): boolean {
    return this.sink.isTTY;
  }

  /** Writes bytes `[start, end)` of `b`. Large pieces go straight through, not via the buffer. */
  bytes(b: Uint8Array, start = 0, end = b.length): void {
    const n = end - start;
    if (n <= 0) return;
    this.written += n;
    if (this.len + n > SIZE) this.flush();
    if (n >= SIZE) {
      this.sink.write(b.subarray(start, end));
      return;
    }
    copyInto(this.buf, this.len, b, start, end);
    this.len += n;
  }

  /**
   * A plain row, `prefix` + the decimal digits of `n` + TAB + bytes `[start, end)` of `b`, put
   * straight into the buffer: no string per row and one copy of the line. grep prints millions
   * of rows when most lines match; a string for each row's number cost a third of its time.
   */
  row(prefix: Uint8Array, n: number, b: Uint8Array, start: number, end: number): void {
    const need = prefix.length + 17 + (end - start); // 2^53 has 16 digits, then the tab
    if (this.len + need > SIZE) {
      this.flush();
      if (need > SIZE) {
        // a long line: through the general path, which writes it without buffering
        this.bytes(prefix);
        this.text(`${n}\t`);
        this.bytes(b, start, end);
        return;
      }
    }
    const buf = this.buf;
    let at = this.len;
    if (prefix.length > 0) {
      buf.set(prefix, at);
      at += prefix.length;
    }
    at = writeDigits(buf, at, n);
    buf[at++] = 9;
    copyInto(buf, at, b, start, end);
    at += end - start;
    this.written += at - this.len;
    this.len = at;
  }

  text(s: string): void {
    if (s.length === 0) return;
    // Written straight into the buffer, without an intermediate Buffer, when it surely fits
    // (3 bytes a UTF-16 unit at most), after a flush if need be.
    if (s.length * 3 <= SIZE) {
      if (this.len + s.length * 3 > SIZE) this.flush();
      const n = this.buf.write(s, this.len, 'utf8');
      this.len += n;
      this.written += n;
      return;
    }
    this.bytes(Buffer.from(s, 'utf8'));
  }

  flush(): void {
    if (this.len === 0) return;
    const chunk = this.buf.subarray(0, this.len);
    this.len = 0;
    this.sink.write(chunk);
  }
}

/** Writes the decimal digits of the non-negative integer `n` at `at`; returns the end. */
export function writeDigits(buf: Uint8Array, at: number, n: number): number {
  let digits = 1;
  for (let k = n; k >= 10; k = Math.floor(k / 10)) digits++;
  let p = at + digits;
  do {
    buf[--p] = 48 + (n % 10);
    n = Math.floor(n / 10);
  } while (n > 0);
  return at + digits;
}
