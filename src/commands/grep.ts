// `grep PATTERN [PATH...]`: the patterns and paths from argv, the search through the engine, and
// a reporter that prints rows, counts, names or JSON on stdout and problems on stderr.

import { Exit, type ExitCode, type LinewiseError } from '../core/errors.js';
import type { MatchSink } from '../core/searcher.js';
import { anchorOf } from '../engine/results.js';
import { type GrepReporter, type GrepSetup, grepTo } from '../engine/search.js';
import { JsonGrep } from '../format/grep-json.js';
import { NO_ROWS, printCount, printPath, TextGrep, type GrepPrinterOptions } from '../format/grep-rows.js';
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
  encoding?: string;
  /** rows `[path<TAB>]n#anchor<TAB>line` (`--anchor`) */
  anchor?: boolean;
  timeout?: number;
  /** scanner buffer size (tests) */
  bufferSize?: number;
}

export async function grep(ctx: Context, first: string | undefined, rest: string[], o: GrepArgs): Promise<ExitCode> {
  // With -e, every positional argument is a path.
  const patterns = o.regexp && o.regexp.length > 0 ? o.regexp : first === undefined ? [] : [first];
  const paths = o.regexp && o.regexp.length > 0 ? (first === undefined ? rest : [first, ...rest]) : rest;
  const reporter = new CliReporter(ctx, o);
  const summary = await grepTo(reporter, patterns, paths, {
    ignoreCase: o.ignoreCase,
    fixedStrings: o.fixedStrings,
    wordRegexp: o.wordRegexp,
    invertMatch: o.invertMatch,
    maxCount: o.maxCount,
    beforeContext: o.beforeContext,
    afterContext: o.afterContext,
    context: o.context,
    text: o.text,
    hidden: o.hidden,
    noIgnore: o.ignore === false,
    glob: o.glob ?? [],
    follow: o.follow,
    encoding: o.encoding,
    timeout: o.timeout,
    report: o.filesWithMatches ? 'files' : o.count ? 'counts' : 'lines',
    ...(o.withFilename ? { withFilename: true } : {}),
    cwd: ctx.io.cwd,
    stdin: ctx.io.stdin,
    ...(o.bufferSize !== undefined ? { bufferSize: o.bufferSize } : {}),
  });
  if (summary.complete) reporter.finish(summary.errors);
  return summary.status;
}

/** The CLI's reporter: rows, counts, names or JSON on stdout, problems on stderr. */
class CliReporter implements GrepReporter {
  private text: TextGrep | undefined;
  private json: JsonGrep | undefined;
  private printer!: GrepPrinterOptions;
  private sink: MatchSink = NO_ROWS;

  constructor(
    private readonly ctx: Context,
    private readonly o: GrepArgs,
  ) {}

  begin({ withPath, ranges }: GrepSetup): void {
    const anchor = this.o.anchor ? anchorOf : undefined;
    this.printer = { withPath, nul: this.o.null === true, rowStyle: this.ctx.rowStyle, noteStyle: this.ctx.noteStyle, ranges, ...(anchor ? { anchor } : {}) };
    if (this.o.json) this.json = new JsonGrep(this.ctx.out, ranges, anchor);
    else if (!this.o.count && !this.o.filesWithMatches) this.text = new TextGrep(this.ctx.out, this.printer);
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
    this.ctx.failed(Exit.usage);
    this.ctx.out.flush();
    this.ctx.warn(e.message, display);
  }

  note(message: string, display: string | undefined): void {
    this.ctx.out.flush();
    this.ctx.warn(message, display);
  }

  flush(): void {
    this.ctx.out.flush();
  }

  finish(errors: number): void {
    this.json?.summary(errors);
  }
}
