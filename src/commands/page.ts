// `page FILE [--offset K] [--limit N] [--last N]`: a bounded page through the engine, its rows,
// and the footer saying where to go on.

import { Exit, type ExitCode } from '../core/errors.js';
import { pageTo } from '../engine/read.js';
import { anchorOf } from '../engine/results.js';
import { pageFooter } from '../format/footer.js';
import { JsonRows, inputFields, writeRecord } from '../format/json.js';
import { TextRows } from '../format/rows.js';
import type { Context, ReaderOptions } from './context.js';

export interface PageArgs extends ReaderOptions {
  offset: number;
  limit: number;
  maxBytes: number;
  countBytes: number;
  /** the last N lines instead of --offset/--limit: the file is counted first, then paged */
  last?: number;
}

export function page(ctx: Context, file: string, args: PageArgs): ExitCode {
  const anchor = args.anchor ? anchorOf : undefined;
  const sink = args.json ? new JsonRows(ctx.out, file, anchor) : new TextRows(ctx.out, ctx.rowStyle, anchor);
  const r = pageTo(sink, file, {
    anchor: args.anchor === true,
    ...(args.last === undefined ? { offset: args.offset, limit: args.limit } : { last: args.last }),
    maxBytes: args.maxBytes,
    countBytes: args.countBytes,
    text: args.text,
    encoding: args.encoding,
    cwd: ctx.io.cwd,
    stdin: ctx.io.stdin,
  });
  for (const note of r.notes) ctx.warn(note, r.path);
  if (args.json) {
    writeRecord(ctx.out, {
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
    });
    return Exit.ok;
  }
  // The footer's "read it whole" command must decode as this page did.
  const readAgain = args.encoding !== undefined && r.encoding !== undefined ? ['--encoding', args.encoding] : [];
  const footer =
    r.shown > 0
      ? pageFooter({ first: r.first, shown: r.shown, total: r.total, dropped: r.dropped, path: r.path, options: readAgain, ...(r.cut ? { cut: { ...r.cut, path: r.path, options: readAgain } } : {}) })
      : undefined;
  if (footer !== undefined) ctx.out.text(`\n${ctx.noteStyle.note(footer)}\n`);
  return Exit.ok;
}
