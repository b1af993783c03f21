// Rows as `replace --rows` holds them: the rows input itself and a few typed columns a row (where
// its text starts, its line, flags, its path's number), so millions of rows cost bytes each, not
// objects; a row is made an object only while it is used.
//
// Why this and not rows applied while their file streams through the patcher, read lazily:
// - every row is checked before any file is read (a bad row, a clash, a row for a missing file
//   are refused with nothing read, and the messages name the first such row), so the rows are
//   read whole first anyway;
// - "already applied" and --relocate read a file's rows a second time, and standard input
//   cannot be read twice: the input is kept (at most 64 MiB) in both designs;
// - rows may come in any order, files interleaved: streaming would need this as its fallback.
// So streaming would save only the columns (about 9 bytes a row, 13 with paths), at the price of
// two ways to read rows. The patcher already reads its edits and expectations in line order, one
// at a time (core/plan-rows.ts), so a streamed source could be put behind the same interface.

import { LinewiseError } from './errors.js';
import { parseLineField } from './row-fields.js';
import { fnv1a, type GuardRecord, guardHashOf } from './row-guard.js';
import { bodyOf } from './terminators.js';

/**
 * Another reading of a row's bytes, as a row for `path`. Which one applies is decided where the
 * files are known (engine/plans.ts): the one that names a file, and when both do, neither.
 */
export interface AltReading {
  path: string;
  line: number;
  bytes: Buffer;
  anchor?: string;
  /** why the row reads two ways, for the message */
  why: string;
  /**
   * Taking this reading gives back the bytes of the row before it (the marker was a path's
   * start): that row as an object and its bytes (parseRows), or its index (a RowTable).
   */
  restore?: { row: Row; bytes: Buffer } | { index: number };
}

/** One row parsed back: which line of which file, and the new bytes (terminator included, if any). */
export interface Row {
  /** the path the row carried, or undefined for a plain `<n>\t` row */
  path: string | undefined;
  line: number;
  /**
   * The line's bytes as the row gives them, terminator included when present. After a
   * `\ No newline at end of file` marker, without the "\n" that separated the row from it.
   */
  bytes: Buffer;
  /** 1-based number of the row in the rows input, for messages */
  rowNumber: number;
  /** the anchor of an anchored row (`<n>#<anchor>`): lowercase hex, a prefix of the line's hash */
  anchor?: string;
  /** other readings of the same bytes, as rows for other paths (see {@link AltReading}) */
  alts?: AltReading[];
}

/** Rows read by index, in the order given: a RowTable, or an array of rows ({@link ArrayRows}). */
export interface RowSet {
  readonly length: number;
  /**
   * Row `i` as it reads now (see take); a new object for a table, so keep it only while used.
   * Its other readings (`alts`) only when `alts` is asked: the planner asks, the patcher does not.
   */
  row(i: number, alts?: boolean): Row;
  line(i: number): number;
  path(i: number): string | undefined;
  hasAnchor(i: number): boolean;
  /** row `i` may read two ways (its `alts`): cheaper to ask than row(i) */
  mayReadTwoWays(i: number): boolean;
  /** makes `alt`, one of row(i).alts, the reading of row `i` */
  take(i: number, alt: AltReading): void;
  /**
   * Rows from a reader's output with its guard trailer (core/row-guard.ts): the hash of row
   * `i`'s line as it was read, or undefined for a row no trailer guards (typed by hand).
   */
  guard?(i: number): number | undefined;
  /** row `i` is guarded and its text is the line as it was read: the user left it as it was */
  untouched?(i: number): boolean;
}

const TAB = 9;
const LF = 10;
const HASH = 0x23;
const NONE = 0xffffffff;

const ANCHORED = 1;
/** how many bytes of the row's end were the separator before a no-newline marker (0, 1 or 2) */
const STRIP_MASK = 6;
const STRIP_SHIFT = 1;
/** a plain row whose text starts like `<n>\t`: it also reads as a row of a file named by its field */
const ALT_PLAIN = 8;
/** a --null row after decoration lines that could be the start of its path */
const ALT_NUL = 16;
/** a trailer guards the row (its hash in `guards`) */
const GUARDED = 32;
/** guarded, and the row's text is the line as read */
const UNTOUCHED = 64;

/**
 * Rows kept as columns beside their input. Built by parseRowTable (core/parse-rows.ts) one row
 * at a time, then read by index.
 */
