// Which occurrences of a content edit's old text are still to edit, and which are the edit done
// before: an old text that lies inside an occurrence of its new text (`foo()` inside `foo(); bar()`).

import type { Occurrence, TextMatch } from './find-text.js';

/** Places occurrences (a TextSearch's `position`). */
export interface Placer {
  position(m: TextMatch): Occurrence;
}

/**
 * Tallies one content edit's occurrences as a TextSearch finds them: the old text's (`old`) and
 * the new text's (`new`), each in the order they end. When the new text holds the old one, an
 * old occurrence is decided only once every new occurrence that could hold it has been seen
 * (`settle` with the offset searched to): those end at most `newLength - oldLength` bytes after
 * it. Memory: the occurrences kept (`keep` live ones, a few new ones) and those waiting, which
 * end within the last block and a new text's length.
 */
export class AppliedTally {
  /** old occurrences to edit: the first `keep` of them, and how many in all */
  readonly live: Occurrence[] = [];
  liveCount = 0;
  /** old occurrences inside a new one */
  appliedCount = 0;
  /** new occurrences: the first few of them, and how many in all */
  readonly newFound: Occurrence[] = [];
  newCount = 0;
  /** old occurrences not yet decided (only when the new text holds the old), in order */
  private pending: { start: number; end: number; at: Occurrence }[] = [];
  /** starts of new occurrences that may still hold a pending or later old one, in order */
  private newStarts: number[] = [];

  constructor(
    private readonly oldLength: number,
    private readonly newLength: number,
    /** the new text holds the old one */
    private readonly contains: boolean,
    private readonly keep: number,
    private readonly listed = 20,
  ) {}

  old(m: TextMatch, placer: Placer): void {
    // placed only when kept: a text found millions of times costs no object for each
    if (!this.contains) return this.isLive(() => placer.position(m));
    this.pending.push({ start: m.start, end: m.end, at: placer.position(m) });
  }

  new(m: TextMatch, placer: Placer): void {
    this.newCount++;
    if (this.newFound.length < this.listed) this.newFound.push(placer.position(m));
    if (this.contains) this.newStarts.push(m.start);
  }

  /** Every occurrence ending at or before `searched` has been handed on: decide what can be. */
  settle(searched: number): void {
    if (!this.contains) return;
    const slack = this.newLength - this.oldLength;
    let i = 0;
    let n = 0; // new starts let go
    for (; i < this.pending.length; i++) {
      const o = this.pending[i]!;
      if (o.end + slack > searched) break;
      // A new occurrence [t, t + newLength) holds [start, end) when end - newLength <= t <= start.
      while (n < this.newStarts.length && this.newStarts[n]! < o.end - this.newLength) n++;
      if (n < this.newStarts.length && this.newStarts[n]! <= o.start) this.appliedCount++;
      else this.isLive(() => o.at);
    }
    if (i > 0) this.pending = this.pending.slice(i);
    // What no old occurrence, waiting or still to come (ending past `searched`), can lie in.
    const floor = (this.pending[0]?.end ?? searched + 1) - this.newLength;
    while (n < this.newStarts.length && this.newStarts[n]! < floor) n++;
    if (n > 0) this.newStarts = this.newStarts.slice(n);
  }

  private isLive(at: () => Occurrence): void {
    this.liveCount++;
    if (this.live.length < this.keep) this.live.push(at());
  }
}
