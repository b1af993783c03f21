// Content edits located in a file before it is patched: one pass finds every old and new text
// (line-ending-agnostic), a second reads the lines they touch; each becomes a guarded range edit,
// or none when the file already holds it. Not found: the near matches; several: where each starts.

import { isUtf8 } from 'node:buffer';
import type { EolMode } from '../core/eol.js';
import { Exit, LinewiseError, plural } from '../core/errors.js';
import { normaliseText, type Occurrence, TextSearch } from '../core/find-text.js';
import { AppliedTally } from '../core/text-applied.js';
import { MAX_LINE_BYTES } from '../core/limits.js';
import { joinPieces } from '../core/lines.js';
import { countLF } from '../core/newlines.js';
import { NEAR_MAX_LINE, NearFinder, type NearKind, REPLACEMENT } from '../core/near-text.js';
import { linesNeeded, type Splice, type SplicedRange, spliceRanges, unsafeOccurrence } from '../core/splice.js';
import { unsafeMessage } from '../core/encoding-safe.js';
import { terminatorLength } from '../core/terminators.js';
import { checkpoint, YIELD_BYTES } from '../io/checkpoint.js';
import { type InputSource, openText, type OpenedText, type TextOptions } from '../io/input.js';
import { type Line, toLine } from './results.js';

/** One content edit, its texts as bytes (UTF-8 when the file is decoded). */
export interface TextSpec {
  old: Buffer;
  new: Buffer;
  all: boolean;
  /** names the edit in messages: "old text", "edit 3" */
  origin: string;
}

/** How messages word what the caller can do: where the near lines are, how to name an encoding. */
export interface TextWording {
  /** where the near lines are shown ("1 line on stdout", "in the error's `near`") */
  shown: string;
  /** how to pass the file's encoding, with an example (the CLI's: {@link ENCODING_ADVICE}) */
  encoding: string;
}

/** The CLI's (and the library's default) way to name an encoding in a message. */
export const ENCODING_ADVICE = 'for example --encoding latin1; linewise encodings lists the names';

/** How many starting lines an "occurs N times" message lists. */
const LISTED = 20;
const LF = 10;

/**
 * Thrown when an old text is not in the file (exit code 3: the file does not hold what the caller
 * believed). `near` holds the lines that hold it but for whitespace or case, or but for bytes that
 * are not UTF-8 where the text has U+FFFD (`encoding`: it was copied from them as shown), and
 * `difference` says which; both empty when there is no such place.
 */
export class TextNotFoundError extends LinewiseError {
  constructor(
    message: string,
    path: string,
    readonly near: Line[],
    readonly difference: NearKind | undefined,
  ) {
    super('not-found', message, path, Exit.stale);
    this.name = 'TextNotFoundError';
  }
}

/** What {@link locateText} found: the range edits to make, and which edits are already applied. */
export interface LocatedText {
  ranges: SplicedRange[];
  /** per spec (in order): the file already holds its edit, so it adds no range */
  applied: boolean[];
  /** the file's line count */
  count: number;
}

/**
 * Finds each spec's old text in the file at `real` (named `given` in messages), all in one pass
 * over the file, and returns the range edits that replace them, each guarded by its lines as
 * read. An edit the file already holds adds none ({@link classify}). Throws when an old text is
 * missing ({@link TextNotFoundError}) or, without `all`, occurs more than once (exit 2). Yields
 * to the event loop every few MiB, so `signal` (a Ctrl-C) stops a long search.
 */
