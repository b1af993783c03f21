// replace_lines, replace_rows and replace_text: the engine's edits with the rows as read as their
// guard, every path of the rows checked against the roots, one file's writes one after the other,
// and the outcome printed as the CLI prints it with --receipt (or the diff of a dry run).

import type { EolMode } from '../core/eol.js';
import { type Row, parseRows } from '../core/parse-rows.js';
import { type EditRunOptions, replace, replaceParsedRows, type ReplaceResult, replaceText } from '../engine/edit.js';
import { anchorOf } from '../engine/results.js';
import { printEditOutcome, printEditRefusal } from '../format/edit-report.js';
import type { FileLocks } from './locks.js';
import type { ToolOutput } from './result.js';
import type { Roots } from './roots.js';

export interface EditArgs {
  path?: string;
  start?: number;
  end?: number;
  text?: string;
  rows?: string;
  old?: string;
  new?: string;
  all?: boolean;
  expect?: string;
  eol?: EolMode;
  encoding?: string;
  dry_run?: boolean;
}

/** Every path a set of rows names, in each of its readings. */
const rowPaths = (rows: readonly Row[]) => rows.flatMap((r) => [r.path, ...(r.alts ?? []).map((a) => a.path)]).filter((p) => p !== undefined);

/**
 * Runs one edit tool; `path` (when given) is checked already, the rows' paths here (then
 * `checked` is awaited), and the engine checks each file again as opened and as renamed.
 */
export async function editTool(tool: 'replace_lines' | 'replace_rows' | 'replace_text', out: ToolOutput, a: EditArgs, roots: Roots, locks: FileLocks, signal: AbortSignal | undefined, checked: () => Promise<void>): Promise<void> {
  const expectRows = a.expect === undefined ? undefined : parseRows(Buffer.from(a.expect, 'utf8'), 'expect');
  const rows = a.rows === undefined ? [] : parseRows(Buffer.from(a.rows, 'utf8'), 'rows');
  // Rows naming files: each checked as a path of the call, before anything is read.
  for (const p of rowPaths(rows)) roots.check(p, 'a row\'s path');
  for (const p of rowPaths(expectRows ?? [])) roots.check(p, 'a row\'s path in expect');
  await checked();
  const options: EditRunOptions = {
    eol: a.eol ?? 'auto',
    dryRun: a.dry_run === true,
    receipt: a.dry_run !== true,
    encoding: a.encoding,
    ...(expectRows !== undefined ? { expectRows } : {}),
    expectSource: 'expect',
    staleShown: 'shown below',
    encodingAdvice: 'pass it as the encoding argument, for example encoding: "latin1"',
    cwd: roots.cwd,
    confine: roots,
    ...(signal ? { signal } : {}),
  };
  const files = a.path !== undefined ? [a.path] : [...new Set(rowPaths(rows))];
  if (tool === 'replace_rows' && rows.length === 0) out.note('no rows to apply; nothing written');
  let result: ReplaceResult;
  try {
    result = await locks.with(files, roots.cwd, () => {
      if (tool === 'replace_rows') return replaceParsedRows(rows, { ...options, ...(a.path !== undefined ? { path: a.path } : {}) });
      if (tool === 'replace_text') return replaceText(a.path!, { old: a.old!, new: a.new!, all: a.all === true }, options);
      return replace(a.path!, { start: a.start!, end: a.end ?? a.start!, text: a.text! }, options);
    });
  } catch (e) {
    printEditRefusal(out.text.out, e, false, anchorOf);
    printEditRefusal(out.json.out, e, true, anchorOf);
    throw e;
  }
  const pathRows = a.path === undefined && rows.length > 0;
  printEditOutcome(out.text, result, { json: false, receipt: options.receipt === true, pathRows });
  printEditOutcome(out.json, result, { json: true, receipt: options.receipt === true, pathRows });
}
