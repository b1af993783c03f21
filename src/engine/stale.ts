// The stale-edit guard's verdict: which expected lines no longer hold the text read, as an error
// that carries the current lines (the CLI prints them as rows; the library hands them back).

import { Exit, grouped, LinewiseError } from '../core/errors.js';
import { quotePath } from '../core/path-names.js';
import type { Mismatch } from '../core/patcher.js';
import { type Line, toLine } from './results.js';

/** A file whose expected lines changed: its name as given, and the mismatches. */
export interface StaleFile {
  path: string;
  /** the caller's rows carried paths (the current lines are then shown with them) */
  pathRows: boolean;
  /** the caller's rows carried anchors (the current lines are then shown, and handed back, anchored) */
  anchored?: boolean;
  /** the caller's rows carried a reader's guard trailer (the current lines are then shown with one) */
  guarded?: boolean;
  mismatches: readonly Mismatch[];
}

/**
 * Thrown by the stale-edit guard: lines given in `expect` no longer hold the text read. Nothing
 * was written. `current` holds those lines as they are now (what the CLI prints on stdout);
 * `gone` the expected lines the file no longer has. `exitCode` is 3. Both are made from `files`
 * when first read: a stale batch of a million rows that the CLI prints from `files` never makes
 * a million Line objects.
 */
export class StaleEditError extends LinewiseError {
  private lines: { current: Line[]; gone: { path: string; line: number }[] } | undefined;

  constructor(
    message: string,
    path: string | undefined,
    current: Line[] | undefined,
    gone: { path: string; line: number }[] | undefined,
    /** the files, for printing the current lines as rows */
    readonly files: readonly StaleFile[] = [],
  ) {
    super('stale', message, path, Exit.stale);
    this.name = 'StaleEditError';
    if (current !== undefined && gone !== undefined) this.lines = { current, gone };
  }

  get current(): Line[] {
    return this.made().current;
  }

  get gone(): { path: string; line: number }[] {
    return this.made().gone;
  }

  private made(): { current: Line[]; gone: { path: string; line: number }[] } {
    if (this.lines === undefined) {
      const current: Line[] = [];
      const gone: { path: string; line: number }[] = [];
      for (const f of this.files) {
        for (const m of f.mismatches) {
          if (m.current === undefined) gone.push({ path: f.path, line: m.line });
          else current.push(toLine(f.path, m.line, m.current, 0, m.current.length, f.anchored === true));
        }
      }
      this.lines = { current, gone };
    }
    return this.lines;
  }
}

/** Line numbers a message names: the first few, then how many more (a batch may hold millions). */
const SHOWN_LINES = 10;

function lineList(lines: readonly number[]): string {
  if (lines.length <= SHOWN_LINES) return lines.join(', ');
  return `${lines.slice(0, SHOWN_LINES).join(', ')} and ${grouped(lines.length - SHOWN_LINES)} more`;
}

/**
 * The exit-3 error for stale files: which lines no longer hold the text read, and (`shown`) where
 * the current ones are: "on stdout" for the CLI, "in the error's `current`" for the library.
 */
export function staleEditError(stale: readonly StaleFile[], shown = "in the error's `current`"): StaleEditError {
  const first = stale[0]!.mismatches;
  const nums = first.map((m) => m.line);
  const gonePast = first.filter((m) => m.current === undefined).map((m) => m.line);
  const detail =
    stale.length === 1
      ? `${nums.length === 1 ? 'line' : 'lines'} ${lineList(nums)} no longer ${nums.length === 1 ? 'holds' : 'hold'} the text read` +
        (gonePast.length ? ` (past the end now: ${lineList(gonePast)})` : '')
      : `lines changed since they were read in ${stale.length > SHOWN_LINES ? `${stale.slice(0, SHOWN_LINES).map((f) => quotePath(f.path)).join(', ')} and ${stale.length - SHOWN_LINES} more files` : stale.map((f) => quotePath(f.path)).join(', ')}`;
  const message = `stale edit: ${detail}; nothing was written; the current lines are ${shown}: read again and retry`;
  return new StaleEditError(message, stale.length === 1 ? stale[0]!.path : undefined, undefined, undefined, stale);
}
