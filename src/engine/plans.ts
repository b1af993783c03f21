// Edits grouped into one plan per file: range edits of a named file, or rows that may name
// several files (two names of one file are one plan), each plan with the lines it expects.
// Rows stay in their RowSet: a plan holds a run of them, or their indexes in line order.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { appliedLines } from '../core/applied.js';
import { type Edit, type Expectation, planEdits, rowEdit, type Sorted } from '../core/edit-plan.js';
import { LinewiseError, withPath } from '../core/errors.js';
import { splitLines } from '../core/lines.js';
import { EMPTY_PATH, type Row, type RowSet, RowTable } from '../core/parse-rows.js';
import { fsPath, quotePath } from '../core/path-names.js';
import { PlanRows } from '../core/plan-rows.js';
import { type EditTarget, resolveTarget } from '../io/edit-target.js';

/** The edits and expectations of one file. */
export interface FilePlan {
  /** the file as the caller named it, for messages and results */
  given: string;
  target: EditTarget;
  /** range edits, as given (the patcher sorts and checks them) */
  edits: Edit[];
  /** rows fed back as edits (`replace --rows`), in line order, checked; their anchors guard their lines */
  rows?: PlanRows;
  /** the lines read (`--expect`, the library's `expect`), in line order */
  expect?: PlanRows;
  /** rows carried paths: stale lines are shown with them */
  pathRows: boolean;
  /** rows carried anchors: stale lines are shown anchored */
  anchored: boolean;
  /** rows carried a reader's guard trailer: stale lines are shown with one */
  guarded?: boolean;
  /**
   * Edits located by content (`--old`) and the lines they were found in: their place is where
   * the file holds the text now, so `--relocate` moves `rows`, `edits` and `expect` but never these.
   */
  fixed?: { edits: Edit[]; expect: Expectation[] };
}

/** The edits the patcher applies: rows (already planned) or range and content edits (it plans them). */
export function plannedEdits(plan: FilePlan): readonly Edit[] | Sorted<Edit> {
  if (plan.rows) return plan.rows.edits();
  return plan.fixed ? [...plan.edits, ...plan.fixed.edits] : plan.edits;
}

/** The guard of a plan as sorted sources: rows' anchors, the lines read, and (`fixed`) the lines found. */
export function expectations(plan: FilePlan, fixed = true): Sorted<Expectation>[] {
  const out: Sorted<Expectation>[] = [];
  if (plan.rows) out.push(plan.rows.anchors());
  if (plan.expect) out.push(plan.expect.expectations());
  if (fixed && plan.fixed) out.push([...plan.fixed.expect].sort((a, b) => a.line - b.line));
  return out;
}

/**
 * The lines the file would hold once the plan's edits were made, with the lines it guards where
 * they would have moved (core/applied.ts): how a rerun tells an edit already made. Undefined when
 * that cannot tell (an edit that only deletes).
 */
export function appliedOf(plan: FilePlan): Iterable<[number, Buffer]> | undefined {
  return appliedLines(plan.rows ? plan.rows.edits() : planEdits(plan.edits), expectations(plan, false));
}

/** Every expectation of a plan but the lines found, as objects (--relocate, which moves them). */
export function expectedLines(plan: FilePlan): Expectation[] {
  const out: Expectation[] = [];
  for (const s of expectations(plan, false)) {
    for (let i = 0; i < s.length; i++) {
      const x = s.at(i);
      if (x !== undefined) out.push(x);
    }
  }
  return out;
}

/** A range edit of one file: lines `start..end` become `text` (`end = start - 1` inserts). */
export interface RangeSpec {
  start: number;
  end: number;
  text: Uint8Array;
  /** how messages name the edit ("edit 2"); default its range ("lines 3-5") */
  origin?: string;
}

/** How an edit range is named in messages: "line 3", "lines 3-5", "insert before line 3". */
function rangeOrigin(start: number, end: number): string {
  return end === start - 1 ? `insert before line ${start}` : end === start ? `line ${start}` : `lines ${start}-${end}`;
}

/**
 * The plan of range edits to `file`, guarded by `expectRows` (which may carry paths, all of
 * `file`; `expectSource` names them in messages). Overlaps are refused when the file is read.
 */
