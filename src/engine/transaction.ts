// One replace call as a transaction: every planned file streamed through the patcher into a
// temporary file beside it, the guard checked, and only then every file renamed over its target.

import { type Terminator, terminatorOf } from '../core/terminators.js';
import type { EolMode } from '../core/eol.js';
import { LinewiseError, withPath } from '../core/errors.js';
import { Patcher, type PatchResult } from '../core/patcher.js';
import { sameLine } from '../core/edit-plan.js';
import { MAX_LINE_BYTES } from '../core/limits.js';
import { LineGatherer } from '../core/pieces.js';
import { checkpoint, Interrupted, YIELD_BYTES } from '../io/checkpoint.js';
import { commitAll } from '../io/commit.js';
import { RangeReader } from '../io/copy-range.js';
import { lineHash } from '../io/line-hash.js';
import { TempFile, type WriteFn } from '../io/temp-file.js';
import { firstInvalidUtf8InFile, wideEncodingOfFile } from '../io/utf8-file.js';
import { type InputSource, openText, type OpenedText, type TextOptions } from '../io/input.js';
import { decodingProblem, intoAsciiProblem, narrowRowProblem } from './decoding.js';
import { unsafeMessage } from '../core/encoding-safe.js';
import { ENCODING_ADVICE } from './locate-text.js';
import { appliedOf, expectations, type FilePlan, plannedEdits } from './plans.js';
import { staleEditError } from './stale.js';

/** How a transaction reads and writes. */
export interface TransactionOptions {
  eol: EolMode;
  dryRun: boolean;
  /** edit a file with NUL bytes as text (`-a`) */
  binary: boolean | undefined;
  /** the file's encoding (`--encoding`): lines are decoded, and every line is encoded back */
  encoding: string | undefined;
  source: InputSource;
  signal: AbortSignal | undefined;
  /** old lines kept around each edit, for a diff or a receipt (default: 3 in a dry run, else 0) */
  context?: number;
  /** where the stale error says the current lines are (see staleEditError) */
  staleShown?: string;
  /** how a message says to pass the file's encoding (default: the CLI's option) */
  encodingAdvice?: string;
  /** for tests: how the temporary files are written (a failing writer simulates a full disk) */
  writeFn?: WriteFn;
}

