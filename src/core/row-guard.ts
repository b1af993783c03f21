// The guard trailer: after a reader's rows, one line per file, `\ read {"path":…,"lines":"1-3,7",
// "hash":"…"}`, holding the line numbers of the rows and a short hash of each line as read, in the
// `\ `-comment convention of the no-newline marker. `replace --rows` reads it back to tell a row
// the user edited from one left as read (never written), and to refuse an edited row whose line
// changed since (docs/COMMANDS.md#guarded-rows).

/** What every trailer line starts with. */
export const GUARD_PREFIX = '\\ read ';

/** Hex digits of one line's hash in a trailer: 32 bits of FNV-1a. */
export const GUARD_HASH_DIGITS = 8;

/**
 * Rows a reader guards at most: past that the trailer is left out (a note says so) and the rows
 * are plain, as before. 12 bytes a row are kept until the end of the output, so a reader of a
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

/** One trailer line read back: the rows of `path` it guards, each line's hash as read. */
export interface GuardRecord {
  path: string;
  /** the guarded lines, ascending */
  lines: Float64Array;
  /** `hashes[k]` is the hash of line `lines[k]` as read */
  hashes: Uint32Array;
}

/**
 * The guard of the rows a reader prints, per file in the order first met: the lines as runs and
 * one hash a row. `add` each row as printed; `lines()` gives the trailer, or nothing past
 * {@link GUARD_MAX_ROWS} (then `overflowed` is set).
 */
export class GuardLog {
  private readonly files = new Map<string, { runs: number[]; hashes: Uint32Array; count: number }>();
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
    if (f === undefined) this.files.set(path, (f = { runs: [], hashes: new Uint32Array(16), count: 0 }));
    const runs = f.runs;
    const lastEnd = runs.length > 0 ? runs[runs.length - 1]! : -1;
    if (line <= lastEnd) return; // a line printed twice (never by the readers): guarded once
    if (line === lastEnd + 1) runs[runs.length - 1] = line;
    else runs.push(line, line);
    if (f.count === f.hashes.length) {
      const grown = new Uint32Array(f.hashes.length * 2);
      grown.set(f.hashes);
      f.hashes = grown;
    }
    f.hashes[f.count++] = hash;
  }

  get empty(): boolean {
    return this.files.size === 0;
  }

  /** The trailer lines, each ending with "\n" (none when nothing was guarded). */
  lines(): string[] {
    const out: string[] = [];
    for (const [path, f] of this.files) {
      const lines: string[] = [];
      for (let i = 0; i < f.runs.length; i += 2) lines.push(f.runs[i] === f.runs[i + 1] ? String(f.runs[i]) : `${f.runs[i]}-${f.runs[i + 1]}`);
      let hash = '';
      for (let k = 0; k < f.count; k++) hash += f.hashes[k]!.toString(16).padStart(GUARD_HASH_DIGITS, '0');
      out.push(`${GUARD_PREFIX}${JSON.stringify({ path, lines: lines.join(','), hash })}\n`);
    }
    return out;
  }
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
