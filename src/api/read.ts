// The read side as functions: readLines and page, over the same core and defaults as the CLI.

import { PAGE_DEFAULTS } from '../commands/page.js';
import { withPath } from '../core/errors.js';
import { readPage, readRange } from '../core/read.js';
import type { Bom } from '../core/sniff.js';
import { openText } from '../io/text.js';
import { count, libraryIo, type Line, LineCollector } from './collect.js';
import { checkEncodingLoaded } from './encoding.js';

/** Options every function that reads a file takes. */
export interface ReadOptions {
  /** read a file with NUL bytes as text instead of refusing it as binary (the CLI's `-a/--text`) */
  text?: boolean;
  /**
   * The file's encoding (the CLI's `--encoding NAME`: latin1, windows-1252, shift_jis, utf-16le,
   * ...): lines are decoded, and `bytes` and `text` are then UTF-8. Undefined: the file's own
   * bytes, except that a UTF-16 file with a byte order mark is decoded without asking. The
   * synchronous functions need {@link loadEncoding} awaited once first for names other than
   * UTF-8 and UTF-16; `grep` and `replace` load it themselves.
   */
  encoding?: string;
}

/**
 * Lines `start` to `end` (1-based, inclusive) of the file at `path`, as `linewise readlines`
 * prints them. `end` omitted: to the last line; `end` past the last line clamps. Reads no
 * further into the file than `end`. `path` `-` reads standard input.
 *
 * @throws {@link LinewiseError} (exit code 2) when `start` is past the last line, `start < 1`,
 * `end < start`, the file cannot be read, or it is binary; the message names the line count
 * where the range is the problem, as the CLI's does.
 *
 * @example
 * ```ts
 * const [hit] = readLines('src/app.ts', 42, 42);
 * console.log(hit.line, hit.text, JSON.stringify(hit.terminator)); // 42 'const x = 1;' "\r\n"
 * ```
 */
export function readLines(path: string, start: number, end?: number, options: ReadOptions = {}): Line[] {
  const first = count(start, 'START');
  const last = end === undefined ? undefined : count(end, 'END');
  return withText(path, options, (t) => {
    const sink = new LineCollector(t.input.name);
    readRange(t.scanner, { start: first, end: last }, sink);
    return sink.lines;
  });
}

/** What to read for a {@link page}; every field has the CLI's default. */
export interface PageOptions extends ReadOptions {
  /** lines to skip (0-based); default 0 */
  offset?: number;
  /** lines at most; default 100 */
  limit?: number;
  /** cap on the bytes the page's rows would print (`<n>\t` included), 0 for none; default 65536 */
  maxBytes?: number;
  /** how far past the page to read, in bytes, to count the lines left; default 8 MiB */
  countBytes?: number;
}

/** One page of a file, as `linewise page` prints it, with its footer as data. */
export interface Page {
  path: string;
  lines: Line[];
  /** lines in the file, or `undefined` when counting them would have read past `countBytes` */
  total: number | undefined;
  /** the offset of the next page, or `undefined` when no line remains */
  nextOffset: number | undefined;
  /** the line shown cut, when a single line was longer than `maxBytes`: bytes shown and full length (undefined if not measured) */
  cut?: { line: number; shown: number; length: number | undefined };
  /** the byte order mark the file began with (never part of line 1) */
  bom: Bom | undefined;
}

/**
 * A bounded page of the file at `path`: up to `limit` lines after skipping `offset`, within
 * `maxBytes`. Following `nextOffset` reads every line exactly once. An empty file gives an empty
 * page with `total` 0.
 *
 * @throws {@link LinewiseError} (exit code 2) when `offset` is at or past the end (the message
 * names the line count), the file cannot be read, or it is binary.
 *
 * @example
 * ```ts
 * for (let offset: number | undefined = 0; offset !== undefined; ) {
 *   const p = page('big.log', { offset, limit: 500 });
 *   for (const l of p.lines) process.stdout.write(l.bytes);
 *   offset = p.nextOffset;
 * }
 * ```
 */
export function page(path: string, options: PageOptions = {}): Page {
  const o = {
    offset: count(options.offset ?? PAGE_DEFAULTS.offset, 'offset'),
    limit: count(options.limit ?? PAGE_DEFAULTS.limit, 'limit', 1),
    maxBytes: count(options.maxBytes ?? PAGE_DEFAULTS.maxBytes, 'maxBytes'),
    countBytes: count(options.countBytes ?? PAGE_DEFAULTS.countBytes, 'countBytes'),
  };
  return withText(path, options, (t) => {
    const sink = new LineCollector(t.input.name);
    const r = readPage(t.scanner, { ...o, prefixBytes: (n) => String(n).length + 1 }, sink);
    const more = r.total === undefined || r.total > r.nextOffset;
    return {
      path: t.input.name,
      lines: sink.lines,
      total: r.total,
      nextOffset: more ? r.nextOffset : undefined,
      ...(r.cut ? { cut: r.cut } : {}),
      bom: t.bom,
    };
  });
}

/** Opens `path` as the CLI does, runs `f`, closes, and names the path in any error. */
function withText<T>(path: string, options: ReadOptions, f: (t: ReturnType<typeof openText>) => T): T {
  checkEncodingLoaded(options.encoding);
  const t = openText(path, libraryIo(), { allowBinary: options.text, encoding: options.encoding });
  try {
    return f(t);
  } catch (e) {
    throw withPath(e, t.input.name);
  } finally {
    t.input.close();
  }
}
