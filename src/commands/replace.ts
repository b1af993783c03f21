// `replace FILE START [END]` and `replace [FILE] --rows [ROWSFILE|-]`: line-precise edits,
// streamed into a temporary file per target and renamed over it only when every target is ready.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Edit, type Eol, type EolMode, eolOf, type Expectation, Patcher, planEdits, type PatchResult, rowEdits, rowExpectations } from '../core/edits.js';
import { splitLines } from '../core/lines.js';
import { Exit, type ExitCode, LinewiseError, withPath } from '../core/errors.js';
import { parseCount } from '../core/ranges.js';
import { parseRows, type Row } from '../core/rows.js';
import { lineFields, writeRecord } from '../format/json.js';
import { checkpoint, commitAll, Interrupted, reraise, resolveTarget, settleSignals, type Target, TempFile, type WriteFn } from '../io/atomic.js';
import { fileError } from '../io/input.js';
import { RangeReader } from '../io/range.js';
import { openText, type OpenedText, type TextOptions } from '../io/text.js';
import type { Context } from './context.js';

export interface ReplaceOptions {
  /** the new text, given on the command line */
  text?: string;
  /** a file holding the new text ("-": standard input) */
  from?: string;
  /** rows to apply: a file, "-" or true (standard input) */
  rows?: string | boolean;
  /** rows as they were read: the stale-edit guard */
  expect?: string;
  eol: EolMode;
  dryRun?: boolean;
  json?: boolean;
  /** edit a file with NUL bytes as text (`-a`) */
  binary?: boolean;
  /** the file's encoding (`--encoding`): lines are decoded, and every line is encoded back */
  encoding?: string;
  /** for tests: how the temporary files are written (a failing writer simulates a full disk) */
  writeFn?: WriteFn;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** Bytes copied between two chances for a signal handler to run. */
const YIELD_BYTES = 4 << 20;
/** Untouched lines worth the fast lane (below, piece by piece is as quick)... */
const FAST_MIN_LINES = 64;
/** ...and how many it skips between two chances for a signal handler. */
const FAST_STEP_LINES = 1 << 16;

/** The edits and expectations of one file. */
export interface FilePlan {
  given: string;
  target: Target;
  edits: Edit[];
  expect: Expectation[];
  /** rows carried paths: stale lines are printed with them */
  pathRows: boolean;
}

/** One file patched into its temporary file (or only checked, in a dry run). */
export interface Prepared {
  plan: FilePlan;
  result: PatchResult;
  temp: TempFile | undefined;
}

export async function replace(
  ctx: Context,
  file: string | undefined,
  startArg: string | undefined,
  endArg: string | undefined,
  o: ReplaceOptions,
): Promise<ExitCode> {
  const plans = buildPlans(ctx, file, startArg, endArg, o);
  if (plans.length === 0) ctx.warn('no rows to apply; nothing written');
  const prepared = await applyPlans(ctx, plans, o, (stale) => printStale(ctx, stale, o));
  if (o.dryRun) await printDiffs(ctx, prepared);
  if (o.json) printJson(ctx, prepared, o);
  return Exit.ok;
}

/**
 * Patches every planned file into a temporary file and, unless a dry run, renames them all over
 * their targets (unchanged files are left alone). When a line expected by the guard changed,
 * `onStale` sees the stale files, nothing is written, and the exit-3 error is thrown. On any
 * failure no temporary file is left behind.
 */
export async function applyPlans(ctx: Context, plans: FilePlan[], o: ReplaceOptions, onStale: (stale: Prepared[]) => void): Promise<Prepared[]> {
  const prepared: Prepared[] = [];
  try {
    for (const plan of plans) prepared.push(await prepare(ctx, plan, o));
    const stale = prepared.filter((p) => p.result.mismatches.length > 0);
    if (stale.length > 0) {
      onStale(stale);
      throw staleError(stale);
    }
    if (!o.dryRun) {
      // Unchanged files are not rewritten: their mtime and inode stay as they were.
      for (const p of prepared) if (!p.result.changed) p.temp?.discard();
      // A signal that came while the last bytes were flushed (fsync) stops the edit here, before
      // any rename; one that comes during the renames is honoured once they are done.
      await checkpoint();
      try {
        commitAll(prepared.filter((p) => p.result.changed).map((p) => p.temp!));
      } finally {
        await settleSignals();
      }
    }
    return prepared;
  } catch (e) {
    for (const p of prepared) p.temp?.discard();
    if (e instanceof Interrupted) reraise(e);
    throw e;
  }
}

/** Turns the arguments into one plan per file (several only for path rows without FILE). */
function buildPlans(ctx: Context, file: string | undefined, startArg: string | undefined, endArg: string | undefined, o: ReplaceOptions): FilePlan[] {
  const stdinUsers = [o.rows === true || o.rows === '-', o.from === '-', o.expect === '-'].filter(Boolean).length;
  if (stdinUsers > 1) throw usage('standard input can feed only one of --rows, --from and --expect');
  const expectRows = o.expect === undefined ? [] : parseRows(readSource(ctx, o.expect, '--expect'), o.expect);

  if (o.rows !== undefined && o.rows !== false) {
    if (startArg !== undefined) throw usage('--rows takes no START or END: each row names its line');
    if (o.text !== undefined || o.from !== undefined) throw usage('--rows brings its own text; --text and --from apply to a range');
    const source = o.rows === true ? '-' : o.rows;
    const rows = parseRows(readSource(ctx, source, '--rows'), source === '-' ? '<stdin>' : source);
    return groupRows(ctx, file, rows, expectRows);
  }

  if (file === undefined || startArg === undefined) {
    throw usage('give FILE START [END] and the new text, or --rows (see linewise help replace)');
  }
  const start = parseCount(startArg, 'START', 1);
  const end = endArg === undefined ? start : parseCount(endArg, 'END');
  if (end < start - 1) throw usage(`END ${end} is before START ${start} (END = START - 1 inserts before START)`);
  const text = newText(ctx, o);
  return rangePlan(ctx, file, [{ start, end, text }], expectRows, o.expect!);
}

/** A range edit of one file: lines `start..end` become `text` (`end = start - 1` inserts). */
export interface RangeSpec {
  start: number;
  end: number;
  text: Uint8Array;
}

/**
 * The plan of range edits to `file`, guarded by `expectRows` (which may carry paths, all of
 * `file`; `expectSource` names them in messages). Overlaps are refused when the file is read.
 */
export function rangePlan(ctx: Context, file: string, ranges: readonly RangeSpec[], expectRows: Row[], expectSource: string): FilePlan[] {
  const target = resolveTarget(file, ctx.io.cwd);
  const edits: Edit[] = ranges.map(({ start, end, text }) => ({
    start,
    end,
    lines: splitLines(text),
    origin: end === start - 1 ? `insert before line ${start}` : end === start ? `line ${start}` : `lines ${start}-${end}`,
  }));
  const pathRows = expectRows.some((r) => r.path !== undefined);
  for (const r of expectRows) {
    if (r.path !== undefined && !sameTarget(ctx, r.path, target)) throw rowForOtherFile(r, expectSource, file);
  }
  return [{ given: file, target, edits, expect: rowExpectations(expectRows), pathRows }];
}

/** Rows grouped by the file they edit; with FILE, every row must be for FILE. */
export function groupRows(ctx: Context, file: string | undefined, rows: Row[], expectRows: Row[]): FilePlan[] {
  if (rows.length === 0) return []; // e.g. grep found nothing: nothing to do, as with sed
  const plans = new Map<string, FilePlan>();
  const fixed = file === undefined ? undefined : resolveTarget(file, ctx.io.cwd);
  const planFor = (row: Row, source: string): FilePlan => {
    if (row.path === undefined && fixed === undefined) {
      throw new LinewiseError('bad-row', `row ${row.rowNumber} has no path: name the file, as in linewise replace FILE --rows`, source);
    }
    let target: Target;
    if (fixed !== undefined) {
      if (row.path !== undefined && !sameTarget(ctx, row.path, fixed)) throw rowForOtherFile(row, source, file!);
      target = fixed;
    } else {
      target = resolveTarget(row.path!, ctx.io.cwd);
    }
    // Two names of one file (a.txt, ./a.txt, a link to it) are one plan: their edits must not clash.
    let plan = plans.get(target.real);
    if (plan === undefined) {
      plan = { given: fixed ? file! : row.path!, target, edits: [], expect: [], pathRows: row.path !== undefined };
      plans.set(target.real, plan);
    }
    return plan;
  };
  for (const row of rows) planFor(row, 'rows').edits.push(...rowEdits([row]));
  for (const row of expectRows) {
    const plan = planFor(row, '--expect');
    if (plan.edits.length === 0) throw new LinewiseError('bad-row', `row ${row.rowNumber} is for ${row.path}, which no row edits`, '--expect');
    plan.expect.push(...rowExpectations([row]));
  }
  // Clashing rows are refused before any file is read.
  for (const plan of plans.values()) {
    try {
      planEdits(plan.edits);
    } catch (e) {
      throw withPath(e, plan.given);
    }
  }
  return [...plans.values()];
}

function sameTarget(ctx: Context, p: string, target: Target): boolean {
  try {
    return fs.realpathSync(path.resolve(ctx.io.cwd, p)) === target.real;
  } catch {
    return false;
  }
}

function rowForOtherFile(row: Row, source: string, file: string): LinewiseError {
  return new LinewiseError('bad-row', `row ${row.rowNumber} is for ${row.path}, not ${file}; leave FILE out to patch several files`, source);
}

function usage(message: string): LinewiseError {
  return new LinewiseError('usage', message);
}

/** The new text of a range edit: --text, --from, or standard input (not a terminal). */
function newText(ctx: Context, o: ReplaceOptions): Buffer {
  if (o.text !== undefined && o.from !== undefined) throw usage('give the new text once: --text or --from, not both');
  if (o.text !== undefined) return Buffer.from(o.text, 'utf8');
  if (o.from !== undefined) return readSource(ctx, o.from, '--from');
  if (ctx.io.stdinIsTTY) {
    throw usage('no new text: give --text TEXT, --from FILE, or pipe it on standard input (--text "" deletes)');
  }
  return readSource(ctx, '-', '--from');
}

/** Reads a whole input given to an option: a file, or "-" for standard input. */
function readSource(ctx: Context, source: string, what: string): Buffer {
  if (source === '-') {
    if (ctx.io.stdinIsTTY && what !== '--from') throw usage(`${what} -: standard input is a terminal; pipe the rows in or name a file`);
    return readAll(ctx.io.stdin);
  }
  try {
    return fs.readFileSync(path.resolve(ctx.io.cwd, source));
  } catch (e) {
    throw fileError(e, source);
  }
}

function readAll(read: (buf: Uint8Array, offset: number, length: number) => number): Buffer {
  const chunks: Buffer[] = [];
  for (;;) {
    const buf = Buffer.allocUnsafe(1 << 16);
    const n = read(buf, 0, buf.length);
    if (n <= 0) break;
    chunks.push(buf.subarray(0, n));
  }
  return Buffer.concat(chunks);
}

/**
 * Streams one file through the patcher into a temporary file beside it (none in a dry run).
 * Returns with the temporary file sealed, or throws having removed it.
 */
async function prepare(ctx: Context, plan: FilePlan, o: ReplaceOptions): Promise<Prepared> {
  const textOptions: TextOptions = { allowBinary: o.binary, encoding: o.encoding };
  const needsFirstEol = plan.edits.some((e) => e.start === 1 && e.end === 0);
  const firstLineEol = needsFirstEol ? lookAheadFirstEol(ctx, plan, textOptions) : undefined;
  const t = open(ctx, plan, textOptions);
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
    const patcher = new Patcher(plan.edits, {
      eol: o.eol,
      emit: writeOut,
      expect: plan.expect,
      context: o.dryRun ? 3 : 0,
      ...(firstLineEol ? { firstLineEol } : {}),
    });
    // Untouched stretches take the fast lane: the scanner only counts their lines and the
    // bytes are copied by offset, with no per-line work. Not with a codec: its bytes are
    // decoded, and the offsets are not the file's.
    fast = codec === undefined ? RangeReader.open(plan.target) : undefined;
    // The scan is synchronous; it stops every few MiB so a signal handler gets to run.
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
        const copy = await fast.copy(from, t.scanner.offset, !fast.endsWithNewline, sink && ((b, s, e) => sink.write(b, s, e)));
        patcher.skipped(skip.lines, copy.last, copy.crlf);
        // Each step is under the copier's own yield threshold, so a signal is looked for here too:
        // without it a long untouched stretch ran to the rename with a SIGTERM pending.
        await checkpoint();
        continue;
      }
      budget = 0;
      if (t.scanner.scan(visit)) break;
      await checkpoint();
    }
    const result = patcher.finish();
    if (codec?.invalidAt !== undefined && result.changed) {
      // Decoded, those bytes became U+FFFD: writing them back would change lines nobody edited.
      throw new LinewiseError(
        'invalid-encoding',
        `bytes at offset ${codec.invalidAt} are not valid ${codec.name}, so writing the file back would change them; nothing was written (check --encoding)`,
      );
    }
    if (temp && result.changed && result.mismatches.length === 0) temp.seal();
    return { plan, result, temp };
  } catch (e) {
    temp?.discard();
    throw e instanceof Interrupted ? e : withPath(e, plan.given);
  } finally {
    t.input.close();
    fast?.close();
  }
}

