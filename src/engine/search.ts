// grep as an operation: patterns compiled, paths expanded, every input searched in
// deadline-bounded slices, and everything reported to a GrepReporter; plus the library's
// collecting form, grep().

import { Exit, type ExitCode, LinewiseError } from '../core/errors.js';
import { compilePatterns, type CompiledPattern } from '../core/pattern.js';
import { matchRanges } from '../core/match-ranges.js';
import { LineSearcher, type MatchSink } from '../core/searcher.js';
import { parseTemplate } from '../core/substitute.js';
import { checkpoint } from '../io/checkpoint.js';
import { DeadlineExceeded, runWithDeadline } from '../io/deadline.js';
import { fileError } from '../io/input.js';
import { BinaryFileError, type OpenedText, openText } from '../io/text.js';
import type { SearchTarget } from '../io/walk.js';
import { loadEncoding } from './encodings.js';
import { type GrepItem, grepInputs } from './grep-inputs.js';
import { type GrepCursor, type GrepCutOff, GrepOutput, type GrepReport, parseCursor, type RowTarget } from './grep-output.js';
import { inputSource, PAGE_DEFAULTS, type ReadOptions } from './read.js';
import { type Line, toLine } from './results.js';
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
}

export type { GrepCursor, GrepCutOff, GrepReport } from './grep-output.js';

/** Options of {@link grepTo} beyond the library's. */
export interface GrepRunOptions extends GrepOptions {
  report?: GrepReport;
  /** each match its own row (`-o`); a reporter then receives `part` instead of `match` */
  onlyMatching?: boolean;
  /** rows with each match replaced by this (`--replace`: `$1`, `${name}`, `$$` as in rg) */
  replace?: string;
  /** rows name their file: true always (`-H`), false never; default when several inputs are searched */
  withFilename?: boolean;
  /** scanner buffer size (tests) */
  bufferSize?: number;
}

/** What a reporter learns before the first input: how rows look, and where matches are in a line. */
export interface GrepSetup {
  /** rows should name their file */
  withPath: boolean;
  /** byte ranges of the matches in a selected line; undefined under -v (a selected line holds none) */
  ranges: ((buf: Buffer, start: number, end: number) => Array<[number, number]>) | undefined;
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

export { DEFAULT_TIMEOUT, MAX_TIMEOUT } from './search-bounds.js';

/** The deadline in milliseconds for `timeout` seconds (the default when undefined; 0: none). */
function timeoutMs(timeout: unknown): number {
  const s = v.optionalCount(timeout, 'timeout') ?? DEFAULT_TIMEOUT;
  if (s > MAX_TIMEOUT) throw new LinewiseError('bad-option', `timeout must be at most ${MAX_TIMEOUT} seconds (about 49 days), not ${s}; 0 means no bound`);
  return s * 1000;
}
/**
 * Read size for grep. Larger than the scanner's 64 KiB default and still within the CPU cache
 * between read() and indexOf(): it measured fastest (docs/PERFORMANCE.md, grep speed).
 */
const GREP_BUFFER = 128 << 10;

/**
 * Searches `paths` (files, directories, globs, `-`; none: the directory `cwd`) for lines matching
 * any of `patterns`, reporting to `reporter` as it goes. Problems with one input are reported
 * and the search goes on.
 */
export async function grepTo(reporter: GrepReporter, patterns: string | readonly string[], paths: string | readonly string[], options: GrepRunOptions = {}): Promise<GrepSummary> {
  const o = v.options<GrepRunOptions>(options, 'options');
  const list = v.strings(patterns, 'pattern');
  if (list.length === 0) throw new LinewiseError('usage', 'no pattern given: linewise grep PATTERN [PATH...] (see linewise help grep)');
  const encoding = v.optionalString(o.encoding, 'encoding');
  const timeout = timeoutMs(o.timeout);
  const report = o.report ?? 'lines';
  const search = searchSettings(o, encoding, report, reporter);
  const pattern = await compilePatterns(list, {
    ignoreCase: v.optionalBoolean(o.ignoreCase, 'ignoreCase'),
    fixed: v.optionalBoolean(o.fixedStrings, 'fixedStrings'),
    word: v.optionalBoolean(o.wordRegexp, 'wordRegexp'),
    line: v.optionalBoolean(o.lineRegexp, 'lineRegexp'),
  });
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
  const run = new GrepRun(pattern, items.list, search, reporter, output, cursor);
  const explicitTimeout = o.timeout !== undefined;
  for (;;) {
    // Pipes wait on their writer: the deadline covers them only when asked for (--timeout).
    const bounded = timeout > 0 && (explicitTimeout || !run.nextIsPipe());
    let done: boolean;
    try {
      done = bounded ? runWithDeadline(() => run.step(performance.now() + SLICE_MS), timeout + SLICE_MS) : run.step(Infinity);
    } catch (e) {
      if (!(e instanceof DeadlineExceeded)) throw e;
      const where = run.current();
      const line = run.line();
      run.abort();
      // Under -c and -l lines are not numbered (the searcher does not count them): say no number then.
      const at = line > 0 ? ` at or after line ${line}` : '';
      const message = `the search ran longer than ${timeout / 1000} s${at}: the pattern backtracks too much; simplify it or raise --timeout`;
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
    }
  }
  return run.finish();
}

/** How each input is searched, from the options. */
function searchSettings(o: Partial<GrepRunOptions>, encoding: string | undefined, report: GrepReport, reporter: GrepReporter): SearchSettings {
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
  };
}

