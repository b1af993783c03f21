// grep and find_files: the inputs resolved as the CLI resolves them (engine/grep-inputs.ts: files,
// directories walked, globs expanded) but through the server's walk cache and its roots; the
// engine's search into the CLI's row printer and a record of positions and counts; files passed
// over (binary, unreadable, too large) summed in one line; and a warm engine: walks, contents and
// the files a search found nothing in kept between calls, each revalidated before use.

import { Exit, LinewiseError } from '../core/errors.js';
import { rangePairs } from '../core/match-ranges.js';
import { parseCursor } from '../engine/grep-budget.js';
import { type GrepItem, grepInputs } from '../engine/grep-inputs.js';
import { grepTo, type GrepCutOff, type GrepReport, type GrepReporter, type GrepSetup, type GrepSummary } from '../engine/search.js';
import { type FileKey, sameFile } from '../io/file-cache.js';
import type { SearchTarget, WalkOptions } from '../io/walk.js';
import { anchorOf } from '../engine/results.js';
import { PrintingGrepReporter } from '../format/grep-report.js';
import { writeRecord } from '../format/json.js';
import { mcpWords } from '../surface/words.js';
import { ToolOutput, type ToolResult } from './result.js';
import { rowBytes } from './bounds.js';
import type { Roots } from './roots.js';
import { digestOf, type Warm } from './warm.js';

/**
 * The block of lines the search reads and hands to the pattern at once (the CLI reads 128 KiB).
 * A cancel can only be heard between blocks: the event loop, where the client's
 * notifications/cancelled arrives, does not run while a pattern runs over one. A small block
 * bounds that wait by what the pattern costs on 8 KiB of lines, not on 128 KiB; it also keeps
 * each file's scanner buffer small (one is made per file).
 */
export const CANCEL_BLOCK = 8 << 10;

/** grep's and find_files' arguments, checked, by the library's names (surface/tools.ts). */
export interface GrepArgs {
  pattern?: string;
  paths?: string[];
  fixedStrings?: boolean;
  perlRegexp?: boolean;
  ignoreCase?: boolean;
  wordRegexp?: boolean;
  lineRegexp?: boolean;
  invertMatch?: boolean;
  context?: number;
  maxCount?: number;
  glob?: string[];
  hidden?: boolean;
  noIgnore?: boolean;
  filesWithMatches?: boolean;
  count?: boolean;
  onlyMatching?: boolean;
  replace?: string;
  maxRows: number;
  maxBytes: number;
  after?: string;
  anchor?: boolean;
  encoding?: string;
  /** list each file not searched instead of one line counting them */
  skipped?: boolean;
  /** find_files: list the files a search would read, search nothing */
  listFiles?: boolean;
}

/** What the rows are: lines, or a file a row (-l, -c as rg prints it: files with a match only). */
function reportOf(a: GrepArgs): GrepReport {
  if (a.listFiles || a.filesWithMatches) return a.count && !a.listFiles ? 'matching-counts' : 'files';
  return a.count ? 'matching-counts' : 'lines';
}

/** Why a file was not searched, for the one line that counts them; undefined: not a file passed over. */
function skipKind(code: string | undefined, message: string): string | undefined {
  if (code === undefined) return /not searched|not followed/.test(message) ? (/binary|byte order mark/.test(message) ? 'binary' : /longer than/.test(message) ? 'too large' : 'other') : undefined;
  if (code === 'eacces' || code === 'eperm') return 'unreadable';
  if (code === 'efbig' || code === 'line-too-long') return 'too large';
  return undefined;
}

/**
 * The structured side of a grep: positions of matches and parts (no line text: that is in the
 * rows), a file's count, and the summary with the cursor to go on; records past `budget` bytes
 * are left out (the summary says so), so this side costs no more than the rows.
 */
class Positions implements GrepReporter {
  private path = '';
  private ranges: GrepSetup['ranges'];
  private spent = 0;
  private truncated = false;
  matchedLines = 0;
  fileRows = 0;

  constructor(
    private readonly out: ToolOutput,
    private readonly budget: number,
  ) {}

