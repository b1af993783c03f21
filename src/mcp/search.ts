// grep: the engine's search into the CLI's printing reporter twice (rows and --json records), with
// the server's bounds, the client's cancel as its signal, and a warm engine: walks, contents and
// the files a search found nothing in kept between calls, each revalidated before use.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { Exit, type LinewiseError } from '../core/errors.js';
import { parseCursor } from '../engine/grep-budget.js';
import { grepTo, type GrepCutOff, type GrepReporter, type GrepSetup, type GrepSummary } from '../engine/search.js';
import { type FileKey, sameFile } from '../io/file-cache.js';
import type { WalkCache } from '../io/walk-cache.js';
import type { WalkProblem } from '../io/walk.js';
import { anchorOf } from '../engine/results.js';
import { PrintingGrepReporter } from '../format/grep-report.js';
import { mcpWords } from '../surface/words.js';
import { ToolOutput, type ToolResult } from './result.js';
import { SERVER_BOUNDS as BOUNDS } from '../surface/options.js';
import { rowBytes, searchTimedOut } from './bounds.js';
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
  /** the files searched to their end with no line selected */
  readonly none: string[] = [];
  /** the search was cut by its deadline: the call fails with this (in the tool's words) */
  timedOut: LinewiseError | undefined;

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
  endFile(display?: string, selected?: number): void {
    if (display !== undefined && selected === 0) this.none.push(display);
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
  cutRow(kind: 'match' | 'context', l: number, b: Buffer, s: number, e: number, length: number, column?: number, from?: number): void {
    this.text.cutRow(kind, l, b, s, e, length, column, from);
    this.json.cutRow(kind, l, b, s, e, length, column, from);
  }
  restRow(kind: 'match' | 'context', l: number, from: number, b: Buffer, s: number, e: number): void {
    this.text.restRow(kind, l, from, b, s, e);
    this.json.restRow(kind, l, from, b, s, e);
  }
  error(e: LinewiseError, d: string | undefined): void {
    if (e.code === 'timeout') this.timedOut = searchTimedOut(e);
    else this.text.error(e, d);
  }
  note(m: string, d: string | undefined): void {
    this.text.note(m, d);
  }
  finish(errors: number, cutOff: GrepCutOff | undefined): void {
    this.text.finish(errors, cutOff);
    this.json.finish(errors, cutOff);
  }
}

/** A file to search: how rows name it, and where it is. */
interface Target {
  display: string;
  abs: string;
}

/**
 * Runs a grep call; `paths` are checked already (relative to the first root), and each file is
 * checked again once opened (a link swapped in after the check is refused). The walks
 * come from `warm` when their trees did not change; the same call over the same unchanged files
 * gets the answer it got then; files known to hold no match for this search are passed over
 * unopened, and the others read from memory when unchanged. The rows are those of a search from
 * scratch, and so is the answer: only its `status` and text tell the CLI's exit status.
 */
export async function grepTool(a: GrepArgs, paths: string[], roots: Roots, signal: AbortSignal | undefined, warm: Warm): Promise<ToolResult> {
  const cwd = roots.cwd;
  const { targets, multi, problems } = await inputs(paths, roots, a.glob ?? [], warm.walks);
  const call = JSON.stringify([cwd, paths, a]);
  const selection = searchKey(a);
  const looks = targets.map((t) => warm.files.look(t.abs, selection));
  const basis: [string, FileKey][] | undefined = looks.every((l) => l !== undefined) && problems.length === 0 ? targets.map((t, i) => [t.abs, looks[i]!.key]) : undefined;
  const digest = basis && digestOf(basis);
  const known = digest && warm.answer(call, digest);
  if (known) return known;
  const { result, opened, skip, complete } = await search(a, { targets, multi, problems, looks }, roots, signal, warm);
  // Kept only when every file searched was opened as it was looked at (none changed meanwhile).
  const unchanged = targets.every((t, i) => {
    if (skip[i]) return true;
    const k = opened.get(t.abs);
    return k !== undefined && looks[i] !== undefined && sameFile(k, looks[i].key);
  });
  if (basis && digest && unchanged && complete) warm.keep(call, basis, digest, result);
  return result;
}

/** The inputs of a grep call, and what the cache knows of each. */
interface Inputs {
  targets: Target[];
  multi: boolean;
  problems: WalkProblem[];
  looks: ({ key: FileKey; none: boolean } | undefined)[];
}

/**
 * Searches the inputs (but the files known to hold no match) through the engine, into the CLI's
 * printers; records the files where nothing was selected. `complete`: no error, no cut-off.
 */
