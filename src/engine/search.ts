// grep as an operation: patterns compiled, paths expanded, every input searched in
// deadline-bounded slices (grep-run.ts), and everything reported to a GrepReporter; plus the
// library's collecting form, grep().

import { Exit, type ExitCode, LinewiseError } from '../core/errors.js';
import { compilePatterns } from '../core/pattern.js';
import { matchProgress, matchRanges } from '../core/match-ranges.js';
import { parseTemplate } from '../core/substitute.js';
import { checkpoint } from '../io/checkpoint.js';
import { DeadlineExceeded, runWithDeadline } from '../io/deadline.js';
import { loadEncoding } from './encodings.js';
import { grepInputs } from './grep-inputs.js';
import { type GrepOptions, type GrepReporter, type GrepRunOptions, type GrepSetup, type GrepSummary, type SearchSettings, searchSettings, SLICE_MS, timeoutMs } from './grep-options.js';
import { type GrepCutOff, parseCursor } from './grep-budget.js';
import { GrepOutput } from './grep-output.js';
import type { FileSearchSettings } from './grep-file.js';
import type { Parallel } from './grep-ahead.js';
import { GrepRun } from './grep-run.js';
import { PAGE_DEFAULTS } from './read.js';
import { type Line, toLine } from './results.js';
import * as v from './validate.js';

export { DEFAULT_TIMEOUT, MAX_TIMEOUT, type GrepOptions, type GrepReporter, type GrepRunOptions, type GrepSetup, type GrepSummary } from './grep-options.js';
export type { GrepCursor, GrepCutOff } from './grep-budget.js';
export type { GrepReport } from './grep-output.js';

/**
 * Searches `paths` (files, directories, globs, `-`; none: the directory `cwd`) for lines matching
 * any of `patterns`, reporting to `reporter` as it goes. Problems with one input are reported
 * and the search goes on.
 */
export async function grepTo(reporter: GrepReporter, patterns: string | readonly string[], paths: string | readonly string[], options: GrepRunOptions = {}): Promise<GrepSummary> {
  const o = v.options<GrepRunOptions>(options, 'options');
  const listing = v.optionalBoolean(o.listFiles, 'listFiles') === true;
  // --files takes no pattern: one that matches nothing stands in (nothing is searched)
  const list = listing ? ['(?!)'] : v.strings(patterns, 'pattern');
  if (list.length === 0) throw new LinewiseError('usage', 'no pattern given: linewise grep PATTERN [PATH...] (see linewise help grep)');
  const encoding = v.optionalString(o.encoding, 'encoding');
  const timeout = timeoutMs(o.timeout);
  const report = listing ? 'files' : (o.report ?? 'lines');
  const search = searchSettings(o, encoding, report, reporter);
  const patternOptions = {
    ignoreCase: v.optionalBoolean(o.ignoreCase, 'ignoreCase'),
    fixed: v.optionalBoolean(o.fixedStrings, 'fixedStrings'),
    word: v.optionalBoolean(o.wordRegexp, 'wordRegexp'),
    line: v.optionalBoolean(o.lineRegexp, 'lineRegexp'),
  };
  const pattern = await compilePatterns(list, patternOptions);
  const threads = v.optionalCount(o.threads, 'threads', 1);
  const template = o.replace === undefined ? undefined : parseTemplate(v.string(o.replace, 'replace'));
  const cursor = o.after === undefined ? undefined : parseCursor(v.string(o.after, 'after'));
  const budget = {
    maxRows: v.optionalCount(o.maxRows, 'maxRows', 1),
    maxBytes: v.optionalCount(o.maxBytes, 'maxBytes'),
    countBytes: v.optionalCount(o.countBytes, 'countBytes') ?? PAGE_DEFAULTS.countBytes,
  };
  if (encoding !== undefined) await loadEncoding(encoding);
  const pathList = v.strings(paths, 'paths');
  const walk = {
    hidden: v.optionalBoolean(o.hidden, 'hidden') === true,
    noIgnore: v.optionalBoolean(o.noIgnore, 'noIgnore') === true,
    globs: o.glob === undefined ? [] : v.strings(o.glob, 'glob'),
    follow: v.optionalBoolean(o.follow, 'follow') === true,
  };
  const signal = v.optionalSignal(o.signal);
  const items = await grepInputs(search.source.cwd, pathList, walk);
  const withPath = v.optionalBoolean(o.withFilename, 'withFilename') ?? (pathList.length !== 1 || items.multi);
  // Under -v a selected line holds no match; a replaced line's matches are not where they were.
  const ranges = search.invert || template !== undefined ? undefined : (buf: Buffer, s: number, e: number) => matchRanges(pattern, buf, s, e);
  reporter.begin({ withPath, ranges });
  const onlyMatching = v.optionalBoolean(o.onlyMatching, 'onlyMatching') === true;
  const output = new GrepOutput(reporter, { report, withPath, pattern, onlyMatching, template, budget, resumes: cursor !== undefined });
  // worker threads only for walked directories and globs (their module loads only then)
  // (nor with files served from a cache: its bookkeeping sees only this thread's opens; nor
  // confined: a worker's opens would not be checked against the confinement)
  const parallel = items.multi && !listing && search.source.files === undefined && search.source.confine === undefined ? await parallelPlan(threads, encoding, { patterns: list, patternOptions, settings: fileSettings(search), deadlineMs: timeout > 0 ? timeout + SLICE_MS : 0, sliceMs: SLICE_MS }) : undefined;
  const run = new GrepRun(pattern, items.list, search, reporter, output, cursor, parallel);
  try {
    return await runSteps(run, reporter, timeout, o.timeout !== undefined, signal, parallel !== undefined);
  } finally {
    run.close();
  }
}

