// A file a patch changes, as one buffer and where each of its lines starts: no object per line
// (a 500-file patch made 200,000 line views and as many strings, a third of its time in the
// collector); a line is compared in place, its key string made only for messages and
// --ignore-whitespace.

import { type LineStarts, lineStarts, type StartsOptions } from '../line-starts.js';
import { type Terminator, terminatorLength, terminatorOf } from '../terminators.js';

const CR = 0x0d;
/** Files up to this size are compared as one latin1 string (a larger one byte by byte: not twice its size in memory). */
const AS_STRING = 16 << 20;

export class FileLines {
  /**
   * where each line starts in `text`, and one more entry: the text's length; found in bulk by
   * the newline kernel (core/line-starts.ts), a Uint32Array below 4 GiB
   */
  private readonly starts: LineStarts;
  /** keys made lately (messages, --ignore-whitespace): exact matching compares bytes ({@link equals}) */
  private made: KeyCache | undefined;
  /** the text as latin1 (one char a byte), made when a line is first compared; files up to AS_STRING */
  private latin1: string | undefined;

  /**
   * `text`: the file's lines, terminators included (a last line may have none); `how`: how the
   * starts are found (tests choose the kernel or the fallback; callers take the default)
   */
  constructor(
    readonly text: Buffer,
    how: StartsOptions = {},
  ) {
    this.starts = lineStarts(text, how);
  }

  get length(): number {
    return this.starts.length - 1;
  }

  /** where line `i` (0-based) starts in `text` (`length`: the text's end) */
  start(i: number): number {
    return this.starts[i]!;
  }

  /** line `i` (0-based), its terminator included: a view of `text` */
  line(i: number): Buffer {
    return this.text.subarray(this.starts[i]!, this.starts[i + 1]!);
  }

  terminator(i: number): Terminator {
    return terminatorOf(this.text, this.starts[i]!, this.starts[i + 1]!);
  }

  /**
   * Line `i` as compared ({@link keyOf}) is `key` (a hunk line's, see {@link lineKey}), checked in
   * place against the file's text: no string made per line (a 500-file patch compared 45,000).
   */
  equals(i: number, key: string): boolean {
    const t = this.text;
    const s = this.starts[i]!;
    let e = this.starts[i + 1]!;
    e -= terminatorLength(t, s, e);
    // as keyOf: a last "\r" left after the terminator is not compared
    if (e > s && t[e - 1] === CR) e--;
    const n = key.length;
    if (e - s !== n) return false;
    // V8's startsWith, not a loop here: patch runs without TurboFan (src/cli/heap.ts), where a
    // loop over the bytes took 5 to 10 times as long
    if (t.length <= AS_STRING) return (this.latin1 ??= t.toString('latin1')).startsWith(key, s);
    for (let k = 0; k < n; k++) if (t[s + k] !== key.charCodeAt(k)) return false;
    return true;
  }

  /**
   * The first line in [from, to) that {@link equals} `key`, or -1. Found by the bytes' own search
   * for "\n" + key (a hit is the end of the line before, so only line starts are hit, at most one
   * a line), not by a comparison per line: patch runs without TurboFan (src/cli/heap.ts), where
   * looking for a hunk 150,000 lines from its stated line took 0.6 s line by line in a 256 MiB file.
   */
  nextEqual(key: string, from: number, to: number): number {
    to = Math.min(to, this.length);
    from = Math.max(from, 0);
    if (from >= to) return -1;
    if (from === 0) {
      if (this.equals(0, key)) return 0;
      if (++from >= to) return -1;
    }
    const needle = this.needle(key);
    const lo = this.starts[from]! - 1;
    const area = this.text.subarray(lo, Math.min(this.text.length, this.starts[to - 1]! - 1 + needle.length));
    for (let b = area.indexOf(needle); b !== -1; b = area.indexOf(needle, b + 1)) {
      const i = this.lineOf(lo + b + 1);
      if (this.equals(i, key)) return i;
    }
    return -1;
  }

