// Where each hunk of one file goes: at its stated line when its kept and removed lines are there,
// else at the nearest place where they all are (the offset reported); "already applied" when its
// kept and added lines are there instead; refused when two places are equally near, or none.
// Lines are compared without their terminators, so an LF patch finds a CRLF file's lines.

import { type FileLines, keyOf, lineKey, looseKey } from './file-lines.js';
import type { Hunk, HunkLine } from './types.js';

/** Where one hunk goes, or why it cannot. */
export type Placement =
  | {
      status: 'apply' | 'already';
      /** index of the first file line the hunk covers (its old side when applied, its new side when already there) */
      at: number;
      /** lines of the file it covers */
      length: number;
      /** found this many lines from where the patch said (0: at its line) */
      offset: number;
      /** matched only with whitespace ignored */
      whitespace: boolean;
    }
  | {
      status: 'failed';
      why: string;
      near?: { line: number; matching: number; of: number; differs?: { line: number; file: string; hunk: string } };
      /** a hunk without context, refused because placing by line numbers alone was not allowed */
      contextFree?: true;
    };

/** How the hunks of a file are looked for. */
export interface LocateOptions {
  /** unified diffs: each hunk's stated line counts; envelopes: none, each is found after the one before */
  numbered: boolean;
  ignoreWhitespace: boolean;
  /**
   * a unified diff's hunks with no context (diff -U0) may go by their line numbers alone; else
   * such a hunk applies (or is found applied) only where it covers the whole file, as git apply
   * without --unidiff-zero
   */
  unidiffZero?: boolean;
}

/** A unified diff's hunk with no kept line (diff -U0): only its line number places it. */
const noContext = (h: Hunk) => !h.lines.some((l) => l.op === ' ');

const bodies = (lines: readonly HunkLine[], drop: string) => lines.filter((l) => l.op !== drop).map((l) => lineKey(l.text));

/** Where one hunk goes; `cursor` is the first line it may cover. */
function locateOne(file: FileLines, h: Hunk, cursor: number, carry: number, o: LocateOptions, shift = 0): Placement {
  const oldKeys = bodies(h.lines, '+');
  // a hunk that takes the file's mark away is not in place while the file has it: only its old side is looked for
  const newKeys = h.dropsMark === true ? [] : bodies(h.lines, '-');
  for (const whitespace of o.ignoreWhitespace ? [false, true] : [false]) {
    const old = whitespace ? oldKeys.map(looseKey) : oldKeys;
    const neu = whitespace ? newKeys.map(looseKey) : newKeys;
    let start = cursor;
    if (h.anchor !== undefined) {
      const a = anchorLine(file, keyOf(h.anchor), cursor, whitespace);
      if (a === undefined) continue;
      start = a + 1;
    }
    const found = o.numbered ? nearestPair(file, h, old, neu, start, carry, whitespace, shift) : forwardPair(file, h, old, neu, start, whitespace);
    // Found applied as a whole file that only adds lines ("-0,0"): the same text is a -U0 diff
    // adding them above line 1 of a file that holds them already, told apart only by how the file
    // ends: diff -U0 of "c" -> "c\nc" (no final newline) adds "c\n" above, and on the very file it
    // was made from was reported already applied, nothing written, exit 0
    const onlyAddsFound = found?.status === 'already' && old.length === 0 && !endsAsNewSide(file, h);
    if (found !== undefined && gated(h, o) && (!(found.at === 0 && found.length === file.length) || onlyAddsFound)) return UNANCHORED;
    if (found !== undefined) return { ...found, whitespace };
  }
  if (gated(h, o)) return UNANCHORED;
  return failure(file, h, oldKeys, cursor, carry, o);
}

/**
 * A unified diff's hunk without context, not allowed to go by its line numbers alone. Where its
 * lines repeat, those numbers are all that tells one place from another, and a file that holds
 * its added lines there already cannot tell "applied before" from "not applied": a -U0 diff that
 * inserts a blank line above another blank line was reported already applied, nothing written,
 * exit 0, on the very file it was made from. So, as git apply, such a hunk is taken only where
 * it covers the whole file (a diff of a file every line of which changed) unless asked.
 */
const gated = (h: Hunk, o: LocateOptions) => o.numbered && h.contextFree === true && o.unidiffZero !== true;

