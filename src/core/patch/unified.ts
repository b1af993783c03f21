// Unified diffs as `git diff`, `diff -u` and `diff -ruN` write them: file headers (git's extended
// ones too: modes, new and deleted files, renames, copies), hunks, `\ No newline at end of file`.
// Lines between files that are no header (a mail, `diff -ruN a b`, `Only in ...`) are skipped, as
// git apply and patch skip them; inside a hunk, every line must be a hunk line.

import { LinewiseError } from '../errors.js';
import { pathFromBytes, unquotePath } from '../path-names.js';
import { badPatch, lineAt, newlineAt, nextLine, type PatchLine } from './lines.js';
import { type FilePatch, flipped, type Hunk, type HunkLine } from './types.js';

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const DEV_NULL = '/dev/null';

/** How paths are cut: `-p N` (undefined: strip git's a/ and b/ when both sides carry them). */
export interface UnifiedOptions {
  strip?: number;
}

/** A file being read: its names as written (before -p) and what the headers said. */
interface Draft {
  line: number;
  git: boolean;
  /** `diff --git a/X b/Y` names, when they could be split */
  gitOld?: string;
  gitNew?: string;
  /** `---` / `+++` names (undefined: /dev/null or an epoch timestamp) */
  minus?: string | null;
  plus?: string | null;
  renameFrom?: string;
  renameTo?: string;
  copy?: boolean;
  created?: boolean;
  deleted?: boolean;
  oldMode?: number;
  newMode?: number;
  epochOld?: boolean;
  epochNew?: boolean;
  hunks: Hunk[];
}

/**
 * Parses a unified diff (see the file's opening); throws `bad-patch` (exit 2) naming the line.
 * The patch is walked by offsets: a line object is made for the lines between hunks only, a
 * hunk's lines are looked at byte by byte (a patch of 5,000 hunks has 45,000 of them).
 */
export function parseUnified(patch: Buffer, o: UnifiedOptions): FilePatch[] {
  const drafts: Draft[] = [];
  let cur: Draft | undefined;
  const len = patch.length;
  for (let at = 0, i = 0; at < len; ) {
    // a hunk, told by its first bytes: its `@@` line is read once, by readHunk
    if (patch[at] === 0x40 && patch[at + 1] === 0x40 && (at + 2 === len || patch[at + 2] === 0x20 || patch[at + 2] === 0x0a || (patch[at + 2] === 0x0d && (at + 3 === len || patch[at + 3] === 0x0a)))) {
      if (cur === undefined || cur.minus === undefined) throw badPatch(i + 1, 'a hunk before any file header (--- and +++)', lineAt(patch, at).text);
      // its lines stay in the patch until its file is planned (types.ts, HunkSource)
      const read = readHunk(patch, at, i, false);
      cur.hunks.push(read.hunk);
      at = read.next;
      i = read.nextLine;
      continue;
    }
    const line = lineAt(patch, at);
    const t = line.text;
    if (t.startsWith('diff --git ')) {
      cur = { line: i + 1, git: true, hunks: [], ...gitNames(line.bytes.subarray(11)) };
      drafts.push(cur);
      at = nextLine(patch, at);
      i++;
      continue;
    }
    if (t.startsWith('GIT binary patch') || (t.startsWith('Binary files ') && t.endsWith(' differ'))) {
      throw new LinewiseError('binary-patch', `patch line ${i + 1}: a binary patch (${t.startsWith('GIT') ? 'GIT binary patch' : 'Binary files ... differ'}) cannot be applied as lines; nothing was written`);
    }
    if (cur?.git && cur.hunks.length === 0 && cur.minus === undefined && gitHeader(cur, line, i)) {
      at = nextLine(patch, at);
      i++;
      continue;
    }
    if (t.startsWith('--- ')) {
      const after = nextLine(patch, at);
      const plusLine = after < len ? lineAt(patch, after) : undefined;
      if (plusLine?.text.startsWith('+++ ')) {
        if (!(cur?.git && cur.hunks.length === 0 && cur.minus === undefined)) {
          cur = { line: i + 1, git: false, hunks: [] };
          drafts.push(cur);
        }
        const minus = sidePath(line.bytes.subarray(4), i + 1);
        const plus = sidePath(plusLine.bytes.subarray(4), i + 2);
        cur.minus = minus.path;
        cur.plus = plus.path;
        cur.epochOld = minus.epoch;
        cur.epochNew = plus.epoch;
        at = nextLine(patch, after);
        i += 2;
        continue;
      }
    }
    // Anything else ends the file's hunks: text between files is skipped.
    if (cur !== undefined && (cur.hunks.length > 0 || !cur.git)) cur = undefined;
    at = nextLine(patch, at);
    i++;
  }
  if (drafts.length === 0) return [];
  const strip = o.strip ?? defaultStrip(drafts);
  return drafts.map((d) => filePatch(d, strip));
}

