// What readers print after their rows: the footers (what a page, a capped readlines or a cut grep
// showed and how to go on, worded in the reader's surface: a command line, an MCP tool's
// arguments, surface/words.ts) and readlines' and page's --json summary records; shared by the
// CLI and the MCP server.

import { plural } from '../core/errors.js';
import type { GrepCutOff } from '../engine/grep-budget.js';
import type { PageSummary, ReadSummary } from '../engine/read.js';
import type { Words } from '../surface/words.js';
import { inputFields } from './json.js';

/** Options a footer's call repeats so that it reads as this read did (`encoding`). */
export type Again = Record<string, unknown>;

/** What a page footer reports. `total` is undefined when the count stopped at its bound. */
export interface FooterInfo {
  /** 1-based number of the first row shown */
  first: number;
  /** rows shown */
  shown: number;
  total: number | undefined;
  /** a line shown cut: its number, bytes shown from byte `from`, and full length (undefined if not counted) */
  cut?: { line: number; shown: number; length: number | undefined; from?: number; path: string; options?: Again };
  /** the page's byte cap, which the call that goes on inside a cut line repeats */
  maxBytes?: number;
  /** `--last N`: lines of the N left out at the top because the byte cap could not hold them */
  dropped?: number | undefined;
  /** the file, for the command that reads the dropped lines */
  path?: string;
  options?: Again;
}

/**
 * The footer of a page, without its leading blank line or final newline, e.g.
 * `[Read 2 lines (lines 1-2 of 5 total). 3 lines remaining from offset 2.]`.
 * Returns undefined at the end of the file when nothing was cut: no footer then.
 */
export function pageFooter(f: FooterInfo, words: Words): string | undefined {
  const last = f.first + f.shown - 1;
  const next = last; // the next offset is the number of lines before the next unread one
  const remaining = f.total === undefined ? undefined : f.total - last;
  const more = remaining === undefined || remaining > 0;
  const dropped = f.dropped ?? 0;
  if (!more && !f.cut && dropped === 0) return undefined;
  let text = `[Read ${plural(f.shown)} (lines ${f.first}-${last}`;
  if (remaining !== undefined) {
    text += ` of ${f.total} total).`;
    if (remaining > 0) text += ` ${plural(remaining)} remaining from offset ${next}.`;
  } else {
    text += `). More lines remain from offset ${next}.`;
  }
  if (dropped > 0) {
    const from = f.first - dropped;
    const them = dropped === 1 ? `line ${from}` : `lines ${from}-${f.first - 1}`;
    text +=
      ` The ${plural(dropped)} before ${f.shown === 1 ? 'it' : 'them'} (${them}) did not fit ${words.name('maxBytes')};` +
      ` read ${dropped === 1 ? 'it' : 'them'} with: ${words.call('readlines', { path: f.path ?? '-', start: from, end: f.first - 1, ...f.options })}` +
      (f.cut ? '.' : '');
  }
  if (f.cut) {
    const at = (f.cut.from ?? 0) + f.cut.shown;
    const inside = words.call('page', { path: f.cut.path, offset: f.cut.line - 1, maxBytes: f.maxBytes, fromByte: at, ...(f.cut.options ?? {}) });
    text += ` ${cutSentence(f.cut, f.cut.path, f.cut.options ?? {}, words, false, inside)}`;
  }
  return text + ']';
}

/**
 * The sentence of every footer about a line shown cut: `Line 17 was cut at 65530 of 104857600
 * bytes; read it whole with: linewise readlines FILE 17 17` (`of FILE` after the number when
 * the rows name several files).
 */
function cutSentence(cut: { line: number; shown: number; length: number | undefined; from?: number }, path: string, options: Again, words: Words, namePath = false, inside?: string): string {
  const at = (cut.from ?? 0) + cut.shown;
  const of = cut.length === undefined ? `more than ${at}` : `of ${cut.length}`;
  const whole = `read it whole with: ${words.call('readlines', { path, start: cut.line, end: cut.line, ...options })}`;
  // the cursor inside the line first: following it, no byte is shown twice or never (issue 24.4)
  const go = inside === undefined ? whole : `go on inside it with: ${inside}; or ${whole}`;
  return `Line ${cut.line}${namePath ? ` of ${path}` : ''} was cut at ${at} ${of} bytes; ${go}`;
}

/** grep's footer: the cut-off, and whether the rows are files (-c, -l, --files-without-match). */
export interface GrepFooterInfo extends GrepCutOff {
  fileRows: boolean;
}

/**
 * grep's footer when a budget (--max-rows, --max-bytes) cut its output, e.g.
 * `[Read 7 of 23 matching lines (in 2 of 6 files). Run the same command with --after a.txt:17 to go on.]`.
 * The counts are of what follows the cursor the search started from; "more remain" when
 * counting stopped at its bound.
 */