/** The file's last line ends as the hunk's new side says: a terminator, or none after "\ No newline at end of file". */
const endsAsNewSide = (file: FileLines, h: Hunk) => file.length === 0 || (file.terminator(file.length - 1) === '') === (h.newNoNewline === true);

const UNANCHORED: Placement = {
  status: 'failed',
  why: 'it has no context lines (diff -U0), so only its line numbers say where it goes, which cannot tell a place from another where lines repeat, nor "applied before" from "not yet"; make the patch with context (diff -u, git diff), or allow placing by line numbers alone',
  contextFree: true,
};

type Found = { status: 'apply' | 'already'; at: number; length: number; offset: number } | undefined;

/** Unified diffs: the stated line first (bound hunks at the file's start or end first of all), then the nearest. */
/**
 * `shift`: how far the lines after the hunk before stand from their old line numbers in the file
 * as it is (that hunk's end where found, less its end by the old numbering), whether it is to be
 * applied or was found applied: where a hunk with no context stands, either side.
 */
function nearestPair(file: FileLines, h: Hunk, old: string[], neu: string[], cursor: number, carry: number, ws: boolean, shift = 0): Found {
  const n = file.length;
  // where the patch says each side starts (0-based), before and after the carried offset
  const oldBase = old.length === 0 ? h.oldStart! : h.oldStart! - 1;
  const newBase = neu.length === 0 ? h.newStart! : h.newStart! - 1;
  const oldStated = clamp(oldBase + carry, cursor, n);
  const newStated = clamp(newBase + carry, cursor, n);
  const apply = (at: number): Found => ({ status: 'apply', at, length: old.length, offset: at - oldBase });
  // a hunk that gives the file a mark it has already is not applied, only found in place
  const canApply = h.givesMark !== true;
  const already = (at: number): Found => ({ status: 'already', at, length: neu.length, offset: at - newBase });
  const same = canApply && old.length === neu.length && old.every((k, i) => k === neu[i]);
  // a hunk that empties the file (its new side is "+0,0"), on an empty file: done before
  if (neu.length === 0 && h.newStart === 0 && n === 0 && old.length > 0 && h.dropsMark !== true) return already(0);
  // a hunk bound to the file's start or end (git apply's binding), or with a side marked "\ No
  // newline at end of file" (it ends where the file ends), tells the two sides apart when only one fits
  const fits = (at: number, len: number, eof: boolean) => (h.bindStart ? at === 0 : true) && (h.bindEnd || eof ? at + len === n : true);
  // A hunk with no context (diff -U0) has nothing but its line number to be found by: it applies,
  // or is found applied, at its place alone, where the lines after the hunk before now stand
  // (`shift`), whether that one was applied or is to be. Looked for nearby, its lines could be any
  // equal lines: a rerun of "-d" on x d y removed the other d (a second edit), and "+d" after x
  // d's line 2 was taken for applied at line 2 (nothing written).
  if (noContext(h)) {
    const place = clamp(oldBase + shift, cursor, n);
    let oldThere = canApply && old.length > 0 && matchesAt(file, old, place, ws);
    let newThere = !same && neu.length > 0 && matchesAt(file, neu, place, ws);
    if (oldThere && newThere) {
      oldThere = fits(place, old.length, h.oldNoNewline);
      newThere = fits(place, neu.length, h.newNoNewline);
      if (oldThere === newThere) throw new Ambiguous(place, place, 'both');
    }
    // applied, it would leave its old lines standing again at the place (one of two equal lines
    // removed): a rerun could not tell, and would remove the other
    if (oldThere && appliedAgain(file, place, old, neu, ws)) throw new Ambiguous(place, place, 'both');
    if (oldThere || (old.length === 0 && canApply && !newThere)) return apply(place);
    if (newThere) return already(place);
    return undefined;
  }
  const fHere = canApply && old.length > 0 && matchesAt(file, old, oldStated, ws);
  const rHere = !same && neu.length > 0 && matchesAt(file, neu, newStated, ws);
  // Both where the patch says: the file cannot tell whether the hunk was applied (its lines
  // repeat there). Refused rather than applied a second time, or skipped wrongly.
  if (fHere && rHere) {
    const f = fits(oldStated, old.length, h.oldNoNewline);
    const r = fits(newStated, neu.length, h.newNoNewline);
    if (f !== r) return f ? apply(oldStated) : already(newStated);
    throw new Ambiguous(oldStated, newStated, 'both');
  }
  if (fHere) return apply(oldStated);
  if (rHere) return already(newStated);
  // a hunk bound to the file's start or end is tried there next (git apply's binding)
  const bound = (keys: string[]) => (h.bindStart ? 0 : h.bindEnd ? n - keys.length : undefined);
  const bo = bound(old);
  if (canApply && bo !== undefined && bo >= cursor && old.length > 0 && matchesAt(file, old, bo, ws)) return apply(bo);
  const bn = bound(neu);
  if (!same && bn !== undefined && bn >= cursor && neu.length > 0 && matchesAt(file, neu, bn, ws)) return already(bn);
  const f = canApply && old.length > 0 ? nearest(file, old, oldStated, cursor, ws) : undefined;
  const r = !same && neu.length > 0 ? nearest(file, neu, newStated, cursor, ws) : undefined;
  if (f !== undefined && (r === undefined || f.distance < r.distance)) {
    if (f.ambiguous !== undefined) ambiguous(f.at, f.ambiguous);
    return apply(f.at);
  }
  if (r !== undefined && (f === undefined || r.distance < f.distance)) {
    if (r.ambiguous !== undefined) ambiguous(r.at, r.ambiguous);
    return already(r.at);
  }
  if (f !== undefined && r !== undefined) ambiguous(f.at, r.at);
  // No old lines at all (a hunk that only adds, with no context): where it says.
  if (old.length === 0) return apply(oldStated);
  return undefined;
}

