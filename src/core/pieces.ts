// Gathers the pieces of one line (the scanner hands a line longer than its buffer on in pieces)
// into one buffer of its exact size, bounded: the one piece-gatherer every consumer that needs a
// whole line uses.

/** A resizable ArrayBuffer (ES2024, in V8 since Node 20; the ES2023 library does not declare it). */
interface Resizable extends ArrayBuffer {
  resize(byteLength: number): void;
}
const Resizable = ArrayBuffer as unknown as new (byteLength: number, o: { maxByteLength: number }) => Resizable;

/**
 * A line gathered from pieces: each piece is copied as it comes (the scanner's buffer is reused
 * for the next read), and `take` joins them into one buffer of the line's size. Peak memory is
 * twice the line, at the join; a buffer grown by doubling held up to three times it at once (the
 * old buffer, the new one of twice the size, and the garbage of the ones before: a 4.6 MB line
 * of minified JavaScript cost 13 MiB, measured). Past `max` bytes, `add` throws what `tooLong`
 * makes. Nothing is kept between lines, so one huge line does not pin its memory.
 *
 * With `keep` (bytes), the line is gathered in place instead, in one resizable ArrayBuffer
 * reserved up to `max` and grown as pieces come (its memory is committed as it is written, and
 * never copied), which `view` shows without a copy; when the next line starts, the buffer is
 * shrunk back to `keep` bytes, which gives the rest of its memory back. grep over node_modules
 * meets dozens of minified lines longer than the scanner's buffer (one of 4.6 MB): their pieces
 * and joins, all garbage until a scavenge, held 4-9 MiB at the peak; now the longest line, once.
 */
export class LineGatherer {
  private parts: Buffer[] = [];
  private len = 0;
  /** with `keep`: the line, gathered in place */
  private line: Resizable | undefined;

  constructor(
    /** the longest line gathered */
    readonly max: number,
    /** the error for a line longer than `max` (`bytes`: its length so far) */
    private readonly tooLong: (bytes: number) => Error,
    /** gather in place, keeping this many bytes of memory between lines (0: in pieces) */
    private readonly keep = 0,
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
    if (this.keep > 0) {
      if (this.len === 0) this.shrink();
      const line = (this.line ??= new Resizable(0, { maxByteLength: this.max }));
      // exactly: V8 zeroes every byte past the new length when it shrinks, which would make
      // resident the pages a doubled buffer had reserved but never written
      if (line.byteLength < need) line.resize(need);
      new Uint8Array(line, this.len, end - start).set(b.subarray(start, end));
      this.len = need;
      return;
    }
    const part = Buffer.allocUnsafe(end - start);
    part.set(b.subarray(start, end));
    this.parts.push(part);
    this.len = need;
  }

  /** The bytes gathered, as one buffer the caller may keep, and starts over. */
  take(): Buffer {
    if (this.line !== undefined) {
      const kept = Buffer.from(new Uint8Array(this.line, 0, this.len));
      this.clear();
      return kept;
    }
    const parts = this.parts;
    const whole = parts.length === 1 ? parts[0]! : Buffer.concat(parts, this.len);
    this.clear();
    return whole;
  }

  /**
   * The bytes gathered, and starts over: with `keep`, a view of the line where it was gathered,
   * which the next `add` or `clear` overwrites or gives back (use it before then, never keep it).
   */
  view(): Buffer {
    if (this.line === undefined) return this.take();
    const line = Buffer.from(this.line, 0, this.len);
    this.len = 0;
    return line;
  }

  /** Drops what was gathered, its memory with it (with `keep`, all but `keep` bytes). */
  clear(): void {
    this.parts = [];
    this.len = 0;
    this.shrink();
  }

  /** With `keep`: the buffer back to `keep` bytes, the memory of a longer line given back. */
  private shrink(): void {
    if (this.line !== undefined && this.line.byteLength > this.keep) this.line.resize(this.keep);
  }
}
