// `grep PATTERN [PATH...]`: expands the paths, searches each input with the core searcher, prints
// rows, counts, names or JSON, and turns per-file failures into notes and a final status.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { Exit, type ExitCode, LinewiseError } from '../core/errors.js';
import { compilePatterns, type CompiledPattern } from '../core/pattern.js';
import { matchRanges } from '../core/match-ranges.js';
import { LineSearcher, type MatchSink } from '../core/searcher.js';
import { JsonGrep, NO_ROWS, printCount, printPath, TextGrep, type GrepPrinterOptions } from '../format/grep.js';
import { DeadlineExceeded, runWithDeadline } from '../io/deadline.js';
import { fileError } from '../io/input.js';
import { type OpenedText, openText } from '../io/text.js';
import { isGlob, loadWalker, type Target, type WalkProblem, type Walker } from '../io/walk.js';
import type { Io } from '../io/streams.js';
import type { Context } from './context.js';

export interface GrepArgs {
  regexp?: string[];
  ignoreCase?: boolean;
  fixedStrings?: boolean;
  wordRegexp?: boolean;
  invertMatch?: boolean;
  maxCount?: number;
  afterContext?: number;
  beforeContext?: number;
  context?: number;
  count?: boolean;
  filesWithMatches?: boolean;
  withFilename?: boolean;
  null?: boolean;
  json?: boolean;
  text?: boolean;
  hidden?: boolean;
  /** false under --no-ignore */
  ignore?: boolean;
  glob?: string[];
  follow?: boolean;
  /** `--encoding NAME`: decode files from NAME before matching (UTF-16 with a mark needs none) */
  encoding?: string;
  /** seconds one stretch of the search may take; undefined: the default, for files only */
  timeout?: number;
  /** scanner buffer size (tests) */
  bufferSize?: number;
}

/** Seconds a stretch of searching may run before the pattern is blamed (see --timeout). */
export const DEFAULT_TIMEOUT = 10;
/** Work between two deadline checks: long enough that the watchdog's cost vanishes. */
const SLICE_MS = 250;
/**
 * Read size for grep. Smaller than the scanner's 1 MiB default: a 128 KiB buffer stays in the
 * CPU cache between read() and indexOf(), which measured faster (see README, grep speed).
 */
const GREP_BUFFER = 128 << 10;

/** One entry of the work list: a file or "-", or a problem to report in its turn. */
type Item = Target | WalkProblem;

/**
 * Where a grep run reports: the rows (a MatchSink), each input's start and end, and its
 * problems. The CLI prints them (CliReporter); the library collects them as data.
 */
export interface GrepReporter extends MatchSink {
  /** the rows that follow are from this input */
  file(display: string): void;
  /** an input is searched to its end (or to -m); `selected` lines were selected in it */
  endFile(display: string, selected: number): void;
  /** one input failed, or the search ran past its deadline: an error for the exit status */
  error(e: LinewiseError, display: string | undefined): void;
  /** not an error: a binary file named on the command line skipped, a symbolic link loop */
  note(message: string, display: string | undefined): void;
  /** every input is done (not called after a deadline) */
  finish(errors: number): void;
}

export async function grep(ctx: Context, first: string | undefined, rest: string[], o: GrepArgs): Promise<ExitCode> {
  return runGrep(ctx.io, first, rest, o, (pattern, withPath) => new CliReporter(ctx, pattern, o, withPath));
}

/**
 * The whole of grep but the printing: patterns compiled, paths expanded, every input searched in
 * deadline-bounded slices, everything reported to the reporter `report` makes (`withPath`: rows
 * should name their file). Resolves to the exit status.
 */