  private record(r: Record<string, unknown>): void {
    const cost = JSON.stringify(r).length + 1;
    if (this.truncated || this.spent + cost > this.budget) {
      this.truncated = true;
      return;
    }
    this.spent += cost;
    writeRecord(this.out.json.out, r);
  }
  begin(s: GrepSetup): void {
    this.ranges = s.ranges;
  }
  file(d: string): void {
    this.path = d;
  }
  endFile(): void {}
  match(line: number, buf: Buffer, start: number, end: number): void {
    this.matchedLines++;
    this.record({ type: 'match', path: this.path, line, ranges: this.ranges === undefined ? [] : rangePairs(this.ranges(buf, start, end)) });
  }
  replacedMatch(line: number): void {
    this.matchedLines++;
    this.record({ type: 'match', path: this.path, line });
  }
  part(line: number, column: number, _buf: Buffer, start: number, end: number): void {
    this.record({ type: 'part', path: this.path, line, column, length: end - start });
  }
  context(): void {}
  gap(): void {}
  cutRow(kind: 'match' | 'context', line: number, _buf: Buffer, start: number, end: number, length: number, from = 0): void {
    if (kind === 'match' && from === 0) this.matchedLines++;
    this.record({ type: kind, path: this.path, line, cut: { ...(from > 0 ? { from } : {}), shown: end - start, length } });
  }
  /** the rest of a line cut before, from byte `from` of it to its end */
  restRow(kind: 'match' | 'context', line: number, from: number, _buf: Buffer, start: number, end: number): void {
    this.record({ type: kind, path: this.path, line, rest: { from, shown: end - start } });
  }
  fileRow(display: string, selected: number, counts = false): void {
    this.fileRows++;
    this.record({ type: 'file', path: display, ...(counts ? { count: selected } : {}) });
  }
  error(): void {}
  note(): void {}
  /** The last record: what was shown (lines, or file rows under -l, -c and find_files), problems, the cursor. */
  summary(fileRows: boolean, errors: number, skipped: number, cutOff: GrepCutOff | undefined): void {
    const cut = cutOff && { rows: cutOff.rows, shown: cutOff.shown, total: cutOff.total ?? null, files: cutOff.files, total_files: cutOff.totalFiles ?? null, after: cutOff.after };
    const shown = fileRows ? { files: this.fileRows } : { matched_lines: this.matchedLines };
    writeRecord(this.out.json.out, { type: 'summary', ...shown, errors, skipped, ...(cut ? { cut_off: cut } : {}), ...(this.truncated ? { records_cut: true } : {}) });
  }
}

/** The engine's report to the row printer and the positions; files passed over counted apart. */
class ToolReporter implements GrepReporter {
  /** the files searched to their end with no line selected */
  readonly none: string[] = [];
  /** the files passed over: where, and why */
  readonly passed: { display: string | undefined; message: string; kind: string }[] = [];
  /** the search was cut by its deadline: the call fails with this (the engine's --timeout, which no tool offers) */
  timedOut: LinewiseError | undefined;

  constructor(
    readonly text: PrintingGrepReporter,
    readonly positions: Positions,
    private readonly counts: boolean,
  ) {}
  begin(s: GrepSetup): void {
    this.text.begin(s);
    this.positions.begin(s);
  }
  file(d: string): void {
    this.text.file(d);
    this.positions.file(d);
  }
  endFile(display: string, selected: number): void {
    if (selected === 0) this.none.push(display);
    this.text.endFile();
  }
  match(l: number, b: Buffer, s: number, e: number): void {
    this.text.match(l, b, s, e);
    this.positions.match(l, b, s, e);
  }
  replacedMatch(l: number, b: Buffer, s: number, e: number, original: Buffer): void {
    this.text.replacedMatch(l, b, s, e, original);
    this.positions.replacedMatch(l);
  }
  part(l: number, column: number, b: Buffer, s: number, e: number): void {
    this.text.part(l, column, b, s, e);
    this.positions.part(l, column, b, s, e);
  }
  context(l: number, b: Buffer, s: number, e: number): void {
    this.text.context(l, b, s, e);
  }
  gap(): void {
    this.text.gap();
  }
  cutRow(kind: 'match' | 'context', l: number, b: Buffer, s: number, e: number, length: number, column?: number, from?: number): void {
    this.text.cutRow(kind, l, b, s, e, length, column, from);
    this.positions.cutRow(kind, l, b, s, e, length, from);
  }
  restRow(kind: 'match' | 'context', l: number, from: number, b: Buffer, s: number, e: number): void {
    this.text.restRow(kind, l, from, b, s, e);
    this.positions.restRow(kind, l, from, b, s, e);
  }
  fileRow(display: string, selected: number): void {
    this.text.fileRow(display, selected);
    this.positions.fileRow(display, selected, this.counts);
  }
  error(e: LinewiseError, d: string | undefined): void {
    if (e.code === 'timeout') {
      this.timedOut ??= new LinewiseError(e.code, `${e.message}; the rows below were found before it stopped`, e.path, e.exitCode);
      return;
    }
    const kind = skipKind(e.code, e.message);
    if (kind === undefined) this.text.error(e, d);
    else this.passed.push({ display: d ?? e.path, message: e.message, kind });
  }
  note(m: string, d: string | undefined): void {
    const kind = skipKind(undefined, m);
    if (kind === undefined) this.text.note(m, d);
    else this.passed.push({ display: d, message: m, kind });
  }
  skipped(d: string, why: string): void {
    this.passed.push({ display: d, message: why, kind: 'binary' });
  }
  finish(errors: number, cutOff: GrepCutOff | undefined): void {
    this.text.finish(errors, cutOff);
  }
}