export function rangePlan(cwd: string, file: string, ranges: readonly RangeSpec[], expectRows: RowSet, expectSource = 'expect'): FilePlan[] {
  const target = resolveTarget(file, cwd);
  const edits: Edit[] = ranges.map(({ start, end, text, origin }) => ({ start, end, lines: splitLines(text), origin: origin ?? rangeOrigin(start, end) }));
  resolveReadings(cwd, target, expectRows, expectSource);
  const same = sameAs(cwd, target);
  const groups = new RowGroups();
  let pathRows = false;
  let anchored = false;
  for (let i = 0; i < expectRows.length; i++) {
    const p = expectRows.path(i);
    if (p === '') throw new LinewiseError('bad-row', `row ${expectRows.row(i).rowNumber}: ${EMPTY_PATH}`, expectSource);
    if (p !== undefined && !same(p)) throw rowForOtherFile(expectRows.row(i), expectSource, file);
    pathRows ||= p !== undefined;
    anchored ||= expectRows.hasAnchor(i);
    groups.add(0, i, expectRows.line(i));
  }
  const expect = expectRows.length > 0 ? groups.rows(expectRows, 0, () => 0) : undefined;
  return [{ given: file, target, edits, ...(expect ? { expect } : {}), pathRows, anchored }];
}

/** Rows grouped by the file they edit; with `file`, every row must be for it. */
export function rowPlans(cwd: string, file: string | undefined, rows: RowSet, expectRows: RowSet, expectSource = 'expect'): FilePlan[] {
  if (rows.length === 0) return []; // e.g. grep found nothing: nothing to do, as with sed
  const plans: FilePlan[] = [];
  const byKey = new Map<string, number>();
  const fixed = file === undefined ? undefined : resolveTarget(file, cwd);
  const same = fixed && sameAs(cwd, fixed);
  // once per name, not per row: a million rows of one file are not three million system calls
  const byPath = new Map<string, number>();
  const planOf = (set: RowSet, i: number, source: string): number => {
    const p = set.path(i);
    // a --null row whose empty path none of its other readings could fill (parse-rows.ts)
    if (p === '') throw new LinewiseError('bad-row', `row ${set.row(i).rowNumber}: ${EMPTY_PATH}`, source);
    if (fixed !== undefined) {
      if (p !== undefined && !same!(p)) throw rowForOtherFile(set.row(i), source, file!);
    } else if (p === undefined) {
      throw new LinewiseError('bad-row', `row ${set.row(i).rowNumber} has no path: name the file, as in linewise replace FILE --rows`, source);
    }
    const name = fixed ? '' : p!;
    let n = byPath.get(name);
    if (n !== undefined) return n;
    const target = fixed ?? resolveTarget(p!, cwd);
    // Two names of one file (a.txt, ./a.txt, a link to it, the same directory bind-mounted at two
    // places, where even the real paths differ) are one plan: their edits must not clash.
    const key = fileKey(target.stat);
    n = byKey.get(key);
    if (n === undefined) {
      n = plans.push({ given: fixed ? file! : p!, target, edits: [], pathRows: p !== undefined, anchored: false }) - 1;
      byKey.set(key, n);
    }
    byPath.set(name, n);
    return n;
  };
  resolveReadings(cwd, fixed, rows, 'rows');
  // Rows from a reader with its guard trailer: a row left as it was read is no edit, so it never
  // writes its line back over someone else's change (core/row-guard.ts).
  if (rows instanceof RowTable) rows.resolveGuards('rows');
  const edited = new RowGroups();
  for (let i = 0; i < rows.length; i++) {
    if (rows.untouched?.(i)) continue;
    const n = planOf(rows, i, 'rows');
    if (rows.guard?.(i) !== undefined) plans[n]!.guarded = true;
    edited.add(n, i, rows.line(i));
    if (rows.hasAnchor(i)) plans[n]!.anchored = true;
  }
  resolveReadings(cwd, fixed, expectRows, expectSource);
  const read = new RowGroups();
  for (let i = 0; i < expectRows.length; i++) {
    const n = planOf(expectRows, i, expectSource);
    if (!edited.has(n)) throw new LinewiseError('bad-row', `row ${expectRows.row(i).rowNumber} is for ${quotePath(expectRows.path(i) ?? '')}, which no row edits`, expectSource);
    read.add(n, i, expectRows.line(i));
    if (expectRows.hasAnchor(i)) plans[n]!.anchored = true;
  }
  const groupOf = (set: RowSet) => (i: number) => (set.untouched?.(i) && set === rows ? -1 : byPath.get(fixed ? '' : set.path(i)!)!);
  plans.forEach((plan, n) => {
    plan.rows = edited.rows(rows, n, groupOf(rows));
    if (read.has(n)) plan.expect = read.rows(expectRows, n, groupOf(expectRows));
    // Clashing rows are refused before any file is read.
    try {
      refuseClashes(plan.rows);
    } catch (e) {
      throw withPath(e, plan.given);
    }
  });
  return plans;
}

/** Rows in line order that edit one line twice: refused as planEdits refuses two such edits. */
function refuseClashes(rows: PlanRows): void {
  for (let k = 1; k < rows.length; k++) {
    if (rows.line(k) === rows.line(k - 1)) planEdits([rowEdit(rows.row(k - 1)), rowEdit(rows.row(k))]);
  }
}