export function grepFooter(f: GrepFooterInfo, words: Words): string {
  let text: string;
  if (f.fileRows) {
    text = f.total === undefined ? `[Read ${plural(f.shown, 'file')}; more remain.` : `[Read ${f.shown} of ${plural(f.total, 'file')}.`;
  } else {
    const lines =
      f.total === undefined || f.totalFiles === undefined
        ? `${plural(f.shown, 'matching line')} (in ${plural(f.files, 'file')}); more remain`
        : `${f.shown} of ${plural(f.total, 'matching line')} (in ${f.files} of ${plural(f.totalFiles, 'file')})`;
    text = f.rows === f.shown ? `[Read ${lines}.` : `[Read ${plural(f.rows, 'row')}: ${lines}.`;
  }
  text += ` ${words.sameWith('after', f.after)} to go on.`;
  if (f.matches) {
    const m = f.matches;
    text += ` Line ${m.line} of ${m.path}: ${m.shown} of its ${m.total} matches shown; read it whole with: ${words.call('readlines', { path: m.path, start: m.line, end: m.line })}`;
  } else if (f.cut) text += ` ${cutSentence(f.cut, f.cut.path, {}, words, true)}`;
  return text + ']';
}

/** What readlines' footer reports when --max-bytes stopped the rows before END. */
export interface ReadlinesFooterInfo {
  path: string;
  first: number;
  shown: number;
  /** the END asked for (undefined: to the end of the file) */
  end: number | undefined;
  /** the line to go on from; undefined when only a cut line is to report */
  next: number | undefined;
  /** lines not shown, up to END; undefined when not counted */
  left: number | undefined;
  maxBytes: number;
  cut?: { line: number; shown: number; length: number | undefined; from?: number } | undefined;
  /** options the calls in the footer repeat (`encoding`) */
  options: Again;
}

/**
 * readlines' footer when --max-bytes stopped its rows, e.g.
 * `[Read 3 lines (lines 10-12); 8 more lines did not fit --max-bytes 100. Go on with: linewise readlines f.txt 13 20 --max-bytes 100]`.
 */
export function readlinesFooter(f: ReadlinesFooterInfo, words: Words): string {
  let text = `[Read ${plural(f.shown)} (lines ${f.first}-${f.first + f.shown - 1})`;
  if (f.cut) {
    // A line cut: the one way on is from inside it, to END, under the same cap.
    const at = (f.cut.from ?? 0) + f.cut.shown;
    const inside = words.call('readlines', { path: f.path, start: f.cut.line, end: f.end, maxBytes: f.maxBytes || undefined, fromByte: at, ...f.options });
    return `${text}. ${cutSentence(f.cut, f.path, f.options, words, false, inside)}]`;
  }
  if (f.next !== undefined) {
    const more = f.left === undefined ? 'more lines' : `${f.left} more ${f.left === 1 ? 'line' : 'lines'}`;
    const go = words.call('readlines', { path: f.path, start: f.next, end: f.end, maxBytes: f.maxBytes, ...f.options });
    text += `; ${more} did not fit ${words.set('maxBytes', f.maxBytes)}. Go on with: ${go}`;
  } else text += '.';
  if (f.cut) text += `${f.next !== undefined ? ';' : ''} ${cutSentence(f.cut, f.path, f.options, words)}`;
  return text + ']';
}

// ---- from the engine's summaries: readlines and page

/** The options a footer's call repeats so that it decodes as this read did (`encoding`). */
const readAgain = (encoding: string | undefined, decoded: string | undefined): Again => (encoding !== undefined && decoded !== undefined ? { encoding } : {});

/** readlines' `--json` summary record. */
export function readlinesRecord(r: ReadSummary): Record<string, unknown> {
  const more = r.next === undefined ? {} : { next_start: r.next, left: r.left ?? null };
  return { type: 'summary', path: r.path, start: r.start, end: r.start + r.shown - 1, lines: r.shown, ...more, cut: r.cut ?? null, ...inputFields(r) };
}

/**
 * readlines' footer (without the blank line before it), when `maxBytes` stopped the rows before
 * END or cut a line; else undefined. `end` and `encoding` are as the caller asked.
 */
export function readlinesFooterOf(r: ReadSummary, end: number | undefined, maxBytes: number | undefined, encoding: string | undefined, words: Words): string | undefined {
  if (r.next === undefined && r.cut === undefined) return undefined;
  return readlinesFooter({ path: r.path, first: r.start, shown: r.shown, end, next: r.next, left: r.left, maxBytes: maxBytes ?? 0, cut: r.cut, options: readAgain(encoding, r.encoding) }, words);
}

/** page's `--json` summary record. */
export function pageRecord(r: PageSummary): Record<string, unknown> {
  return {
    type: 'summary',
    path: r.path,
    offset: r.offset,
    lines: r.shown,
    first: r.shown > 0 ? r.first : null,
    last: r.shown > 0 ? r.first + r.shown - 1 : null,
    total: r.total ?? null,
    remaining: r.total === undefined ? null : r.total - r.first + 1 - r.shown,
    next_offset: r.nextOffset ?? null,
    cut: r.cut ?? null,
    ...(r.dropped !== undefined ? { dropped: r.dropped } : {}),
    ...inputFields(r),
  };
}

/** page's footer (without the blank line before it), or undefined at the end of the file. */
export function pageFooterOf(r: PageSummary, encoding: string | undefined, words: Words, maxBytes?: number): string | undefined {
  if (r.shown === 0) return undefined;
  const options = readAgain(encoding, r.encoding);
  return pageFooter({ first: r.first, shown: r.shown, total: r.total, dropped: r.dropped, path: r.path, options, maxBytes, ...(r.cut ? { cut: { ...r.cut, path: r.path, options } } : {}) }, words);
}