/**
 * Runs a grep or find_files call; `paths` are checked already (relative to the first root).
 * Directories, and each file a glob matches, are checked against the roots as they are found, and
 * each file again once opened (a link swapped in after the check is refused). The walks come
 * from `warm` when their trees did not change; the same call over the same unchanged files gets
 * the answer it got then; files known to hold no match for this search are passed over unopened,
 * and the others read from memory when unchanged. The rows are those of a search from scratch,
 * and so is the answer: only its `status` and text tell the CLI's exit status.
 */
export async function grepTool(a: GrepArgs, paths: string[], roots: Roots, signal: AbortSignal | undefined, warm: Warm): Promise<ToolResult> {
  const walk: WalkOptions = { hidden: a.hidden === true, noIgnore: a.noIgnore === true, globs: a.glob ?? [], follow: false };
  const { list, multi } = await grepInputs(roots.cwd, paths, walk, {
    walk: (abs, display, o) => warm.walks.walk(abs, display, o),
    // The walk lists directories by path: its root is checked just before (a link swapped in
    // since the call's check would list a directory outside; its files would be refused as
    // opened, but their names would show).
    allow: (abs) => void roots.check(abs, 'paths'),
  });
  const items = list as GrepItem[];
  const targets = items.filter((i): i is SearchTarget => !('error' in i));
  const clean = targets.length === items.length;
  const call = JSON.stringify([roots.cwd, paths, a]);
  const selection = searchKey(a);
  const looks = a.listFiles ? targets.map(() => undefined) : targets.map((t) => warm.files.look(t.abs, selection));
  const basis: [string, FileKey][] | undefined = !a.listFiles && clean && looks.every((l) => l !== undefined) ? targets.map((t, i) => [t.abs, looks[i]!.key]) : undefined;
  const digest = basis && digestOf(basis);
  const known = digest && warm.answer(call, digest);
  if (known) return known;
  const { result, opened, complete } = await search(a, paths, items, multi, looks, roots, signal, warm);
  // Kept only when every file searched was opened as it was looked at (none changed meanwhile).
  const unchanged = targets.every((t, i) => {
    if (looks[i]?.none === true) return true;
    const k = opened.get(t.abs);
    return k !== undefined && looks[i] !== undefined && sameFile(k, looks[i].key);
  });
  if (basis && digest && unchanged && complete) warm.keep(call, basis, digest, result);
  return result;
}

/** find_files: the files a search of `paths` would read, listed, none opened. */
export function findFilesTool(a: GrepArgs, paths: string[], roots: Roots, signal: AbortSignal | undefined, warm: Warm): Promise<ToolResult> {
  return grepTool({ ...a, listFiles: true }, paths, roots, signal, warm);
}

/** The tools that search (and so run on the server's search threads, search-threads.ts). */
export type SearchToolName = 'grep' | 'find_files';

/** Runs search tool `tool`, on whichever thread calls it. */
export function searchTool(tool: SearchToolName, a: GrepArgs, paths: string[], roots: Roots, signal: AbortSignal | undefined, warm: Warm): Promise<ToolResult> {
  return (tool === 'find_files' ? findFilesTool : grepTool)(a, paths, roots, signal, warm);
}

/**
 * Searches the inputs (but the files known to hold no match) through the engine, into the row
 * printer and the positions; records the files where nothing was selected. `complete`: no
 * error, no cut-off.
 */
