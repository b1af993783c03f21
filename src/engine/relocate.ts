// `--relocate`: when the lines a caller read moved as one unchanged block (an insert or a
// formatter above them), the stale edit is moved with them, if the block is found exactly once.

import type { Expectation } from '../core/edit-plan.js';
import { LinewiseError } from '../core/errors.js';
import { BlockLocator } from '../core/block-offsets.js';
import { lineHash } from '../io/line-hash.js';
import { type InputSource, openText, type TextOptions } from '../io/input.js';
import { appliedOf, expectedLines, type FilePlan } from './plans.js';
import { StaleEditError } from './stale.js';

/** A block of expected lines found elsewhere: lines `from` (first..last) are now at `to`. */
export interface Relocation {
  from: [number, number];
  to: [number, number];
}

/**
 * The plans of a stale call, moved where their expected lines now are, or the stale error again
 * (with why they could not be moved). Only files whose every changed line is one the caller
 * expected are moved; edits located by content stay where they were found.
 */
export function relocatePlans(plans: readonly FilePlan[], stale: StaleEditError, source: InputSource, textOptions: TextOptions): { plans: FilePlan[]; moved: Map<FilePlan, Relocation> } {
  const moved = new Map<FilePlan, Relocation>();
  const out = plans.map((plan) => {
    const file = stale.files.find((f) => f.path === plan.given);
    if (file === undefined) return plan;
    // The lines read as objects: --relocate is asked for, after a stale guard, for a few lines.
    const expected = expectedLines(plan);
    const own = new Set(expected.map((x) => x.line));
    const why = file.mismatches.some((m) => !own.has(m.line)) ? 'lines found by content changed' : (outside(plan, expected) ?? where(plan, expected, source, textOptions));
    if (typeof why === 'string') throw new StaleEditError(`${stale.message} (--relocate: ${why})`, stale.path, undefined, undefined, stale.files);
    const from = span(expected);
    moved.set(plan, { from, to: [from[0] + why, from[1] + why] });
    return {
      ...plan,
      edits: plan.edits.map((e) => ({ ...e, start: e.start + why, end: e.end + why })),
      ...(plan.rows ? { rows: plan.rows.shifted(why) } : {}),
      ...(plan.expect ? { expect: plan.expect.shifted(why) } : {}),
    };
  });
  return { plans: out, moved };
}

/**
 * Why the plan's edits cannot move with the lines read, or undefined: an edit moves only when the
 * lines it touches lie within the span of lines the caller read (bounded by verified lines), and an
 * insert only next to or between them. Lines outside that span may have moved otherwise (lines
 * deleted below the block, say), so the block's offset says nothing of where they went.
 */
function outside(plan: FilePlan, expected: readonly Expectation[]): string | undefined {
  const [lo, hi] = span(expected);
  const read = lo === hi ? `line ${lo}` : `lines ${lo}-${hi}`;
  const out = (what: string) => `${what} is outside the lines read (${read}), so where it moved cannot be known from them`;
  for (const e of plan.edits) {
    const insert = e.end === e.start - 1;
    if (insert ? e.start < lo || e.start > hi + 1 : e.start < lo || e.end > hi) return out(insert ? `the insert before line ${e.start}` : e.start === e.end ? `line ${e.start}` : `lines ${e.start}-${e.end}`);
  }
  const rows = plan.rows;
  for (let k = 0; rows !== undefined && k < rows.length; k++) {
    const n = rows.line(k);
    if (n < lo || n > hi) return out(`row ${rows.row(k).rowNumber} (line ${n})`);
  }
  return undefined;
}

/**
 * The lines as they stand once the plan's edits are made (core/applied.ts), as expectations, or
 * undefined when they cannot tell (an edit that only deletes): found as one block elsewhere, they
 * say the edit was made there already (the same --relocate call run twice).
 */
function appliedBlock(plan: FilePlan): Expectation[] | undefined {
  const want = appliedOf(plan);
  if (want === undefined) return undefined;
  const out: Expectation[] = [];
  for (const [line, bytes] of want) out.push({ line, bytes, origin: 'applied' });
  return out.length > 0 ? out : undefined;
}

/**
 * The one offset at which the plan's expected lines all hold, or why there is none. When they hold
 * nowhere but the lines the edits would leave hold at exactly one offset, that offset: the edits,
 * moved there, are found already made (and nothing is written).
 */
function where(plan: FilePlan, expected: readonly Expectation[], source: InputSource, textOptions: TextOptions): number | string {
  const locator = new BlockLocator(expected, lineHash);
  const applied = appliedBlock(plan);
  const done = applied && new BlockLocator(applied, lineHash);
  const maxLine = Math.max(locator.maxLine, done?.maxLine ?? 0);
  const t = openText(plan.target.real, source, textOptions);
  try {
    let n = 0;
    let parts: Buffer[] = [];
    let size = 0;
    t.scanner.scan((buf, start, end, ends) => {
      if (size <= maxLine) parts.push(Buffer.from(buf.subarray(start, end)));
      size += end - start;
      if (!ends) return;
      const line = size <= maxLine ? Buffer.concat(parts) : undefined;
      ++n;
      locator.line(n, line !== undefined && line.length <= locator.maxLine ? line : undefined);
      done?.line(n, line);
      parts = [];
      size = 0;
    });
  } catch (e) {
    throw e instanceof LinewiseError ? new LinewiseError(e.code, e.message, plan.given, e.exitCode, { cause: e.cause }) : e;
  } finally {
    t.input.close();
  }
  const found = locator.offsets;
  if (found.length === 0 && done?.offsets.length === 1) return done.offsets[0]!;
  // both there: the edit may be made already, and moving it to the lines read would make it twice
  if (found.length > 0 && done !== undefined && done.offsets.length > 0) {
    const [lo] = span(expected);
    const [doneLo] = span(applied!);
    return `the lines read stand at line ${found.map((d) => lo + d).join(', ')} and the lines the edit leaves at line ${done.offsets.map((d) => doneLo + d).join(', ')}, so it may be made already`;
  }
  if (found.length === 0) return 'the lines read are nowhere in the file unchanged, as one block';
  if (found.length > 1) {
    const [lo, hi] = span(expected);
    const at = found.map((d) => lo + d);
    return `the lines read occur ${found.length} times, at lines ${at.map((a) => (hi === lo ? `${a}` : `${a}-${a + hi - lo}`)).join(', ')}`;
  }
  return found[0]!;
}

/** The first and last line expected (a loop: spreading a long list overflows the stack). */
function span(expected: readonly Expectation[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const x of expected) {
    if (x.line < lo) lo = x.line;
    if (x.line > hi) hi = x.line;
  }
  return [lo, hi];
}