export class RowTable implements RowSet {
  length = 0;
  private textStart: Uint32Array;
  private lines: Uint32Array | Float64Array;
  private flags: Uint8Array;
  private pathIds: Uint32Array | undefined;
  private readonly paths: string[] = [];
  private readonly pathIndex = new Map<string, number>();
  /** for each line of the input that was no row (a decoration, a marker), the index of the row after it */
  private gaps = new Uint32Array(16);
  private gapCount = 0;
  private readonly nulAlts = new Map<number, AltReading[]>();
  /** rows whose other reading was taken */
  private readonly taken = new Map<number, Row>();
  /** the trailers read, each with the index of the first row after it */
  private readonly trailers: { record: GuardRecord; end: number }[] = [];
  /** each guarded row's hash as read (made by resolveGuards) */
  private guards: Uint32Array | undefined;

  /**
   * `capacity`: at most this many rows will be added (the input's line count will do: the
   * columns are zero-filled memory, which costs nothing until written). `start`: where the first
   * row may begin (after a byte order mark).
   */
  constructor(
    readonly input: Buffer,
    capacity: number,
    private readonly start = 0,
  ) {
    this.textStart = new Uint32Array(capacity);
    this.lines = new Uint32Array(capacity);
    this.flags = new Uint8Array(capacity);
  }

  /** Adds a row whose bytes are a piece of the input; returns its index. */
  add(row: Row, nulAlts?: AltReading[]): number {
    const i = this.length;
    if (i === this.flags.length) this.grow();
    const at = row.bytes.byteOffset - this.input.byteOffset;
    if (row.bytes.buffer !== this.input.buffer || at < 0 || at + row.bytes.length > this.input.length) throw new Error('RowTable.add: a row not cut from the input');
    this.textStart[i] = at;
    if (row.line > 0xffffffff && this.lines instanceof Uint32Array) this.lines = Float64Array.from(this.lines);
    this.lines[i] = row.line;
    this.flags[i] = (row.anchor !== undefined ? ANCHORED : 0) | (row.alts !== undefined && nulAlts === undefined ? ALT_PLAIN : 0) | (nulAlts ? ALT_NUL : 0);
    if (nulAlts) this.nulAlts.set(i, nulAlts);
    if (row.path !== undefined) {
      if (this.pathIds === undefined) this.pathIds = new Uint32Array(this.flags.length).fill(NONE);
      let id = this.pathIndex.get(row.path);
      if (id === undefined) {
        id = this.paths.push(row.path) - 1;
        this.pathIndex.set(row.path, id);
      }
      this.pathIds[i] = id;
    }
    this.length++;
    return i;
  }

  /** One line of the input was no row (its rows after it are numbered one further). */
  gap(): void {
    if (this.gapCount === this.gaps.length) this.gaps = grown(this.gaps, this.gaps.length * 2);
    this.gaps[this.gapCount++] = this.length;
  }

  /** A guard trailer after the rows added so far: it guards those after the previous trailer. */
  addGuard(record: GuardRecord): void {
    this.trailers.push({ record, end: this.length });
    this.guards = undefined;
  }

  /**
   * Matches every row to the trailer after it (by path and line; a plain row by line, when one
   * file's trailer follows it) and marks the rows left as read. Called once the readings of the
   * rows are settled (engine/plans.ts), and again by guard() if not. A plain row after trailers
   * of several files (grep -h over several files) is refused: it could be any of their lines.
   */
  resolveGuards(source: string): void {
    if (this.trailers.length === 0) return; // rows typed by hand, or printed with --guard never
    const guards = new Uint32Array(this.flags.length);
    let from = 0;
    for (let t = 0; t < this.trailers.length; ) {
      const end = this.trailers[t]!.end;
      const byPath = new Map<string, GuardRecord>();
      // every trailer line right after one stretch of rows guards it (one line per file)
      for (; t < this.trailers.length && this.trailers[t]!.end === end; t++) byPath.set(this.trailers[t]!.record.path, this.trailers[t]!.record);
      const only = byPath.size === 1 ? [...byPath.values()][0] : undefined;
      for (let i = from; i < end; i++) {
        this.flags[i] = this.flags[i]! & ~(GUARDED | UNTOUCHED);
        const p = this.path(i);
        const record = p === undefined ? only : byPath.get(p);
        if (p === undefined && only === undefined && byPath.size > 1) {
          throw new LinewiseError('bad-row', `row ${this.rowNumber(i)}: the guard trailer after it names several files but the row names none (grep -h?): print the rows with their paths`, source);
        }
        const hash = record === undefined ? undefined : guardHashOf(record, this.line(i));
        if (hash === undefined) continue;
        guards[i] = hash;
        const r = this.row(i);
        this.flags[i] = this.flags[i]! | GUARDED | (fnv1a(bodyOf(r.bytes)) === hash ? UNTOUCHED : 0);
      }
      from = end;
    }
    this.guards = guards;
  }

