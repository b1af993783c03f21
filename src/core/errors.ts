// The one error type of linewise: a user-facing message, the path it concerns, and the exit status.

/** Exit statuses, stable across versions (see README "Exit status"). */
export const Exit = {
  ok: 0,
  /** grep found nothing */
  noMatch: 1,
  /** usage or input error */
  usage: 2,
  /** stale edit or conflict: the file is not what the caller read */
  stale: 3,
} as const;

export type ExitCode = (typeof Exit)[keyof typeof Exit];

/**
 * A failure to report to the user as one line, `linewise: <path>: <message>`.
 * `code` is a stable machine-readable name; tests assert on it, not on the text.
 */
export class LinewiseError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly path: string | undefined = undefined,
    readonly exitCode: ExitCode = Exit.usage,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'LinewiseError';
  }
}

/** "1 line" / "3 lines": every message that counts lines says it the same way. */
export function plural(n: number, word = 'line'): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * `n` (a whole number) with its thousands set apart by commas, "1,000,000", as
 * toLocaleString('en-US') gives it without loading ICU's locale data (4 MiB more resident).
 */
export function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** The same error, naming `path` when it did not name one yet (core code does not know paths). */
export function withPath(e: unknown, path: string): unknown {
  if (e instanceof LinewiseError && e.path === undefined) {
    return new LinewiseError(e.code, e.message, path, e.exitCode, { cause: e.cause });
  }
  return e;
}

/**
 * Text a message repeats (a pattern, an option's value) as a JSON string cut to about `max`
 * characters: a message is one line a person reads, never an 80 KB echo of the input.
 */
export function quoted(text: string, max = 60): string {
  if (text.length <= max) return JSON.stringify(text);
  return `${JSON.stringify(headOf(text, max))}... (${text.length} characters)`;
}

/** Text a message repeats as it is, cut to `max` characters and marked `...` when longer. */
export function clipped(text: string, max: number): string {
  return text.length <= max ? text : `${headOf(text, max)}...`;
}

/** The first `max` characters of `text`, never ending in a lone half of a surrogate pair. */
function headOf(text: string, max: number): string {
  return text.slice(0, /[\ud800-\udbff]$/.test(text.slice(0, max)) ? max - 1 : max);
}

/**
 * A message as the one line it must be: any line break or other control character left in it
 * (a path or value no site quoted) written as an escape, so nothing it repeats can start a
 * line of its own on stderr.
 */
export function oneLine(message: string): string {
  return message.replace(/[\x00-\x1f\x7f]/g, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`));
}