async function search(a: GrepArgs, paths: string[], items: GrepItem[], multi: boolean, looks: ({ none: boolean } | undefined)[], roots: Roots, signal: AbortSignal | undefined, warm: Warm) {
  const tool = a.listFiles ? 'find_files' : 'grep';
  const out = new ToolOutput(tool);
  const report = reportOf(a);
  const maxBytes = rowBytes(a.maxBytes);
  const anchor = a.anchor ? { anchor: anchorOf } : {};
  const reporter = new ToolReporter(
    new PrintingGrepReporter(out.text, report, { json: false, nul: false, words: mcpWords('grep', tool), ...anchor }),
    new Positions(out, maxBytes),
    a.count === true,
  );
  const keep = a.after === undefined ? undefined : parseCursor(a.after).path; // the cursor's file is always searched
  let k = 0;
  const skip = new Set<SearchTarget>();
  for (const i of items) if (!('error' in i) && looks[k++]?.none === true && i.display !== keep) skip.add(i);
  const opened = new Map<string, FileKey>();
  const files = { open: (abs: string, name: string) => warm.files.open(abs, name, (key) => opened.set(abs, key)) };
  const summary: GrepSummary = await grepTo(reporter, a.pattern ?? [], paths, {
    fixedStrings: a.fixedStrings,
    perlRegexp: a.perlRegexp,
    ignoreCase: a.ignoreCase,
    wordRegexp: a.wordRegexp,
    lineRegexp: a.lineRegexp,
    invertMatch: a.invertMatch,
    maxCount: a.maxCount,
    context: a.context,
    report,
    ...(a.listFiles ? { listFiles: true } : {}),
    onlyMatching: a.onlyMatching === true,
    ...(a.replace !== undefined ? { replace: a.replace } : {}),
    maxRows: a.maxRows,
    maxBytes,
    bufferSize: CANCEL_BLOCK,
    after: a.after,
    encoding: a.encoding,
    withFilename: multi || paths.length !== 1,
    cwd: roots.cwd,
    confine: roots,
    files,
    inputs: { list: items.filter((i) => !skip.has(i as SearchTarget)), multi },
    ...(signal ? { signal } : {}),
  });
  if (reporter.timedOut) return { result: out.failed(reporter.timedOut), opened, complete: false };
  if (!summary.complete) return { result: out.done(summary.status), opened, complete: false };
  // A budget stops the search part-way into a file: only a run that went to the end tells "none".
  if (summary.cutOff === undefined && !a.listFiles) {
    const selection = searchKey(a);
    const abs = new Map(items.filter((i): i is SearchTarget => !('error' in i)).map((t) => [t.display, t.abs]));
    for (const d of reporter.none) {
      const f = abs.get(d);
      const key = f === undefined ? undefined : opened.get(f);
      if (key !== undefined) warm.files.selectedNone(f!, selection, key);
    }
  }
  reporter.finish(summary.errors, summary.cutOff);
  passedOver(out, reporter.passed, a.skipped === true || a.listFiles === true, tool);
  reporter.positions.summary(report !== 'lines', summary.errors, reporter.passed.length, summary.cutOff);
  if (summary.status === Exit.noMatch) out.note(a.listFiles ? 'no file to list' : "no line matches (the CLI's exit status 1)");
  return { result: out.done(summary.status), opened, complete: summary.errors === 0 };
}

/**
 * The files passed over: one line counting them by why (binary, unreadable, too large), or, when
 * the call asks with `skipped` (find_files always: it opens none, so only a walk's problems are
 * here), each on its own line. Unreadable ones were errors to the CLI: the status says so still.
 */
function passedOver(out: ToolOutput, passed: ToolReporter['passed'], list: boolean, tool: string): void {
  if (passed.length === 0) return;
  if (list) {
    for (const p of passed) out.note(p.message, p.display);
    return;
  }
  const kinds = new Map<string, number>();
  for (const p of passed) kinds.set(p.kind, (kinds.get(p.kind) ?? 0) + 1);
  const why = [...kinds].map(([kind, n]) => `${n} ${kind}`).join(', ');
  out.note(`${passed.length} ${passed.length === 1 ? 'file' : 'files'} not searched (${why}); call ${tool} again with skipped: true to list them`);
}

/** What decides whether a line is selected: a search that found none in a file finds none again there. */
const searchKey = (a: GrepArgs) => JSON.stringify([a.pattern, a.fixedStrings === true, a.perlRegexp === true, a.ignoreCase === true, a.wordRegexp === true, a.lineRegexp === true, a.invertMatch === true, a.encoding ?? null]);
