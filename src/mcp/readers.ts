// read_lines and page: the engine's reads into the CLI's row printers (text and --json at once),
// then the CLI's footer and summary record.

import type { RowSink } from '../core/read-range.js';
import { loadEncoding } from '../engine/encodings.js';
import { pageTo, readLinesTo } from '../engine/read.js';
import { anchorOf } from '../engine/results.js';
import { JsonRows, writeRecord } from '../format/json.js';
import { pageFooterOf, pageRecord, readlinesFooterOf, readlinesRecord } from '../format/footer.js';
import { TextRows } from '../format/rows.js';
import { mcpWords } from '../surface/words.js';
import type { ToolOutput } from './result.js';
import type { Roots } from './roots.js';
import { rowBytes } from './bounds.js';

/** Rows to both printers. */
class BothRows implements RowSink {
  constructor(
    private readonly a: RowSink,
    private readonly b: RowSink,
  ) {}
  row(line: number, buf: Buffer, start: number, end: number, ends: boolean): void {
    this.a.row(line, buf, start, end, ends);
    this.b.row(line, buf, start, end, ends);
  }
  cutRow(line: number, buf: Buffer, start: number, end: number, from?: number): void {
    this.a.cutRow(line, buf, start, end, from);
    this.b.cutRow(line, buf, start, end, from);
  }
  partRow(line: number, from: number, buf: Buffer, start: number, end: number, ends: boolean): void {
    this.a.partRow?.(line, from, buf, start, end, ends);
    this.b.partRow?.(line, from, buf, start, end, ends);
  }
}

function rowsOf(out: ToolOutput, path: string, anchored: boolean | undefined): RowSink {
  const anchor = anchored ? anchorOf : undefined;
  return new BothRows(new TextRows(out.text.out, out.text.rowStyle, anchor), new JsonRows(out.json.out, path, anchor));
}

/** read_lines' arguments, checked, by the library's names (the server's max_bytes applied). */
export interface ReadArgs {
  path: string;
  start: number;
  end?: number;
  anchor?: boolean;
  encoding?: string;
  maxBytes: number;
  fromByte?: number;
}

/** Runs read_lines; `a.path` is checked already, and the file is checked again once opened. */
export async function readLinesTool(out: ToolOutput, a: ReadArgs, roots: Roots): Promise<void> {
  if (a.encoding !== undefined) await loadEncoding(a.encoding);
  const maxBytes = rowBytes(a.maxBytes);
  out.budget = maxBytes;
  const r = readLinesTo(rowsOf(out, a.path, a.anchor), a.path, a.start, a.end, { anchor: a.anchor, encoding: a.encoding, maxBytes, ...(a.fromByte !== undefined ? { fromByte: a.fromByte } : {}), cwd: roots.cwd, confine: roots });
  for (const note of r.notes) out.note(note, r.path);
  writeRecord(out.json.out, readlinesRecord(r));
  const footer = readlinesFooterOf(r, a.end, maxBytes, a.encoding, mcpWords('readlines'));
  if (footer !== undefined) out.text.out.text(`\n${footer}\n`);
}

/** page's arguments, checked, by the library's names (offset and limit defaulted unless last). */
export interface PageArgs {
  path: string;
  offset?: number;
  limit?: number;
  last?: number;
  anchor?: boolean;
  encoding?: string;
  maxBytes: number;
  fromByte?: number;
}

/** Runs page; `a.path` is checked already, and the file is checked again once opened. */
export async function pageTool(out: ToolOutput, a: PageArgs, roots: Roots): Promise<void> {
  if (a.encoding !== undefined) await loadEncoding(a.encoding);
  const maxBytes = rowBytes(a.maxBytes);
  out.budget = maxBytes;
  const window = a.last === undefined ? { offset: a.offset, limit: a.limit } : { last: a.last };
  const r = pageTo(rowsOf(out, a.path, a.anchor), a.path, { ...window, anchor: a.anchor, encoding: a.encoding, maxBytes, ...(a.fromByte !== undefined ? { fromByte: a.fromByte } : {}), cwd: roots.cwd, confine: roots });
  for (const note of r.notes) out.note(note, r.path);
  writeRecord(out.json.out, pageRecord(r));
  const footer = pageFooterOf(r, a.encoding, mcpWords('page'), maxBytes);
  if (footer !== undefined) out.text.out.text(`\n${footer}\n`);
}
