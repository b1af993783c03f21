// `grep PATTERN [PATH...]`: the patterns (argv, -e, -f) and paths (argv, or standard input, or
// the current directory) from argv, the search through the engine, and the printing reporter
// (format/grep-report.ts) for rows, -o parts, counts, names or JSON on stdout, problems on stderr.

import { type ExitCode, grouped, LinewiseError } from '../core/errors.js';
import { splitLines } from '../core/lines.js';
import { hasRawBytes, pathFromBytes, quotePath } from '../core/path-names.js';
import { bodyOf } from '../core/terminators.js';
import { anchorOf } from '../engine/results.js';
import { type GrepOptions, type GrepReport, grepTo } from '../engine/search.js';
import { PrintingGrepReporter } from '../format/grep-report.js';
import { readOptionInput } from '../io/option-input.js';
import { type Context, rowGuard } from './context.js';
import { GUARD_MAX_ROWS } from '../core/row-guard.js';
import { cliWords } from '../surface/words.js';

/** The flags as commander parses them: those the engine takes as they are, by its own names. */
type EngineFlags = 'ignoreCase' | 'fixedStrings' | 'perlRegexp' | 'wordRegexp' | 'lineRegexp' | 'invertMatch' | 'maxCount' | 'afterContext' | 'beforeContext' | 'context';

export interface GrepArgs extends Pick<GrepOptions, EngineFlags> {
  regexp?: string[];
  /** -f: files of patterns, one a line */
  file?: string[];
  count?: boolean;
  filesWithMatches?: boolean;
  /** --files: list the files a search would read; every positional argument is a path */
  listFiles?: boolean;
  filesWithoutMatch?: boolean;
  quiet?: boolean;
  onlyMatching?: boolean;
  replace?: string;
  withFilename?: boolean;
  /** -h/--no-filename */
  noFilename?: boolean;
  null?: boolean;
  json?: boolean;
  text?: boolean;
  hidden?: boolean;
  /** --no-ignore */
  noIgnore?: boolean;
  glob?: string[];
  include?: string[];
  exclude?: string[];
  excludeDir?: string[];
  follow?: boolean;
  dereferenceRecursive?: boolean;
  /** grep's -r: with no PATH, the current directory, whatever standard input is */
  recursive?: boolean;
  /** -s/--no-messages */
  noMessages?: boolean;
  /** --skipped: name the walked files passed over as binary */
  skipped?: boolean;
  maxRows?: number;
  maxBytes?: number;
  countBytes?: number;
  after?: string;
  encoding?: string;
  /** rows `[path<TAB>]n#anchor<TAB>line` (`--anchor`) */
  anchor?: boolean;
  /** `--guard auto|always|never`: the rows' guard trailer */
  guard?: string;
  timeout?: number;
  threads?: number;
  /** scanner buffer size (tests) */
  bufferSize?: number;
}

/** A pattern no line matches: what an empty -f file gives (as in grep; -v then selects every line). */
const NEVER = '(?!)';