export async function locateText(real: string, given: string, specs: readonly TextSpec[], source: InputSource, textOptions: TextOptions, wording: TextWording, eol: EolMode = 'auto', signal?: AbortSignal): Promise<LocatedText> {
  const olds = specs.map((s) => normaliseText(s.old));
  const news = specs.map((s) => normaliseText(s.new));
  // Each distinct text is searched once, however many edits name it.
  const needles: Buffer[] = [];
  const ids = new Map<string, number>();
  const id = (b: Buffer) => {
    const key = b.toString('latin1');
    let k = ids.get(key);
    if (k === undefined) ids.set(key, (k = needles.push(b) - 1));
    return k;
  };
  const tallies = specs.map((spec, i) => new AppliedTally(olds[i]!.length, news[i]!.length, news[i]!.length > 0 && news[i]!.includes(olds[i]!), spec.all ? Infinity : LISTED));
  const watchers = new Map<number, { tally: AppliedTally; old: boolean }[]>();
  const watch = (k: number, w: { tally: AppliedTally; old: boolean }) => (watchers.get(k) ?? watchers.set(k, []).get(k)!).push(w);
  specs.forEach((_, i) => {
    watch(id(olds[i]!), { tally: tallies[i]!, old: true });
    if (news[i]!.length > 0) watch(id(news[i]!), { tally: tallies[i]!, old: false });
  });
  const search: TextSearch = new TextSearch(needles, (m) => {
    for (const w of watchers.get(m.needle)!) {
      if (w.old) w.tally.old(m, search);
      else w.tally.new(m, search);
    }
  });
  const { count, decoded } = await scan(real, given, source, textOptions, signal, (buf, start, end, ends) => {
    search.block(buf, start, end, ends);
    for (const t of tallies) t.settle(search.fed);
  });
  search.finish();
  for (const t of tallies) t.settle(Infinity);
  const splices: Splice[] = [];
  const needleOf = new Map<Splice, Buffer>();
  const applied: boolean[] = [];
  for (const [i, spec] of specs.entries()) {
    const t = tallies[i]!;
    const what = specs.length === 1 ? 'the old text' : `${spec.origin}: the old text`;
    const verdict = classify(t, spec.all);
    if (verdict === 'missing') throw await notFound(real, given, olds[i]!, what, source, textOptions, wording, signal);
    if (verdict === 'undecidable') {
      const starts = t.newFound.map((o) => o.start.line).join(', ');
      const more = t.newCount > t.newFound.length ? ` and ${t.newCount - t.newFound.length} more` : '';
      throw new TextNotFoundError(
        `${what} ${t.appliedCount > 0 ? 'occurs only inside its new text, which' : 'is not in the file, and its new text'} occurs ${t.newCount} times (starting on lines ${starts}${more}), so whether this edit was already applied cannot be told; nothing was written: give more of the text around it, in the old and the new text, so the new text occurs once`,
        given,
        [],
        undefined,
      );
    }
    if (verdict === 'ambiguous') {
      const starts = t.live.map((o) => o.start.line);
      const more = t.liveCount > starts.length ? ` and ${t.liveCount - starts.length} more` : '';
      const inside = t.appliedCount > 0 ? ` (not counting ${t.appliedCount} inside its new text, taken as applied)` : '';
      throw new LinewiseError(
        'ambiguous',
        `${what} occurs ${t.liveCount} times${inside}, starting on lines ${starts.join(', ')}${more}; nothing was written: give more of the text around it so it occurs once, or replace every occurrence (--all)`,
        given,
      );
    }
    if (verdict === 'applied' && t.appliedCount === 0) {
      // Applied by the new text alone: unless the old text nearly stands somewhere else (a typo
      // in it, or the file changed), which is then shown as for a text not found.
      const near = await notFound(real, given, olds[i]!, what, source, textOptions, wording, signal);
      const inNew = (n: number) => t.newFound.some((o) => o.start.line <= n && n <= o.end.line);
      if (near.near.some((l) => !inNew(l.line))) throw near;
    }
    applied.push(verdict === 'applied');
    for (const o of spec.all ? apart(t.live) : t.live) {
      const s: Splice = { ...o, text: spec.new, origin: spec.origin };
      splices.push(s);
      needleOf.set(s, olds[i]!);
    }
  }
  const lines = readLineSet(real, given, source, textOptions, linesNeeded(splices).filter((n) => n <= count));
  for (const s of splices) {
    if (!holds(lines, s, needleOf.get(s)!)) {
      throw new LinewiseError('changed', 'the file changed while the edit was prepared; nothing was written (read it again and retry)', given, Exit.stale);
    }
    // Read as bytes, without -a: a line that is not UTF-8 is in an encoding nobody named.
    const why = decoded || textOptions.allowBinary === true ? undefined : unsafeOccurrence(s, lines);
    if (why !== undefined) throw new LinewiseError('encoding-guess', unsafeMessage(`${specs.length === 1 ? 'the old text' : s.origin}: line ${s.start.line}`, why, wording.encoding), given);
  }
  return { ranges: spliceRanges(splices, lines, count, eol), applied, count };
}

