// Where lines start, recorded while a file is counted: byte offsets with the number of lines
// before each, so that a second pass (page --last) starts near the lines it needs, not at the top.

import type { LineScanner } from './lines.js';

/** A line start: `lines` complete lines lie before byte `offset`. */
export interface Checkpoint {
  offset: number;
  lines: number;
}

/**
 * Checkpoints in order of offset, at most `capacity` of them: when full, every other one is let
 * go and from then on only every other one offered is kept, so the spacing doubles and memory
 * stays the same whatever the size of the file.
 */
export class Checkpoints {
  private readonly offsets: number[] = [];
  private readonly lines: number[] = [];
  /** every `every`-th checkpoint offered is kept */
  private every = 1;
  private offered = 0;

  /** `start`: the first checkpoint, where the count begins (after a byte order mark), 0 lines before it */
  constructor(
    start: number,
    private readonly capacity = 4096,
  ) {
    if (capacity < 2) throw new RangeError('Checkpoints need a capacity of at least 2');
    this.add(start, 0);
  }

  add(offset: number, lines: number): void {
    if (this.offered++ % this.every !== 0) return;
    this.offsets.push(offset);
    this.lines.push(lines);
    if (this.offsets.length > this.capacity) {
      for (let i = 0; 2 * i < this.offsets.length; i++) {
        this.offsets[i] = this.offsets[2 * i]!;
        this.lines[i] = this.lines[2 * i]!;
      }
      this.offsets.length = this.lines.length = Math.ceil(this.offsets.length / 2);
      this.every *= 2;
    }
  }

  /** The last checkpoint from which line `line` (1-based, at least 1) can be read: at or before its start. */
  before(line: number): Checkpoint {
    let lo = 0; // lines[lo] < line always holds: lines[0] is 0
    let hi = this.lines.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lines[mid]! < line) lo = mid;
      else hi = mid - 1;
    }
    return { offset: this.offsets[lo]!, lines: this.lines[lo]! };
  }

  get size(): number {
    return this.offsets.length;
  }
}

/** Bytes between two checkpoints offered by `countMarking`: the most a second pass reads for nothing. */
export const CHECKPOINT_STEP = 1 << 18;

/**
 * Counts the lines from the scanner's position to the end of its input (as `countRest`),
 * offering `marks` a checkpoint about every `step` bytes, at the start of a line (never inside a
 * line longer than the buffer). Line counts are from the scanner's position.
 */
export function countMarking(scanner: LineScanner, marks: Checkpoints, step = CHECKPOINT_STEP): number {
  // A skip's bound is checked before it reads: one within the bytes already buffered would
  // return without reading, again and again.
  const bound = Math.max(step, scanner.bufferSize + 1);
  let lines = 0;
  for (;;) {
    const r = scanner.skip(Infinity, bound);
    lines += r.lines;
    if (r.eof) return lines;
    if (scanner.atLineStart) marks.add(scanner.offset, lines);
  }
}
