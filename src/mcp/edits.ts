// The writers: replace_lines, replace_rows, replace_text, apply_edits (the forms of `replace
// --edits` in one call) and create_file (`replace --create`): the engine's edits with the rows as
// read as their guard, every path of the rows checked against the roots, one file's writes one
// after the other, and the outcome printed as the CLI prints it with --receipt (or the diff of a
// dry run; a created file: its summary).

import type { EolMode } from '../core/eol.js';
import { LinewiseError } from '../core/errors.js';
import { type Row, parseRows } from '../core/parse-rows.js';
import { createFile } from '../engine/create.js';
import { applyEdits, type EditRunOptions, type RangeEdit, replace, replaceParsedRows, type ReplaceResult, replaceText, type TextEdit } from '../engine/edit.js';
import { anchorOf } from '../engine/results.js';
import { printEditOutcome, printEditRefusal } from '../format/edit-report.js';
import { endCutReceipts, receiptBudget } from './bounds.js';
import type { FileLocks } from './locks.js';
import type { ToolOutput } from './result.js';
import type { Roots } from './roots.js';

/** The writers' arguments, checked, by the library's names (surface/tools.ts). */
export interface EditArgs {
  path?: string;
  start?: number;
  end?: number;
  text?: string;
  rows?: string;
  old?: string;
  new?: string;
  all?: boolean;
  /** apply_edits: `{start, end?, text}` or `{old, new, all?}` */
  editList?: unknown[];
  expect?: string;
  relocate?: boolean;
  force?: boolean;
  eol?: EolMode;
  encoding?: string;
  dryRun?: boolean;
}

export type EditTool = 'replace_lines' | 'replace_rows' | 'replace_text' | 'apply_edits' | 'create_file';

/** apply_edits' edits, each a range edit or a content edit; the engine checks their values. */
function editsOf(list: readonly unknown[]): (RangeEdit | TextEdit)[] {
  if (list.length === 0) throw new LinewiseError('bad-edit', 'edits is empty: give at least one edit, {"start":S,"end":E,"text":T} or {"old":O,"new":N}');
  return list.map((e, i) => {
    if (e === null || typeof e !== 'object' || Array.isArray(e)) throw new LinewiseError('bad-edit', `edits[${i}] must be an object: {"start":S,"end":E,"text":T} or {"old":O,"new":N}`);
    const o = e as Record<string, unknown>;
    const keys = Object.keys(o);
    const content = keys.includes('old');
    const allowed = content ? ['old', 'new', 'all'] : ['start', 'end', 'text'];
    const extra = keys.filter((k) => !allowed.includes(k));
    if (extra.length > 0) throw new LinewiseError('bad-edit', `edits[${i}] has ${extra.join(', ')}: a ${content ? 'content edit takes old, new, all' : 'range edit takes start, end, text'}`);
    if (content) {
      if (typeof o.new !== 'string') throw new LinewiseError('bad-edit', `edits[${i}] needs "new", the text that replaces old ("" deletes it)`);
      return o as unknown as TextEdit;
    }
    if (typeof o.text !== 'string') throw new LinewiseError('bad-edit', `edits[${i}] needs "text", the new lines ("" deletes)`);
    // numbers sent as strings, as everywhere in the tools
    const n = (v: unknown) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v);
    return { start: n(o.start), ...(o.end !== undefined ? { end: n(o.end) } : {}), text: o.text } as RangeEdit;
  });
}

/** Every path a set of rows names, in each of its readings. */
const rowPaths = (rows: readonly Row[]) => rows.flatMap((r) => [r.path, ...(r.alts ?? []).map((a) => a.path)]).filter((p) => p !== undefined);

/**
 * Runs one edit tool; `path` (when given) is checked already, the rows' paths here (then
 * `checked` is awaited), and the engine checks each file again as opened and as renamed.
 */
export async function editTool(tool: EditTool, out: ToolOutput, a: EditArgs, roots: Roots, locks: FileLocks, signal: AbortSignal | undefined, checked: () => Promise<void>): Promise<void> {
  const expectRows = a.expect === undefined ? undefined : parseRows(Buffer.from(a.expect, 'utf8'), 'expect');
  const rows = a.rows === undefined ? [] : parseRows(Buffer.from(a.rows, 'utf8'), 'rows');
  // as the CLI: relocating follows the lines read, which only expect or anchored rows carry
  if (a.relocate && expectRows === undefined && !rows.some((r) => r.anchor !== undefined)) {
    throw new LinewiseError('usage', 'relocate follows the lines read: give expect (the rows as read), or anchored rows');
  }
  // Rows naming files: each checked as a path of the call, before anything is read.
  for (const p of rowPaths(rows)) roots.check(p, 'a row\'s path');
  for (const p of rowPaths(expectRows ?? [])) roots.check(p, 'a row\'s path in expect');
  await checked();
  // the answer's rows are bounded, and the engine makes no more rows than fit in it
  const budget = receiptBudget();
  const options: EditRunOptions = {
    eol: a.eol ?? 'auto',
    dryRun: a.dryRun === true,
    receipt: a.dryRun !== true && tool !== 'create_file',
    receiptBytes: budget.left,
    relocate: a.relocate === true,
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
      if (tool === 'apply_edits') return applyEdits(a.path!, editsOf(a.editList ?? []), options);
      if (tool === 'create_file') {
        const { eol, dryRun, encoding, cwd, signal: s } = options;
        return createFile(a.path!, a.text!, { eol, dryRun, force: a.force === true, ...(encoding !== undefined ? { encoding } : {}), cwd, confine: roots, ...(s ? { signal: s } : {}) });
      }
      return replace(a.path!, { start: a.start!, end: a.end ?? a.start!, text: a.text! }, options);
    });
  } catch (e) {
    printEditRefusal(out.text.out, e, false, anchorOf);
    printEditRefusal(out.json.out, e, true, anchorOf);
    throw e;
  }
  const pathRows = a.path === undefined && rows.length > 0;
  // a created file has no regions to show: one line says what was written
  if (tool === 'create_file') for (const f of result.files.filter((x) => x.written)) out.text.out.text(`${f.created ? 'created' : 'replaced whole'}: ${f.path} (${f.linesAfter} ${f.linesAfter === 1 ? 'line' : 'lines'})\n`);
  printEditOutcome(out.text, result, { json: false, receipt: options.receipt === true, pathRows, budget });
  endCutReceipts(out, budget, result.files.filter((f) => f.receipt !== undefined).length);
  printEditOutcome(out.json, result, { json: true, receipt: options.receipt === true, pathRows, regionsOnly: true });
}
