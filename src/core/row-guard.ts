// The guard trailer: after a reader's rows, one line per file, `\ read {"path":…,"lines":"1-3,7",
// "hash":"…"}`, holding the line numbers of the rows and a short hash of each line as read, in the
// `\ `-comment convention of the no-newline marker. `replace --rows` reads it back to tell a row
// the user edited from one left as read (never written), and to refuse an edited row whose line
// changed since (docs/COMMANDS.md#guarded-rows). The guard whole: the rows' hashes as printed,
// the trailer written, and read back.

import { terminatorLength } from './terminators.js';

/** What every trailer line starts with. */
export const GUARD_PREFIX = '\\ read ';

/** Hex digits of one line's hash in a trailer: 32 bits of FNV-1a. */
export const GUARD_HASH_DIGITS = 8;

/**
 * Rows a reader guards at most: past that the trailer is left out (a note says so) and the rows
 * are plain, as before. About 5 bytes a row are kept until the end of the output, so a reader of a
 * hundred million lines must not keep them all; rows past 64 MiB could not be fed back anyway.
 */
export const GUARD_MAX_ROWS = 1_000_000;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * FNV-1a (32 bits) of bytes `[start, end)`, continuing from `h` (a line that arrives in pieces).
 * Why FNV-1a and not the anchors' SHA-256: it is computed on every row of every piped read, in
 * plain JavaScript, without loading node:crypto; it only has to tell a line from its edited
 * self, not resist someone forging a line (a row edited back to a colliding text is as
 * deliberate as any edit).
 */
export function fnv1a(buf: Uint8Array, start = 0, end = buf.length, h = FNV_OFFSET): number {
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i]!, FNV_PRIME);
  return h >>> 0;
}

/** The starting value of a hash that is fed piece by piece with {@link fnv1a}. */
export const FNV_START = FNV_OFFSET;

/** Where a trailer is written: the output of the rows (io/output.ts's Output is one). */
export interface TrailerOut {
  text(piece: string): void;
}

/**
 * Hashes each row's line as it is printed, for the trailer: the text without its terminator,
 * piece by piece, so a line of any length needs no copy. The printers of rows call it.
 */
export class RowHasher {
  private h = FNV_START;

  constructor(
    readonly log: GuardLog,
    /** the file the rows are of, as the trailer names it */
    public path: string,
  ) {}

  /** A piece of line `line`; `ends`: it completes the line (terminator included, if any). */
  piece(line: number, buf: Uint8Array, start: number, end: number, ends: boolean): void {
    this.h = fnv1a(buf, start, ends ? end - terminatorLength(buf, start, end) : end, this.h);
    if (!ends) return;
    this.log.add(this.path, line, this.h);
    this.h = FNV_START;
  }

  /** A whole line `[start, end)`, terminator included if any. */
  line(line: number, buf: Uint8Array, start: number, end: number): void {
    this.piece(line, buf, start, end, true);
  }

  /** Writes the trailer (nothing when no row was guarded). */
  writeTrailer(out: TrailerOut): void {
    this.log.write((piece) => out.text(piece));
  }
}

/** One trailer line read back: the rows of `path` it guards, each line's hash as read. */
export interface GuardRecord {
  path: string;
  /** the guarded lines, ascending */
  lines: Float64Array;
  /** `hashes[k]` is the hash of line `lines[k]` as read */
  hashes: Uint32Array;
}

/** The first chunk of a file's record holds this many entries; each next one four times more, up to CHUNK_MAX. */
const CHUNK_MIN = 16;
const CHUNK_MAX = 1 << 16;

/**
 * Numbers appended one by one into typed arrays that grow by adding an array, never by copying
 * one into a larger one: a million rows leave no doubled arrays behind as garbage (they made a
 * reader of a million rows peak at three times the memory of its rows).
 */
class Chunks<T extends Uint8Array | Int32Array> {
  readonly chunks: T[] = [];
  /** entries used in the last chunk */
  used = 0;

  constructor(private readonly make: (n: number) => T) {}

  push(v: number): void {
    let last = this.chunks[this.chunks.length - 1];
    if (last === undefined || this.used === last.length) {
      last = this.make(last === undefined ? CHUNK_MIN : Math.min(CHUNK_MAX, last.length * 4));
      this.chunks.push(last);
      this.used = 0;
    }
    last[this.used++] = v;
  }

  /** The entries used in chunk `c`. */
  usedIn(c: number): number {
    return c === this.chunks.length - 1 ? this.used : this.chunks[c]!.length;
  }
}