/** Envelopes: after the cursor (and the `@@` line), the one place; at the end with `*** End of File`. */
function forwardPair(file: FileLines, h: Hunk, old: string[], neu: string[], start: number, ws: boolean): Found {
  const n = file.length;
  const canApply = h.givesMark !== true;
  const apply = (at: number): Found => ({ status: 'apply', at, length: old.length, offset: 0 });
  const already = (at: number): Found => ({ status: 'already', at, length: neu.length, offset: 0 });
  // old lines that stand inside the new lines where those stand are the new lines' own (a hunk
  // that keeps lines and adds some: " a" "+b" on "a b"), not a place to apply it again
  const own = (q: number, p: number) => p <= q && q + old.length <= p + neu.length;
  if (h.atEnd) {
    const fEnd = canApply && old.length > 0 && n - old.length >= start && matchesAt(file, old, n - old.length, ws);
    const rEnd = neu.length > 0 && n - neu.length >= start && matchesAt(file, neu, n - neu.length, ws);
    if (rEnd && (!fEnd || own(n - old.length, n - neu.length))) return already(n - neu.length);
    if (fEnd) return appliedAgain(file, n - old.length, old, neu, ws, true) ? refused(n - old.length, n - neu.length) : apply(n - old.length);
    if (old.length === 0) return apply(n);
    return undefined;
  }
  if (old.length === 0) {
    // only added lines: below the `@@` line, else at the end
    if (neu.length > 0 && matchesAt(file, neu, h.anchor !== undefined ? start : n - neu.length, ws)) return already(h.anchor !== undefined ? start : n - neu.length);
    return apply(h.anchor !== undefined ? start : n);
  }
  const r = neu.length > 0 ? allFrom(file, neu, start, ws) : [];
  const f = (canApply ? allFrom(file, old, start, ws) : []).filter((q) => !r.some((p) => own(q, p)));
  if (f.length === 1 || (f.length > 1 && h.anchor !== undefined)) {
    // New lines standing before the place say it may be applied already there (or stood there
    // from the start), which the file cannot tell apart: below a `@@` line the first of several
    // places is taken, so once applied a rerun would take the next; and another hunk's new lines
    // may have made a second place for this one's old lines. Refused, not guessed.
    if (r.length > 0 && r[0]! < f[0]!) throw new Ambiguous(f[0]!, r[0]!, 'both');
    // with no new lines there is nothing to see where it applied: the next place would be taken
    if (f.length > 1 && neu.length === 0) return ambiguous(f[0]!, f[1]!);
    return appliedAgain(file, f[0]!, old, neu, ws) ? refused(f[0]!, f[0]!) : apply(f[0]!);
  }
  if (f.length === 0 && (r.length === 1 || (r.length > 1 && h.anchor !== undefined))) return already(r[0]!);
  if (f.length > 1) return ambiguous(f[0]!, f[1]!);
  if (r.length > 1) return ambiguous(r[0]!, r[1]!);
  return undefined;
}

