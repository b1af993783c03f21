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
}

/**
 * The hunks with the mark taken off the line that is the file's line 1 on each side: the first old
 * line of a hunk at the top whose old side starts with the mark (the hunk then binds to the start,
 * as git apply finds it there), and the first new line of a hunk at the top, where the mark stays
 * the file's. A hunk is at the top when it says it starts at line 1; an envelope's, which says no
 * line, when its first old line starts with the mark and no line of the file does (`markInside`:
 * some line below the top starts with U+FEFF, which a hunk's line may then mean). Every other
 * line is compared as it is: a hunk written without the mark (from linewise's rows) matches as
 * before.
 */
export function withoutMark(hunks: readonly Hunk[], markInside: boolean): MarkedHunks {
  const dropsMark: boolean[] = [];
  const out = hunks.map((h) => {
    const firstOld = h.lines.findIndex((l) => l.op !== '+');
    const firstNew = h.lines.findIndex((l) => l.op !== '-');
    const startsMarked = firstOld !== -1 && h.lines[firstOld]!.text.startsWith(MARK);
    const atTop = h.oldStart !== undefined ? h.oldStart <= 1 : startsMarked && !markInside;
    const oldMark = atTop && startsMarked;
    const newMark = atTop && firstNew !== -1 && h.lines[firstNew]!.text.startsWith(MARK);
    dropsMark.push(oldMark && !newMark);
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
    const marked: Hunk = { ...h, lines, ...(oldMark ? { bindStart: true } : {}) };
    return onlyMark(marked);
  });
  return { hunks: out, dropsMark };
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