function open(ctx: Context, plan: FilePlan, textOptions: TextOptions): OpenedText {
  try {
    return openText(plan.target.real, ctx.io, textOptions);
  } catch (e) {
    // name the file as the user did, not as its resolved path
    if (e instanceof LinewiseError) throw new LinewiseError(e.code, e.message, plan.given, e.exitCode, { cause: e.cause });
    throw e;
  }
}

/** The terminator of line 1, for an insert before it (read before the patch reaches line 1's end). */
function lookAheadFirstEol(ctx: Context, plan: FilePlan, textOptions: TextOptions): Eol | undefined {
  const t = open(ctx, plan, textOptions);
  try {
    let eol: Eol | undefined;
    t.scanner.scan((buf, start, end, ends) => {
      if (!ends) return true;
      eol = eolOf(buf.subarray(start, end));
      return false;
    });
    return eol || undefined;
  } finally {
    t.input.close();
  }
}

/** Prints the current lines of every stale file as rows (or JSON records). */
function printStale(ctx: Context, stale: Prepared[], o: ReplaceOptions): void {
  for (const { plan, result } of stale) {
    for (const m of result.mismatches) {
      if (o.json) {
        writeRecord(ctx.out, {
          type: 'stale',
          path: plan.given,
          line_number: m.line,
          ...(m.current ? lineFields(m.current, 0, m.current.length) : { gone: true }),
        });
        continue;
      }
      if (m.current === undefined) continue;
      if (plan.pathRows) ctx.out.text(`${plan.given}\t`);
      ctx.out.text(`${m.line}\t`);
      ctx.out.bytes(m.current);
      if (eolOf(m.current) === '') ctx.out.leaveOpen();
    }
  }
}

