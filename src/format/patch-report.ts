// What `linewise patch` prints: notes for hunks that were not applied plainly (an offset, whitespace
// ignored, already there), a dry run's diff, receipts, the --json records, and one line per hunk
// that does not apply; pure functions of the engine's results.

import { isUtf8 } from 'node:buffer';
import type { HunkFailure, HunkResult, PatchResult } from '../engine/patch.js';
import type { Output } from '../io/output.js';
import { writeRecord } from './json.js';
import type { Words } from '../surface/words.js';
import type { Printing } from './printing.js';
import { type ReceiptBudget, writeReceipt } from './receipt.js';

/** How a hunk went, in a few words, or undefined when it applied where it said, exactly. */
export function hunkNote(h: HunkResult): string | undefined {
  const where = h.offset === 0 ? '' : ` at line ${h.status === 'already' ? h.newStart : h.oldStart} (offset ${h.offset > 0 ? '+' : ''}${h.offset} ${Math.abs(h.offset) === 1 ? 'line' : 'lines'})`;
  const ws = h.whitespace ? ', whitespace ignored' : '';
  if (h.status === 'already') return `hunk ${h.header} already applied${where}${ws}: skipped`;
  if (where === '' && ws === '') return undefined;
  return `hunk ${h.header} applied${where}${ws}`;
}

/** Why a hunk does not apply, with the option that lets a hunk without context go by its line numbers, in `words`' names. */
function whyIn(f: HunkFailure, words: Words): string {
  return f.contextFree ? `${f.why} (${words.set('unidiffZero')})` : f.why;
}

/** One line for a hunk that does not apply: which, why, and where its lines nearly are. */
export function failureMessage(f: HunkFailure, words: Words): string {
  let s = `hunk ${f.header} (patch line ${f.patchLine}) does not apply: ${whyIn(f, words)}`;
  if (f.near) {
    s += `; nearest: line ${f.near.line}, where ${f.near.matching} of its ${f.near.of} old lines match`;
    if (f.near.differs) s += ` (line ${f.near.differs.line} is ${JSON.stringify(clip(f.near.differs.file))}, the hunk expects ${JSON.stringify(clip(f.near.differs.hunk))})`;
  }
  return s;
}

const clip = (s: string) => (s.length > 60 ? `${s.slice(0, 60)}...` : s);

/** The outcome of an applied (or checked) patch. */
export function printPatchOutcome(p: Printing, result: PatchResult, o: { json: boolean; receipt: boolean; budget?: ReceiptBudget }): void {
  if (o.json) {
    printPatchRecords(p.out, result);
    return;
  }
  if (result.files.length > 1 && result.files.every((f) => f.status === 'already')) {
    p.warn(`already applied: every hunk of the ${result.files.length} files is in place; nothing to write`);
    return;
  }
  for (const f of result.files) {
    const name = f.from !== undefined ? `${f.from} -> ${f.path}` : f.path;
    if (f.status === 'already') {
      p.warn(`already applied (${describe(f.action)}): nothing to write`, name);
      continue;
    }
    for (const h of f.hunks) {
      const note = hunkNote(h);
      if (note !== undefined) p.warn(note, f.path);
    }
  }
  if (result.dryRun) for (const f of result.files) if (f.diff) p.out.bytes(f.diff);
  if (o.receipt) {
    for (const f of result.files) if (f.receipt) writeReceipt(p.out, { ...f.receipt, path: f.path, pathRows: false }, p.rowStyle, p.noteStyle, undefined, o.budget);
  }
}

function describe(action: string): string {
  return action === 'modify' ? 'every hunk is in place' : action === 'create' ? 'the file exists with this content' : action === 'delete' ? 'the file is gone' : `the ${action} is done`;
}

/** `--json`: a record per hunk, one per file, then a summary. */
export function printPatchRecords(out: Output, result: PatchResult): void {
  for (const f of result.files) {
    for (const h of f.hunks) {
      writeRecord(out, {
        type: 'hunk',
        path: f.path,
        header: h.header,
        patch_line: h.patchLine,
        status: h.status,
        offset: h.offset,
        whitespace: h.whitespace,
        old_start: h.oldStart,
        old_lines: h.oldLines,
        new_start: h.newStart,
        new_lines: h.newLines,
      });
    }
    writeRecord(out, {
      type: 'file',
      path: f.path,
      ...(f.from !== undefined ? { from: f.from } : {}),
      action: f.action,
      status: f.status,
      changed: f.changed,
      written: f.written,
      lines_before: f.linesBefore,
      lines_after: f.linesAfter,
      // a dry run's diff: text, or base64 `diff_bytes` when it is not UTF-8 (as replace's records)
      ...(f.diff ? (isUtf8(f.diff) ? { diff: f.diff.toString('utf8') } : { diff_bytes: f.diff.toString('base64') }) : {}),
    });
  }
  writeRecord(out, {
    type: 'summary',
    format: result.format,
    files: result.files.length,
    changed: result.files.filter((f) => f.changed).length,
    written: result.files.filter((f) => f.written).length,
    already: result.files.filter((f) => f.status === 'already').length,
    dry_run: result.dryRun,
    check: result.check,
  });
}

/** Each hunk that does not apply: a message line (stderr), or a JSON record; options named as `words` name them. */
export function printPatchFailures(p: Printing, failures: readonly HunkFailure[], json: boolean, words: Words): void {
  for (const f of failures) {
    if (json) writeRecord(p.out, { type: 'failed', path: f.path, header: f.header, patch_line: f.patchLine, why: whyIn(f, words), ...(f.near ? { near: f.near } : {}), ...(f.contextFree ? { context_free: true } : {}) });
    else p.warn(failureMessage(f, words), f.path);
  }
}
