// `page FILE [--offset K] [--limit N]`: a bounded page of rows and a footer saying where to go on.

import { Exit, type ExitCode, LinewiseError, withPath } from '../core/errors.js';
import { countRest, readPage } from '../core/read.js';
import { pageFooter } from '../core/rows.js';
import { JsonRows, writeRecord } from '../format/json.js';
import { TextRows } from '../format/text.js';
import { decodeNote, openText } from '../io/text.js';
import type { Context, ReaderOptions } from './context.js';

export interface PageArgs extends ReaderOptions {
  offset: number;
  limit: number;
  maxBytes: number;
  countBytes: number;
  /** the last N lines instead of --offset/--limit: the file is counted first, then paged */
  last?: number;
}

export const PAGE_DEFAULTS = { offset: 0, limit: 100, maxBytes: 64 << 10, countBytes: 8 << 20 } as const;

export function page(ctx: Context, file: string, args: PageArgs): ExitCode {
  const o = args.last === undefined ? args : { ...args, ...lastPage(ctx, file, args, args.last) };
  const t = openText(file, ctx.io, { allowBinary: o.text, encoding: o.encoding });
  try {
    const sink = o.json ? new JsonRows(ctx.out, t.input.name) : new TextRows(ctx.out, ctx.rowStyle);
    const r = readPage(t.scanner, { ...o, prefixBytes: (n) => String(n).length + 1, inputSize: t.codec ? undefined : t.input.size }, sink);
    if (r.total === 0) ctx.warn('the file is empty', t.input.name);
    const note = decodeNote(t);
    if (note !== undefined) ctx.warn(note, t.input.name);
    const more = r.total === undefined || r.total > r.nextOffset;
    if (o.json) {
      writeRecord(ctx.out, {
        type: 'summary',
        path: t.input.name,
        offset: o.offset,
        lines: r.shown,
        first: r.shown > 0 ? r.first : null,
        last: r.shown > 0 ? r.first + r.shown - 1 : null,
        total: r.total ?? null,
        remaining: r.total === undefined ? null : r.total - r.nextOffset,
        next_offset: more ? r.nextOffset : null,
        cut: r.cut ?? null,
        encoding: t.codec?.name ?? null,
        bom: t.bom ?? null,
        invalid_at: t.codec?.invalidAt ?? null,
      });
      return Exit.ok;
    }
    // The footer's "read it whole" command must decode as this page did.
    const readAgain = o.encoding !== undefined && t.codec !== undefined ? ['--encoding', o.encoding] : [];
    const footer =
      r.shown > 0
        ? pageFooter({ first: r.first, shown: r.shown, total: r.total, ...(r.cut ? { cut: { ...r.cut, path: t.input.name, options: readAgain } } : {}) })
        : undefined;
    if (footer !== undefined) ctx.out.text(`\n${ctx.noteStyle.note(footer)}\n`);
    return Exit.ok;
  } catch (e) {
    throw withPath(e, t.input.name);
  } finally {
    t.input.close();
  }
}

/**
 * `--last N` as an offset and a limit. Rows carry line numbers, so the lines must be counted
 * first: one pass counts (the SIMD kernel, at read speed), a second prints. A pipe cannot be
 * read twice, so it is refused rather than held in memory.
 */
function lastPage(ctx: Context, file: string, o: PageArgs, last: number): { offset: number; limit: number } {
  const t = openText(file, ctx.io, { allowBinary: o.text, encoding: o.encoding });
  try {
    if (t.input.size === undefined) {
      throw new LinewiseError('not-seekable', '--last reads the file twice (to count its lines, then to print them), which a pipe or standard input cannot be; use a file, or page through with --offset');
    }
    const total = countRest(t.scanner);
    return { offset: Math.max(0, total - last), limit: last };
  } catch (e) {
    throw withPath(e, t.input.name);
  } finally {
    t.input.close();
  }
}
