// `readlines FILE START [END]`: parse the range, read it through the engine, print rows.

import { Exit, type ExitCode } from '../core/errors.js';
import { parseCount } from '../core/ranges.js';
import { readLinesTo } from '../engine/read.js';
import { anchorOf } from '../engine/results.js';
import { JsonRows, inputFields, writeRecord } from '../format/json.js';
import { TextRows } from '../format/rows.js';
import type { Context, ReaderOptions } from './context.js';

export function readlines(ctx: Context, file: string, startArg: string, endArg: string | undefined, opts: ReaderOptions): ExitCode {
  const start = parseCount(startArg, 'START');
  const end = endArg === undefined ? undefined : parseCount(endArg, 'END');
  const anchor = opts.anchor ? anchorOf : undefined;
  const sink = opts.json ? new JsonRows(ctx.out, file, anchor) : new TextRows(ctx.out, ctx.rowStyle, anchor);
  const r = readLinesTo(sink, file, start, end, { text: opts.text, encoding: opts.encoding, cwd: ctx.io.cwd, stdin: ctx.io.stdin });
  for (const note of r.notes) ctx.warn(note, r.path);
  if (opts.json) writeRecord(ctx.out, { type: 'summary', path: r.path, start, end: start + r.shown - 1, lines: r.shown, ...inputFields(r) });
  return Exit.ok;
}