/**
 * The hunk whose `@@` line starts at byte `at` (line index `i`), and where the line after it
 * starts (byte, index). With `keep`, its lines are kept, each as latin1 text.
 */
function readHunk(patch: Buffer, at: number, i: number, keep: boolean): { hunk: Hunk; next: number; nextLine: number } {
  const len = patch.length;
  const header = lineAt(patch, at).text;
  const m = HUNK.exec(header);
  if (m === null) throw badPatch(i + 1, 'a hunk header that is not "@@ -START,COUNT +START,COUNT @@"', header);
  let oldLeft = m[2] === undefined ? 1 : Number(m[2]);
  let newLeft = m[4] === undefined ? 1 : Number(m[4]);
  // shown as `@@ -A,B +C,D @@`, any text after it (git's function line) left out: what HUNK matched
  const hunk: Hunk = { header: m[0], patchLine: i + 1, oldStart: Number(m[1]), newStart: Number(m[3]), lines: [], oldNoNewline: false, newNoNewline: false };
  // with `keep`, `patch` is the hunk's own stretch (hunkLines): decoded once, each line a slice
  const text = keep ? patch.toString('latin1') : '';
  let p = nextLine(patch, at);
  i++;
  let last: HunkLine['op'] | undefined;
  // kept lines before the first change and after the last (for the binding)
  let leading = 0;
  let trailing = 0;
  let changes = false;
  // any kept line at all: a hunk with some only between its changes is not one without context
  let kept = false;
  while (oldLeft > 0 || newLeft > 0) {
    if (p >= len) throw badPatch(i, `the patch ends inside the hunk ${hunk.header} (${oldLeft} old and ${newLeft} new lines missing)`);
    const nl = newlineAt(patch, p);
    const end = nl === -1 ? len : nl;
    const cut = end > p && patch[end - 1] === 13 ? end - 1 : end;
    const c = p < cut ? patch[p] : -1;
    if (c === 0x5c) {
      noNewline(hunk, last, i);
      p = end + 1;
      i++;
      continue;
    }
    // An empty line is an empty kept line: mailers and editors drop the space of one.
    const op = c === -1 || c === 0x20 ? ' ' : c === 0x2d ? '-' : c === 0x2b ? '+' : undefined;
    if (op === undefined) throw badPatch(i + 1, `inside the hunk ${hunk.header}, a line that does not start with " ", "-" or "+" (${oldLeft} old and ${newLeft} new lines were still due)`, patch.toString('utf8', p, cut));
    if (op !== '+') oldLeft--;
    if (op !== '-') newLeft--;
    if (oldLeft < 0 || newLeft < 0) throw badPatch(i + 1, `the hunk ${hunk.header} has more lines than its header counts`, patch.toString('utf8', p, cut));
    last = op;
    if (op !== ' ') {
      changes = true;
      trailing = 0;
    } else if (changes) trailing++;
    else leading++;
    if (op === ' ') kept = true;
    if (keep) hunk.lines.push({ op, text: text.slice(Math.min(p + 1, cut), cut), crlf: cut < end });
    p = end + 1;
    i++;
  }
  while (p < len && patch[p] === 0x5c) {
    noNewline(hunk, last, i);
    p = nextLine(patch, p);
    i++;
  }
  // A line that reads as a hunk line right after the counted ones: the header counts too few
  // (a hand-edited patch). Taken as text between files it would be silently dropped.
  if (p < len && (patch[p] === 0x2d || patch[p] === 0x2b)) {
    const after = lineAt(patch, p).text;
    const q = nextLine(patch, p);
    if (!/^-- ?$/.test(after) && !(after.startsWith('--- ') && q < len && lineAt(patch, q).text.startsWith('+++ '))) {
      throw badPatch(i + 1, `a hunk line past the ${m[2] ?? 1} old and ${m[4] ?? 1} new lines the header ${hunk.header} counts`, after);
    }
  }
  bindings(hunk, leading, trailing, kept);
  if (!keep) hunk.source = { patch, start: at, end: Math.min(p, len), reversed: false };
  return { hunk, next: Math.min(p, len), nextLine: i };
}

/** `\ No newline at end of file` (on the patch line with index `i`) after a line `last` of the hunk. */
function noNewline(hunk: Hunk, last: HunkLine['op'] | undefined, i: number): void {
  if (last === undefined) throw badPatch(i + 1, '"\\ No newline at end of file" before any line of the hunk');
  if (last !== '+') hunk.oldNoNewline = true;
  if (last !== '-') hunk.newNoNewline = true;
}

