// A byte order mark at the top of a hunk: diff and git diff see a file's UTF-8 mark as the first
// bytes of its line 1, where linewise keeps it apart from the lines (and writes it back first).

import type { Hunk, HunkLine } from './types.js';

/** U+FEFF in UTF-8, as a hunk line's latin1 text holds it (one character a byte). */
const MARK = '\xef\xbb\xbf';

/** The mark's bytes. */
export const MARK_BYTES = Buffer.from(MARK, 'latin1');

/** The hunks of a file that starts with a mark, as its lines (the mark kept apart) compare. */
export interface MarkedHunks {
  hunks: Hunk[];
  /**
   * Each hunk takes the mark away: its old side starts with the mark and its new side does not,
   * so once it applies, the file starts without one (diff's view: line 1 lost its first bytes).
   */
  dropsMark: boolean[];
  /**
   * Each hunk had the mark taken off (its old or new side starts the file): it is at line 1 or
   * nowhere, as no other line carries the file's mark (found elsewhere, it does not apply).
   */
  top: boolean[];
  /**
   * Each hunk only adds lines above line 1, the first with the mark (diff -U0): diff's old line 1,
   * which carried the mark, is now below them and keeps it as its first bytes ({@link markMovedDown}).
   */
  movesMark: boolean[];
}

/**
 * The hunks with the mark taken off the line that is the file's line 1 on each side: the first old
 * line of a hunk at the top whose old side starts with the mark (the hunk then binds to the start,
 * as git apply finds it there), and the first new line of a hunk at the top, where the mark stays
 * the file's. A side is at the top when it says its first line is line 1 (a side of no lines is
 * not: "-1,0" adds lines below line 1); an envelope's, which says no line, when its first old
 * line starts with the mark and no line of the file does (`markInside`: some line below the top
 * starts with U+FEFF, which a hunk's line may then mean). Every other line is compared as it is:
 * a hunk written without the mark (from linewise's rows) matches as before. A hunk that takes the
 * mark away is never already applied while the file has it (`dropsMark`), one that gives it is
 * never applied to a file that has it (`givesMark`, only found in place): diff saw line 1 with the
 * mark, and without it the other side would stand there too.
 */
export function withoutMark(hunks: readonly Hunk[], markInside: boolean): MarkedHunks {
  const dropsMark: boolean[] = [];
  const top: boolean[] = [];
  const movesMark: boolean[] = [];
  const out = hunks.map((h) => {
    const firstOld = h.lines.findIndex((l) => l.op !== '+');
    const firstNew = h.lines.findIndex((l) => l.op !== '-');
    const startsMarked = firstOld !== -1 && h.lines[firstOld]!.text.startsWith(MARK);
    // a side's first line is line 1 when it says so; a side with no lines says where it is, not
    // a line of it ("-1,0": lines added below line 1, not above it)
    const oldTop = h.oldStart !== undefined ? firstOld !== -1 && h.oldStart <= 1 : startsMarked && !markInside;
    const newTop = h.newStart !== undefined ? firstNew !== -1 && h.newStart <= 1 : oldTop;
    const oldMark = oldTop && startsMarked;
    const newMark = newTop && firstNew !== -1 && h.lines[firstNew]!.text.startsWith(MARK);
    dropsMark.push(oldMark && !newMark);
    top.push(oldMark || newMark);
    movesMark.push(newMark && firstOld === -1);
    if (!oldMark && !newMark) return h;
    const lines: HunkLine[] = [];
    h.lines.forEach((l, i) => {
      const offOld = oldMark && i === firstOld;
      const offNew = newMark && i === firstNew;
      const bare = { ...l, text: l.text.slice(MARK.length) };
      // a kept line that is line 1 on one side only (lines added above it): the mark goes with
      // the file's top on that side, and the line keeps it on the other
      if (l.op === ' ' && offOld !== offNew) lines.push(offOld ? { ...bare, op: '-' } : { ...l, op: '-' }, offNew ? { ...bare, op: '+' } : { ...l, op: '+' });
      else lines.push(offOld || offNew ? bare : l);
    });
    const marked: Hunk = { ...h, lines, ...(oldMark ? { bindStart: true } : {}), ...(oldMark && !newMark ? { dropsMark: true } : {}), ...(newMark && !oldMark && firstOld !== -1 ? { givesMark: true } : {}) };
    return onlyMark(marked);
  });
  return { hunks: out, dropsMark, top, movesMark };
}

/**
 * A hunk that adds lines above line 1 (no old line), placed to apply: as diff saw it the file's
 * line 1 moved down with the mark as its first bytes, which the mark at the top (the added first
 * line's) no longer holds for it. So the hunk also takes line 1 (`line1`, its text as compared)
 * and gives it back with the mark before it; its terminator is the line's own.
 */
export function markMovedDown(h: Hunk, line1: string): Hunk {
  return { ...h, lines: [...h.lines, { op: '-', text: line1 }, { op: '+', text: MARK + line1 }] };
}

/**
 * A side that was the mark alone (a file of no lines but its mark: diff shows one line, "\ No
 * newline at end of file"), without the mark, is no line at all.
 */
function onlyMark(h: Hunk): Hunk {
  const olds = h.lines.filter((l) => l.op !== '+');
  const news = h.lines.filter((l) => l.op !== '-');
  const oldGone = h.oldNoNewline && olds.length === 1 && olds[0]!.op === '-' && olds[0]!.text === '';
  const newGone = h.newNoNewline && news.length === 1 && news[0]!.op === '+' && news[0]!.text === '';
  if (!oldGone && !newGone) return h;
  // an empty side starts at line 0, as diff states one ("-0,0")
  return {
    ...h,
    lines: h.lines.filter((l) => !((oldGone && l === olds[0]) || (newGone && l === news[0]))),
    ...(oldGone ? { oldNoNewline: false, ...(h.oldStart !== undefined ? { oldStart: 0 } : {}) } : {}),
    ...(newGone ? { newNoNewline: false, ...(h.newStart !== undefined ? { newStart: 0 } : {}) } : {}),
  };
}
