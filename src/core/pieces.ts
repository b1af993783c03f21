// Gathers the pieces of one line (the scanner hands a line longer than its buffer on in pieces)
// into one buffer of its exact size, bounded: the one piece-gatherer every consumer that needs a
// whole line uses.

/**
 * A line gathered from pieces: each piece is copied as it comes (the scanner's buffer is reused
 * for the next read), and `take` joins them into one buffer of the line's size. Peak memory is
 * twice the line, at the join; a buffer grown by doubling held up to three times it at once (the
 * old buffer, the new one of twice the size, and the garbage of the ones before: a 4.6 MB line
 * of minified JavaScript cost 13 MiB, measured). Past `max` bytes, `add` throws what `tooLong`
 * makes. Nothing is kept between lines, so one huge line does not pin its memory.
 */
export class LineGatherer {
  private parts: Buffer[] = [];
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

  /** Appends bytes `[start, end)` of `b` (copied: `b` may be overwritten after this). */
  add(b: Uint8Array, start: number, end: number): void {
    const need = this.len + (end - start);
    if (need > this.max) throw this.tooLong(need);
    if (end === start) return;
    const part = Buffer.allocUnsafe(end - start);
    part.set(b.subarray(start, end));
    this.parts.push(part);
    this.len = need;
  }

  /** The bytes gathered, as one buffer the caller may keep, and starts over. */
  take(): Buffer {
    const parts = this.parts;
    const whole = parts.length === 1 ? parts[0]! : Buffer.concat(parts, this.len);
    this.clear();
    return whole;
  }

  /** Drops what was gathered, its memory with it. */
  clear(): void {
    this.parts = [];
    this.len = 0;
  }
}
