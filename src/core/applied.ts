// "Already applied": where an edit's new lines and the other guarded lines would stand once the
// edits were made, so a stale guard can tell an edit that already happened (a CI job run twice)
// from a file that changed under it.

import { type Edit, type Expectation, isInsert } from './edit-plan.js';

/**
 * The lines the file would hold, numbered as in the edited file, if `plan` (sorted, as
 * planEdits returns it) had been applied to the file the expectations were read from: each
 * edit's new lines where they land, and each expected line outside the edits where it moved.
 * Undefined when that cannot tell anything: an edit that only deletes leaves nothing to see.
 */
export function appliedLines(plan: readonly Edit[], expect: readonly Expectation[]): Map<number, Buffer> | undefined {
  const want = new Map<number, Buffer>();
  let shift = 0;
  // where each expected line outside the edits lands: its number plus the shift of edits before it
  const moves: Array<{ from: number; shift: number }> = [];
  for (const e of plan) {
    if (e.lines.length === 0) return undefined;
    const removed = isInsert(e) ? 0 : e.end - e.start + 1;
    e.lines.forEach((line, j) => want.set(e.start + shift + j, line));
    moves.push({ from: e.start, shift });
    shift += e.lines.length - removed;
    moves.push({ from: isInsert(e) ? e.start : e.end + 1, shift });
  }
  for (const x of expect) {
    if (plan.some((e) => !isInsert(e) && x.line >= e.start && x.line <= e.end)) continue; // replaced
    // an anchored expectation holds a hash, not the text: it cannot say the edit is in place
    if (x.bytes === undefined) return undefined;
    let s = 0;
    for (const m of moves) if (x.line >= m.from) s = m.shift;
    want.set(x.line + s, x.bytes);
  }
  return want;
}