export async function grep(ctx: Context, first: string | undefined, rest: string[], o: GrepArgs): Promise<ExitCode> {
  const { patterns, paths, never } = o.listFiles ? { patterns: [], paths: first === undefined ? rest : [first, ...rest], never: false } : patternsAndPaths(ctx, first, rest, o);
  const guard = report(o) === 'lines' && !o.onlyMatching ? rowGuard(ctx, o, '') : undefined;
  const reporter = new PrintingGrepReporter(ctx, report(o), {
    json: o.json === true,
    nul: o.null === true,
    quietErrors: o.noMessages === true,
    skipped: o.skipped === true,
    words: cliWords('grep'),
    ...(o.anchor ? { anchor: anchorOf } : {}),
    ...(guard ? { guard } : {}),
  });
  const summary = await grepTo(reporter, patterns, paths, {
    ignoreCase: o.ignoreCase,
    fixedStrings: o.fixedStrings && !never,
    // an empty -f file's pattern that matches nothing is JavaScript's (?!)
    perlRegexp: o.perlRegexp === true || never,
    wordRegexp: o.wordRegexp,
    lineRegexp: o.lineRegexp,
    invertMatch: o.invertMatch,
    maxCount: o.maxCount,
    beforeContext: o.beforeContext,
    afterContext: o.afterContext,
    context: o.context,
    text: o.text,
    hidden: o.hidden,
    noIgnore: o.noIgnore === true,
    glob: [...(o.glob ?? []), ...(o.include ?? []), ...(o.exclude ?? []).map((g) => `!${g}`), ...(o.excludeDir ?? []).map((g) => `!${g.replace(/\/*$/, '')}/`)],
    follow: o.follow === true || o.dereferenceRecursive === true,
    encoding: o.encoding,
    timeout: o.timeout,
    threads: o.threads,
    report: report(o),
    ...(o.listFiles ? { listFiles: true } : {}),
    // rg prints each line once under --json, whatever -o says
    onlyMatching: o.onlyMatching === true && !o.json,
    ...(o.replace !== undefined ? { replace: o.replace } : {}),
    ...(o.withFilename ? { withFilename: true } : o.noFilename ? { withFilename: false } : {}),
    maxRows: o.maxRows,
    maxBytes: o.maxBytes,
    countBytes: o.countBytes,
    after: o.after,
    cwd: ctx.io.cwd,
    stdin: ctx.io.stdin,
    ...(o.bufferSize !== undefined ? { bufferSize: o.bufferSize } : {}),
  });
  if (guard?.log.overflowed) ctx.warn(`more than ${grouped(GUARD_MAX_ROWS)} rows: printed without a guard trailer, so replace --rows would write them all back (read fewer, or use --anchor)`);
  if (summary.complete) reporter.finish(summary.errors, summary.cutOff);
  return summary.status;
}

/** -q beats everything; -l with -c counts only the files that have a selected line (rg's -c). */
function report(o: GrepArgs): GrepReport {
  if (o.quiet) return 'quiet';
  if (o.filesWithoutMatch) return 'files-without';
  if (o.count) return o.filesWithMatches ? 'matching-counts' : 'counts';
  return o.filesWithMatches ? 'files' : 'lines';
}

/**
 * With -e or -f, every positional argument is a path. No path: standard input when it holds data
 * (a pipe or a file, as rg decides), unless -f already read it or -r/-R asks for a tree (grep's
 * rule: `grep -r x` searches `.`, so a harness that leaves a stdin pipe open never hangs it); else
 * the current directory.
 */
function patternsAndPaths(ctx: Context, first: string | undefined, rest: string[], o: GrepArgs): { patterns: string[]; paths: string[]; never: boolean } {
  const files = o.file ?? [];
  const byOption = (o.regexp?.length ?? 0) > 0 || files.length > 0;
  let patterns = byOption ? [...(o.regexp ?? []), ...files.flatMap((f) => patternLines(ctx, f))] : first === undefined ? [] : [first];
  let paths = byOption ? (first === undefined ? rest : [first, ...rest]) : rest;
  if (first === undefined && !byOption) throw new LinewiseError('usage', 'no pattern given: linewise grep PATTERN [PATH...] (see linewise help grep)');
  const raw = patterns.find(hasRawBytes) ?? (o.replace !== undefined && hasRawBytes(o.replace) ? o.replace : undefined);
  if (raw !== undefined) {
    const what = raw === o.replace ? 'the --replace text' : 'a pattern';
    throw new LinewiseError('usage', `${what} holds bytes that are not UTF-8 (${quotePath(raw)}); patterns see lines decoded as UTF-8, where such bytes read as U+FFFD: give the file's --encoding and write the text in UTF-8`);
  }
  const never = byOption && patterns.length === 0;
  if (never) patterns = [NEVER];
  const tree = o.recursive === true || o.dereferenceRecursive === true;
  if (paths.length === 0 && ctx.io.stdinReadable === true && !files.includes('-') && !tree) paths = ['-'];
  return { patterns, paths, never };
}

/** The patterns of a -f file: one a line, without its terminator; an empty line matches every line. */
function patternLines(ctx: Context, file: string): string[] {
  return splitLines(readOptionInput(ctx.io, file, '--file')).map((l) => pathFromBytes(bodyOf(l)));
}