/** One file patched into its temporary file (or only checked, in a dry run). */
export interface Prepared {
  plan: FilePlan;
  result: PatchResult;
  temp: TempFile | undefined;
  /** the guard failed because the file already holds the edit: nothing to write */
  applied?: boolean;
  /** the file's UTF-8 byte order mark (kept apart from its lines), for --dry-run's diff */
  mark?: Buffer;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** Untouched lines worth the fast lane (below, piece by piece is as quick)... */
const FAST_MIN_LINES = 64;
/** ...and how many it skips between two checkpoints. */
const FAST_STEP_LINES = 1 << 16;

/**
 * Patches every planned file into a temporary file and, unless a dry run, renames them all over
 * their targets (unchanged files are left alone). When a line expected by the guard changed,
 * throws a StaleEditError and writes nothing. On any failure no temporary file is left behind.
 */
export async function runTransaction(plans: readonly FilePlan[], o: TransactionOptions): Promise<Prepared[]> {
  const prepared: Prepared[] = [];
  try {
    for (const plan of plans) prepared.push(await prepare(plan, o));
    // A guard that failed because the edit is already there (a CI job run again, a batch cut
    // short by a crash and run again) is no conflict: that file is left alone, the rest goes on.
    for (const p of prepared) {
      if (p.result.mismatches.length > 0 && alreadyApplied(p.plan, o)) {
        p.applied = true;
        p.temp?.discard();
        p.temp = undefined;
      }
    }
    const stale = prepared.filter((p) => p.result.mismatches.length > 0 && !p.applied);
    if (stale.length > 0) {
      throw staleEditError(
        stale.map((p) => ({ path: p.plan.given, pathRows: p.plan.pathRows, anchored: p.plan.anchored, ...(p.plan.guarded ? { guarded: true } : {}), mismatches: p.result.mismatches })),
        o.staleShown,
      );
    }
    if (!o.dryRun) {
      // Unchanged files are not rewritten: their mtime and inode stay as they were.
      for (const p of prepared) if (!p.result.changed || p.applied) p.temp?.discard();
      // A cancel that came while the last bytes were flushed (fsync) stops the edit here, before
      // any rename; the renames themselves are not interrupted.
      await checkpoint(o.signal);
      await commitAll(
        prepared.filter((p) => p.result.changed && !p.applied).map((p) => p.temp!),
        o.signal,
      );
    }
    return prepared;
  } catch (e) {
    for (const p of prepared) p.temp?.discard();
    throw e;
  }
}

/**
 * Streams one file through the patcher into a temporary file beside it (none in a dry run).
 * Returns with the temporary file sealed, or throws having removed it.
 */
async function prepare(plan: FilePlan, o: TransactionOptions): Promise<Prepared> {
  const textOptions: TextOptions = { allowBinary: o.binary, encoding: o.encoding };
  // (rows are never inserts)
  const needsFirstEol = [...plan.edits, ...(plan.fixed?.edits ?? [])].some((e) => e.start === 1 && e.end === 0);
  const firstLineEol = needsFirstEol ? lookAheadFirstEol(plan, o.source, textOptions) : undefined;
  if (o.binary && o.encoding === undefined && plan.rows) {
    const wide = wideEncodingOfFile(plan.target);
    const narrow = wide && narrowRowProblem(plan.rows.edits(), wide);
    if (narrow) throw withPath(narrow, plan.given);
  }
  const t = open(plan, o.source, textOptions);
  let temp: TempFile | undefined;
  let fast: RangeReader | undefined;
  try {
    const codec = t.codec;
    temp = o.dryRun ? undefined : TempFile.create(plan.target, o.writeFn);
    const sink = temp;
    // Every byte of the new file goes through this one function, so a codec plugs in here.
    const writeOut = sink === undefined ? () => {} : codec ? (b: Uint8Array, s: number, e: number) => sink.write(codec.encode(Buffer.from(b.subarray(s, e)))) : (b: Uint8Array, s: number, e: number) => sink.write(b, s, e);
    if (sink && codec) sink.write(codec.bomBytes);
    else if (sink && t.bom === 'utf-8') sink.write(UTF8_BOM);
    const patcher = new Patcher(plannedEdits(plan), {
      eol: o.eol,
      emit: writeOut,
      expectSorted: expectations(plan),
      context: o.context ?? (o.dryRun ? 3 : 0),
      ...(firstLineEol ? { firstLineEol } : {}),
      anchorOf: lineHash,
      checkDecoding: codec === undefined,
      guardGuesses: codec === undefined && o.binary !== true,
    });
    // Untouched stretches take the fast lane: the scanner only counts their lines and the
    // bytes are copied by offset, with no per-line work. Not with a codec: its bytes are
    // decoded, and the offsets are not the file's.
    fast = codec === undefined ? RangeReader.open(plan.target) : undefined;
    // The scan is synchronous; it stops every few MiB for a checkpoint (a cancel gets to run).
    let budget = 0;
    const visit = (buf: Buffer, start: number, end: number, ends: boolean) => {
      patcher.piece(buf, start, end, ends);
      budget += end - start;
      return budget < YIELD_BYTES && !(fast && ends && patcher.quietLines() >= FAST_MIN_LINES);
    };
    for (;;) {
      const quiet = fast ? patcher.quietLines() : 0;
      if (fast && quiet >= FAST_MIN_LINES) {
        const from = t.scanner.offset;
        const skip = t.scanner.skip(Math.min(quiet, FAST_STEP_LINES));
        if (skip.lines === 0) break; // the end of the file
        const copy = await fast.copy(from, t.scanner.offset, !fast.endsWithNewline, sink && ((b, s, e) => sink.write(b, s, e)), o.signal);
        patcher.skipped(skip.lines, copy.last, copy.crlf);
        // Each step is under the copier's own checkpoint threshold, so one is taken here too:
        // without it a long untouched stretch ran to the rename with a SIGTERM pending.
        await checkpoint(o.signal);
        continue;
      }
      budget = 0;
      if (t.scanner.scan(visit)) break;
      await checkpoint(o.signal);
    }
    const result = patcher.finish();
    // Before the stale check: a line that only looks changed because of the decoding is not stale.
    const decoding = decodingProblem(result, expectations(plan, false), codec !== undefined, () => wideEncodingOfFile(plan.target));
    if (decoding !== undefined) throw decoding;
    const guess = result.guesses[0];
    if (guess !== undefined && result.mismatches.length === 0) throw new LinewiseError('encoding-guess', unsafeMessage(`${guess.origin}: line ${guess.line}`, guess.why, o.encodingAdvice ?? ENCODING_ADVICE));
    if (codec === undefined && result.intoAscii.length > 0 && result.mismatches.length === 0) {
      // Only then is the whole file read once more: an ASCII line cannot tell its file's encoding.
      const invalidAt = await firstInvalidUtf8InFile(plan.target, o.signal);
      if (invalidAt !== undefined) throw intoAsciiProblem(result, invalidAt, wideEncodingOfFile(plan.target));
    }
    if (codec?.invalidAt !== undefined && result.changed) {
      // Decoded, those bytes became U+FFFD: writing them back would change lines nobody edited.
      throw new LinewiseError(
        'invalid-encoding',
        `bytes at offset ${codec.invalidAt} are not valid ${codec.name}, so writing the file back would change them; nothing was written (check --encoding)`,
      );
    }
    if (temp && result.changed && result.mismatches.length === 0) temp.seal();
    else {
      // Never renamed (unchanged, stale, or already applied): removed now, so a batch of many
      // files holds no more than one open temporary file at a time.
      temp?.discard();
      temp = undefined;
    }
    return { plan, result, temp, ...(codec === undefined && t.bom === 'utf-8' ? { mark: UTF8_BOM } : {}) };
  } catch (e) {
    temp?.discard();
    throw e instanceof Interrupted ? e : withPath(e, plan.given);
  } finally {
    t.input.close();
    fast?.close();
  }
}

function open(plan: FilePlan, source: InputSource, textOptions: TextOptions): OpenedText {
  try {
    return openText(plan.target.real, source, textOptions);
  } catch (e) {
    // name the file as the user did, not as its resolved path
    if (e instanceof LinewiseError) throw new LinewiseError(e.code, e.message, plan.given, e.exitCode, { cause: e.cause });
    throw e;
  }
}

/**
 * Whether the file already holds what the plan would write: each edit's new lines where they
 * would land, and every other guarded line where it would have moved (compared without
 * terminators, as the guard compares). Read in one bounded pass, line by line.
 */
function alreadyApplied(plan: FilePlan, o: TransactionOptions): boolean {
  const want = appliedOf(plan);
  if (want === undefined) return false;
  const lines = want[Symbol.iterator]();
  let w = lines.next();
  const t = open(plan, o.source, { allowBinary: o.binary, encoding: o.encoding });
  let line = 1;
  let same = true;
  const gather = new LineGatherer(MAX_LINE_BYTES, () => new LinewiseError('line-too-long', 'too long to compare'));
  try {
    t.scanner.scan((buf, start, end, ends) => {
      const here = !w.done && w.value[0] === line;
      if (here) gather.add(buf, start, end);
      if (!ends) return true;
      if (here) {
        const current = gather.take();
        // two guarded lines may stand at one place (the same text read twice)
        for (; !w.done && w.value[0] === line; w = lines.next()) same &&= sameLine(w.value[1], current);
      }
      line++;
      return same && !w.done;
    });
  } catch (e) {
    if (e instanceof LinewiseError && e.code === 'line-too-long') return false;
    throw e;
  } finally {
    t.input.close();
  }
  return same && w.done === true;
}

/** The terminator of line 1, for an insert before it (read before the patch reaches line 1's end). */
function lookAheadFirstEol(plan: FilePlan, source: InputSource, textOptions: TextOptions): Terminator | undefined {
  const t = open(plan, source, textOptions);
  try {
    let eol: Terminator | undefined;
    t.scanner.scan((buf, start, end, ends) => {
      if (!ends) return true;
      eol = terminatorOf(buf, start, end);
      return false;
    });
    return eol || undefined;
  } finally {
    t.input.close();
  }
}