/** The exit-3 error for stale files: which lines no longer hold the text read, and where the current ones are. */
export function staleError(stale: Prepared[], shown = 'on stdout'): LinewiseError {
  const files = stale.map((p) => p.plan.given);
  const first = stale[0]!.result.mismatches;
  const nums = first.map((m) => m.line);
  const gone = first.filter((m) => m.current === undefined).map((m) => m.line);
  const detail =
    stale.length === 1
      ? `${nums.length === 1 ? 'line' : 'lines'} ${nums.join(', ')} no longer ${nums.length === 1 ? 'holds' : 'hold'} the text read` +
        (gone.length ? ` (past the end now: ${gone.join(', ')})` : '')
      : `lines changed since they were read in ${files.join(', ')}`;
  return new LinewiseError(
    'stale',
    `stale edit: ${detail}; nothing was written; the current lines are ${shown}: read again and retry`,
    stale.length === 1 ? files[0] : undefined,
    Exit.stale,
  );
}

async function printDiffs(ctx: Context, prepared: Prepared[]): Promise<void> {
  if (!prepared.some((p) => p.result.changed)) return;
  // Loaded only here, so no other command pays for it at start-up.
  const { unifiedDiff } = await import('../format/diff.js');
  for (const p of prepared) if (p.result.changed) ctx.out.bytes(unifiedDiff(p.plan.given, p.result));
}

function printJson(ctx: Context, prepared: Prepared[], o: ReplaceOptions): void {
  for (const { plan, result } of prepared) {
    writeRecord(ctx.out, {
      type: 'file',
      path: plan.given,
      changed: result.changed,
      written: result.changed && !o.dryRun,
      lines_before: result.linesBefore,
      lines_after: result.linesAfter,
      edits: result.edits.map((r) => ({
        start: r.edit.start,
        end: r.edit.end,
        removed: r.removed,
        added: r.added,
        changed: r.changed,
      })),
    });
  }
  writeRecord(ctx.out, {
    type: 'summary',
    files: prepared.length,
    changed: prepared.filter((p) => p.result.changed).length,
    written: o.dryRun ? 0 : prepared.filter((p) => p.result.changed).length,
    dry_run: o.dryRun === true,
  });
}