async function search(a: GrepArgs, i: Inputs, roots: Roots, signal: AbortSignal | undefined, warm: Warm) {
  const out = new ToolOutput();
  const anchor = a.anchor ? { anchor: anchorOf } : {};
  const reporter = new BothReporters(new PrintingGrepReporter(out.text, 'lines', { json: false, nul: false, words: mcpWords('grep'), ...anchor }), new PrintingGrepReporter(out.json, 'lines', { json: true, nul: false, words: mcpWords('grep'), ...anchor }));
  for (const p of i.problems) {
    if (p.note) reporter.note(p.error.message, p.error.path);
    else reporter.error(p.error, p.error.path);
  }
  const errors = i.problems.filter((p) => !p.note).length;
  const keep = a.after === undefined ? undefined : parseCursor(a.after).path; // the cursor's file is always searched
  const skip = i.targets.map((t, k) => t.display !== keep && i.looks[k]?.none === true);
  const passed = i.targets.filter((_, k) => skip[k]);
  const searched = i.targets.filter((_, k) => !skip[k]);
  const opened = new Map<string, FileKey>();
  const files = { open: (abs: string, name: string) => warm.files.open(abs, name, (key) => opened.set(abs, key)) };
  let summary: GrepSummary = { status: Exit.noMatch, errors: 0, complete: true };
  if (searched.length > 0) {
    summary = await grepTo(reporter, a.pattern, searched.map((t) => t.display), {
      fixedStrings: a.fixed_strings,
      ignoreCase: a.ignore_case,
      wordRegexp: a.word,
      context: a.context,
      maxRows: a.max_rows ?? BOUNDS.grepRows,
      maxBytes: rowBytes(a.max_bytes),
      bufferSize: CANCEL_BLOCK,
      after: a.after,
      encoding: a.encoding,
      withFilename: i.multi,
      cwd: roots.cwd,
      confine: roots,
      files,
      ...(signal ? { signal } : {}),
    });
  } else reporter.begin({ withPath: i.multi, ranges: undefined });
  if (reporter.timedOut) return { result: out.failed(reporter.timedOut), opened, skip, complete: false };
  if (!summary.complete) return { result: out.done(summary.status), opened, skip, complete: false };
  // Files passed over were searched before and held no match: reported as such (JSON counts them).
  for (const t of passed) {
    reporter.file(t.display);
    reporter.endFile();
  }
  // A budget stops the search part-way into a file: only a run that went to the end tells "none".
  if (summary.cutOff === undefined) {
    const selection = searchKey(a);
    const abs = new Map(searched.map((t) => [t.display, t.abs]));
    for (const d of reporter.none) {
      const f = abs.get(d);
      const key = f === undefined ? undefined : opened.get(f);
      if (key !== undefined) warm.files.selectedNone(f!, selection, key);
    }
  }
  reporter.finish(summary.errors + errors, summary.cutOff);
  const status = errors > 0 ? Exit.usage : summary.status;
  if (status === Exit.noMatch) out.note("no line matches (the CLI's exit status 1)");
  return { result: out.done(status), opened, skip, complete: summary.errors === 0 && errors === 0 };
}

/** What decides whether a line is selected: a search that found none in a file finds none again there. */
const searchKey = (a: GrepArgs) => JSON.stringify([a.pattern, a.fixed_strings === true, a.ignore_case === true, a.word === true, a.encoding ?? null]);

/**
 * The files a grep of `paths` searches, as the CLI lists them (engine/grep-inputs.ts): named files
 * as given, directories walked (from the cache when unchanged); no paths: the first root.
 */
async function inputs(paths: readonly string[], roots: Roots, globs: readonly string[], walks: WalkCache): Promise<{ targets: Target[]; multi: boolean; problems: WalkProblem[] }> {
  const cwd = roots.cwd;
  const o = { hidden: false, noIgnore: false, globs, follow: false };
  const targets: Target[] = [];
  const problems: WalkProblem[] = [];
  const walked = async (dirAbs: string, display: string | undefined) => {
    // The walk lists directories by path: its root is checked again just before (a link swapped
    // in since the call's check would list a directory outside; its files would be refused as
    // opened, but their names would show).
    roots.check(dirAbs, 'paths');
    for (const item of await walks.walk(dirAbs, display, o)) {
      if ('error' in item) problems.push(item);
      else targets.push({ display: item.display, abs: item.abs });
    }
  };
  if (paths.length === 0) {
    await walked(path.resolve(cwd), undefined);
    return { targets, multi: true, problems };
  }
  let dirs = false;
  for (const p of paths) {
    const abs = path.resolve(cwd, p);
    if (fs.statSync(abs, { throwIfNoEntry: false })?.isDirectory()) {
      dirs = true;
      await walked(abs, p);
    } else targets.push({ display: p, abs });
  }
  return { targets, multi: paths.length !== 1 || dirs, problems };
}