/**
 * Steps the run to its end in deadline-bounded slices; between slices, a cancel may come in (and
 * with worker threads, the event loop turns, so a worker's death is heard).
 */
async function runSteps(run: GrepRun, reporter: GrepReporter, timeout: number, explicitTimeout: boolean, signal: AbortSignal | undefined, threaded: boolean): Promise<GrepSummary> {
  for (;;) {
    // Pipes wait on their writer: the deadline covers them only when asked for (--timeout).
    const bounded = timeout > 0 && (explicitTimeout || !run.nextIsPipe());
    let done: boolean;
    try {
      const start = performance.now();
      // a run that may wait on worker threads comes back every slice, deadline or not
      if (bounded) done = runWithDeadline(() => run.step(start + SLICE_MS), timeout + SLICE_MS);
      else done = run.step(threaded ? start + SLICE_MS : Infinity);
    } catch (e) {
      if (!(e instanceof DeadlineExceeded)) throw e;
      // a file searched out of turn: its result says so, reported in its turn
      if (run.outOfTurnTimedOut()) continue;
      const where = run.current();
      const line = run.line();
      run.abort();
      // Under -c and -l lines are not numbered (the searcher does not count them): say no number then.
      const at = line > 0 ? ` at or after line ${line}` : '';
      // Matches still coming in the last slice (a note every 1024, about a millisecond apart):
      // the time went to a line's many matches (their rows, records or replacements), not to one
      // match that backtracks, so the pattern is not blamed.
      const busy = performance.now() - matchProgress.at < SLICE_MS;
      const why = busy ? 'a line holds more matches than can be shown in that time; raise --timeout (0: no limit)' : 'the pattern backtracks too much; simplify it or raise --timeout';
      const message = `the search ran longer than ${timeout / 1000} s${at}: ${why}`;
      reporter.error(new LinewiseError('timeout', message, where), where);
      return { status: Exit.usage, errors: run.errors + 1, complete: false };
    }
    if (done) break;
    if (signal !== undefined) {
      try {
        await checkpoint(signal);
      } catch (e) {
        run.abort();
        throw e;
      }
    } else if (run.threaded) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return run.finish();
}

/**
 * Worker threads for a search, or none: `threads` as asked (1, the default: this thread alone).
 * Not by default: on a shared 2-core machine a worker measured slower than one thread (its start,
 * a second JIT warming up the same code, no core to spare) and it adds about 20 MiB; see
 * docs/PERFORMANCE.md. None under --encoding (the codec's library would load in each).
 */
async function parallelPlan(threads: number | undefined, encoding: string | undefined, setup: Parallel['setup']): Promise<Parallel | undefined> {
  const workers = (threads ?? 1) - 1;
  if (workers <= 0 || encoding !== undefined) return undefined;
  const { SearchAhead } = await import('./grep-ahead.js');
  return { workers, setup, SearchAhead };
}

/** The settings of a file searched out of turn (grep-file.ts), from the run's. */
function fileSettings(s: SearchSettings): FileSearchSettings {
  return { cwd: s.source.cwd, allowBinary: s.allowBinary, bufferSize: s.bufferSize, invert: s.invert, maxCount: s.maxCount, before: s.before, after: s.after, noNumbers: s.noNumbers };
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
  /** what `maxRows` or `maxBytes` left out, and the `after` to go on with; undefined when nothing */
  cutOff?: GrepCutOff;
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
  const o = v.options<GrepOptions>(options, 'options');
  const collector = new Collector(v.optionalBoolean(o.anchor, 'anchor') === true);
  const { status, cutOff } = await grepTo(collector, pattern, paths, o);
  return { lines: collector.lines, files: collector.files, errors: collector.errors, notes: collector.notes, status, ...(cutOff ? { cutOff } : {}) };
}

/** Keeps what the CLI would print as data. */
class Collector implements GrepReporter {
  readonly lines: GrepLine[] = [];
  readonly files: GrepFile[] = [];
  readonly errors: LinewiseError[] = [];
  readonly notes: { path: string | undefined; message: string }[] = [];
  private path = '';
  private ranges: GrepSetup['ranges'];

  constructor(private readonly anchored: boolean) {}

  begin(setup: GrepSetup): void {
    this.ranges = setup.ranges;
  }

  file(display: string): void {
    this.path = display;
  }

  match(line: number, buf: Buffer, start: number, end: number): void {
    const ranges = this.ranges?.(buf, start, end) ?? [];
    const submatches: { start: number; end: number }[] = [];
    for (let k = 0; k < ranges.length; k += 2) submatches.push({ start: ranges[k]!, end: ranges[k + 1]! });
    this.lines.push({ ...toLine(this.path, line, buf, start, end, this.anchored), kind: 'match', submatches });
  }

  context(line: number, buf: Buffer, start: number, end: number): void {
    this.lines.push({ ...toLine(this.path, line, buf, start, end, this.anchored), kind: 'context', submatches: [] });
  }

  gap(): void {}

  cutRow(kind: 'match' | 'context', line: number, buf: Buffer, start: number, end: number): void {
    this.lines.push({ ...toLine(this.path, line, buf, start, end), kind, submatches: [], cut: true });
  }

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
}