  /** The last line in [from, to) that {@link equals} `key`, or -1 (searched as {@link nextEqual}, backwards). */
  prevEqual(key: string, from: number, to: number): number {
    to = Math.min(to, this.length);
    from = Math.max(from, 0);
    if (from >= to) return -1;
    const first = from === 0 ? 1 : from; // line 0 has no "\n" before it: compared last
    if (first < to) {
      const needle = this.needle(key);
      const lo = this.starts[first]! - 1;
      const area = this.text.subarray(lo, Math.min(this.text.length, this.starts[to - 1]! - 1 + needle.length));
      // lastIndexOf takes a negative offset as counted from the end: stop at 0 instead
      for (let b = area.lastIndexOf(needle); b !== -1; b = b > 0 ? area.lastIndexOf(needle, b - 1) : -1) {
        const i = this.lineOf(lo + b + 1);
        if (this.equals(i, key)) return i;
      }
    }
    return from === 0 && this.equals(0, key) ? 0 : -1;
  }

  /**
   * The first line at or after `from` whose bytes hold `bytes` (latin1, no "\n"), or -1: a
   * search of the bytes, for a prefilter (an envelope's `@@` line is found by a word of it).
   */
  nextHolding(bytes: Buffer, from: number): number {
    from = Math.max(from, 0);
    if (from >= this.length) return -1;
    const b = this.text.indexOf(bytes, this.starts[from]!);
    return b === -1 ? -1 : this.lineOf(b);
  }

  /** the needle of {@link nextEqual}, kept for the key searched last (a search calls again with it) */
  private lastNeedle: { key: string; bytes: Buffer } | undefined;

  private needle(key: string): Buffer {
    if (this.lastNeedle?.key !== key) this.lastNeedle = { key, bytes: Buffer.from(`\n${key}`, 'latin1') };
    return this.lastNeedle.bytes;
  }

  /** the line that starts at byte `at` (or holds it): a binary search of the starts */
  private lineOf(at: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = Math.floor((lo + hi + 1) / 2); // not >>> 1: a file may have more than 2^31 lines
      if (this.starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** line `i` as compared (see {@link keyOf}); with `whitespace`, as --ignore-whitespace compares it */
  key(i: number, whitespace: boolean): string {
    const c = (this.made ??= new KeyCache());
    const slot = i % KEY_SLOTS;
    if (c.line[slot] !== i) {
      const s = this.starts[i]!;
      const e = this.starts[i + 1]!;
      c.line[slot] = i;
      c.key[slot] = keyOf(this.text, e - terminatorLength(this.text, s, e), s);
      c.loose[slot] = undefined;
    }
    const k = c.key[slot]!;
    if (!whitespace) return k;
    return (c.loose[slot] ??= looseKey(k));
  }
}

/**
 * Lines' keys kept, line `i` in slot `i % KEY_SLOTS` (a later line in its slot replaces it). Not
 * an array the length of the file: that took 18 MB on first use in a 2.26 M-line file, where one
 * message wanted the key of a line or two. --ignore-whitespace compares a hunk's lines at each
 * place near its stated line (locate.ts, nearestByLine), so the keys of a window of lines are made
 * again and again: any window of fewer than KEY_SLOTS lines stays in the cache.
 */
const KEY_SLOTS = 4096;

class KeyCache {
  /** the line held in each slot (-1: none; a Float64Array: a file may have more than 2^32 lines) */
  readonly line = new Float64Array(KEY_SLOTS).fill(-1);
  readonly key = new Array<string | undefined>(KEY_SLOTS);
  readonly loose = new Array<string | undefined>(KEY_SLOTS);
}

/**
 * A line's bytes as compared, `[start, end)` of `body` without terminator: latin1 (one char a
 * byte), a last "\r" dropped.
 */
export function keyOf(body: Buffer, end = body.length, start = 0): string {
  return body.toString('latin1', start, end > start && body[end - 1] === 13 ? end - 1 : end);
}

/** A hunk line's text (latin1, see HunkLine) as compared: as {@link keyOf}, a last "\r" dropped. */
export function lineKey(text: string): string {
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}

/** --ignore-whitespace: runs of spaces and tabs count as one space, and none at either end. */
export function looseKey(key: string): string {
  return key.replace(/[ \t\f\v]+/g, ' ').trim();
}