/**
 * What one content edit finds in the file. `live` occurrences of the old text are edited. One
 * that lies inside an occurrence of the new text (the new text holds the old: `foo()` becoming
 * `foo(); bar()`) is the edit done before, not one to do again. With no live occurrence the edit
 * is `applied` when the new text is there, once (or anywhere, under `all`, which asked for every
 * one); when it is there several times, one cannot tell it from a text that was never edited
 * (`undecidable`: refused as not found); when it is not there either, the old text is `missing`.
 */
export function classify(t: AppliedTally, all: boolean): 'edit' | 'applied' | 'missing' | 'undecidable' | 'ambiguous' {
  if (t.liveCount > 1 && !all) return 'ambiguous';
  if (t.liveCount > 0) return 'edit';
  if (t.newCount === 0) return 'missing';
  return all || t.newCount === 1 ? 'applied' : 'undecidable';
}

/** Opens the file as replace reads it and hands on its blocks of lines, yielding every few MiB; its line count, and whether it was decoded. */
async function scan(real: string, given: string, source: InputSource, textOptions: TextOptions, signal: AbortSignal | undefined, visit: (buf: Buffer, start: number, end: number, ends: boolean) => void): Promise<{ count: number; decoded: boolean }> {
  const t = open(real, given, source, textOptions);
  try {
    let lines = 0;
    let open_ = false;
    let since = 0;
    const block = (buf: Buffer, start: number, end: number, ends: boolean) => {
      visit(buf, start, end, ends);
      if (end > start) {
        lines += countLF(buf, start, end);
        open_ = buf[end - 1] !== LF;
      }
      since += end - start;
      if (since < YIELD_BYTES) return true;
      since = 0;
      return false;
    };
    while (!t.scanner.scanBlocks(block)) await checkpoint(signal);
    return { count: lines + (open_ ? 1 : 0), decoded: t.codec !== undefined };
  } finally {
    t.input.close();
  }
}

function open(real: string, given: string, source: InputSource, textOptions: TextOptions): OpenedText {
  try {
    return openText(real, source, textOptions);
  } catch (e) {
    if (e instanceof LinewiseError) throw new LinewiseError(e.code, e.message, given, e.exitCode, { cause: e.cause });
    throw e;
  }
}

/** Occurrences that do not overlap, first come first kept (as a replace-all reads left to right). */
function apart(found: readonly Occurrence[]): Occurrence[] {
  const kept: Occurrence[] = [];
  for (const o of found) {
    const prev = kept.at(-1);
    if (prev === undefined || o.start.line > prev.end.line || (o.start.line === prev.end.line && o.start.col >= prev.end.col)) kept.push(o);
  }
  return kept;
}

/** Reads the lines `wanted` (sorted) in one pass, skipping the others without looking at them. */
function readLineSet(real: string, given: string, source: InputSource, textOptions: TextOptions, wanted: readonly number[]): Map<number, Buffer> {
  const lines = new Map<number, Buffer>();
  if (wanted.length === 0) return lines;
  const t = open(real, given, source, textOptions);
  try {
    let next = 1;
    let n = 0;
    const take = joinPieces(
      (buf, start, end) => {
        lines.set(n, Buffer.from(buf.subarray(start, end)));
        return false;
      },
      MAX_LINE_BYTES,
      () => new LinewiseError('line-too-long', `line ${n} is longer than ${MAX_LINE_BYTES} bytes, too long to edit by content (use a range edit)`, given),
    );
    for (const w of wanted) {
      if (w > next && t.scanner.skip(w - next).eof) break;
      n = w;
      if (t.scanner.scan(take)) break;
      next = w + 1;
    }
    return lines;
  } finally {
    t.input.close();
  }
}