/** An envelope's hunk that cannot be told applied from not: refused as both sides standing there. */
function refused(at: number, atNew: number): never {
  throw new Ambiguous(at, atNew, 'both');
}

/**
 * A hunk, applied at `at`, would leave its old lines standing again across the place
 * (taking in a new line, or the two lines its removal brings together), not inside its new lines:
 * removing one of two equal lines with context on one side only (" y" "-a" on y a a), or "-a" "-c"
 * on a a c c; with `atEnd`, standing at the end again ("-a" on y a a). The file as it is could
 * then be the result of applying it before, and a rerun would apply it again: an envelope, or a
 * hunk with no context, has nothing else to tell them apart. (Old lines inside the new ones are
 * theirs: a rerun finds the hunk applied.)
 */
function appliedAgain(file: FileLines, at: number, old: readonly string[], neu: readonly string[], ws: boolean, atEnd = false): boolean {
  const key = (j: number) => (j < at ? file.key(j, ws) : j < at + neu.length ? neu[j - at]! : file.key(j - neu.length + old.length, ws));
  const length = file.length - old.length + neu.length;
  // `*** End of File`: a rerun looks at the end alone
  if (atEnd) {
    const j = length - old.length;
    return j >= 0 && !(j >= at && neu.length >= old.length) && old.every((k, i) => key(j + i) === k);
  }
  for (let j = Math.max(0, at - old.length + 1); j < at + Math.max(neu.length, 1) && j + old.length <= length; j++) {
    if (j + old.length <= at && neu.length > 0) continue; // ends before the new lines
    if (j >= at && j + old.length <= at + neu.length) continue; // inside them: theirs
    if (old.every((k, i) => key(j + i) === k)) return true;
  }
  return false;
}

/** Thrown out of the search as a result: two places fit equally well. */
class Ambiguous {
  constructor(
    readonly a: number,
    readonly b: number,
    /** 'both': the hunk's old and its new lines both stand where it says */
    readonly kind: 'places' | 'both' = 'places',
  ) {}
}

function ambiguous(a: number, b: number): never {
  throw new Ambiguous(Math.min(a, b), Math.max(a, b));
}

/** The first two places at or after `from` where `keys` match. */
function allFrom(file: FileLines, keys: string[], from: number, ws: boolean): number[] {
  const out: number[] = [];
  if (ws || keys.length === 0) {
    for (let p = from; p + keys.length <= file.length && out.length < 2; p++) if (matchesAt(file, keys, p, ws)) out.push(p);
    return out;
  }
  // the lines that equal the hunk's longest line, found by searching the bytes (see FileLines.nextEqual)
  const j = longest(keys);
  const to = file.length - keys.length + j + 1;
  for (let i = file.nextEqual(keys[j]!, from + j, to); i !== -1 && out.length < 2; i = file.nextEqual(keys[j]!, i + 1, to)) {
    if (matchesAt(file, keys, i - j, false)) out.push(i - j);
  }
  return out;
}

/** The index of the longest key (the first of them): the line a search looks for, likely the rarest. */
function longest(keys: readonly string[]): number {
  let j = 0;
  for (let k = 1; k < keys.length; k++) if (keys[k]!.length > keys[j]!.length) j = k;
  return j;
}

/**
 * The first line at or after `from` that reads as the `@@` line (trimmed: it names a place, it is
 * not edited). Only lines that hold the line's longest word can (spacing aside, a line reads as
 * it only if its bytes hold each word of it), so those are found by searching the bytes and only
 * they are compared: comparing every line made a key string for each (a `@@` line near the end of
 * the 256 MiB log: 6 s and 900 MB).
 */