/** A hunk's lines: its own, or read again from the patch where parseUnified left them. */
export function hunkLines(h: Hunk): HunkLine[] {
  const s = h.source;
  if (s === undefined) return h.lines;
  const { lines } = readHunk(s.patch.subarray(s.start, s.end), 0, 0, true).hunk;
  return s.reversed ? lines.map(flipped) : lines;
}

/**
 * git apply's binding: a hunk with less context before its changes than after starts at the
 * file's first line (as does one stated at line 1); with less after than before, it ends at
 * the file's last line. A hunk with no context at all (diff -U0) binds to nothing, and is marked.
 * One whose kept lines all stand between its changes (diff -u of a file whose first and last
 * lines changed) has context: it ends at the file's last line (git apply's match_end) and, stated
 * at line 1, starts at its first; marked, it was refused as "no context lines" when the file had
 * grown below it, and --unidiff-zero would have let it go by its numbers.
 */
function bindings(h: Hunk, leading: number, trailing: number, kept: boolean): void {
  if (!kept) {
    h.contextFree = true;
    return;
  }
  if (leading === 0 && trailing === 0) {
    if (h.oldStart! <= 1) h.bindStart = true;
    h.bindEnd = true;
    return;
  }
  if (leading < trailing || h.oldStart! <= 1) h.bindStart = true;
  if (trailing < leading) h.bindEnd = true;
}

/** Reads one line of git's extended header into the draft; false when it is none. */
function gitHeader(d: Draft, line: PatchLine, i: number): boolean {
  const t = line.text;
  const mode = (s: string) => {
    const n = Number.parseInt(s.trim(), 8);
    if (!Number.isFinite(n)) throw badPatch(i + 1, 'a mode that is not octal', t);
    return n;
  };
  const name = (skip: number) => headerPath(line.bytes.subarray(skip), i + 1);
  if (t.startsWith('old mode ')) d.oldMode = mode(t.slice(9));
  else if (t.startsWith('new mode ')) d.newMode = mode(t.slice(9));
  else if (t.startsWith('deleted file mode ')) (d.deleted = true), (d.oldMode = mode(t.slice(18)));
  else if (t.startsWith('new file mode ')) (d.created = true), (d.newMode = mode(t.slice(14)));
  else if (t.startsWith('rename from ')) d.renameFrom = name(12);
  else if (t.startsWith('rename to ')) d.renameTo = name(10);
  else if (t.startsWith('copy from ')) (d.renameFrom = name(10)), (d.copy = true);
  else if (t.startsWith('copy to ')) (d.renameTo = name(8)), (d.copy = true);
  else if (/^(similarity|dissimilarity) index |^index [0-9a-f]/.test(t)) return true;
  else return false;
  return true;
}

