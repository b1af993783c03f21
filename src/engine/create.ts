// New files (`replace FILE --create`): the text written as given (or with --eol forced endings),
// atomically, never over an existing file unless asked to replace it whole.

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EolMode } from '../core/eol.js';
import { EOL_MODES } from '../core/eol.js';
import { LinewiseError } from '../core/errors.js';
import { EditResults } from '../core/edit-results.js';
import { lineCount, splitLines } from '../core/lines.js';
import { fsPath } from '../core/path-names.js';
import type { PatchResult } from '../core/patcher.js';
import { checkpoint } from '../io/checkpoint.js';
import { commitAll } from '../io/commit.js';
import type { Confinement } from '../io/confine.js';
import { pinTarget, resolveTarget, unpinTarget } from '../io/edit-target.js';
import { realPath } from '../io/real-path.js';
import { codecFor } from '../io/encodings/decoding.js';
import { existsError, taken, writeNewFileIn } from '../io/new-file.js';
import { TempFile, type WriteFn } from '../io/temp-file.js';
import type { FileReceipt, ReplaceResult } from './apply.js';
import { receiptRegions, regionOf, RowAllowance } from './receipt-rows.js';
import { loadEncoding } from './encodings.js';
import * as v from './validate.js';

/** How {@link createFile} writes. */
export interface CreateOptions {
  /** `lf` or `crlf` end every line so; `auto` and `keep` (default) write the text as given */
  eol?: EolMode;
  /** replace an existing file whole (its mode, owner and symbolic link kept) instead of refusing it */
  force?: boolean;
  /** write nothing; the result's `diff` shows the new file */
  dryRun?: boolean;
  /** encode the text into this encoding (no byte order mark) */
  encoding?: string;
  /** the directory a relative path starts from; default the process's working directory */
  cwd?: string;
  /**
   * Confine the write to some directories (a server's roots): the file's directory is opened,
   * checked, and the file written and named through it (as an edit's is), so a symbolic link
   * swapped in after the path was checked cannot lead the write elsewhere. Default: none.
   */
  confine?: Confinement;
  signal?: AbortSignal;
  /** after the write, the file's `receipt`: its lines (all new) as rows, ready for the next edit */
  receipt?: boolean;
  /**
   * With `receipt`: the most bytes of rows it makes, a row counted as its number, a tab and its
   * bytes; past it no row is made (its `spans` still say how many lines). Default: no bound.
   */
  receiptBytes?: number;
  /** for tests: how the file is written */
  writeFn?: WriteFn;
}

/**
 * Creates the file at `path` holding `text`, as `linewise replace FILE --create` does: written to
 * a temporary file beside it, flushed, then linked to its name, so a reader sees no file or the
 * whole file. The mode comes from the umask. A missing parent directory is an error (exit 2).
 *
 * @throws {@link LinewiseError} with exit code 3 (`exists`) when the file exists and `force` is
 * not given, or appears while it is written; exit code 2 for a missing directory or text the
 * encoding cannot represent. Nothing is written in these cases.
 *
 * @example
 * ```ts
 * await createFile('notes/todo.txt', 'first\nsecond\n', { eol: 'crlf' });
 * ```
 */
