// Gathers the pieces of one line (the scanner hands a line longer than its buffer on in pieces)
// into one growing buffer, bounded: the one piece-gatherer every consumer that needs a whole line uses.

/**
 * A line gathered from pieces. The buffer grows by doubling up to `max` bytes; past that, `add`
 * throws what `tooLong` makes. After a huge line the buffer is dropped, so it is not kept alive.
 */
export class LineGatherer {
  private buf: Buffer | null = null;
  private len = 0;

  constructor(
    /** the longest line gathered */
    readonly max: number,
    /** the error for a line longer than `max` (`bytes`: its length so far) */
    private readonly tooLong: (bytes: number) => Error,
  ) {}

  /** bytes gathered so far */
  get length(): number {
    return this.len;
  }

  /** Appends bytes `[start, end)` of `b`. */
  add(b: Uint8Array, start: number, end: number): void {
    const need = this.len + (end - start);
    if (need > this.max) throw this.tooLong(need);
    if (this.buf === null || this.buf.length < need) {
      const grown = Buffer.allocUnsafe(Math.min(Math.max(need * 2, 1 << 16), this.max));
      if (this.buf !== null) this.buf.copy(grown, 0, 0, this.len);
      this.buf = grown;
    }
    this.buf.set(b.subarray(start, end), this.len);
    this.len = need;
  }

  /**
   * The bytes gathered, as a view valid until the next `add` (copy to keep them), and starts
   * over. A buffer grown past 4 MiB is let go, so one huge line does not pin its memory.
   */
  take(): Buffer {
    const whole = this.buf === null ? Buffer.alloc(0) : this.buf.subarray(0, this.len);
    this.len = 0;
    if (this.buf !== null && this.buf.length > 1 << 22) this.buf = null;
    return whole;
  }

  /** Drops what was gathered. */
  clear(): void {
    this.len = 0;
  }

  /** Drops what was gathered and the buffer with it (a line passed over: its memory goes too). */
  release(): void {
    this.len = 0;
    this.buf = null;
  }
}
