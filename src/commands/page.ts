// `page FILE [--offset K] [--limit N] [--last N]`: a bounded page through the engine, its rows,
// and the footer saying where to go on.

import { Exit, type ExitCode } from '../core/errors.js';
import { pageTo } from '../engine/read.js';
import { anchorOf } from '../engine/results.js';
import { JsonRows, writeRecord } from '../format/json.js';
import { pageFooterOf, pageRecord } from '../format/footer.js';
import { TextRows } from '../format/rows.js';
import { cliWords } from '../surface/words.js';
import { type Context, type ReaderOptions, rowGuard, writeGuard } from './context.js';

/** How page's footer names its options: the command line's words, the same for every call. */
const WORDS = cliWords('page');

export interface PageArgs extends ReaderOptions {
  offset: number;
  limit: number;
  maxBytes: number;
  countBytes: number;
  /** the last N lines instead of --offset/--limit: the file is counted first, then paged */
  last?: number;
  /** start the first line of the page at this byte (`--from-byte`, a footer's cursor) */
  fromByte?: number;
}

export function page(ctx: Context, file: string, args: PageArgs): ExitCode {
  const anchor = args.anchor ? anchorOf : undefined;
  const guard = rowGuard(ctx, args, file);
  const sink = args.json ? new JsonRows(ctx.out, file, anchor) : new TextRows(ctx.out, ctx.rowStyle, anchor, guard);
  const r = pageTo(sink, file, {
    anchor: args.anchor === true,
    ...(args.last === undefined ? { offset: args.offset, limit: args.limit } : { last: args.last }),
    maxBytes: args.maxBytes,
    countBytes: args.countBytes,
    ...(args.fromByte !== undefined ? { fromByte: args.fromByte } : {}),
    text: args.text,
    encoding: args.encoding,
    cwd: ctx.io.cwd,
    stdin: ctx.io.stdin,
  });
  for (const note of r.notes) ctx.warn(note, r.path);
  if (args.json) writeRecord(ctx.out, pageRecord(r));
  else {
    writeGuard(ctx, guard);
    const footer = pageFooterOf(r, args.encoding, WORDS, args.maxBytes);
    if (footer !== undefined) ctx.out.text(`\n${ctx.noteStyle.note(footer)}\n`);
  }
  return Exit.ok;
}
