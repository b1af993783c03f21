// Edits grouped into one plan per file: range edits of a named file, or rows that may name
// several files (two names of one file are one plan), each plan with the lines it expects.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Edit, type Expectation, planEdits, rowEdits, rowExpectations } from '../core/edit-plan.js';
import { LinewiseError, withPath } from '../core/errors.js';
import { splitLines } from '../core/lines.js';
import type { Row } from '../core/parse-rows.js';
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
  for (const r of expectRows) {
    if (r.path !== undefined && !sameTarget(cwd, r.path, target)) throw rowForOtherFile(r, expectSource, file);
  }
  return [{ given: file, target, edits, expect: rowExpectations(expectRows), pathRows }];
}

/** Rows grouped by the file they edit; with `file`, every row must be for it. */
export function rowPlans(cwd: string, file: string | undefined, rows: readonly Row[], expectRows: readonly Row[], expectSource = 'expect'): FilePlan[] {
  if (rows.length === 0) return []; // e.g. grep found nothing: nothing to do, as with sed
  const plans = new Map<string, FilePlan>();
  const fixed = file === undefined ? undefined : resolveTarget(file, cwd);
  const planFor = (row: Row, source: string): FilePlan => {
    if (row.path === undefined && fixed === undefined) {
      throw new LinewiseError('bad-row', `row ${row.rowNumber} has no path: name the file, as in linewise replace FILE --rows`, source);
    }
    let target: EditTarget;
    if (fixed !== undefined) {
      if (row.path !== undefined && !sameTarget(cwd, row.path, fixed)) throw rowForOtherFile(row, source, file!);
      target = fixed;
    } else {
      target = resolveTarget(row.path!, cwd);
    }
    // Two names of one file (a.txt, ./a.txt, a link to it) are one plan: their edits must not clash.
    let plan = plans.get(target.real);
    if (plan === undefined) {
      plan = { given: fixed ? file! : row.path!, target, edits: [], expect: [], pathRows: row.path !== undefined };
      plans.set(target.real, plan);
    }
    return plan;
  };
  for (const row of rows) planFor(row, 'rows').edits.push(...rowEdits([row]));
  for (const row of expectRows) {
    const plan = planFor(row, expectSource);
    if (plan.edits.length === 0) throw new LinewiseError('bad-row', `row ${row.rowNumber} is for ${row.path}, which no row edits`, expectSource);
    plan.expect.push(...rowExpectations([row]));
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

function sameTarget(cwd: string, p: string, target: EditTarget): boolean {
  try {
    return fs.realpathSync(path.resolve(cwd, p)) === target.real;
  } catch {
    return false;
  }
}

function rowForOtherFile(row: Row, source: string, file: string): LinewiseError {
  return new LinewiseError('bad-row', `row ${row.rowNumber} is for ${row.path}, not ${file}; leave FILE out to patch several files`, source);
}
