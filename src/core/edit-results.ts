// What each edit of a patch did, kept as columns beside the plan (the edit itself is read back
// from it): a byte an edit, and the bytes written only when a diff or a receipt will show them.

import type { Edit, Sorted } from './edit-plan.js';

/** What one edit did, for `--json` and `--dry-run`. */
export interface EditResult {
  edit: Edit;
  /** lines removed and added */
  removed: number;
  added: number;
  /** the bytes written in place of the old lines (empty unless the patch kept them) */
  output: Buffer;
  /** the bytes differ from the old lines */
  changed: boolean;
}

const EMPTY = Buffer.alloc(0);

/** The results of a plan's edits, the `i`th for the plan's `i`th edit. */
export class EditResults implements Iterable<EditResult> {
  length = 0;
  /** added minus removed, over every edit */
  delta = 0;
  private changed = new Uint8Array(16);
  /** lines removed and added, where they are not one and one (a row's) */
  private readonly counts = new Map<number, [number, number]>();
  private readonly outputs: Buffer[] | undefined;

  /** `keepOutput`: keep each edit's bytes (for a diff or a receipt). */
  constructor(
    private readonly plan: Sorted<Edit>,
    keepOutput: boolean,
  ) {
    this.outputs = keepOutput ? [] : undefined;
  }

  push(removed: number, added: number, output: Buffer, changed: boolean): void {
    const i = this.length++;
    if (i === this.changed.length) {
      const grown = new Uint8Array(i * 2);
      grown.set(this.changed);
      this.changed = grown;
    }
    this.changed[i] = changed ? 1 : 0;
    if (removed !== 1 || added !== 1) this.counts.set(i, [removed, added]);
    this.outputs?.push(output);
    this.delta += added - removed;
  }

  at(i: number): EditResult | undefined {
    if (i < 0 || i >= this.length) return undefined;
    const [removed, added] = this.counts.get(i) ?? [1, 1];
    return { edit: this.plan.at(i)!, removed, added, output: this.outputs?.[i] ?? EMPTY, changed: this.changed[i] === 1 };
  }

  *[Symbol.iterator](): Iterator<EditResult> {
    for (let i = 0; i < this.length; i++) yield this.at(i)!;
  }

  map<T>(f: (r: EditResult) => T): T[] {
    const out: T[] = [];
    for (const r of this) out.push(f(r));
    return out;
  }
}