  guard(i: number): number | undefined {
    if (this.trailers.length === 0) return undefined;
    if (this.guards === undefined) this.resolveGuards('rows');
    return (this.flags[i]! & GUARDED) !== 0 ? this.guards![i] : undefined;
  }

  untouched(i: number): boolean {
    if (this.trailers.length === 0) return false;
    if (this.guards === undefined) this.resolveGuards('rows');
    return (this.flags[i]! & UNTOUCHED) !== 0;
  }

  /** Row `i` was followed by a no-newline marker: the last `strip` bytes (its separator) are not its own. */
  setStrip(i: number, strip: number): void {
    this.flags[i] = (this.flags[i]! & ~STRIP_MASK) | (strip << STRIP_SHIFT);
  }

  /** The bytes row `i` would give back if it had no marker after it, and how many bytes the marker took. */
  strip(i: number): number {
    return (this.flags[i]! & STRIP_MASK) >> STRIP_SHIFT;
  }

  row(i: number, alts = false): Row {
    const t = this.taken.size > 0 ? this.taken.get(i) : undefined;
    if (t !== undefined) return t;
    const row: Row = { path: this.path(i), line: this.lines[i]!, bytes: this.input.subarray(this.textStart[i]!, this.textEnd(i)), rowNumber: this.rowNumber(i) };
    const anchor = this.anchorOf(i);
    if (anchor !== undefined) row.anchor = anchor;
    const f = alts ? this.flags[i]! : 0;
    if (f & ALT_NUL) row.alts = this.nulAlts.get(i)!.map((a) => ({ ...a, bytes: row.bytes }));
    else if (f & ALT_PLAIN) {
      const alt = this.plainAlt(i);
      if (alt !== undefined) row.alts = [alt];
    }
    return row;
  }

  line(i: number): number {
    return (this.taken.size > 0 && this.taken.get(i)?.line) || this.lines[i]!;
  }

  path(i: number): string | undefined {
    const t = this.taken.size > 0 ? this.taken.get(i) : undefined;
    if (t !== undefined) return t.path;
    const id = this.pathIds?.[i];
    return id === undefined || id === NONE ? undefined : this.paths[id];
  }

  hasAnchor(i: number): boolean {
    const t = this.taken.size > 0 ? this.taken.get(i) : undefined;
    return t !== undefined ? t.anchor !== undefined : (this.flags[i]! & ANCHORED) !== 0;
  }

  mayReadTwoWays(i: number): boolean {
    return (this.flags[i]! & (ALT_NUL | ALT_PLAIN)) !== 0 && !this.taken.has(i);
  }

  take(i: number, alt: AltReading): void {
    const { path, line, bytes, anchor, restore } = alt;
    this.taken.set(i, { path, line, bytes, rowNumber: this.rowNumber(i), ...(anchor !== undefined ? { anchor } : {}) });
    if (restore !== undefined && 'index' in restore) {
      const j = restore.index;
      this.setStrip(j, 0);
      // Row j may itself have been taken in its other reading, its bytes then cut by the marker
      // that this reading gives back: a --null reading's bytes are the row's own, so read again.
      const t = this.taken.get(j);
      if (t !== undefined) t.bytes = this.input.subarray(this.textStart[j]!, this.textEnd(j));
    }
  }

  /** The rows as objects (parseRows), each alt's `restore` naming the row object before it. */
  rows(): Row[] {
    const out: Row[] = [];
    for (let i = 0; i < this.length; i++) {
      const row = this.row(i, true);
      for (const a of row.alts ?? []) {
        if (a.restore !== undefined && 'index' in a.restore) {
          const j = a.restore.index;
          a.restore = { row: out[j]!, bytes: this.input.subarray(this.textStart[j]!, this.textEnd(j) + this.strip(j)) };
        }
      }
      out.push(row);
    }
    return out;
  }

