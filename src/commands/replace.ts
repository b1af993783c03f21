// `replace FILE START [END]`, `replace [FILE] --rows [ROWSFILE|-]`, `replace FILE --old/--edits/
// --create`: the new text, rows, edits and expected rows read from argv, files and standard input;
// the edit through the engine; the outcome printed (a diff, JSON records, a receipt, or the current
// lines of a stale edit).

import { Exit, type ExitCode, LinewiseError } from '../core/errors.js';
import { parseRowTable } from '../core/parse-rows.js';
import { parseCount } from '../core/ranges.js';
import { type EditRunOptions, replace as replaceRange, replaceParsedRows, type ReplaceResult } from '../engine/edit.js';
import type { EolMode } from '../core/eol.js';
import { anchorOf } from '../engine/results.js';
import { printEditOutcome, printEditRefusal } from '../format/edit-report.js';
import { contentMode, editsOrText, newTextInput, stdinUsers } from './replace-content.js';
import { readOptionInput } from '../io/option-input.js';
import { argumentBytes } from '../core/path-names.js';
import type { WriteFn } from '../io/temp-file.js';
import type { Context } from './context.js';

export interface ReplaceArgs {
  /** the new text, given on the command line */
  text?: string;
  /** a file holding the new text ("-": standard input) */
  from?: string;
  /** delete the range: empty new text, said explicitly (`--delete`) */
  delete?: boolean;
  /** rows to apply: a file, "-" or true (standard input) */
  rows?: string | boolean;
  /** rows as they were read: the stale-edit guard */
  expect?: string;
  /** rows carry paths ended by a NUL, as `grep -0` prints them (`-0/--null`) */
  null?: boolean;
  /** a content edit: the old text, or a file holding it ("-": standard input) */
  old?: string;
  oldFrom?: string;
  /** the content edit's new text, or a file holding it */
  new?: string;
  newFrom?: string;
  /** replace every occurrence of the old text */
  all?: boolean;
  /** JSON Lines of edits: a file, or "-" */
  edits?: string;
  /** write FILE as a new file; `force` replaces an existing one whole */
  create?: boolean;
  force?: boolean;
  /** after the write, print each edited region as it now is and how the numbering moved */
  receipt?: boolean;
  /** the receipt's rows, and the current lines of a stale edit, carry anchors (`--anchor`) */
  anchor?: boolean;
  /** with --expect: follow the lines read when they moved as one block */
  relocate?: boolean;
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

export async function replace(ctx: Context, file: string | undefined, startArg: string | undefined, endArg: string | undefined, o: ReplaceArgs, more: readonly string[] = []): Promise<ExitCode> {
  if (stdinUsers(o) > 1) throw usage('standard input can feed only one of --rows, --from, --expect, --old-from, --new-from and --edits');
  // Anchored rows carry the lines read as well as --expect does (by their hash).
  if (o.relocate && o.expect === undefined && (o.rows === undefined || o.rows === false)) {
    throw usage('--relocate follows the lines read: give --expect OLDROWS, or anchored --rows');
  }
  if (o.receipt && o.dryRun) throw usage('--receipt shows the lines after a write, and --dry-run writes nothing (its diff shows the change)');
  const options: EditRunOptions = {
    eol: o.eol,
    dryRun: o.dryRun,
    text: o.binary,
    encoding: o.encoding,
    ...(o.expect !== undefined ? { expectRows: parseRowTable(readOptionInput(ctx.io, o.expect, '--expect'), o.expect, { nul: o.null === true }) } : {}),
    expectSource: '--expect',
    staleShown: 'on stdout',
    reportEdits: o.json === true,
    receipt: o.receipt,
    relocate: o.relocate,
    cwd: ctx.io.cwd,
    stdin: ctx.io.stdin,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(o.writeFn ? { writeFn: o.writeFn } : {}),
  };
  let result: ReplaceResult;
  try {
    result = await run(ctx, file, startArg, endArg, o, options, more);
  } catch (e) {
    printEditRefusal(ctx.out, e, o.json === true, anchorOf, o.anchor === true);
    throw e;
  }
  printEditOutcome(ctx, result, { json: o.json === true, receipt: o.receipt === true, pathRows: pathRows(file, o), ...(o.anchor ? { anchor: anchorOf } : {}) });
  return Exit.ok;
}

/** Rows of a receipt carry paths when the edit's rows did (no FILE given). */
const pathRows = (file: string | undefined, o: ReplaceArgs) => file === undefined && o.rows !== undefined && o.rows !== false;

/** The edit the arguments ask for: rows, or a range and its new text. */
async function run(ctx: Context, file: string | undefined, startArg: string | undefined, endArg: string | undefined, o: ReplaceArgs, options: EditRunOptions, more: readonly string[]): Promise<ReplaceResult> {
  if (contentMode(o) !== undefined) {
    if (o.rows !== undefined && o.rows !== false) throw usage(`--rows and ${contentMode(o)} are two ways to edit: give one`);
    if (file === undefined) throw usage(`${contentMode(o)} needs FILE: linewise replace FILE ${contentMode(o)} ...`);
    // A content edit finds its own place: every argument after FILE is another file to edit.
    const files = [file, startArg, endArg, ...more].filter((f): f is string => f !== undefined);
    if (files.length > 1 && o.create) throw usage('--create takes no START or END: the text is the whole file');
    return editsOrText(ctx, files, o, options, () => newText(ctx, o));
  }
  if (more.length > 0) throw usage(`too many arguments: a range edit is FILE START [END]; to edit several files by content: linewise replace FILE... --old TEXT --new TEXT`);
  if (o.all || o.force || o.new !== undefined || o.newFrom !== undefined) {
    throw usage(o.all ? '--all goes with --old' : o.force ? '--force goes with --create' : '--new goes with --old');
  }
  if (o.rows !== undefined && o.rows !== false) {
    if (startArg !== undefined) throw usage('--rows takes no START or END: each row names its line');
    if (o.text !== undefined || o.from !== undefined || o.delete) throw usage('--rows brings its own text; --text, --from and --delete apply to a range');
    const source = o.rows === true ? '-' : o.rows;
    const rows = parseRowTable(readOptionInput(ctx.io, source, '--rows'), source === '-' ? '<stdin>' : source, { nul: o.null === true });
    if (rows.length === 0) ctx.warn('no rows to apply; nothing written');
    return replaceParsedRows(rows, { ...options, ...(file !== undefined ? { path: file } : {}) });
  }
  if (file === undefined || startArg === undefined) {
    throw usage('give FILE START [END] and the new text, or --rows (see linewise help replace)');
  }
  const start = parseCount(startArg, 'START', 1);
  const end = endArg === undefined ? start : parseCount(endArg, 'END');
  return replaceRange(file, { start, end, text: newText(ctx, o) }, options);
}

function usage(message: string): LinewiseError {
  return new LinewiseError('usage', message);
}

/**
 * The new text of a range edit: --text, --from, --delete, or standard input when it is not a
 * terminal. Deleting is always said: empty standard input is refused (see newTextInput), so a
 * forgotten --text cannot delete lines.
 */
function newText(ctx: Context, o: ReplaceArgs): Buffer {
  const given = [o.text !== undefined, o.from !== undefined, o.delete === true].filter(Boolean).length;
  if (given > 1) throw usage('give the new text once: --text, --from or --delete');
  if (o.delete) return Buffer.alloc(0);
  if (o.text !== undefined) return argumentBytes(o.text);
  // `--from -` may be typed on a terminal; with no option at all a terminal is not asked.
  if (o.from === undefined && ctx.io.stdinIsTTY) {
    throw usage('no new text: give --text TEXT, --from FILE, or pipe it on standard input (--delete deletes the lines)');
  }
  return newTextInput(ctx, o.from ?? '-', '--from', o.create ? "for an empty file, --text ''" : 'to delete the lines, --delete');
}
