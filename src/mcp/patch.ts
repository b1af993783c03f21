// apply_patch: `linewise patch` for an MCP client: the patch text as an argument, applied under the
// first root with every path also confined to the roots, printed as the CLI prints it (notes for
// hunks at an offset or already there, the diff of a dry run) and one line per hunk that fails.

import { applyPatch, PatchFailedError } from '../engine/patch.js';
import { printPatchFailures, printPatchOutcome } from '../format/patch-report.js';
import { endCutReceipts, receiptBudget } from './bounds.js';
import { mcpWords } from '../surface/words.js';
import type { ToolOutput } from './result.js';
import type { Roots } from './roots.js';

/** apply_patch's arguments, checked, by the library's names (surface/tools.ts). */
export interface PatchToolArgs {
  patchText: string;
  strip?: number;
  reverse?: boolean;
  check?: boolean;
  ignoreWhitespace?: boolean;
  unidiffZero?: boolean;
  dryRun?: boolean;
}

export async function patchTool(out: ToolOutput, a: PatchToolArgs, roots: Roots, signal: AbortSignal | undefined): Promise<void> {
  // the answer's rows are bounded, and the engine makes no more rows than fit in it
  const budget = receiptBudget();
  try {
    const result = await applyPatch(a.patchText, {
      directory: roots.cwd,
      confine: roots,
      ...(a.strip !== undefined ? { strip: a.strip } : {}),
      reverse: a.reverse === true,
      check: a.check === true,
      dryRun: a.dryRun === true,
      // the edited regions as they now are, as every writer of the server answers
      receipt: a.dryRun !== true && a.check !== true,
      receiptBytes: budget.left,
      ignoreWhitespace: a.ignoreWhitespace === true,
      unidiffZero: a.unidiffZero === true,
      ...(signal ? { signal } : {}),
    });
    printPatchOutcome(out.text, result, { json: false, receipt: result.files.some((f) => f.receipt !== undefined), budget });
    endCutReceipts(out, budget, result.files.filter((f) => f.receipt !== undefined).length);
    printPatchOutcome(out.json, result, { json: true, receipt: false });
  } catch (e) {
    if (e instanceof PatchFailedError) {
      const words = mcpWords('patch', 'apply_patch');
      printPatchFailures(out.text, e.failures, false, words);
      printPatchFailures(out.json, e.failures, true, words);
    }
    throw e;
  }
}