/**
 * One file's guarded rows: each line as its distance from the one before (a variable-length
 * integer, seven bits a byte: rows that follow each other cost a byte each) and its hash.
 */
interface FileGuard {
  gaps: Chunks<Uint8Array>;
  /**
   * the hashes, as signed 32-bit integers: read back, one of 2^31 or more would be a heap number
   * (an object) wherever V8 has not optimised the loop, and the trailer of 847,000 rows left 8 MiB
   * of them promoted into old space
   */
  hashes: Chunks<Int32Array>;
  /** rows guarded */
  count: number;
  last: number;
}

/** Characters of trailer text given out at once: pieces that fit an output buffer without a copy. */
const PIECE_CHARS = 8192;

const HEX = Buffer.from('0123456789abcdef');

/**
 * The guard of the rows a reader prints, per file in the order first met: the lines and one hash
 * a row. `add` each row as printed; `write` gives the trailer, or nothing past
 * {@link GUARD_MAX_ROWS} (then `overflowed` is set). About 5 bytes a row are kept; the trailer is
 * written piece by piece, never made whole (8 hex digits a row, 8 MB for a million).
 */
export class GuardLog {
  private readonly files = new Map<string, FileGuard>();
  private rows = 0;
  overflowed = false;

  constructor(private readonly max = GUARD_MAX_ROWS) {}

  add(path: string, line: number, hash: number): void {
    if (this.overflowed) return;
    if (++this.rows > this.max) {
      this.overflowed = true;
      this.files.clear();
      return;
    }
    let f = this.files.get(path);
    if (f === undefined) this.files.set(path, (f = { gaps: new Chunks((n) => new Uint8Array(n)), hashes: new Chunks((n) => new Int32Array(n)), count: 0, last: 0 }));
    if (line <= f.last) return; // a line printed twice (never by the readers): guarded once
    let gap = line - f.last;
    f.last = line;
    while (gap >= 0x80) {
      f.gaps.push((gap % 0x80) | 0x80);
      gap = Math.floor(gap / 0x80);
    }
    f.gaps.push(gap);
    f.hashes.push(hash | 0);
    f.count++;
  }

  get empty(): boolean {
    return this.files.size === 0;
  }

  /** Gives the trailer to `put` in pieces of about PIECE_CHARS characters at most; each file's line ends with "\n". */
  write(put: (piece: string) => void): void {
    for (const [path, f] of this.files) writeFile(path, f, put);
  }

  /** The trailer lines, each ending with "\n" (none when nothing was guarded). */
  lines(): string[] {
    return [...this.files].map(([path, f]) => {
      let line = '';
      writeFile(path, f, (piece) => (line += piece));
      return line;
    });
  }
}

/** Writes the decimal digits of the whole number `n` at `at` of `buf`; returns the end. */
function digitsAt(buf: Buffer, at: number, n: number): number {
  let end = at;
  for (let k = n; k >= 10; k = Math.floor(k / 10)) end++;
  for (let p = end; p >= at; p--) {
    buf[p] = 48 + (n % 10);
    n = Math.floor(n / 10);
  }
  return end + 1;
}

/**
 * One file's trailer line, `\ read {"path":…,"lines":"1-3,7","hash":"…"}\n`, given to `put` in
 * pieces: what JSON.stringify gives (the lines and the hash need no escapes), never made whole.
 * Both are written as bytes into one small buffer, a string made of each PIECE_CHARS of it: no
 * string per run or per row (a trailer of 847,000 rows built its runs by concatenation, and 8 MiB
 * of the strings were promoted into old space).
 */