export async function runGrep(
  io: Io,
  first: string | undefined,
  rest: string[],
  o: GrepArgs,
  report: (pattern: CompiledPattern, withPath: boolean) => GrepReporter,
): Promise<ExitCode> {
  const patterns = o.regexp && o.regexp.length > 0 ? o.regexp : first === undefined ? [] : [first];
  const paths = o.regexp && o.regexp.length > 0 ? (first === undefined ? rest : [first, ...rest]) : rest;
  if (patterns.length === 0) throw new LinewiseError('usage', 'no pattern given: linewise grep PATTERN [PATH...] (see linewise help grep)');
  const pattern = await compilePatterns(patterns, { ignoreCase: o.ignoreCase, fixed: o.fixedStrings, word: o.wordRegexp });

  const items = await expand(io.cwd, paths, o);
  const withPath = o.withFilename === true || paths.length !== 1 || items.multi;
  const reporter = report(pattern, withPath);
  const run = new GrepRun(io, pattern, items.list, o, reporter);
  const explicitTimeout = o.timeout !== undefined;
  const timeout = (o.timeout ?? DEFAULT_TIMEOUT) * 1000;
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
      return Exit.usage;
    }
    if (done) break;
  }
  return run.finish();
}

/** The CLI's reporter: rows, counts, names or JSON on stdout, problems on stderr. */
class CliReporter implements GrepReporter {
  private readonly text: TextGrep | undefined;
  private readonly json: JsonGrep | undefined;
  private readonly printer: GrepPrinterOptions;
  private readonly sink: MatchSink;

  constructor(
    private readonly ctx: Context,
    pattern: CompiledPattern,
    private readonly o: GrepArgs,
    withPath: boolean,
  ) {
    const ranges = o.invertMatch ? undefined : (buf: Buffer, s: number, e: number) => matchRanges(pattern, buf, s, e);
    this.printer = { withPath, nul: o.null === true, rowStyle: ctx.rowStyle, noteStyle: ctx.noteStyle, ranges };
    if (o.json) this.json = new JsonGrep(ctx.out, ranges);
    else if (!o.count && !o.filesWithMatches) this.text = new TextGrep(ctx.out, this.printer);
    this.sink = this.json ?? this.text ?? NO_ROWS;
  }

  match(line: number, buf: Buffer, start: number, end: number): void {
    this.sink.match(line, buf, start, end);
  }

  context(line: number, buf: Buffer, start: number, end: number): void {
    this.sink.context(line, buf, start, end);
  }

  gap(): void {
    this.sink.gap();
  }

  file(display: string): void {
    this.text?.file(display);
    this.json?.file(display);
  }

  endFile(display: string, selected: number): void {
    if (this.o.count && !this.o.json) printCount(this.ctx.out, this.printer, display, selected);
    else if (this.o.filesWithMatches && !this.o.json && selected > 0) printPath(this.ctx.out, this.printer, display);
    this.json?.endFile();
  }

  error(e: LinewiseError, display: string | undefined): void {
    this.ctx.out.flush();
    this.ctx.warn(e.message, display);
  }

  note(message: string, display: string | undefined): void {
    this.ctx.out.flush();
    this.ctx.warn(message, display);
  }

  finish(errors: number): void {
    this.json?.summary(errors);
  }
}

/** The inputs to search, in order; `multi` when a directory or glob was named. */
async function expand(cwd: string, paths: string[], o: GrepArgs): Promise<{ list: Iterable<Item>; multi: boolean }> {
  const walkOptions = { hidden: o.hidden === true, noIgnore: o.ignore === false, globs: o.glob ?? [], follow: o.follow === true };
  if (paths.length === 0) {
    const walker = await loadWalker(walkOptions, false);
    return { list: walker.walk(cwd, undefined), multi: true };
  }
  // Classify first, so the walk dependencies load only when a directory or glob is named.
  const kinds = paths.map((p) => {
    if (p === '-') return 'file';
    let st: fs.Stats;
    try {
      st = fs.statSync(path.resolve(cwd, p));
    } catch {
      return isGlob(p) ? 'glob' : 'file'; // a missing file is reported when it is opened
    }
    return st.isDirectory() ? 'dir' : 'file';
  });
  const needsWalker = kinds.some((k) => k !== 'file');
  const walker: Walker | undefined = needsWalker ? await loadWalker(walkOptions, kinds.includes('glob')) : undefined;
  function* list(): Generator<Item> {
    for (let i = 0; i < paths.length; i++) {
      const p = paths[i]!;
      const abs = p === '-' ? '-' : path.resolve(cwd, p);
      if (kinds[i] === 'file') yield { display: p, abs, walked: false };
      else if (kinds[i] === 'dir') yield* walker!.walk(abs, p);
      else {
        const found = walker!.glob(p, cwd);
        if (found.length === 0) yield { error: new LinewiseError('no-match', 'no file matches this glob', p) };
        for (const f of found) yield { display: f, abs: path.resolve(cwd, f), walked: true };
      }
    }
  }
  return { list: list(), multi: needsWalker };
}