  /** 1-based number of row `i` in the input: its index, plus the lines before it that were no row. */
  private rowNumber(i: number): number {
    let lo = 0;
    let hi = this.gapCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.gaps[mid]! <= i) lo = mid + 1;
      else hi = mid;
    }
    return i + 1 + lo;
  }

  /** Where row `i`'s text ends: at the end of its line (every row's text runs to its "\n"), less a marker's separator. */
  private textEnd(i: number): number {
    const nl = this.input.indexOf(LF, this.textStart[i]!);
    return (nl === -1 ? this.input.length : nl + 1) - this.strip(i);
  }

  /** The anchor of an anchored row: the hex digits between "#" and the tab before its text. */
  private anchorOf(i: number): string | undefined {
    if ((this.flags[i]! & ANCHORED) === 0) return undefined;
    const tab = this.textStart[i]! - 1;
    const hash = this.input.lastIndexOf(HASH, tab);
    return this.input.toString('latin1', hash + 1, tab);
  }

  /** A plain row's other reading, read again from its line (it is one line: plain rows never span more). */
  private plainAlt(i: number): AltReading | undefined {
    const textStart = this.textStart[i]!;
    const from = Math.max(this.start, this.input.lastIndexOf(LF, textStart - 1) + 1);
    const row = this.input.subarray(from, this.textEnd(i));
    const tab = row.indexOf(TAB);
    return altPathRow(row, tab, row.toString('utf8', 0, tab));
  }

  private grow(): void {
    const n = Math.max(16, this.flags.length * 2);
    this.textStart = grown(this.textStart, n);
    this.lines = grown(this.lines, n);
    this.flags = grown(this.flags, n);
    if (this.pathIds) this.pathIds = grown(this.pathIds, n).fill(NONE, this.pathIds.length);
  }
}

function grown<T extends Uint8Array | Uint32Array | Float64Array>(a: T, n: number): T {
  const b = new (a.constructor as new (n: number) => T)(n);
  b.set(a);
  return b;
}

/** `12\t3\t...` is line 12 with the text `3\t...`, and could be line 3 of a file named `12`. */
export function altPathRow(row: Buffer, tab: number, first: string): AltReading | undefined {
  const tab2 = row.indexOf(TAB, tab + 1);
  if (tab2 === -1) return undefined;
  const f = parseLineField(row.toString('latin1', tab + 1, tab2));
  if (f === undefined || 'bad' in f || f.cut || f.from !== undefined) return undefined;
  const line = Number(f.line);
  if (!Number.isSafeInteger(line) || line < 1) return undefined;
  return {
    path: first,
    line,
    bytes: row.subarray(tab2 + 1),
    ...(f.anchor !== undefined ? { anchor: f.anchor } : {}),
    why: `it also reads as line ${line} of a file named ${first} (rows print such a name quoted: "${first}")`,
  };
}

/** Rows given as objects (the library's replaceRows, the MCP server), as a RowSet. */
export class ArrayRows implements RowSet {
  private rows: readonly Row[];
  private own = false;

  constructor(private readonly original: readonly Row[]) {
    this.rows = original;
  }

  get length(): number {
    return this.rows.length;
  }

  row(i: number): Row {
    return this.rows[i]!;
  }

  line(i: number): number {
    return this.rows[i]!.line;
  }

  path(i: number): string | undefined {
    return this.rows[i]!.path;
  }

  hasAnchor(i: number): boolean {
    return this.rows[i]!.anchor !== undefined;
  }

  mayReadTwoWays(i: number): boolean {
    return this.rows[i]!.alts !== undefined;
  }

  take(i: number, alt: AltReading): void {
    // the caller's array and its rows are left as they were: changed rows are new objects
    if (!this.own) this.rows = [...this.rows];
    this.own = true;
    const rows = this.rows as Row[];
    const { path, line, bytes, anchor, restore } = alt;
    rows[i] = { path, line, bytes, rowNumber: rows[i]!.rowNumber, ...(anchor !== undefined ? { anchor } : {}) };
    if (restore !== undefined && 'row' in restore) {
      // The row before gets back the bytes the marker cut, in whichever reading it was taken.
      const j = this.indexOf(restore.row);
      if (j !== undefined) rows[j] = { ...rows[j]!, bytes: restore.bytes };
    }
  }

  /** the original row objects' indexes, made at the first restore (a restore names the object) */
  private indexes: Map<Row, number> | undefined;

  private indexOf(row: Row): number | undefined {
    if (this.indexes === undefined) {
      this.indexes = new Map();
      this.original.forEach((r, k) => this.indexes!.set(r, k));
    }
    return this.indexes.get(row);
  }
}
