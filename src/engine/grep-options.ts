// What a grep is asked (its options, the library's and the CLI's), whom it tells (the reporter's
// interface, and the summary it returns), and how each input is searched (the settings the
// options come to).

import { type ExitCode, LinewiseError } from '../core/errors.js';
import type { GrepCutOff } from './grep-budget.js';
import type { GrepReport, RowTarget } from './grep-output.js';
import { inputSource, type ReadOptions } from './read.js';
import { DEFAULT_TIMEOUT, MAX_TIMEOUT, SLICE_MS } from './search-bounds.js';
import * as v from './validate.js';

/** What to search for and where; every field has the CLI's default (the flag in parentheses). */
export interface GrepOptions extends ReadOptions {
  /** match case-insensitively (`-i`) */
  ignoreCase?: boolean;
  /** the patterns are literal strings, not regular expressions (`-F`) */
  fixedStrings?: boolean;
  /** match whole words only (`-w`) */
  wordRegexp?: boolean;
  /** the pattern must match the whole line (`-x`) */
  lineRegexp?: boolean;
  /** select the lines that do not match (`-v`); their `submatches` are empty */
  invertMatch?: boolean;
  /** stop after this many selected lines per file (`-m`) */
  maxCount?: number;
  /** context lines before each selected line (`-B`) */
  beforeContext?: number;
  /** context lines after each selected line (`-A`) */
  afterContext?: number;
  /** context lines before and after (`-C`); `beforeContext`/`afterContext` win */
  context?: number;
  /** search hidden files and directories too (`--hidden`) */
  hidden?: boolean;
  /** do not apply .gitignore and .ignore files (`--no-ignore`) */
  noIgnore?: boolean;
  /** only search files matching these globs, gitignore syntax, `!` excludes (`-g`) */
  glob?: string | readonly string[];
  /** follow symbolic links in directory walks (`-L`) */
  follow?: boolean;
  /**
   * Threads that search the files of walked directories and globs (`-j`); default 1, this thread
   * alone. More start worker threads (about 20 ms and 20 MiB each): worth it on idle cores and a
   * long search. Rows come in the same order, byte for byte, whatever the number.
   */
  threads?: number;
  /**
   * Seconds one stretch of the search may run before the pattern is blamed (`--timeout`):
   * default 10 for files, standard input only when given; 0 for no bound.
   */
  timeout?: number;
  /** cancels the search (checked between slices of a few hundred milliseconds) */
  signal?: AbortSignal;
  /**
   * At most this many rows (selected lines and their context) across all files (`--max-rows`):
   * past it the search only counts what it leaves out, and `cutOff` says where to go on.
   */
  maxRows?: number;
  /**
   * At most this many bytes of rows, as the CLI prints them (`--max-bytes`; 0: no bound). A
   * first row longer than that is shown cut (`cut: true`).
   */
  maxBytes?: number;
  /** once a budget is spent, how many more bytes to search to count what it left out; default 8 MiB */
  countBytes?: number;
  /**
   * Resume after a row (`--after`): `PATH:LINE` (or `PATH:end`), as `cutOff.after` gives it. The
   * inputs before PATH are not searched again; in PATH, rows up to LINE are not shown.
   */
  after?: string;
  /**
   * List the files the search would read (files named, walked, globbed), without reading them
   * or taking a pattern (`--files`, as rg's): each is a file row, as `filesWithMatches` gives.
   */
  listFiles?: boolean;
  /**
   * Each match replaced by this in the lines returned (`--replace`: `$1`, `${name}`, `$$` as in
   * rg). The file is not changed: such lines, given to `replaceRows`, would write it.
   */
  replace?: string;
}

/** Options of {@link grepTo} beyond the library's. */
export interface GrepRunOptions extends GrepOptions {
  report?: GrepReport;
  /** each match its own row (`-o`); a reporter then receives `part` instead of `match` */
  onlyMatching?: boolean;
  /** rows name their file: true always (`-H`), false never; default when several inputs are searched */
  withFilename?: boolean;
  /** scanner buffer size (tests) */
  bufferSize?: number;
}

