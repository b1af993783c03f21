// What readlines and page print after their rows: the --json summary record and the footer that
// says how to go on, from the engine's summary of the read; shared by the CLI and the MCP server.

import type { PageSummary, ReadSummary } from '../engine/read.js';
import type { Words } from '../surface/words.js';
import { type Again, pageFooter, readlinesFooter } from './footer.js';
import { inputFields } from './json.js';

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