export function anchorLine(file: FileLines, anchor: string, from: number, ws: boolean): number | undefined {
  const want = looseKey(anchor);
  const word = want.split(' ').reduce((a, b) => (b.length > a.length ? b : a), '');
  if (word === '') return anchorLineByLine(file, anchor, from, ws);
  const bytes = Buffer.from(word, 'latin1');
  for (let p = file.nextHolding(bytes, from); p !== -1; p = file.nextHolding(bytes, p + 1)) if (looseKey(file.key(p, ws)) === want) return p;
  return undefined;
}

/** {@link anchorLine} comparing every line: a `@@` line of spaces only (and the reference in tests). */
export function anchorLineByLine(file: FileLines, anchor: string, from: number, ws: boolean): number | undefined {
  const want = looseKey(anchor);
  for (let p = from; p < file.length; p++) if (looseKey(file.key(p, ws)) === want) return p;
  return undefined;
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, x));
}

function matchesAt(file: FileLines, keys: readonly string[], at: number, ws: boolean): boolean {
  if (at < 0 || at + keys.length > file.length) return false;
  if (ws) {
    for (let k = 0; k < keys.length; k++) if (file.key(at + k, true) !== keys[k]) return false;
  } else {
    for (let k = 0; k < keys.length; k++) if (!file.equals(at + k, keys[k]!)) return false;
  }
  return true;
}

/**
 * The nearest place at or after `cursor` where `keys` match, other than `stated`, searching out
 * from `stated`; two at one distance: ambiguous. Exact matching searches the file's bytes for
 * the hunk's longest line, below `stated` and then above it no further than what was found below
 * (FileLines.nextEqual: no comparison per line, which without TurboFan took 0.6 s for a hunk
 * 150,000 lines off in a 256 MiB file); --ignore-whitespace compares line by line.
 */
export function nearest(file: FileLines, keys: readonly string[], stated: number, cursor: number, ws: boolean): { at: number; distance: number; ambiguous?: number } | undefined {
  if (ws) return nearestByLine(file, keys, stated, cursor, true);
  const last = file.length - keys.length;
  const j = longest(keys);
  const key = keys[j]!;
  // below: the first place in (stated, last]; the line looked for is j lines into it
  let below: number | undefined;
  for (let i = file.nextEqual(key, stated + 1 + j, last + j + 1); i !== -1; i = file.nextEqual(key, i + 1, last + j + 1)) {
    if (matchesAt(file, keys, i - j, false)) {
      below = i - j;
      break;
    }
  }
  // above: the last place in [cursor, stated), no further from it than the one below
  const floor = below === undefined ? cursor : Math.max(cursor, stated - (below - stated));
  let above: number | undefined;
  for (let i = file.prevEqual(key, floor + j, stated + j); i !== -1; i = file.prevEqual(key, floor + j, i)) {
    if (matchesAt(file, keys, i - j, false)) {
      above = i - j;
      break;
    }
  }
  if (below === undefined && above === undefined) return undefined;
  if (below !== undefined && above !== undefined && below - stated === stated - above) return { at: above, distance: stated - above, ambiguous: below };
  if (above === undefined || (below !== undefined && below - stated < stated - above)) return { at: below!, distance: below! - stated };
  return { at: above, distance: stated - above };
}

/** {@link nearest} line by line, outwards from `stated` (--ignore-whitespace, and the reference in tests). */
export function nearestByLine(file: FileLines, keys: readonly string[], stated: number, cursor: number, ws: boolean): { at: number; distance: number; ambiguous?: number } | undefined {
  const last = file.length - keys.length;
  for (let d = 1; stated - d >= cursor || stated + d <= last; d++) {
    const below = stated + d <= last && matchesAt(file, keys, stated + d, ws);
    const above = stated - d >= cursor && matchesAt(file, keys, stated - d, ws);
    if (below && above) return { at: stated - d, distance: d, ambiguous: stated + d };
    if (below) return { at: stated + d, distance: d };
    if (above) return { at: stated - d, distance: d };
  }
  return undefined;
}

/** How far a search for the nearest partial match looks either side of the stated line. */
export const NEAR_WINDOW = 20_000;

