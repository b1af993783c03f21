// Edits grouped into one plan per file: range edits of a named file, or rows that may name
// several files (two names of one file are one plan), each plan with the lines it expects.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Edit, type Expectation, planEdits, rowAnchors, rowEdits, rowExpectations } from '../core/edit-plan.js';
import { LinewiseError, withPath } from '../core/errors.js';
import { splitLines } from '../core/lines.js';
import { EMPTY_PATH, type Row } from '../core/parse-rows.js';
import { fsPath, quotePath } from '../core/path-names.js';
import { type EditTarget, resolveTarget } from '../io/edit-target.js';

/** The edits and expectations of one file. */
export interface FilePlan {
  /** the file as the caller named it, for messages and results */
  given: string;
  target: EditTarget;
  edits: Edit[];
  expect: Expectation[];
  /** rows carried paths: stale lines are shown with them */
  pathRows: boolean;
  /** rows carried anchors: stale lines are shown anchored */
  anchored: boolean;
  /**
   * Edits located by content (`--old`) and the lines they were found in: their place is where
   * the file holds the text now, so `--relocate` moves `edits` and `expect` but never these.
   */
  fixed?: { edits: Edit[]; expect: Expectation[] };
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
export function rangePlan(cwd: string, file: string, ranges: readonly RangeSpec[], expectRows: readonly Row[], expectSource = 'expect'): FilePlan[] {
  const target = resolveTarget(file, cwd);
  const edits: Edit[] = ranges.map(({ start, end, text, origin }) => ({ start, end, lines: splitLines(text), origin: origin ?? rangeOrigin(start, end) }));
  const pathRows = expectRows.some((r) => r.path !== undefined);
  for (const r of resolveReadings(cwd, target, expectRows, expectSource)) {
    if (r.path === '') throw new LinewiseError('bad-row', `row ${r.rowNumber}: ${EMPTY_PATH}`, expectSource);
    if (r.path !== undefined && !sameTarget(cwd, r.path, target)) throw rowForOtherFile(r, expectSource, file);
  }
  return [{ given: file, target, edits, expect: rowExpectations(expectRows), pathRows, anchored: expectRows.some((r) => r.anchor !== undefined) }];
}

/** Rows grouped by the file they edit; with `file`, every row must be for it. */
export function rowPlans(cwd: string, file: string | undefined, rows: readonly Row[], expectRows: readonly Row[], expectSource = 'expect'): FilePlan[] {
  if (rows.length === 0) return []; // e.g. grep found nothing: nothing to do, as with sed
  const plans = new Map<string, FilePlan>();
  const fixed = file === undefined ? undefined : resolveTarget(file, cwd);
  const targets = new Map<string, EditTarget>();
  const planFor = (row: Row, source: string): FilePlan => {
    // a --null row whose empty path none of its other readings could fill (parse-rows.ts)
    if (row.path === '') throw new LinewiseError('bad-row', `row ${row.rowNumber}: ${EMPTY_PATH}`, source);
    if (row.path === undefined && fixed === undefined) {
      throw new LinewiseError('bad-row', `row ${row.rowNumber} has no path: name the file, as in linewise replace FILE --rows`, source);
    }
    let target: EditTarget;
    if (fixed !== undefined) {
      if (row.path !== undefined && !sameTarget(cwd, row.path, fixed)) throw rowForOtherFile(row, source, file!);
      target = fixed;
    } else {
      // once per name, not per row: a million rows of one file are not three million system calls
      target = targets.get(row.path!) ?? resolveTarget(row.path!, cwd);
      targets.set(row.path!, target);
    }
    // Two names of one file (a.txt, ./a.txt, a link to it, the same directory bind-mounted at two
    // places, where even the real paths differ) are one plan: their edits must not clash.
    const key = fileKey(target.stat);
    let plan = plans.get(key);
    if (plan === undefined) {
      plan = { given: fixed ? file! : row.path!, target, edits: [], expect: [], pathRows: row.path !== undefined, anchored: false };
      plans.set(key, plan);
    }
    return plan;
  };
  for (const row of resolveReadings(cwd, fixed, rows, 'rows')) {
    const plan = planFor(row, 'rows');
    plan.edits.push(...rowEdits([row]));
    // An anchored row guards the line it replaces: the line must still be the one read.
    plan.expect.push(...rowAnchors([row]));
    if (row.anchor !== undefined) plan.anchored = true;
  }
  for (const row of resolveReadings(cwd, fixed, expectRows, expectSource)) {
    const plan = planFor(row, expectSource);
    if (plan.edits.length === 0) throw new LinewiseError('bad-row', `row ${row.rowNumber} is for ${quotePath(row.path ?? '')}, which no row edits`, expectSource);
    plan.expect.push(...rowExpectations([row]));
    if (row.anchor !== undefined) plan.anchored = true;
  }
  // Clashing rows are refused before any file is read.
  for (const plan of plans.values()) {
    try {
      planEdits(plan.edits);
    } catch (e) {
      throw withPath(e, plan.given);
    }
  }
  return [...plans.values()];
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

function rowForOtherFile(row: Row, source: string, file: string): LinewiseError {
  return new LinewiseError('bad-row', `row ${row.rowNumber} is for ${quotePath(row.path ?? '')}, not ${quotePath(file)}; leave FILE out to patch several files`, source);
}

/**
 * Rows with another reading (a plain row that also reads as a path row, a --null path that may
 * begin with the decoration before it) as the one reading that can apply: the one whose path
 * names a file (with FILE: names FILE). Two that can: refused, nothing written.
 */
function resolveReadings(cwd: string, fixed: EditTarget | undefined, rows: readonly Row[], source: string): Row[] {
  return rows.map((row) => {
    if (row.alts === undefined) return row;
    const fits = row.alts.filter((a) => names(cwd, a.path, fixed));
    if (fits.length === 0) return row;
    const primary = row.path === undefined ? fixed !== undefined : names(cwd, row.path, fixed);
    if (primary || fits.length > 1) {
      throw new LinewiseError('bad-row', `row ${row.rowNumber} reads two ways: ${fits[0]!.why}; nothing was written`, source);
    }
    const { path: p, line, bytes, anchor, restore } = fits[0]!;
    if (restore) restore.row.bytes = restore.bytes;
    return { path: p, line, bytes, rowNumber: row.rowNumber, ...(anchor !== undefined ? { anchor } : {}) };
  });
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
