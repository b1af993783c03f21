// What every command is handed by the CLI: the process edges, buffered stdout, and the styles.

import { grouped, LinewiseError } from '../core/errors.js';
import { GuardLog, GUARD_MAX_ROWS, RowHasher } from '../core/row-guard.js';
import { GUARDS } from '../surface/options.js';
import type { Printing } from '../format/printing.js';
import type { Io } from '../io/streams.js';

/**
 * Printing on stdout and stderr: `warn` writes to stderr, and `failed` records a failure so that
 * a stdout closed later (`| head`) cannot end the run with 0.
 */
export interface Context extends Printing {
  io: Io;
  /** fires when the process is asked to stop (SIGINT, SIGTERM, SIGHUP, SIGQUIT), for commands that write */
  signal?: AbortSignal;
}

/** Options every reader takes. */
export interface ReaderOptions {
  json?: boolean;
  /** read files with NUL bytes as text */
  text?: boolean;
  /** `--encoding NAME`: decode files from NAME; rows are then UTF-8 */
  encoding?: string;
  /** `--anchor`: rows `<n>#<anchor>\t<line>`, which replace --rows checks against the line */
  anchor?: boolean;
  /** `--guard`: the rows' guard trailer, auto (stdout not a terminal), always or never */
  guard?: string;
}

/**
 * The hasher of the rows for their guard trailer (core/row-guard.ts), when the rows get one:
 * `--guard always` (or LINEWISE_GUARD=always when --guard is not given), or `auto` with stdout not a terminal (what a person reads is not fed back;
 * what a pipe or a file gets may be). Never with --json (records, not rows) or --anchor (anchored
 * rows guard themselves).
 */
export function rowGuard(ctx: Context, o: ReaderOptions, path: string): RowHasher | undefined {
  if (o.json || o.anchor) return undefined;
  const mode = o.guard ?? ctx.io.env.LINEWISE_GUARD ?? 'auto';
  if (!(GUARDS as readonly string[]).includes(mode)) throw new LinewiseError('usage', `LINEWISE_GUARD must be ${GUARDS.join(', ')}, not ${JSON.stringify(mode)}`);
  if (mode === 'never' || (mode === 'auto' && ctx.io.stdout.isTTY)) return undefined;
  return new RowHasher(new GuardLog(), path);
}

/** After the rows: the trailer, or a note that there were too many rows to guard. */
export function writeGuard(ctx: Context, guard: RowHasher | undefined): void {
  if (guard === undefined) return;
  if (guard.log.overflowed) ctx.warn(`more than ${grouped(GUARD_MAX_ROWS)} rows: printed without a guard trailer, so replace --rows would write them all back (read fewer, or use --anchor)`);
  else guard.writeTrailer(ctx.out);
}
