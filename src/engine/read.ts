// readlines and page as operations: open the input, read a range or a bounded page into a row
// sink, and say what was read; plus the library's collecting forms, readLines and page.

import { PAGE_DEFAULTS } from '../surface/options.js';
import { LinewiseError, withPath } from '../core/errors.js';
import type { ReadFn } from '../core/lines.js';
import type { RowSink } from '../core/read-range.js';
import { countRest, readRange } from '../core/read-range.js';
import { readPage, rowPrefixBytes } from '../core/read-page.js';
import { pastEnd, rangeProblem, withCount } from '../core/ranges.js';
import { fdReader } from '../io/streams.js';
import type { Bom } from '../io/encodings/sniff.js';
import { decodeNote, type InputSource, type OpenedText, openText, type TextOptions } from '../io/input.js';
import { checkEncodingLoaded } from './encodings.js';
import { lastPage } from './last-page.js';
import { type Line, LineCollector } from './results.js';
import * as v from './validate.js';

/** The byte order mark a read found (the library's type). */
export type { Bom };

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
  /** the directory relative paths start from; default the process's working directory */
  cwd?: string;
  /** what the path `-` reads; default standard input (file descriptor 0) */
  stdin?: ReadFn;
  /**
   * Give each line its `anchor` (the CLI's `--anchor`): the first 8 hex digits of the SHA-256 of
   * its text. A line fed back to {@link replaceRows} with its anchor is edited only if unchanged.
   */
  anchor?: boolean;
  /**
   * Where file contents come from when not from the file system: a cache that serves files
   * unchanged since it read them (device, inode, size and times) from memory. Default: none.
   */
  files?: InputSource['files'];
  /**
   * Confine every file opened to some directories (a server's roots): each is checked by its
   * descriptor after it is opened, and an edit's directory is held open and checked through the
   * rename, so a symbolic link swapped in after a path was checked is refused. Default: none.
   */
  confine?: InputSource['confine'];
}

/** Where a read's inputs come from, with the defaults applied. */
export function inputSource(o: { cwd?: string | undefined; stdin?: ReadFn | undefined; files?: InputSource['files']; confine?: InputSource['confine'] }): InputSource {
  return { cwd: v.optionalString(o.cwd, 'cwd') ?? '.', stdin: o.stdin ?? fdReader(0), ...(o.files ? { files: o.files } : {}), ...(o.confine ? { confine: o.confine } : {}) };
}

/** What a read found out about its input, besides the rows. */
export interface InputFacts {
  /** the input, as given (`-` for standard input) */
  path: string;
  /** the encoding the text was decoded from, or undefined for the file's own bytes */
  encoding: string | undefined;
  /** the byte order mark the input began with (never part of line 1) */
  bom: Bom | undefined;
  /** offset of the first bytes not valid in `encoding`, when there were some (rows then differ) */
  invalidAt: number | undefined;
  /** things to tell the user that are not errors (bytes that did not decode, an empty file) */
  notes: string[];
}

/** Options of {@link readLines}: what to read, and a budget on what it prints. */
export interface ReadLinesOptions extends ReadOptions {
  /**
   * Cap on the bytes of the rows (`<n>\t` included; the CLI's `--max-bytes`), 0 or undefined for
   * none: the rows stop before a line that would overflow it, and a first line longer than the
   * cap is cut. The summary's `next` then says where to go on.
   */
  maxBytes?: number;
  /** when the cap stops the rows, how far to read on (bytes) to count the lines left; default 8 MiB */
  countBytes?: number;
  /**
   * Start line `start` at this byte (the CLI's `--from-byte`): the rest of a line a cap cut, as
   * the summary's `cut` cursor says. That row is a part (`from`), which replaceRows refuses.
   */
  fromByte?: number;
}

/** What `readLinesTo` read. */
export interface ReadSummary extends InputFacts {
  start: number;
  /** rows handed to the sink */
  shown: number;
  /** the line to go on from, when `maxBytes` stopped the rows before END (or the end) */
  next?: number;
  /** lines from `next` to END (or to the end) not shown; undefined when counting them stopped at `countBytes` */
  left?: number | undefined;
  /** the line shown cut, when it alone was longer than `maxBytes`: bytes shown from byte `from`; it goes on at `from + shown` */
  cut?: { line: number; shown: number; length: number | undefined; from: number };
}

/**
 * Hands lines `start` to `end` (1-based, inclusive) of the file at `path` to `sink`, as
 * `linewise readlines` prints them. `end` omitted: to the last line; `end` past the last line
 * clamps. Reads no further into the file than `end` (under `maxBytes`, a bounded count of the
 * lines left may read on to `end`, never past it).
 */