export async function createFile(path_: string, text: string | Uint8Array, options: CreateOptions = {}): Promise<ReplaceResult> {
  const o = v.options<CreateOptions>(options, 'options');
  const given = v.string(path_, 'path');
  const eol = o.eol === undefined ? 'keep' : v.oneOf(o.eol, 'eol', EOL_MODES);
  const dryRun = v.optionalBoolean(o.dryRun, 'dryRun') === true;
  const encoding = v.optionalString(o.encoding, 'encoding');
  const receiptBytes = v.optionalCount(o.receiptBytes, 'receiptBytes');
  if (encoding !== undefined) await loadEncoding(encoding);
  if (given === '-') throw new LinewiseError('stdin-target', 'standard input cannot be created; name a file', '-');
  const real = path.resolve(v.optionalString(o.cwd, 'cwd') ?? '.', given);
  const utf8 = withEndings(v.textBytes(text, 'text'), eol);
  const bytes = encoding === undefined ? utf8 : codecFor(encoding).encode(utf8);
  const exists = taken(real);
  const confine = o.confine;
  // Run again on its own result (the file holds exactly these bytes): nothing to write, not an error.
  if (exists && holds(real, bytes, confine)) {
    const lines = lineCount(utf8);
    return { dryRun, files: [{ path: given, changed: false, written: false, created: false, alreadyApplied: true, linesBefore: lines, linesAfter: lines, edits: [] }] };
  }
  if (exists && v.optionalBoolean(o.force, 'force') !== true) throw existsError(given);
  const target = exists ? resolveTarget(given, v.optionalString(o.cwd, 'cwd') ?? '.') : undefined;
  if (target !== undefined && confine !== undefined) pinTarget(target, confine);
  const receipt = v.optionalBoolean(o.receipt, 'receipt') === true && !dryRun ? new RowAllowance(receiptBytes) : undefined;
  try {
    // the old lines: a dry run's diff shows them, a receipt counts them
    const old = target && (dryRun || receipt) ? fs.readFileSync(fsPath(target.dir ? target.dir.join(path.basename(target.real)) : target.real)) : undefined;
    const signal = v.optionalSignal(o.signal);
    if (!dryRun) {
      await checkpoint(signal);
      if (target === undefined) writeNewFileIn(real, given, bytes, confine, o.writeFn);
      else {
        const temp = TempFile.create(target, o.writeFn);
        try {
          temp.write(bytes);
          temp.seal();
          await commitAll([temp], signal);
        } catch (e) {
          temp.discard();
          throw e;
        }
      }
    }
    return await created(given, exists, old, utf8, dryRun, receipt);
  } finally {
    if (target !== undefined) unpinTarget(target);
  }
}

/** The result of a create: the old file's lines replaced by the new text's (a dry run's diff with it). */
async function created(given: string, exists: boolean, old: Buffer | undefined, utf8: Buffer, dryRun: boolean, receipt: RowAllowance | undefined): Promise<ReplaceResult> {
  const oldLines = old === undefined ? [] : splitLines(old);
  const linesBefore = exists ? oldLines.length : 0;
  const linesAfter = lineCount(utf8);
  const edit = { start: 1, end: linesBefore, lines: [], origin: 'create' };
  const edits = new EditResults([edit], true);
  edits.push(linesBefore, linesAfter, utf8, true);
  const result: PatchResult = { linesBefore, linesAfter, changed: true, edits, mismatches: [], undecoded: [], intoAscii: [],
      guesses: [], kept: new Map(oldLines.map((l, i) => [i + 1, l])) };
  const diff = dryRun ? (await import('./diff.js')).unifiedDiff(given, result) : undefined;
  return {
    dryRun,
    files: [
      {
        path: given,
        changed: true,
        written: !dryRun,
        created: !exists,
        linesBefore: result.linesBefore,
        linesAfter: result.linesAfter,
        edits: [{ start: 1, end: edit.end, removed: result.linesBefore, added: result.linesAfter, changed: true }],
        ...(diff ? { diff } : {}),
        ...(receipt ? { receipt: createdReceipt(given, utf8, linesBefore, linesAfter, receipt) } : {}),
      },
    ],
  };
}

/** The receipt of a file written whole: every line is the edit's, and no line after it moved. */
function createdReceipt(path_: string, text: Buffer, linesBefore: number, linesAfter: number, allow: RowAllowance): FileReceipt {
  const made = text.length > 0 ? [regionOf(path_, 1, text, allow)] : [];
  return { ...receiptRegions(made), edits: [{ start: 1, end: linesBefore, newStart: 1, newEnd: linesAfter }], shifts: [] };
}

/** The text with its line endings forced by `lf` or `crlf`; as given under `keep` and `auto`. */
function withEndings(text: Buffer, eol: EolMode): Buffer {
  if (eol === 'lf') return Buffer.from(text.toString('latin1').replaceAll('\r\n', '\n'), 'latin1');
  if (eol === 'crlf') return Buffer.from(text.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1');
  return text;
}

/**
 * The regular file at `real` holds exactly `bytes` (a file of another size is not read; one
 * outside `confine`, not compared).
 */
function holds(real: string, bytes: Uint8Array, confine: Confinement | undefined): boolean {
  try {
    const st = fs.statSync(fsPath(real));
    if (!st.isFile() || st.size !== bytes.length) return false;
    if (confine !== undefined && !confine.allows(realPath(real))) return false;
    return fs.readFileSync(fsPath(real)).equals(bytes);
  } catch {
    return false;
  }
}

