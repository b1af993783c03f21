// grep as a function: the CLI's search (same walk, patterns, deadline and per-file problems),
// with each selected line collected as data instead of printed as a row.

import { type GrepArgs, type GrepReporter, runGrep } from '../commands/grep.js';
import { type ExitCode, LinewiseError } from '../core/errors.js';
import type { CompiledPattern } from '../core/pattern.js';
import { matchRanges } from '../core/match-ranges.js';
import { count, libraryIo, type Line, toLine } from './collect.js';
import { loadEncoding } from './encoding.js';
import type { ReadOptions } from './read.js';

/** What to search for and where; every field has the CLI's default (the flag in parentheses). */
export interface GrepOptions extends ReadOptions {
  /** match case-insensitively (`-i`) */
  ignoreCase?: boolean;
  /** the patterns are literal strings, not regular expressions (`-F`) */
  fixedStrings?: boolean;
  /** match whole words only (`-w`) */
  wordRegexp?: boolean;
  /** select the lines that do not match (`-v`); their `submatches` are empty */
  invertMatch?: boolean;
  /** stop after this many selected lines per file (`-m`); 1 is `-l`'s early stop */
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
  glob?: readonly string[];
  /** follow symbolic links in directory walks (`-L`) */
  follow?: boolean;
  /**
   * Seconds one stretch of the search may run before the pattern is blamed (`--timeout`):
   * default 10 for files, standard input only when given; 0 for no bound.
   */
  timeout?: number;
  /** the directory relative paths (and the default search) start from; default `process.cwd()` */
  cwd?: string;
}

/** A byte range `[start, end)` of a match within a line's `bytes`. */
export interface Submatch {
  start: number;
  end: number;
}

/** A line grep selected (`kind: 'match'`), or a line of context around one. */
export interface GrepLine extends Line {
  kind: 'match' | 'context';
  /** where the patterns match in `bytes` (byte offsets); empty for context and under `invertMatch` */
  submatches: Submatch[];
}

/** One input searched, and how many lines were selected in it (the CLI's `-c`). */
export interface GrepFile {
  path: string;
  selected: number;
}

/** What a search found, as the CLI's output and exit status would tell it. */
export interface GrepResult {
  /** selected lines and their context, in file order, files in search order */
  lines: GrepLine[];
  /** every input searched to the end (or to `maxCount`); `selected > 0` are the CLI's `-l` names */
  files: GrepFile[];
  /**
   * Inputs that could not be searched (missing, unreadable, a line too long, a glob matching
   * nothing, the timeout): the lines the CLI prints on stderr. The search went on past each,
   * except after a timeout.
   */
  errors: LinewiseError[];
  /** not errors: a binary file named in `paths` and skipped, a symbolic link loop */
  notes: { path: string | undefined; message: string }[];
  /** the CLI's exit status: 0 a line selected, 1 none, 2 when `errors` is not empty */
  status: ExitCode;
}

/**
 * Searches files, directories (recursively, skipping what .gitignore ignores, hidden and binary
 * files), globs, or `-` (standard input) for lines matching `pattern` (a JavaScript regular
 * expression, Unicode mode, matched against each line without its terminator, so `$` matches
 * before `\r\n`), as `linewise grep` does. Several patterns select a line when any matches.
 * `paths` omitted or empty: the current directory (`options.cwd`).
 *
 * Problems with one input do not stop the search: they are in `errors`, and `status` is 2.
 * Every selected line is held in memory; narrow `paths` or use `maxCount` on large trees.
 *
 * @throws {@link LinewiseError} (exit code 2) for an invalid pattern, no pattern, a bad option
 * value, or an unknown encoding.
 *
 * @example
 * ```ts
 * const { lines, status } = await grep('TODO', ['src'], { wordRegexp: true });
 * for (const l of lines) console.log(l.path, l.line, l.text, l.submatches);
 * ```
 */
export async function grep(pattern: string | readonly string[], paths: string | readonly string[] = [], options: GrepOptions = {}): Promise<GrepResult> {
  const o = options;
  const args: GrepArgs = {
    regexp: typeof pattern === 'string' ? [pattern] : [...pattern],
    ignoreCase: o.ignoreCase,
    fixedStrings: o.fixedStrings,
    wordRegexp: o.wordRegexp,
    invertMatch: o.invertMatch,
    ...(o.maxCount !== undefined ? { maxCount: count(o.maxCount, 'maxCount', 1) } : {}),
    ...(o.beforeContext !== undefined ? { beforeContext: count(o.beforeContext, 'beforeContext') } : {}),
    ...(o.afterContext !== undefined ? { afterContext: count(o.afterContext, 'afterContext') } : {}),
    ...(o.context !== undefined ? { context: count(o.context, 'context') } : {}),
    text: o.text,
    hidden: o.hidden,
    ignore: o.noIgnore !== true,
    glob: o.glob ? [...o.glob] : [],
    follow: o.follow,
    encoding: o.encoding,
    ...(o.timeout !== undefined ? { timeout: count(o.timeout, 'timeout') } : {}),
  };
  if (o.encoding !== undefined) await loadEncoding(o.encoding);
  let collector: Collector | undefined;
  const status = await runGrep(libraryIo(o.cwd), undefined, typeof paths === 'string' ? [paths] : [...paths], args, (compiled) => {
    collector = new Collector(compiled, o.invertMatch === true);
    return collector;
  });
  const c = collector!;
  return { lines: c.lines, files: c.files, errors: c.errors, notes: c.notes, status };
}

/** Keeps what the CLI would print as data. */
class Collector implements GrepReporter {
  readonly lines: GrepLine[] = [];
  readonly files: GrepFile[] = [];
  readonly errors: LinewiseError[] = [];
  readonly notes: { path: string | undefined; message: string }[] = [];
  private path = '';

  constructor(
    private readonly pattern: CompiledPattern,
    private readonly invert: boolean,
  ) {}

  file(display: string): void {
    this.path = display;
  }

  match(line: number, buf: Buffer, start: number, end: number): void {
    const submatches = this.invert ? [] : matchRanges(this.pattern, buf, start, end).map(([s, e]) => ({ start: s, end: e }));
    this.lines.push({ ...toLine(this.path, line, buf, start, end), kind: 'match', submatches });
  }

  context(line: number, buf: Buffer, start: number, end: number): void {
    this.lines.push({ ...toLine(this.path, line, buf, start, end), kind: 'context', submatches: [] });
  }

  gap(): void {}

  endFile(display: string, selected: number): void {
    this.files.push({ path: display, selected });
  }

  error(e: LinewiseError, display: string | undefined): void {
    // Named as the CLI names it on stderr: the path as given or walked, not as opened.
    this.errors.push(display === undefined || e.path === display ? e : new LinewiseError(e.code, e.message, display, e.exitCode, { cause: e }));
  }

  note(message: string, display: string | undefined): void {
    this.notes.push({ path: display, message });
  }

  finish(): void {}
}
