// grep: the engine's search into the CLI's printing reporter twice (rows and --json records), with
// the server's bounds, its roots as the paths to search, and the client's cancel as its signal.

import { grepTo, type GrepCutOff, type GrepReporter, type GrepSetup } from '../engine/search.js';
import type { LinewiseError } from '../core/errors.js';
import { anchorOf } from '../engine/results.js';
import { PrintingGrepReporter } from '../format/grep-report.js';
import type { ToolOutput } from './result.js';
import { BOUNDS } from './tools.js';

export interface GrepArgs {
  pattern: string;
  paths?: string[];
  fixed_strings?: boolean;
  ignore_case?: boolean;
  word?: boolean;
  context?: number;
  glob?: string[];
  max_rows?: number;
  max_bytes?: number;
  after?: string;
  anchor?: boolean;
  encoding?: string;
}

/** The reporter's calls to both printers; problems are said once (by the text printer). */
class BothReporters implements GrepReporter {
  constructor(
    readonly text: PrintingGrepReporter,
    readonly json: PrintingGrepReporter,
  ) {}
  begin(s: GrepSetup): void {
    this.text.begin(s);
    this.json.begin(s);
  }
  file(d: string): void {
    this.text.file(d);
    this.json.file(d);
  }
  endFile(): void {
    this.text.endFile();
    this.json.endFile();
  }
  match(l: number, b: Buffer, s: number, e: number): void {
    this.text.match(l, b, s, e);
    this.json.match(l, b, s, e);
  }
  context(l: number, b: Buffer, s: number, e: number): void {
    this.text.context(l, b, s, e);
    this.json.context(l, b, s, e);
  }
  gap(): void {
    this.text.gap();
    this.json.gap();
  }
  cutRow(kind: 'match' | 'context', l: number, b: Buffer, s: number, e: number, length: number): void {
    this.text.cutRow(kind, l, b, s, e, length);
    this.json.cutRow(kind, l, b, s, e, length);
  }
  error(e: LinewiseError, d: string | undefined): void {
    this.text.error(e, d);
  }
  note(m: string, d: string | undefined): void {
    this.text.note(m, d);
  }
  finish(errors: number, cutOff: GrepCutOff | undefined): void {
    this.text.finish(errors, cutOff);
    this.json.finish(errors, cutOff);
  }
}

/** Runs a grep call; `paths` are checked already (relative to `cwd`, the first root). Returns the CLI's status. */
export async function grepTool(out: ToolOutput, a: GrepArgs, paths: string[], cwd: string, signal: AbortSignal | undefined): Promise<number> {
  const anchor = a.anchor ? { anchor: anchorOf } : {};
  const reporter = new BothReporters(new PrintingGrepReporter(out.text, 'lines', { json: false, nul: false, ...anchor }), new PrintingGrepReporter(out.json, 'lines', { json: true, nul: false, ...anchor }));
  const summary = await grepTo(reporter, a.pattern, paths, {
    fixedStrings: a.fixed_strings,
    ignoreCase: a.ignore_case,
    wordRegexp: a.word,
    context: a.context,
    glob: a.glob ?? [],
    maxRows: a.max_rows ?? BOUNDS.grepRows,
    maxBytes: a.max_bytes ?? BOUNDS.maxBytes,
    after: a.after,
    encoding: a.encoding,
    cwd,
    ...(signal ? { signal } : {}),
  });
  if (summary.complete) reporter.finish(summary.errors, summary.cutOff);
  return summary.status;
}