export function readLinesTo(sink: RowSink, path: string, start: number, end?: number, options: ReadLinesOptions = {}): ReadSummary {
  const first = v.count(start, 'START');
  const last = end === undefined ? undefined : v.count(end, 'END');
  const maxBytes = v.optionalCount(options.maxBytes, 'maxBytes') ?? 0;
  const countBytes = v.optionalCount(options.countBytes, 'countBytes') ?? PAGE_DEFAULTS.countBytes;
  const fromByte = v.optionalCount(options.fromByte, 'fromByte') ?? 0;
  const read = checkedRead(path, options, sink);
  return withText(read, undefined, (t) => {
    if (maxBytes === 0 && fromByte === 0) {
      const { shown } = readRange(t.scanner, { start: first, end: last }, sink);
      return { ...facts(t), start: first, shown };
    }
    const problem = rangeProblem({ start: first, end: last });
    if (problem) throw new LinewiseError('bad-range', withCount(problem, countRest(t.scanner)));
    const r = readPage(
      t.scanner,
      { offset: first - 1, limit: last === undefined ? Infinity : last - first + 1, maxBytes, countBytes, prefixBytes: rowPrefixBytes(read.anchored), countTo: last, pastEnd: (count) => pastEnd(first, count), startByte: fromByte },
      sink,
    );
    const stopped = r.left === undefined || r.left > 0;
    return { ...facts(t), start: first, shown: r.shown, ...(stopped ? { next: first + r.shown, left: r.left } : {}), ...(r.cut ? { cut: r.cut } : {}) };
  });
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
export function readLines(path: string, start: number, end?: number, options: ReadLinesOptions = {}): Line[] {
  const o = v.options<ReadLinesOptions>(options, 'options');
  const sink = new LineCollector(v.string(path, 'path'), v.optionalBoolean(o.anchor, 'anchor') === true);
  readLinesTo(sink, path, start, end, o);
  return sink.lines;
}

/** What to read for a {@link page}; every field has the CLI's default. */
export interface PageOptions extends ReadOptions {
  /** lines to skip (0-based); default 0 */
  offset?: number;
  /** lines at most; default 100 */
  limit?: number;
  /** the last `last` lines instead of `offset`/`limit` (a file: it is counted first) */
  last?: number;
  /** cap on the bytes the page's rows would print (`<n>\t` included), 0 for none; default 65536 */
  maxBytes?: number;
  /** how far past the page to read, in bytes, to count the lines left; default 8 MiB */
  countBytes?: number;
  /** start the page's first line at this byte: the rest of a line a cap cut (`cut` says where) */
  fromByte?: number;
}

/** The defaults of a page (the surface declares them). */
export { PAGE_DEFAULTS };

/** What `pageTo` read, and where the next page starts: the footer as data. */
export interface PageSummary extends InputFacts {
  /** lines skipped before the page */
  offset: number;
  /** 1-based number of the first row (offset + 1) */
  first: number;
  shown: number;
  /** lines in the file, or `undefined` when counting them would have read past `countBytes` */
  total: number | undefined;
  /** the offset of the next page, or `undefined` when no line remains */
  nextOffset: number | undefined;
  /** the line shown cut, when a single line was longer than `maxBytes`: bytes shown from byte `from`, and full length (undefined if not measured) */
  cut?: { line: number; shown: number; length: number | undefined; from: number };
  /** under `last`: lines of the last N left out at the top because `maxBytes` could not hold them */
  dropped?: number;
}

/**
 * Hands a bounded page of the file at `path` to `sink`: up to `limit` lines after skipping
 * `offset`, within `maxBytes`, or the last `last` lines. Following `nextOffset` reads every
 * line exactly once.
 */
export function pageTo(sink: RowSink, path: string, options: PageOptions = {}): PageSummary {
  const o = {
    offset: v.count(options.offset ?? PAGE_DEFAULTS.offset, 'offset'),
    limit: v.count(options.limit ?? PAGE_DEFAULTS.limit, 'limit', 1),
    maxBytes: v.count(options.maxBytes ?? PAGE_DEFAULTS.maxBytes, 'maxBytes'),
    countBytes: v.count(options.countBytes ?? PAGE_DEFAULTS.countBytes, 'countBytes'),
  };
  const last = v.optionalCount(options.last, 'last', 1);
  if (last !== undefined) {
    if (options.offset !== undefined) throw new LinewiseError('usage', 'give --last or --offset, not both: --last N is the page that ends at the last line');
    if (options.limit !== undefined) throw new LinewiseError('usage', 'give --last or --limit, not both: --last N is the page of the last N lines');
    if (options.fromByte !== undefined) throw new LinewiseError('usage', 'give --last or --from-byte, not both: --from-byte goes on inside a line a page cut');
    return lastPageTo(sink, checkedRead(path, options, sink), { want: last, maxBytes: o.maxBytes, countBytes: o.countBytes });
  }
  const startByte = v.optionalCount(options.fromByte, 'fromByte') ?? 0;
  const read = checkedRead(path, options, sink);
  return withText(read, undefined, (t) => {
    const r = readPage(t.scanner, { ...o, prefixBytes: rowPrefixBytes(read.anchored), inputSize: t.codec ? undefined : t.input.size, startByte }, sink);
    const f = facts(t);
    if (r.total === 0) f.notes.unshift('the file is empty');
    const more = r.total === undefined || r.total > r.nextOffset;
    return { ...f, offset: o.offset, first: r.first, shown: r.shown, total: r.total, nextOffset: more ? r.nextOffset : undefined, ...(r.cut ? { cut: r.cut } : {}) };
  });
}

/**
 * The scanner's buffer for --last's count, which hands no line on and only reads and counts:
 * four times the default, measured a few per cent faster over 1 GiB (fewer reads).
 */
const COUNT_BUFFER = 1 << 18;

/**
 * The last `want` lines: always ending at the last line, within the byte cap with as many of
 * the N as fit (`dropped`: the others, at the top). Rows carry line numbers, so the file is
 * counted first, then its tail is read (engine/last-page.ts). A pipe cannot be read twice, so
 * it is refused rather than held in memory.
 */
function lastPageTo(sink: RowSink, read: CheckedRead, o: { want: number; maxBytes: number; countBytes: number }): PageSummary {
  return withText(read, COUNT_BUFFER, (t) => {
    if (t.input.size === undefined) {
      throw new LinewiseError('not-seekable', '--last reads the file twice (to count its lines, then to print them), which a pipe or standard input cannot be; use a file, or page through with --offset');
    }
    const r = lastPage(t, { ...o, prefixBytes: rowPrefixBytes(read.anchored) }, sink, () => open(read));
    const f = facts(t);
    if (r.total === 0) f.notes.unshift('the file is empty');
    return { ...f, ...r };
  });
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
 * `maxBytes` (or the last `last` lines). Following `nextOffset` reads every line exactly once.
 * An empty file gives an empty page with `total` 0.
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
  const o = v.options<PageOptions>(options, 'options');
  const sink = new LineCollector(v.string(path, 'path'), v.optionalBoolean(o.anchor, 'anchor') === true);
  const s = pageTo(sink, path, o);
  return { path: s.path, lines: sink.lines, total: s.total, nextOffset: s.nextOffset, ...(s.cut ? { cut: s.cut } : {}), bom: s.bom };
}

function facts(t: OpenedText): InputFacts {
  const note = decodeNote(t);
  return { path: t.input.name, encoding: t.codec?.name, bom: t.bom, invalidAt: t.codec?.invalidAt, notes: note === undefined ? [] : [note] };
}

/** A read's input and how to open it, its options checked (a caller's mistake found before anything is opened). */
interface CheckedRead {
  path: string;
  source: InputSource;
  text: TextOptions;
  anchored: boolean;
}

/**
 * Checks what every read takes, once, at the read's entry. Before each read that may wait (a
 * pipe), the sink's rows go out: a live stream is printed as its lines come.
 */
function checkedRead(path: string, options: ReadOptions, sink: RowSink | undefined): CheckedRead {
  const name = v.string(path, 'path');
  const encoding = v.optionalString(options.encoding, 'encoding');
  if (encoding !== undefined) checkEncodingLoaded(encoding);
  const source = { ...inputSource(options), ...(sink?.flush ? { beforeWait: () => sink.flush!() } : {}) };
  const anchored = v.optionalBoolean(options.anchor, 'anchor') === true;
  return { path: name, source, text: { allowBinary: v.optionalBoolean(options.text, 'text'), encoding }, anchored };
}

/** Opens the read's input, runs `f`, closes, and names the path in any error. */
function withText<T>(read: CheckedRead, bufferSize: number | undefined, f: (t: OpenedText) => T): T {
  const t = open(read, bufferSize);
  try {
    return f(t);
  } catch (e) {
    throw withPath(e, t.input.name);
  } finally {
    t.input.close();
  }
}

/** Opens the read's input (with a scanner of `bufferSize` bytes, or the default); the caller closes it. */
function open(read: CheckedRead, bufferSize?: number): OpenedText {
  return openText(read.path, read.source, bufferSize ? { ...read.text, bufferSize } : read.text);
}