/**
 * Rows sorted out by the plan they belong to, as they are read: a plan whose rows come one after
 * the other in rising line order (what readlines, page and grep print) is a run of the set and
 * costs nothing; any other is listed (4 bytes a row), and sorted by line unless it rises already.
 */
class RowGroups {
  private readonly groups: { first: number; count: number; line: number; run: boolean; rising: boolean }[] = [];
  private last = -1;
  private lastIndex = -1;

  add(group: number, i: number, line: number): void {
    const g = this.groups[group];
    if (g === undefined) this.groups[group] = { first: i, count: 1, line, run: true, rising: true };
    else {
      // (rows of one line twice stay a run: the planner refuses them as edits, the guard reads both)
      if (line < g.line) g.rising = false;
      // a row left out (untouched under a guard trailer) ends the run as another file's row does
      if (this.last !== group || !g.rising || i !== this.lastIndex + 1) g.run = false;
      g.count++;
      g.line = line;
    }
    this.last = group;
    this.lastIndex = i;
  }

  has(group: number): boolean {
    return this.groups[group] !== undefined;
  }

  /** The rows of `group` in line order (a stable sort: rows of one line keep their order). */
  rows(set: RowSet, group: number, groupOf: (i: number) => number): PlanRows {
    const g = this.groups[group]!;
    if (g.run) return PlanRows.run(set, g.first, g.count);
    const order = new Uint32Array(g.count);
    for (let i = g.first, k = 0; k < g.count; i++) if (groupOf(i) === group) order[k++] = i;
    if (!g.rising) sortByLine(order, set);
    return PlanRows.ordered(set, order);
  }
}

/** Row indexes fit in 26 bits (the 64 MiB of rows hold at most 22 million): a line and its row in one float. */
const ROW_BITS = 2 ** 26;

/**
 * Sorts row indexes by their line, rows of one line in index order: as one number each, line
 * and index, sorted natively (a comparator sort of millions takes seconds, and twice the memory).
 */
function sortByLine(order: Uint32Array, set: RowSet): void {
  const keys = new Float64Array(order.length);
  for (let k = 0; k < order.length; k++) {
    const line = set.line(order[k]!);
    if (line >= 2 ** 53 / ROW_BITS || order[k]! >= ROW_BITS) {
      order.sort((a, b) => set.line(a) - set.line(b) || a - b); // lines past 134 million: rare
      return;
    }
    keys[k] = line * ROW_BITS + order[k]!;
  }
  keys.sort();
  for (let k = 0; k < order.length; k++) order[k] = keys[k]! % ROW_BITS;
}

/** One file whatever its names: its device and inode. */
const fileKey = (st: { dev: bigint; ino: bigint }) => `${st.dev}:${st.ino}`;

function sameTarget(cwd: string, p: string, target: EditTarget): boolean {
  try {
    return fileKey(fs.statSync(fsPath(path.resolve(cwd, p)), { bigint: true })) === fileKey(target.stat);
  } catch {
    return false;
  }
}

/** sameTarget, asked once per name. */
function sameAs(cwd: string, target: EditTarget): (p: string) => boolean {
  const seen = new Map<string, boolean>();
  return (p) => {
    let same = seen.get(p);
    if (same === undefined) seen.set(p, (same = sameTarget(cwd, p, target)));
    return same;
  };
}

function rowForOtherFile(row: Row, source: string, file: string): LinewiseError {
  return new LinewiseError('bad-row', `row ${row.rowNumber} is for ${quotePath(row.path ?? '')}, not ${quotePath(file)}; leave FILE out to patch several files`, source);
}

/**
 * Rows with another reading (a plain row that also reads as a path row, a --null path that may
 * begin with the decoration before it) made to read the one way that can apply: the one whose
 * path names a file (with FILE: names FILE). Two that can: refused, nothing written.
 */
function resolveReadings(cwd: string, fixed: EditTarget | undefined, rows: RowSet, source: string): void {
  for (let i = 0; i < rows.length; i++) {
    if (!rows.mayReadTwoWays(i)) continue;
    const row = rows.row(i, true);
    const fits = row.alts!.filter((a) => names(cwd, a.path, fixed));
    if (fits.length === 0) continue;
    const primary = row.path === undefined ? fixed !== undefined : names(cwd, row.path, fixed);
    if (primary || fits.length > 1) {
      throw new LinewiseError('bad-row', `row ${row.rowNumber} reads two ways: ${fits[0]!.why}; nothing was written`, source);
    }
    rows.take(i, fits[0]!);
  }
}

/** `p` names a file that could be edited: a regular file (with FILE: FILE itself). */
function names(cwd: string, p: string, fixed: EditTarget | undefined): boolean {
  if (p === '') return false; // "" is no file
  if (fixed !== undefined) return sameTarget(cwd, p, fixed);
  try {
    return fs.statSync(fsPath(path.resolve(cwd, p))).isFile();
  } catch {
    return false;
  }
}