function writeFile(path: string, f: FileGuard, put: (piece: string) => void): void {
  put(`${GUARD_PREFIX}{"path":${JSON.stringify(path)},"lines":"`);
  // a file of a few rows takes its buffer from Node's pool: no allocation per file of a tree
  const buf = Buffer.allocUnsafe(Math.min(PIECE_CHARS, Math.max(64, f.count * GUARD_HASH_DIGITS)));
  let at = 0;
  /** Gives what the buffer holds to `put` when fewer than `room` bytes are left. */
  const spill = (room: number) => {
    if (at + room <= buf.length) return;
    put(buf.toString('latin1', 0, at));
    at = 0;
  };
  // the run of lines being read, and the line being decoded from its gap (7 bits a byte)
  let from = -1;
  let to = -1;
  let prev = 0;
  let gap = 0;
  let scale = 1;
  /** The run `from`-`to` (a line alone as itself), after a comma unless it is the first. */
  const run = (first: boolean) => {
    spill(40); // a comma, two numbers below 2^53 and a hyphen
    if (!first) buf[at++] = 0x2c;
    at = digitsAt(buf, at, from);
    if (to === from) return;
    buf[at++] = 0x2d;
    at = digitsAt(buf, at, to);
  };
  let first = true;
  const gaps = f.gaps;
  for (let c = 0; c < gaps.chunks.length; c++) {
    const chunk = gaps.chunks[c]!;
    const end = gaps.usedIn(c);
    for (let i = 0; i < end; i++) {
      const b = chunk[i]!;
      gap += (b & 0x7f) * scale;
      if (b & 0x80) {
        scale *= 0x80;
        continue;
      }
      const line = (prev += gap);
      gap = 0;
      scale = 1;
      if (from >= 0 && line === to + 1) {
        to = line;
        continue;
      }
      if (from >= 0) {
        run(first);
        first = false;
      }
      from = to = line;
    }
  }
  if (from >= 0) run(first);
  put(`${buf.toString('latin1', 0, at)}","hash":"`);
  at = 0;
  const hashes = f.hashes;
  for (let c = 0; c < hashes.chunks.length; c++) {
    const chunk = hashes.chunks[c]!;
    const end = hashes.usedIn(c);
    for (let i = 0; i < end; i++) {
      spill(GUARD_HASH_DIGITS);
      const h = chunk[i]!;
      // `>>`, not `>>>`: the nibble is the same, and no result reaches 2^31 (see FileGuard.hashes)
      for (let shift = 28; shift >= 0; shift -= 4) buf[at++] = HEX[(h >> shift) & 0xf]!;
    }
  }
  put(`${buf.toString('latin1', 0, at)}"}\n`);
}

/**
 * Reads a trailer line (without its line ending, colour removed): the record, or `bad` saying
 * what is wrong. Undefined when `text` is no trailer line at all.
 */
export function parseGuardLine(text: string): GuardRecord | { bad: string } | undefined {
  if (!text.startsWith(GUARD_PREFIX)) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(text.slice(GUARD_PREFIX.length));
  } catch {
    return { bad: 'a guard trailer line ("\\ read {...}") that is not JSON: keep it as the reader printed it, or delete it to apply the rows unguarded' };
  }
  const o = v as { path?: unknown; lines?: unknown; hash?: unknown };
  if (typeof o !== 'object' || o === null || typeof o.path !== 'string' || typeof o.lines !== 'string' || typeof o.hash !== 'string') {
    return { bad: 'a guard trailer line needs "path", "lines" and "hash" strings' };
  }
  const lines: number[] = [];
  for (const part of o.lines === '' ? [] : o.lines.split(',')) {
    const m = /^([0-9]+)(?:-([0-9]+))?$/.exec(part);
    const a = m ? Number(m[1]) : NaN;
    const b = m?.[2] !== undefined ? Number(m[2]) : a;
    if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b) || a < 1 || b < a || (lines.length > 0 && a <= lines[lines.length - 1]!)) {
      return { bad: `the guard trailer's lines "${o.lines.slice(0, 40)}" are not rising line numbers and ranges` };
    }
    if (b - a + lines.length > GUARD_MAX_ROWS * 64) return { bad: "the guard trailer's lines are too many" };
    for (let n = a; n <= b; n++) lines.push(n);
  }
  if (!/^[0-9a-f]*$/.test(o.hash) || o.hash.length !== lines.length * GUARD_HASH_DIGITS) {
    return { bad: `the guard trailer holds ${lines.length} lines but ${o.hash.length / GUARD_HASH_DIGITS} hashes: keep it as the reader printed it, or delete it` };
  }
  const hashes = new Uint32Array(lines.length);
  for (let k = 0; k < lines.length; k++) hashes[k] = parseInt(o.hash.slice(k * GUARD_HASH_DIGITS, (k + 1) * GUARD_HASH_DIGITS), 16);
  return { path: o.path, lines: Float64Array.from(lines), hashes };
}

/** The hash a record holds for `line`, or undefined. */
export function guardHashOf(r: GuardRecord, line: number): number | undefined {
  let lo = 0;
  let hi = r.lines.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (r.lines[mid]! < line) lo = mid + 1;
    else hi = mid;
  }
  return r.lines[lo] === line ? r.hashes[lo] : undefined;
}