/** `diff --git a/X b/Y`: the two names when they can be told apart (quoted, or the same name twice). */
function gitNames(rest: Buffer): { gitOld?: string; gitNew?: string } {
  if (rest[0] === 0x22) {
    const a = unquotePath(rest, 0);
    if ('bad' in a || rest[a.end] !== 0x20) return {};
    const tail = rest.subarray(a.end + 1);
    const b = tail[0] === 0x22 ? unquotePath(tail, 0) : { bytes: tail, end: tail.length };
    return 'bad' in b ? {} : { gitOld: pathFromBytes(a.bytes), gitNew: pathFromBytes(b.bytes) };
  }
  const s = pathFromBytes(rest);
  const q = s.indexOf(' "');
  if (q !== -1) {
    const b = unquotePath(rest, Buffer.byteLength(s.slice(0, q + 1)));
    if (!('bad' in b)) return { gitOld: s.slice(0, q), gitNew: pathFromBytes(b.bytes) };
  }
  // The same name twice: "a/NAME b/NAME" splits in the middle.
  if (s.length % 2 === 1) {
    const half = (s.length - 1) / 2;
    const a = s.slice(0, half);
    const b = s.slice(half + 1);
    if (s[half] === ' ' && a.replace(/^[^/]*\//, '') === b.replace(/^[^/]*\//, '')) return { gitOld: a, gitNew: b };
  }
  return {};
}

/** A path on a `---`/`+++` line: quoted or not, a tab and timestamp cut off; null for /dev/null. */
function sidePath(rest: Buffer, line: number): { path: string | null; epoch: boolean } {
  let bytes = rest;
  let stamp = '';
  if (rest[0] === 0x22) {
    const q = unquotePath(rest, 0);
    if ('bad' in q) throw badPatch(line, q.bad);
    bytes = q.bytes;
    stamp = rest.subarray(q.end).toString('utf8').trim();
  } else {
    const tab = rest.indexOf(9);
    if (tab !== -1) {
      bytes = rest.subarray(0, tab);
      stamp = rest.subarray(tab + 1).toString('utf8').trim();
    } else {
      // diff -u without a tab: "NAME 2024-01-31 10:00:00.000000000 +0100"
      const s = rest.toString('latin1');
      const m = / (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? [+-]\d{4})$/.exec(s);
      if (m) {
        bytes = rest.subarray(0, m.index);
        stamp = m[1]!;
      }
    }
  }
  const p = pathFromBytes(bytes);
  if (p === DEV_NULL) return { path: null, epoch: false };
  return { path: p, epoch: isEpoch(stamp) };
}

/** `diff -N` marks a missing side with the epoch, in the local time zone of the diff. */
function isEpoch(stamp: string): boolean {
  const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.\d+)? ([+-]\d\d)(\d\d)$/.exec(stamp);
  return m !== null && Date.parse(`${m[1]}T${m[2]}${m[3]}:${m[4]}`) === 0;
}

/** A path on a `rename from` (or similar) line: quoted or not. */
function headerPath(rest: Buffer, line: number): string {
  if (rest[0] !== 0x22) return pathFromBytes(rest);
  const q = unquotePath(rest, 0);
  if ('bad' in q) throw badPatch(line, q.bad);
  return pathFromBytes(q.bytes);
}

/** No -p given: 1 for git's patches, and for any whose named sides all start a/ and b/; else 0. */
function defaultStrip(drafts: readonly Draft[]): number {
  if (drafts.some((d) => d.git)) return 1;
  const prefixed = drafts.every((d) => (d.minus == null || d.minus.startsWith('a/')) && (d.plus == null || d.plus.startsWith('b/')) && (d.minus != null || d.plus != null));
  return prefixed ? 1 : 0;
}

/** A path with its first `n` components cut (`-p N`). */
function stripPath(p: string, n: number, line: number): string {
  let s = p;
  for (let k = 0; k < n; k++) {
    const slash = s.indexOf('/');
    if (slash === -1) throw badPatch(line, `-p ${n} cuts more components than the path has`, p);
    s = s.slice(slash + 1).replace(/^\/+/, '');
  }
  return s;
}

function filePatch(d: Draft, strip: number): FilePatch {
  const cut = (p: string | null | undefined, n = strip) => (p == null ? undefined : stripPath(p, n, d.line));
  // `---`/`+++` name the sides when present; git's own header when not (a pure rename or mode change).
  const oldName = d.renameFrom !== undefined ? cut(d.renameFrom, Math.max(0, strip - 1)) : d.minus !== undefined ? (d.epochOld ? undefined : cut(d.minus)) : cut(d.gitOld);
  const newName = d.renameTo !== undefined ? cut(d.renameTo, Math.max(0, strip - 1)) : d.plus !== undefined ? (d.epochNew ? undefined : cut(d.plus)) : cut(d.gitNew);
  const base = { hunks: d.hunks, patchLine: d.line, ...(d.oldMode !== undefined ? { oldMode: d.oldMode } : {}), ...(d.newMode !== undefined ? { newMode: d.newMode } : {}) };
  const noPath = () => badPatch(d.line, 'a file whose name cannot be read from its header');
  if (d.created || (d.minus === null && !d.git) || (d.git && d.minus === null)) {
    if (newName === undefined) throw noPath();
    return { ...base, action: 'create', newPath: newName };
  }
  if (d.deleted || d.plus === null) {
    if (oldName === undefined) throw noPath();
    return { ...base, action: 'delete', oldPath: oldName };
  }
  if (d.renameFrom !== undefined && d.renameTo !== undefined) return { ...base, action: d.copy ? 'copy' : 'rename', oldPath: d.renameFrom === undefined ? oldName : cut(d.renameFrom, Math.max(0, strip - 1)), newPath: cut(d.renameTo, Math.max(0, strip - 1)) };
  if (d.epochOld && newName !== undefined) return { ...base, action: 'modify', oldPath: newName, newPath: newName, maybeCreate: true };
  if (d.epochNew && oldName !== undefined) return { ...base, action: 'modify', oldPath: oldName, newPath: oldName, maybeDelete: true };
  const name = newName ?? oldName;
  if (name === undefined) throw noPath();
  if (d.hunks.length === 0 && d.newMode === undefined) throw badPatch(d.line, 'a file with no hunk and no change of name or mode');
  return { ...base, action: 'modify', oldPath: oldName ?? name, newPath: name };
}