/** How each input is opened and searched. */
interface SearchSettings {
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
}

/** The file being searched. */
interface Current {
  target: SearchTarget;
  text: OpenedText;
  searcher: LineSearcher;
}

/** A grep run over its inputs, resumable: `step` works until a time and can be called again. */
class GrepRun {
  private readonly iter: Iterator<GrepItem>;
  private peeked: IteratorResult<GrepItem> | undefined;
  private cur: Current | undefined;
  errors = 0;
  /** the cursor's input is not reached yet: inputs before it are passed over unopened */
  private seeking: boolean;

  constructor(
    private readonly pattern: CompiledPattern,
    items: Iterable<GrepItem>,
    private readonly o: SearchSettings,
    private readonly reporter: GrepReporter,
    private readonly output: GrepOutput,
    private readonly cursor: GrepCursor | undefined,
  ) {
    this.iter = items[Symbol.iterator]();
    this.seeking = cursor !== undefined;
  }

  private peek(): IteratorResult<GrepItem> {
    this.peeked ??= this.iter.next();
    return this.peeked;
  }

  /** The next input to open is standard input or a pipe (its reads wait on a writer). */
  nextIsPipe(): boolean {
    if (this.cur) return this.cur.text.input.size === undefined;
    const next = this.peek();
    return !next.done && 'abs' in next.value && next.value.abs === '-';
  }

  line(): number {
    return this.cur?.searcher.currentLine ?? 0;
  }

  current(): string | undefined {
    return this.cur?.target.display;
  }

  /** Searches until `until` (a performance.now() time); true when every input is done. */
  step(until: number): boolean {
    const output = this.output;
    for (;;) {
      if (output.state === 'done') return true; // -q found a line, or the count past a budget reached its bound
      if (!this.cur && !this.openNext()) return true;
      const cur = this.cur!;
      let stopped = false;
      let finished: boolean;
      try {
        finished = cur.text.scanner.scanBlocks((buf, start, end, ends) => {
          if (cur.searcher.visitor(buf, start, end, ends) === false || output.state === 'done' || !output.scanned(end - start)) {
            stopped = true;
            return false;
          }
          return performance.now() < until;
        });
      } catch (e) {
        this.closeCurrent();
        this.fail(e, cur.target.display);
        continue;
      }
      if (!finished && !stopped) return false; // time is up: resume later
      this.endFile(cur);
      if (performance.now() >= until) return false;
    }
  }

