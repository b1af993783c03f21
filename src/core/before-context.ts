// The lines grep keeps for before-context (-B, -C) once their block is gone: the last N lines seen,
// their bytes copied in runs (one copy per block, not one Buffer per line) and capped in bytes,
// so `-B 1000000000` costs the context it prints, never a multiple of it, and never unbounded.

const LF = 10;

/** Bytes of before-context kept at most; older lines are dropped (and the searcher says so). */
export const BEFORE_CONTEXT_BYTES = 64 << 20;

/** Lines copied from one block: `bytes` holds them whole; line i spans starts[i]..starts[i + 1]. */
interface Run {
  /** number of the run's line 0 */
  first: number;
  bytes: Buffer;
  starts: Uint32Array;
  /** index of the oldest line still kept */
  from: number;
}

export class BeforeContext {
  private runs: Run[] = [];
  private lines = 0;
  private bytes = 0;
  /** lines were dropped for the byte cap (not for the line count) since the last clear */
  dropped = false;

  constructor(
    /** the -B count: lines kept at most */
    private readonly maxLines: number,
    readonly maxBytes = BEFORE_CONTEXT_BYTES,
  ) {}

  /** Number of the oldest line kept, or undefined when none is. */
  get oldest(): number | undefined {
    const r = this.runs[0];
    return r === undefined ? undefined : r.first + r.from;
  }

  /**
   * Keeps the lines of `[start, end)` (whole lines; the last one is line `lastLine`), or as many
   * of the last of them as the line count allows.
   */
  append(buf: Buffer, start: number, end: number, lastLine: number): void {
    if (end <= start || this.maxLines === 0) return;
    // Back from the end, only as far as the count allows: a block of short lines under -B 2 copies two.
    let s = end;
    let count = 0;
    while (count < this.maxLines && s > start) {
      const p = s - 2 < start ? -1 : buf.lastIndexOf(LF, s - 2);
      s = p < start ? start : p + 1;
      count++;
    }
    const bytes = Buffer.from(buf.subarray(s, end));
    const starts = new Uint32Array(count + 1);
    let at = 0;
    for (let i = 0; i < count; i++) {
      starts[i] = at;
      const nl = bytes.indexOf(LF, at);
      at = nl === -1 ? bytes.length : nl + 1;
    }
    starts[count] = bytes.length;
    this.runs.push({ first: lastLine - count + 1, bytes, starts, from: 0 });
    this.lines += count;
    this.bytes += bytes.length;
    this.trim();
  }

  /** Drops the oldest lines past the count, then past the byte cap. */
  private trim(): void {
    while (this.lines > this.maxLines || this.bytes > this.maxBytes) {
      if (this.lines <= this.maxLines) this.dropped = true;
      const r = this.runs[0]!;
      const size = r.starts[r.from + 1]! - r.starts[r.from]!;
      r.from++;
      this.lines--;
      this.bytes -= size;
      // (a run's buffer lives until its last line goes: at most one block beyond the cap)
      if (r.from === r.starts.length - 1) this.runs.shift();
    }
  }

  /** Hands the lines kept from line `first` on to `visit`, oldest first. */
  each(first: number, visit: (line: number, buf: Buffer, start: number, end: number) => void): void {
    for (const r of this.runs) {
      for (let i = Math.max(r.from, first - r.first); i < r.starts.length - 1; i++) visit(r.first + i, r.bytes, r.starts[i]!, r.starts[i + 1]!);
    }
  }

  /** Forgets every line (the lines that follow are not adjacent to them). */
  clear(): void {
    this.runs = [];
    this.lines = 0;
    this.bytes = 0;
    this.dropped = false;
  }
}