/** The file being searched. */
interface Current {
  target: Target;
  text: OpenedText;
  searcher: LineSearcher;
}

/** A grep run over its inputs, resumable: `step` works until a time and can be called again. */
class GrepRun {
  private readonly iter: Iterator<Item>;
  private peeked: IteratorResult<Item> | undefined;
  private cur: Current | undefined;
  private selectedAny = false;
  private errors = 0;

  constructor(
    private readonly io: Io,
    private readonly pattern: CompiledPattern,
    items: Iterable<Item>,
    private readonly o: GrepArgs,
    private readonly reporter: GrepReporter,
  ) {
    this.iter = items[Symbol.iterator]();
  }

  private peek(): IteratorResult<Item> {
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
    for (;;) {
      if (!this.cur && !this.openNext()) return true;
      const cur = this.cur!;
      let stopped = false;
      let finished: boolean;
      try {
        finished = cur.text.scanner.scanBlocks((buf, start, end, ends) => {
          if (cur.searcher.visitor(buf, start, end, ends) === false) {
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

  /** Opens the next input; false when none is left. Problems are reported in their turn. */
  private openNext(): boolean {
    for (;;) {
      const next = this.peek();
      this.peeked = undefined;
      if (next.done) return false;
      const item = next.value;
      if ('error' in item) {
        if (item.note) this.note(item.error.message, item.error.path);
        else this.fail(item.error, item.error.path ?? '.');
        continue;
      }
      let text: OpenedText;
      try {
        text = openText(item.abs, this.io, { allowBinary: this.o.text, encoding: this.o.encoding, bufferSize: this.o.bufferSize ?? GREP_BUFFER });
      } catch (e) {
        if (e instanceof LinewiseError && e.code === 'binary') {
          // Walks skip binary files quietly, as rg does; a file named on the command line gets a note.
          if (!item.walked) this.note('binary file (it has a NUL byte), not searched; use -a/--text to search it', item.display);
          continue;
        }
        this.fail(e, item.display);
        continue;
      }
      const limit = this.o.filesWithMatches ? 1 : this.o.maxCount;
      const searcher = new LineSearcher(this.pattern, this.reporter, {
        invert: this.o.invertMatch,
        ...(limit !== undefined ? { maxCount: limit } : {}),
        before: this.o.beforeContext ?? this.o.context ?? 0,
        after: this.o.afterContext ?? this.o.context ?? 0,
        noNumbers: this.o.count === true || this.o.filesWithMatches === true,
      });
      this.cur = { target: item, text, searcher };
      this.reporter.file(item.display);
      return true;
    }
  }

  private endFile(cur: Current): void {
    this.closeCurrent();
    const n = cur.searcher.selected;
    if (n > 0) this.selectedAny = true;
    this.reporter.endFile(cur.target.display, n);
  }

  private closeCurrent(): void {
    const cur = this.cur;
    this.cur = undefined;
    cur?.text.input.close();
    cur?.text.scanner.release(); // its buffer serves the next file
  }

  /** Abandons the file being searched (after a deadline). */
  abort(): void {
    this.closeCurrent();
  }

  /** An error on one input: reported in one line, and the search goes on. */
  private fail(e: unknown, display: string): void {
    if (!(e instanceof LinewiseError) && (e as NodeJS.ErrnoException)?.code === undefined) throw e; // a bug, or a closed stdout
    const err = fileError(e, display);
    this.errors++;
    this.reporter.error(err, display);
  }

  private note(message: string, display: string | undefined): void {
    this.reporter.note(message, display);
  }

  finish(): ExitCode {
    this.reporter.finish(this.errors);
    if (this.errors > 0) return Exit.usage;
    return this.selectedAny ? Exit.ok : Exit.noMatch;
  }
}