/** A hunk that fits nowhere: why, and the place where most of its old lines do match. */
function failure(file: FileLines, h: Hunk, old: readonly string[], cursor: number, carry: number, o: LocateOptions): Placement {
  if (h.anchor !== undefined && anchorLine(file, keyOf(h.anchor), cursor, o.ignoreWhitespace) === undefined) {
    return { status: 'failed', why: `its @@ line ${JSON.stringify(h.anchor.toString('utf8'))} is not in the file${cursor > 0 ? ` after line ${cursor}` : ''}` };
  }
  if (old.length === 0) return { status: 'failed', why: 'it adds lines at a place the file does not have' };
  const stated = o.numbered ? Math.max(0, (h.oldStart ?? 1) - 1 + carry) : cursor;
  const best = mostMatching(file, old, stated);
  const why = o.numbered && noContext(h)
    ? `it has no context lines (diff -U0), so it goes at its stated line ${stated + 1} only, and its ${old.length} old ${old.length === 1 ? 'line is' : 'lines are'} not there: the file changed, or the patch was applied before, which a hunk without context cannot tell apart`
    : `its ${old.length} old ${old.length === 1 ? 'line is' : 'lines are'} not in the file${cursor > 0 ? ` after line ${cursor}, where the hunk before it ends` : ''}`;
  if (best === undefined) return { status: 'failed', why };
  let differs: { line: number; file: string; hunk: string } | undefined;
  for (let k = 0; k < old.length; k++) {
    const p = best.at + k;
    const have = p < file.length ? file.key(p, false) : undefined;
    if (have !== old[k]) {
      differs = { line: p + 1, file: have === undefined ? '(past the end)' : Buffer.from(have, 'latin1').toString('utf8'), hunk: Buffer.from(old[k]!, 'latin1').toString('utf8') };
      break;
    }
  }
  return { status: 'failed', why, near: { line: best.at + 1, matching: best.matching, of: old.length, ...(differs ? { differs } : {}) } };
}

/**
 * The place within NEAR_WINDOW lines of `stated` where most of the `old` lines match (the nearest
 * of equals, the first of two as near), or undefined where none does.
 */
export function mostMatching(file: FileLines, old: readonly string[], stated: number): { at: number; matching: number } | undefined {
  let best: { at: number; matching: number } | undefined;
  const lo = Math.max(0, stated - NEAR_WINDOW);
  const hi = Math.min(file.length - 1, stated + NEAR_WINDOW);
  // how many of the old lines match at each place of the window: each old line's equals found by
  // searching the bytes (FileLines.nextEqual), not compared at every place
  const matching = new Int32Array(Math.max(0, hi - lo + 1));
  for (let k = 0; k < old.length; k++) {
    const to = Math.min(hi + k, file.length - 1) + 1;
    for (let i = file.nextEqual(old[k]!, lo + k, to); i !== -1; i = file.nextEqual(old[k]!, i + 1, to)) matching[i - k - lo]!++;
  }
  for (let p = lo; p <= hi; p++) {
    const m = matching[p - lo]!;
    if (m > 0 && (best === undefined || m > best.matching || (m === best.matching && Math.abs(p - stated) < Math.abs(best.at - stated)))) best = { at: p, matching: m };
  }
  return best;
}

/** {@link locateHunks}, with two equally near places turned into a failure of that hunk. */
export function locateHunks(file: FileLines, hunks: readonly Hunk[], o: LocateOptions): Placement[] {
  const out: Placement[] = [];
  let cursor = 0;
  let carry = 0;
  let shift = 0;
  for (const h of hunks) {
    let p: Placement;
    try {
      p = locateOne(file, h, cursor, carry, o, shift);
    } catch (e) {
      if (!(e instanceof Ambiguous)) throw e;
      p = {
        status: 'failed',
        why:
          e.kind === 'both'
            ? `the lines it removes stand at line ${e.a + 1} and the lines it adds at line ${e.b + 1}, so whether it was applied cannot be told; apply it by hand`
            : `it fits equally well at line ${e.a + 1} and at line ${e.b + 1}; add context to tell them apart`,
      };
    }
    out.push(p);
    if (p.status !== 'failed') {
      cursor = p.at + p.length;
      carry = p.offset;
      if (o.numbered) {
        const oldLines = h.lines.filter((l) => l.op !== '+').length;
        shift = cursor - ((oldLines === 0 ? h.oldStart! : h.oldStart! - 1) + oldLines);
      }
    }
  }
  return out;
}
