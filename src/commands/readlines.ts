// `readlines FILE START [END]`: print an inclusive range of lines as rows.

import { Exit, type ExitCode, withPath } from '../core/errors.js';
import { parseCount } from '../core/ranges.js';
import { readRange } from '../core/read.js';
import { JsonRows, writeRecord } from '../format/json.js';
import { TextRows } from '../format/text.js';
import { decodeNote, openText } from '../io/text.js';
import type { Context, ReaderOptions } from './context.js';

export function readlines(ctx: Context, file: string, startArg: string, endArg: string | undefined, opts: ReaderOptions): ExitCode {
  const start = parseCount(startArg, 'START');
  const end = endArg === undefined ? undefined : parseCount(endArg, 'END');
  const t = openText(file, ctx.io, { allowBinary: opts.text, encoding: opts.encoding });
  try {
    const sink = opts.json ? new JsonRows(ctx.out, t.input.name) : new TextRows(ctx.out, ctx.rowStyle);
    const { shown } = readRange(t.scanner, { start, end }, sink);
    const note = decodeNote(t);
    if (note !== undefined) ctx.warn(note, t.input.name);
    if (opts.json) {
      writeRecord(ctx.out, {
        type: 'summary',
        path: t.input.name,
        start,
        end: start + shown - 1,
        lines: shown,
        encoding: t.codec?.name ?? null,
        bom: t.bom ?? null,
        invalid_at: t.codec?.invalidAt ?? null,
      });
    }
    return Exit.ok;
  } catch (e) {
    throw withPath(e, t.input.name);
  } finally {
    t.input.close();
  }
}
