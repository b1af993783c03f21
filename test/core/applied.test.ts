// Where an edit's new lines and the other guarded lines stand once the edits are made: the test
// of "already applied" (a stale guard that is only the edit run twice).
import { describe, expect, it } from 'vitest';
import { appliedLines } from '../../src/core/applied.js';
import { type Edit, planEdits } from '../../src/core/edit-plan.js';

const edit = (start: number, end: number, ...lines: string[]): Edit => ({ start, end, lines: lines.map((l) => Buffer.from(`${l}\n`)), origin: 'test' });
const expectLine = (line: number, text: string) => ({ line, bytes: Buffer.from(text), origin: 'expected' });
const shown = (m: Iterable<[number, Buffer]> | undefined) => (m === undefined ? undefined : [...m].map(([n, b]) => `${n}:${b.toString().trimEnd()}`));

describe('appliedLines', () => {
  it('new lines where each edit lands, guarded lines outside the edits where they moved', () => {
    // lines 2-3 become three lines, an insert before 6, line 8 replaced; 1, 5 and 9 guarded too
    const plan = planEdits([edit(2, 3, 'a', 'b', 'c'), edit(6, 5, 'ins'), edit(8, 8, 'h')]);
    const expect1 = [expectLine(1, 'one'), expectLine(2, 'two'), expectLine(5, 'five'), expectLine(9, 'nine')];
    // in ascending order, as the file is read again
    expect(shown(appliedLines(plan, [expect1]))).toEqual(['1:one', '2:a', '3:b', '4:c', '6:five', '7:ins', '10:h', '11:nine']);
  });

  it('nothing to tell by when an edit only deletes', () => {
    expect(appliedLines(planEdits([edit(2, 3)]), [[expectLine(2, 'x')]])).toBeUndefined();
  });

  it('merges sorted sources of expectations; an anchor on an edited line says nothing, one elsewhere makes it unknowable', () => {
    const plan = planEdits([edit(2, 2, 'B'), edit(4, 3, 'ins')]);
    const anchor = (line: number) => ({ line, anchor: 'abcd', origin: 'row' });
    expect(shown(appliedLines(plan, [[anchor(2)], [expectLine(1, 'one'), expectLine(4, 'four')]]))).toEqual(['1:one', '2:B', '4:ins', '5:four']);
    expect(appliedLines(plan, [[anchor(5)], [expectLine(1, 'one')]])).toBeUndefined();
    expect(appliedLines(planEdits([]), [[expectLine(1, 'one')]]) === undefined).toBe(false);
    expect(appliedLines(planEdits([]), [])).toBeUndefined();
  });
});