/** What a reporter learns before the first input: how rows look, and where matches are in a line. */
export interface GrepSetup {
  /** rows should name their file */
  withPath: boolean;
  /** byte ranges of the matches in a selected line, packed as pairs [s0, e0, s1, e1, ...]; undefined under -v (a selected line holds none) */
  ranges: ((buf: Buffer, start: number, end: number) => Uint32Array) | undefined;
}

/**
 * Where a grep run reports: the rows (a MatchSink, plus -o parts, cut rows and the file rows of
 * -c and -l), each input's start and end, and its problems. The CLI prints them; the library
 * collects them as data.
 */
export interface GrepReporter extends RowTarget {
  /** called once, before anything else */
  begin(setup: GrepSetup): void;
  /** the rows that follow are from this input */
  file(display: string): void;
  /** an input is searched to its end (or to -m); `selected` lines were selected in it */
  endFile(display: string, selected: number): void;
  /** one input failed, or the search ran past its deadline: an error for the exit status */
  error(e: LinewiseError, display: string | undefined): void;
  /** not an error: a binary file named in the paths skipped, a symbolic link loop */
  note(message: string, display: string | undefined): void;
  /** called before a read that may wait (a pipe): what is buffered should go out now */
  flush?(): void;
}

/** How a search ended. */
export interface GrepSummary {
  /** the CLI's exit status: 0 a line selected, 1 none, 2 an error */
  status: ExitCode;
  /** inputs that failed (reported through `error`) */
  errors: number;
  /** every input was searched (false when the search stopped at its deadline) */
  complete: boolean;
  /** what a budget (`maxRows`, `maxBytes`) left out, and where to go on; undefined when nothing */
  cutOff?: GrepCutOff;
}

export { DEFAULT_TIMEOUT, MAX_TIMEOUT, SLICE_MS };

/** The deadline in milliseconds for `timeout` seconds (the default when undefined; 0: none). */
export function timeoutMs(timeout: unknown): number {
  const s = v.optionalCount(timeout, 'timeout') ?? DEFAULT_TIMEOUT;
  if (s > MAX_TIMEOUT) throw new LinewiseError('bad-option', `timeout must be at most ${MAX_TIMEOUT} seconds (about 49 days), not ${s}; 0 means no bound`);
  return s * 1000;
}
/**
 * Read size for grep. Larger than the scanner's 64 KiB default and still within the CPU cache
 * between read() and indexOf(): it measured fastest (docs/PERFORMANCE.md, grep speed).
 */
const GREP_BUFFER = 128 << 10;

/** How each input is searched, from the options. */
export function searchSettings(o: Partial<GrepRunOptions>, encoding: string | undefined, report: GrepReport, reporter: GrepReporter): SearchSettings {
  // One selected line settles -l, --files-without-match and -q for a file; -c and -l need no line numbers.
  const oneDoes = report === 'files' || report === 'files-without' || report === 'quiet';
  return {
    // Rows from a pipe go out before each read that may wait, so `tail -f log | grep` is live.
    source: { ...inputSource(o), beforeWait: () => reporter.flush?.() },
    allowBinary: v.optionalBoolean(o.text, 'text'),
    encoding,
    bufferSize: v.optionalCount(o.bufferSize, 'bufferSize', 16) ?? GREP_BUFFER,
    invert: v.optionalBoolean(o.invertMatch, 'invertMatch') === true,
    maxCount: oneDoes ? 1 : v.optionalCount(o.maxCount, 'maxCount', 1),
    before: v.optionalCount(o.beforeContext, 'beforeContext') ?? v.optionalCount(o.context, 'context') ?? 0,
    after: v.optionalCount(o.afterContext, 'afterContext') ?? v.optionalCount(o.context, 'context') ?? 0,
    noNumbers: report !== 'lines',
    quiet: report === 'quiet',
    list: v.optionalBoolean(o.listFiles, 'listFiles') === true,
  };
}

/** How each input is opened and searched. */
export interface SearchSettings {
  source: ReturnType<typeof inputSource>;
  allowBinary: boolean | undefined;
  encoding: string | undefined;
  bufferSize: number;
  invert: boolean;
  maxCount: number | undefined;
  before: number;
  after: number;
  noNumbers: boolean;
  /** -q: status only */
  quiet: boolean;
  /** --files: each input listed, none opened */
  list: boolean;
}
