// Buffered output over a Sink, and the one rule that keeps rows apart: after a row whose line
// has no terminator, a "\n" comes before anything else is written.

import type { Sink } from './streams.js';

const SIZE = 1 << 16;
const NEWLINE = Buffer.from('\n');

export class Output {
  private readonly buf = Buffer.allocUnsafe(SIZE);
  private len = 0;
  /** the last row written ended without a terminator */
  private open = false;
  /** bytes written so far */
  written = 0;

  constructor(readonly sink: Sink) {}

  get isTTY(): boolean {
    return this.sink.isTTY;
  }

  /** Writes bytes `[start, end)` of `b`. Large pieces go straight through, not via the buffer. */
  bytes(b: Uint8Array, start = 0, end = b.length): void {
    if (this.open) this.separate();
    const n = end - start;
    if (n <= 0) return;
    this.written += n;
    if (this.len + n > SIZE) this.flush();
    if (n >= SIZE) {
      this.sink.write(b.subarray(start, end));
      return;
    }
    this.buf.set(b.subarray(start, end), this.len);
    this.len += n;
  }

  text(s: string): void {
    if (s.length === 0) return;
    if (this.open) this.separate();
    // ASCII-only strings (numbers, tabs) are written without an intermediate Buffer.
    if (this.len + s.length * 3 <= SIZE) {
      const n = this.buf.write(s, this.len, 'utf8');
      this.len += n;
      this.written += n;
      return;
    }
    this.bytes(Buffer.from(s, 'utf8'));
  }

  /** Marks that the last row had no terminator: "\n" is written before any further output. */
  leaveOpen(): void {
    this.open = true;
  }

  /** True when output ended inside an unterminated row (nothing followed it). */
  get endsOpen(): boolean {
    return this.open;
  }

  private separate(): void {
    this.open = false;
    this.bytes(NEWLINE);
  }

  flush(): void {
    if (this.len === 0) return;
    const chunk = this.buf.subarray(0, this.len);
    this.len = 0;
    this.sink.write(chunk);
  }
}
