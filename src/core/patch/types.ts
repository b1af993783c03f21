// What a parsed patch is, whatever its format: files, each with its hunks of kept, removed and added lines.

/** A hunk line: kept (' '), removed ('-') or added ('+'); its body without any line terminator. */
export interface HunkLine {
  op: ' ' | '-' | '+';
  /**
   * the line's bytes without its terminator (a "\r" before the patch's own "\n" is dropped too),
   * as latin1 text: one character a byte, so any bytes survive (`Buffer.from(text, 'latin1')` gives
   * them back). A string, not a view of the patch: a patch of 40,000 lines kept 7 MiB of views.
   */
  text: string;
  /** the patch line ended "\r\n": a new file's lines keep that ending (a changed file's take its own) */
  crlf?: boolean;
}

/**
 * Where a hunk's lines are in the patch, when they were not kept: a unified diff is parsed whole
 * (every path and count checked before anything is read), but each hunk's lines are read again
 * only when its file is planned ({@link withLines} in parse.ts), so a patch of thousands of files
 * holds one file's lines at a time, not all of them (5 bytes of heap a byte of patch).
 */
export interface HunkSource {
  patch: Buffer;
  /** the byte its `@@` line starts at, and the byte after its last line */
  start: number;
  end: number;
  /** -R: its removed and added lines swap when they are read */
  reversed: boolean;
}

/** One hunk of one file. */
export interface Hunk {
  /** as messages show it: the `@@ ... @@` line, or the envelope's `@@ context` line */
  header: string;
  /** the patch line it starts on (1-based), for messages */
  patchLine: number;
  /** unified diffs: where the old and new sides start (1-based; 0 for an empty side); envelopes: undefined */
  oldStart?: number;
  newStart?: number;
  /** its lines; empty while they stay in the patch (`source`) */
  lines: HunkLine[];
  source?: HunkSource;
  /** `\ No newline at end of file` after the last line of the old side / the new side */
  oldNoNewline: boolean;
  newNoNewline: boolean;
  /** envelopes: the `@@ TEXT` line the hunk comes after (found first, then the hunk below it) */
  anchor?: Buffer;
  /** envelopes: `*** End of File`: the hunk ends at the file's end */
  atEnd?: boolean;
  /**
   * unified diffs: the hunk binds to the file's start (it has less leading than trailing context,
   * or starts at line 1) or to its end (less trailing context), as git apply binds it
   */
  bindStart?: boolean;
  bindEnd?: boolean;
  /**
   * unified diffs: the hunk was written with no context lines at all (diff -U0), so nothing but
   * its line numbers says where it goes: core/patch/locate.ts applies it only where it covers
   * the whole file, unless the caller allows placing by line numbers alone (unidiffZero)
   */
  contextFree?: boolean;
  /**
   * the hunk takes away the byte order mark of the file it is placed in (core/patch/bom.ts): its
   * new side stands in no file that still has the mark, so it is never found already applied
   * (its new side without the mark would be seen at the top, where its old side also is)
   */
  dropsMark?: boolean;
  /**
   * the hunk gives the file the mark (core/patch/bom.ts): its old side, line 1 without the mark,
   * stands in no file that has one, so it is never applied there, only found already applied
   */
  givesMark?: boolean;
}

/** What a patch does to one file. */
export type FileAction = 'modify' | 'create' | 'delete' | 'rename' | 'copy';

/** One file of a patch. */
export interface FilePatch {
  action: FileAction;
  /** the path read (modify, delete, rename and copy sources), after -p */
  oldPath?: string;
  /** the path written (modify, create, rename and copy targets), after -p */
  newPath?: string;
  hunks: Hunk[];
  /** the patch line this file starts on (1-based) */
  patchLine: number;
  /** git's mode lines (`new mode 100755`): the mode the file gets, when given */
  newMode?: number;
  oldMode?: number;
  /** unified diffs whose `---` side is an epoch timestamp or `-0,0` only (diff -N): created if absent */
  maybeCreate?: boolean;
  /** diff -N's deletion: the `+++` side is empty */
  maybeDelete?: boolean;
  /**
   * a copy undone (-R): the deletion of the copy `oldPath` of this file, after -p; done only when
   * the copy, its hunks undone, is this file byte for byte (no lines of its own to compare)
   */
  copyOf?: string;
}

/** A parsed patch. */
export interface ParsedPatch {
  format: 'unified' | 'envelope';
  files: FilePatch[];
}

/** The old side of a hunk (kept and removed lines), the new side (kept and added). */
export function sideOf(h: Hunk, side: 'old' | 'new'): HunkLine[] {
  const drop = side === 'old' ? '+' : '-';
  return h.lines.filter((l) => l.op !== drop);
}

/** A hunk line of the patch undone: removed becomes added and added removed. */
export function flipped(l: HunkLine): HunkLine {
  return l.op === ' ' ? l : { ...l, op: l.op === '-' ? '+' : '-' };
}

/** The hunk undone: removed and added lines swap, and so do the sides' starts and final-newline marks. */
export function reverseHunk(h: Hunk): Hunk {
  return {
    ...h,
    lines: h.lines.map(flipped),
    ...(h.source ? { source: { ...h.source, reversed: !h.source.reversed } } : {}),
    ...(h.oldStart !== undefined ? { oldStart: h.newStart!, newStart: h.oldStart } : {}),
    oldNoNewline: h.newNoNewline,
    newNoNewline: h.oldNoNewline,
  };
}
