// "Already applied": where an edit's new lines and the other guarded lines would stand once the
// edits were made, so a stale guard can tell an edit that already happened (a CI job run twice)
// from a file that changed under it. In line order, made as the file is read again: no map of them.

import { type Edit, type Expectation, isInsert, type Sorted } from './edit-plan.js';
import { ExpectStream } from './expect-stream.js';

/**
 * The lines the file would hold, as `[line, bytes]` in ascending order of their numbers in the
 * edited file, if `plan` (sorted, as planEdits returns it) had been applied to the file the
 * expectations (`expect`: sources sorted by line) were read from: each edit's new lines where
 * they land, and each expected line outside the edits where it moved. Undefined when that cannot
 * tell anything: an edit that only deletes leaves nothing to see, an anchor holds no text.
 */
export function appliedLines(plan: Sorted<Edit>, expect: readonly Sorted<Expectation>[]): Iterable<[number, Buffer]> | undefined {
  if (!canTell(plan, expect)) return undefined;
  return {
    *[Symbol.iterator]() {
      let shift = 0;
      let i = 0;
      function* lines(e: Edit): Generator<[number, Buffer]> {
        for (let j = 0; j < e.lines.length; j++) yield [e.start + shift + j, e.lines[j]!];
        shift += e.lines.length - (isInsert(e) ? 0 : e.end - e.start + 1);
      }
      const xs = new ExpectStream(expect, () => true);
      for (let x = xs.next(); x !== undefined; x = xs.next()) {
        // the edits that start at or above it come first (an insert before its line moves it down)
        while (i < plan.length && plan.at(i)!.start <= x.line) yield* lines(plan.at(i++)!);
        if (i > 0 && inside(plan.at(i - 1), x.line)) continue; // replaced: its edit says what stands there
        yield [x.line + shift, x.bytes!];
      }
      while (i < plan.length) yield* lines(plan.at(i++)!);
    },
  };
}

/** Whether `e` replaces `line` (an insert replaces none). */
const inside = (e: Edit | undefined, line: number) => e !== undefined && !isInsert(e) && line >= e.start && line <= e.end;

/** There is something to see, and every expected line outside the edits gives its text. */
function canTell(plan: Sorted<Edit>, expect: readonly Sorted<Expectation>[]): boolean {
  let any = plan.length > 0;
  for (let i = 0; i < plan.length; i++) if (plan.at(i)!.lines.length === 0) return false;
  const xs = new ExpectStream(expect, () => true);
  let p = 0;
  for (let x = xs.next(); x !== undefined; x = xs.next()) {
    // past the edits that end above it (an insert "ends" just above where it goes)
    while (p < plan.length && end(plan.at(p)!) < x.line) p++;
    if (inside(plan.at(p), x.line)) continue;
    // an anchored expectation holds a hash, not the text: it cannot say the edit is in place
    if (x.bytes === undefined) return false;
    any = true;
  }
  return any;
}

const end = (e: Edit) => (isInsert(e) ? e.start - 1 : e.end);