  /** The item is the cursor's input, or one before it (passed over); false once the cursor is reached. */
  private passOver(item: GrepItem): boolean {
    if (!this.seeking) return false;
    if ('error' in item || item.display !== this.cursor!.path) return true;
    this.seeking = false;
    // -c and -l resume after the whole file: their rows are files
    return this.cursor!.line === 'end' || this.o.noNumbers;
  }

  /** Opens the next input; false when none is left. Problems are reported in their turn. */
  private openNext(): boolean {
    for (;;) {
      const next = this.peek();
      this.peeked = undefined;
      if (next.done) return false;
      const item = next.value;
      if (this.passOver(item)) continue;
      if ('error' in item) {
        if (item.note) this.reporter.note(item.error.message, item.error.path);
        else this.fail(item.error, item.error.path ?? '.');
        continue;
      }
      let text: OpenedText;
      try {
        text = openText(item.abs, this.o.source, { allowBinary: this.o.allowBinary, encoding: this.o.encoding, bufferSize: this.o.bufferSize });
      } catch (e) {
        if (e instanceof BinaryFileError) {
          // Walks skip binary files quietly, as rg does; a file named on the command line gets a note.
          if (!item.walked) this.reporter.note(binaryNote(e), item.display);
          continue;
        }
        this.fail(e, item.display);
        continue;
      }
      if (!this.output.chargeFile(text.input.size)) {
        text.input.close();
        return false;
      }
      const searcher = new LineSearcher(this.pattern, this.output.sink, {
        invert: this.o.invert,
        ...(this.o.maxCount !== undefined ? { maxCount: this.o.maxCount } : {}),
        before: this.o.before,
        after: this.o.after,
        noNumbers: this.o.noNumbers,
        onNote: (message) => this.reporter.note(message, item.display),
      });
      this.cur = { target: item, text, searcher };
      this.reporter.file(item.display);
      const cursorLine = this.cursor?.path === item.display && typeof this.cursor.line === 'number' ? this.cursor.line : 0;
      this.output.beginFile(item.display, cursorLine);
      return true;
    }
  }

  private endFile(cur: Current): void {
    this.closeCurrent();
    const n = cur.searcher.selected;
    this.output.endFile(cur.target.display, n);
    this.reporter.endFile(cur.target.display, n);
  }

  private closeCurrent(): void {
    const cur = this.cur;
    this.cur = undefined;
    cur?.text.input.close();
    cur?.text.scanner.release(); // its buffer serves the next file
  }

  /** Abandons the file being searched (after a deadline, or when cancelled). */
  abort(): void {
    this.closeCurrent();
  }

  /** An error on one input: reported in one line, and the search goes on. */
  private fail(e: unknown, display: string): void {
    if (!(e instanceof LinewiseError) && (e as NodeJS.ErrnoException)?.code === undefined) throw e; // a bug, or a closed stdout
    this.errors++;
    this.reporter.error(fileError(e, display), display);
  }

  finish(): GrepSummary {
    if (this.seeking) {
      throw new LinewiseError('bad-cursor', `--after: ${this.cursor!.path} is not among the inputs this search reaches (renamed or deleted since?); search again without --after`);
    }
    const cutOff = this.output.cutOff();
    const found = this.output.found;
    // -q: a line found is success even after an error, as in grep and rg
    const status = this.errors > 0 && !(found && this.o.quiet) ? Exit.usage : found ? Exit.ok : Exit.noMatch;
    return { status, errors: this.errors, complete: true, ...(cutOff ? { cutOff } : {}) };
  }
}

/**
 * The note for a binary file named in the paths: -a, or the encoding it looks like (UTF-16
 * without a mark), worded for grep, which skips such a file rather than refusing it.
 */
function binaryNote(e: BinaryFileError): string {
  if (e.wide === undefined) return 'binary file (it has a NUL byte), not searched; use -a/--text to search it';
  return `looks like ${e.wide.toUpperCase()} text without a byte order mark, not searched; search it with --encoding ${e.wide}`;
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
    const submatches = (this.ranges?.(buf, start, end) ?? []).map(([s, e]) => ({ start: s, end: e }));
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
