// Turns the end of a run into an exit status: a user error is one line on stderr, a closed stdout
// ends quietly (never hiding a failure), an interruption is the signal's, and a bug says so
// without a stack trace.

import { CommanderError } from 'commander';
import { Exit, type ExitCode, LinewiseError } from '../core/errors.js';
import { Interrupted } from '../io/checkpoint.js';
import { foreignOptionReason } from './foreign-options.js';
import type { Output } from '../io/output.js';
import { type Io, OutputClosed } from '../io/streams.js';

/** Writes `linewise: <path>: <message>` on stderr. */
export type ErrorLine = (message: string, path?: string) => void;

/**
 * The exit status for an error that ended a run, after printing what was found before it.
 * `usageError` is commander's own wording of a usage error, when it printed one. `reached` is
 * the status the run had already earned (a grep that reported a failed file: 2) when the reader
 * of stdout went away: a closed stdout ends a read quietly, but never turns a refusal, a
 * conflict or an error into 0 (a caller piping into `head` must still see the edit refused).
 */
export function exitStatus(
  e: unknown,
  out: Output,
  io: Io,
  errLine: ErrorLine,
  usageError: string | undefined,
  reached: ExitCode = Exit.ok,
  argv: readonly string[] = [],
  json = false,
): ExitCode {
  const status = failureStatus(e, out, io, errLine, usageError, reached, argv);
  // Under --json a failure is also a record on stdout, after what was found before it, so a
  // harness that parses the records sees why the run ended; the status is the same.
  if (json && status !== Exit.ok && !(e instanceof OutputClosed) && !(e instanceof Interrupted && e.reason !== undefined)) {
    try {
      out.text(`${JSON.stringify(errorRecord(e, status, usageError, argv))}\n`);
      out.flush();
    } catch (closed) {
      if (!(closed instanceof OutputClosed)) throw closed;
    }
  }
  return status;
}

/** The `--json` record of the failure that ended a run. */
export function errorRecord(e: unknown, status: ExitCode, usageError: string | undefined, argv: readonly string[]): Record<string, unknown> {
  if (e instanceof LinewiseError) return { type: 'error', code: e.code, message: e.message, path: e.path ?? null, status };
  if (e instanceof CommanderError) return { type: 'error', code: 'usage', message: usageMessage(usageError ?? e.message, argv), path: null, status };
  return { type: 'error', code: 'internal', message: `internal error: ${(e as Error)?.message ?? String(e)}`, path: null, status };
}

function failureStatus(
  e: unknown,
  out: Output,
  io: Io,
  errLine: ErrorLine,
  usageError: string | undefined,
  reached: ExitCode,
  argv: readonly string[],
): ExitCode {
  try {
    out.flush(); // results found before an error are still printed
  } catch (closed) {
    if (!(closed instanceof OutputClosed)) throw closed;
    // the rows are lost with the reader; the error below is still said on stderr
  }
  if (e instanceof OutputClosed) return reached;
  // The process ends by the signal itself (cli/signals.ts); nothing to add on stderr.
  if (e instanceof Interrupted && e.reason !== undefined) return Exit.usage;
  if (e instanceof CommanderError) {
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return Exit.ok;
    errLine(usageMessage(usageError ?? e.message, argv));
    return Exit.usage;
  }
  if (e instanceof LinewiseError) {
    errLine(e.message, e.path);
    return e.exitCode;
  }
  // A bug, not a user error: say so in one line, with the detail behind an environment variable.
  const err = e as Error;
  errLine(`internal error: ${err?.message ?? String(e)} (please report it; LINEWISE_DEBUG=1 shows the stack)`);
  if (io.env.LINEWISE_DEBUG) io.stderr.write(Buffer.from(`${err?.stack ?? ''}\n`));
  return Exit.usage;
}

/**
 * Commander's wording as one line, with a hint where one helps: a negative number taken for an
 * option, a suggestion ("Did you mean ...?") kept on the same line, and `page FILE 2` told that
 * page takes an offset, not a line number.
 */
export function usageMessage(message: string, argv: readonly string[] = []): string {
  const negative = /unknown option '(-\d+)'/.exec(message);
  if (negative) return `line numbers and counts are never negative: ${negative[1]}`;
  const unknown = /^(?:error: )?unknown option '([^']+)'/.exec(message.trim());
  const reason = unknown ? foreignOptionReason(argv.find((a) => SUBCOMMANDS.has(a)), unknown[1]!) : undefined;
  if (reason !== undefined) return `unknown option '${unknown![1]}': ${reason}`;
  const excess = /^too many arguments for 'page'/.test(message) ? pageExtra(argv) : undefined;
  if (excess !== undefined) {
    const [file, n] = excess;
    const skip = Math.max(0, Number(n) - 1);
    return `page takes no line number: to start at line ${n}, linewise page ${file} --offset ${skip} (the lines to skip), or linewise readlines ${file} ${n}`;
  }
  return message
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => l.replace(/^\(Did you mean (.*)\)$/, '(did you mean $1)'))
    .join(' ');
}

/** The subcommands, to find which one an argument list runs. */
const SUBCOMMANDS = new Set(['readlines', 'page', 'grep', 'replace', 'patch', 'encodings', 'mcp']);

/** The options of page that take a value, so their values are not taken for arguments. */
const PAGE_VALUES = new Set(['--offset', '--limit', '--last', '--max-bytes', '--count-bytes', '--encoding', '--color']);

/** For `page FILE N ...`: FILE and the first extra argument, when that is a number. */
function pageExtra(argv: readonly string[]): [string, string] | undefined {
  const words: string[] = [];
  for (let i = argv.indexOf('page') + 1; i > 0 && i < argv.length; i++) {
    const a = argv[i]!;
    if (PAGE_VALUES.has(a)) i++;
    else if (!a.startsWith('-') || a === '-') words.push(a);
  }
  return words.length >= 2 && /^[0-9]+$/.test(words[1]!) ? [words[0]!, words[1]!] : undefined;
}
