// `linewise patch [PATCH|-]`: the patch read from a file or standard input, applied through the
// engine; notes for hunks placed at an offset, with whitespace ignored or already there; a dry
// run's diff, receipts or JSON records; one line per hunk that does not apply.

import { Exit, type ExitCode, LinewiseError } from '../core/errors.js';
import { applyPatch, PatchFailedError } from '../engine/patch.js';
import { printPatchFailures, printPatchOutcome } from '../format/patch-report.js';
import { readOptionInput } from '../io/option-input.js';
import { cliWords } from '../surface/words.js';
import type { Context } from './context.js';

/** The most a patch may hold: it is read whole (each file it changes is then read one at a time). */
export const PATCH_INPUT_MAX = 256 << 20;

export interface PatchArgs {
  directory?: string;
  strip?: number;
  reverse?: boolean;
  check?: boolean;
  dryRun?: boolean;
  receipt?: boolean;
  json?: boolean;
  ignoreWhitespace?: boolean;
  unidiffZero?: boolean;
  encoding?: string;
}

export async function patch(ctx: Context, file: string | undefined, o: PatchArgs): Promise<ExitCode> {
  const source = file ?? '-';
  if (source === '-' && ctx.io.stdinIsTTY) throw new LinewiseError('usage', 'no patch: name a patch file, or pipe one in (linewise patch fix.patch, git diff | linewise patch)');
  const text = readOptionInput(ctx.io, source, 'PATCH', PATCH_INPUT_MAX);
  try {
    const result = await applyPatch(text, {
      cwd: ctx.io.cwd,
      ...(o.directory !== undefined ? { directory: o.directory } : {}),
      ...(o.strip !== undefined ? { strip: o.strip } : {}),
      reverse: o.reverse === true,
      check: o.check === true,
      dryRun: o.dryRun === true,
      receipt: o.receipt === true,
      ignoreWhitespace: o.ignoreWhitespace === true,
      unidiffZero: o.unidiffZero === true,
      ...(o.encoding !== undefined ? { encoding: o.encoding } : {}),
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    printPatchOutcome(ctx, result, { json: o.json === true, receipt: o.receipt === true });
  } catch (e) {
    if (e instanceof PatchFailedError) printPatchFailures(ctx, e.failures, o.json === true, cliWords('patch'));
    throw e;
  }
  return Exit.ok;
}
