// `readlines FILE START [END]`: parse the range, read it through the engine, print rows, and
// when --max-bytes stops the rows before END, a footer saying how to go on.

import { Exit, type ExitCode, LinewiseError } from '../core/errors.js';
import { parseCount } from '../core/ranges.js';
import { readLinesTo } from '../engine/read.js';
import { anchorOf } from '../engine/results.js';
import { JsonRows, writeRecord } from '../format/json.js';
import { readlinesFooterOf, readlinesRecord } from '../format/footer.js';
import { TextRows } from '../format/rows.js';
import { cliWords } from '../surface/words.js';
import { type Context, type ReaderOptions, rowGuard, writeGuard } from './context.js';

/** How readlines' footer names its options: the command line's words, the same for every call. */
const WORDS = cliWords('readlines');

export interface ReadlinesArgs extends ReaderOptions {
  maxBytes?: number;
  /** start line START at this byte (`--from-byte`, a footer's cursor) */
  fromByte?: number;
}

export function readlines(ctx: Context, file: string, startArg: string, endArg: string | undefined, opts: ReadlinesArgs): ExitCode {
  const start = lineArgument(file, startArg, 'START');
  const end = endArg === undefined ? undefined : lineArgument(file, endArg, 'END');
  const anchor = opts.anchor ? anchorOf : undefined;
  const guard = rowGuard(ctx, opts, file);
  const sink = opts.json ? new JsonRows(ctx.out, file, anchor) : new TextRows(ctx.out, ctx.rowStyle, anchor, guard);
  const r = readLinesTo(sink, file, start, end, { text: opts.text, encoding: opts.encoding, maxBytes: opts.maxBytes, ...(opts.fromByte !== undefined ? { fromByte: opts.fromByte } : {}), cwd: ctx.io.cwd, stdin: ctx.io.stdin });
  for (const note of r.notes) ctx.warn(note, r.path);
  if (opts.json) writeRecord(ctx.out, readlinesRecord(r));
  else {
    writeGuard(ctx, guard);
    const footer = readlinesFooterOf(r, end, opts.maxBytes, opts.encoding, WORDS);
    if (footer !== undefined) ctx.out.text(`\n${ctx.noteStyle.note(footer)}\n`);
  }
  return Exit.ok;
}

/** START or END; a range typed as one word (`2-4`, `2:4`, `2,4`) is told how to write it. */
function lineArgument(file: string, text: string, what: string): number {
  const range = /^([0-9]+)\s*(?:-|:|,|\.\.)\s*([0-9]+)$/.exec(text);
  if (range) throw new LinewiseError('bad-number', `${what} must be a line number, not the range "${text}": write START and END apart, as in linewise readlines ${file} ${range[1]} ${range[2]}`);
  return parseCount(text, what);
}
