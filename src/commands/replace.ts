// `replace FILE START [END]` and `replace [FILE] --rows [ROWSFILE|-]`: the new text, rows and
// expected rows read from argv, files and standard input; the edit through the engine; the
// outcome printed (a diff, JSON records, or the current lines of a stale edit).

import { isUtf8 } from 'node:buffer';
import { Exit, type ExitCode, LinewiseError } from '../core/errors.js';
import { parseRows, type Row } from '../core/parse-rows.js';
import { parseCount } from '../core/ranges.js';
import { terminatorOf } from '../core/terminators.js';
import { type EditRunOptions, type ExpectedLine, replace as replaceRange, replaceRows, type ReplaceResult } from '../engine/edit.js';
import type { EolMode } from '../core/eol.js';
import { StaleEditError } from '../engine/stale.js';
import { fileChangeRecord, lineFields, writeRecord } from '../format/json.js';
import { readOptionInput } from '../io/option-input.js';
import type { WriteFn } from '../io/temp-file.js';
import type { Context } from './context.js';

export interface ReplaceArgs {
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

export async function replace(ctx: Context, file: string | undefined, startArg: string | undefined, endArg: string | undefined, o: ReplaceArgs): Promise<ExitCode> {
  const stdinUsers = [o.rows === true || o.rows === '-', o.from === '-', o.expect === '-'].filter(Boolean).length;
  if (stdinUsers > 1) throw usage('standard input can feed only one of --rows, --from and --expect');
  const expect = o.expect === undefined ? [] : expectedLines(parseRows(readOptionInput(ctx.io, o.expect, '--expect'), o.expect));
  const options: EditRunOptions = {
    eol: o.eol,
    dryRun: o.dryRun,
    text: o.binary,
    encoding: o.encoding,
    expect,
    expectSource: '--expect',
    staleShown: 'on stdout',
    cwd: ctx.io.cwd,
    stdin: ctx.io.stdin,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(o.writeFn ? { writeFn: o.writeFn } : {}),
  };
  let result: ReplaceResult;
  try {
    result = await run(ctx, file, startArg, endArg, o, options);
  } catch (e) {
    if (e instanceof StaleEditError) printStale(ctx, e, o.json === true);
    throw e;
  }
  // Under --json the diff is a field of each file's record: the output is JSON Lines only.
  if (o.dryRun && !o.json) for (const f of result.files) if (f.diff) ctx.out.bytes(f.diff);
  if (o.json) printJson(ctx, result);
  return Exit.ok;
}

/** The edit the arguments ask for: rows, or a range and its new text. */
async function run(ctx: Context, file: string | undefined, startArg: string | undefined, endArg: string | undefined, o: ReplaceArgs, options: EditRunOptions): Promise<ReplaceResult> {
  if (o.rows !== undefined && o.rows !== false) {
    if (startArg !== undefined) throw usage('--rows takes no START or END: each row names its line');
    if (o.text !== undefined || o.from !== undefined) throw usage('--rows brings its own text; --text and --from apply to a range');
    const source = o.rows === true ? '-' : o.rows;
    const rows = parseRows(readOptionInput(ctx.io, source, '--rows'), source === '-' ? '<stdin>' : source);
    if (rows.length === 0) ctx.warn('no rows to apply; nothing written');
    return replaceRows(
      rows.map((r) => ({ ...(r.path !== undefined ? { path: r.path } : {}), line: r.line, text: r.bytes, rowNumber: r.rowNumber })),
      { ...options, ...(file !== undefined ? { path: file } : {}) },
    );
  }
  if (file === undefined || startArg === undefined) {
    throw usage('give FILE START [END] and the new text, or --rows (see linewise help replace)');
  }
  const start = parseCount(startArg, 'START', 1);
  const end = endArg === undefined ? start : parseCount(endArg, 'END');
  return replaceRange(file, { start, end, text: newText(ctx, o) }, options);
}

/** Rows as read, for the guard. */
function expectedLines(rows: readonly Row[]): ExpectedLine[] {
  return rows.map((r) => ({ ...(r.path !== undefined ? { path: r.path } : {}), line: r.line, bytes: r.bytes, rowNumber: r.rowNumber }));
}

function usage(message: string): LinewiseError {
  return new LinewiseError('usage', message);
}

/** The new text of a range edit: --text, --from, or standard input (not a terminal). */
function newText(ctx: Context, o: ReplaceArgs): Buffer {
  if (o.text !== undefined && o.from !== undefined) throw usage('give the new text once: --text or --from, not both');
  if (o.text !== undefined) return Buffer.from(o.text, 'utf8');
  if (o.from !== undefined) return readOptionInput(ctx.io, o.from, '--from');
  if (ctx.io.stdinIsTTY) {
    throw usage('no new text: give --text TEXT, --from FILE, or pipe it on standard input (--text "" deletes)');
  }
  return readOptionInput(ctx.io, '-', '--from');
}

/** Prints the current lines of every stale file as rows (or JSON records). */
function printStale(ctx: Context, e: StaleEditError, json: boolean): void {
  for (const f of e.files) {
    for (const m of f.mismatches) {
      if (json) {
        writeRecord(ctx.out, { type: 'stale', path: f.path, line_number: m.line, ...(m.current ? lineFields(m.current, 0, m.current.length) : { gone: true }) });
        continue;
      }
      if (m.current === undefined) continue;
      if (f.pathRows) ctx.out.text(`${f.path}\t`);
      ctx.out.text(`${m.line}\t`);
      ctx.out.bytes(m.current);
      if (terminatorOf(m.current) === '') ctx.out.leaveOpen();
    }
  }
}

/** A dry run's diff in a JSON record: `diff` as text, or `diff_bytes` (base64) when it is not UTF-8. */
function diffField(diff: Buffer): { diff: string } | { diff_bytes: string } {
  return isUtf8(diff) ? { diff: diff.toString('utf8') } : { diff_bytes: diff.toString('base64') };
}

function printJson(ctx: Context, result: ReplaceResult): void {
  for (const f of result.files) writeRecord(ctx.out, { ...fileChangeRecord(f), ...(f.diff ? diffField(f.diff) : {}) });
  writeRecord(ctx.out, {
    type: 'summary',
    files: result.files.length,
    changed: result.files.filter((f) => f.changed).length,
    written: result.files.filter((f) => f.written).length,
    dry_run: result.dryRun,
  });
}