/** The old text still stands where the first pass found it (else the file changed in between). */
function holds(lines: ReadonlyMap<number, Buffer>, o: Occurrence, needle: Buffer): boolean {
  const parts: Buffer[] = [];
  for (let n = o.start.line; n <= o.end.line; n++) {
    const l = lines.get(n);
    if (l === undefined) return false;
    const t = terminatorLength(l, 0, l.length);
    parts.push(t > 0 ? Buffer.concat([l.subarray(0, l.length - t), Buffer.from('\n')]) : Buffer.concat([l, Buffer.from('\n')]));
  }
  const text = Buffer.concat(parts);
  return text.subarray(o.start.col, text.length - parts.at(-1)!.length + o.end.col).equals(needle);
}

/** The not-found error, with the near matches a second pass finds (yielding every few MiB, as the first). */
async function notFound(real: string, given: string, needle: Buffer, what: string, source: InputSource, textOptions: TextOptions, wording: TextWording, signal: AbortSignal | undefined): Promise<TextNotFoundError> {
  const near = new NearFinder(needle.toString('utf8'));
  const t = open(real, given, source, textOptions);
  let notUtf8 = 0; // the first line that is not UTF-8: a file read as bytes in another encoding
  try {
    let n = 0;
    let gathered: Buffer[] = [];
    let size = 0;
    let since = 0;
    // false every few MiB: the scan stops there, the event loop turns, and the scan goes on
    const goOn = () => {
      if (since < YIELD_BYTES) return true;
      since = 0;
      return false;
    };
    const piece = (buf: Buffer, start: number, end: number, ends: boolean) => {
      if (size <= NEAR_MAX_LINE) gathered.push(Buffer.from(buf.subarray(start, end)));
      size += end - start;
      since += end - start;
      if (!ends) return goOn();
      n++;
      const line = size <= NEAR_MAX_LINE ? Buffer.concat(gathered) : undefined;
      if (notUtf8 === 0 && line !== undefined && !isUtf8(line)) notUtf8 = n;
      near.line(n, line);
      gathered = [];
      size = 0;
      return goOn();
    };
    while (!t.scanner.scan(piece)) await checkpoint(signal);
  } finally {
    t.input.close();
  }
  const found = near.result();
  if (found.length === 0) {
    // A non-ASCII text typed in UTF-8 cannot match a latin1 file read as bytes: say what to add.
    const hint =
      notUtf8 > 0 && /[^\x00-\x7f]/.test(needle.toString('latin1'))
        ? `line ${notUtf8} is not UTF-8, so the file is in another encoding: give it (${wording.encoding})`
        : 'read the lines again and copy the text exactly';
    return new TextNotFoundError(`${what} is not in the file; nothing was written: ${hint}`, given, [], undefined);
  }
  const kind = found[0]!.kind;
  const rows = found.flatMap((m) => m.lines.map((bytes, i) => toLine(given, m.from + i, bytes, 0, bytes.length)));
  const places = found.map((m) => (m.from === m.to ? `line ${m.from}` : `lines ${m.from}-${m.to}`)).join(', ');
  const differ = found.length === 1 && found[0]!.from === found[0]!.to ? 'differs' : 'differ';
  // Text with U+FFFD near lines that are not UTF-8: copied from them as shown, it cannot match
  // their bytes; whatever else differs, the encoding is what to fix first.
  const copied = needle.includes(REPLACEMENT) && found.some((m) => m.lines.some((l) => !isUtf8(l)));
  const encoding = `the file is in another encoding; give it (${wording.encoding})`;
  const how =
    kind === 'encoding'
      ? `only in bytes that are not UTF-8 (they read as U+FFFD, so text copied from them cannot match): ${encoding}`
      : copied
        ? `only in ${kind} and in bytes that are not UTF-8 (they read as U+FFFD): ${encoding}`
        : `only in ${kind}`;
  return new TextNotFoundError(`${what} is not in the file, but ${places} ${differ} from it ${how} (${plural(rows.length)} ${wording.shown}); nothing was written`, given, rows, kind);
}
