// A tool call's output, printed as the CLI prints: rows and footers into the text content; into
// structuredContent the --json records without the lines they repeat (positions, counts, cursors,
// receipts: a line's bytes only where the text cannot carry them); messages (the CLI's stderr
// lines) into a text block of their own, in the tool's words; and errors as results with isError.

import { isUtf8 } from 'node:buffer';
import { Exit, type ExitCode, LinewiseError } from '../core/errors.js';
import { messageLine, type Printing } from '../format/printing.js';
import { plain } from '../format/style.js';
import { Output } from '../io/output.js';
import type { Sink } from '../io/streams.js';
import { SERVER_BOUNDS } from '../surface/options.js';
import { toolWords } from './tool-words.js';

/** A Sink that keeps what is written (Output reuses its buffer: each chunk is copied). */
class Memory implements Sink {
  readonly isTTY = false;
  private readonly chunks: Buffer[] = [];
  write(chunk: Uint8Array): void {
    this.chunks.push(Buffer.from(chunk));
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/** What a tool returns (the MCP CallToolResult, as plain data). */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent: { records: unknown[]; status: number; error?: { code: string; message: string; path: string | null } };
  isError?: boolean;
}

/** The note added when rows hold bytes that a JSON string cannot carry. */
const NOT_UTF8 =
  'the rows hold bytes that are not UTF-8, shown here as U+FFFD: do not copy those lines into an edit; pass the file\'s encoding (for example encoding: "latin1") to read and edit them as text';

/** A line's fields that repeat the text: left out, but for bytes the text cannot carry (base64 `bytes`). */
function slim(r: Record<string, unknown>): Record<string, unknown> | undefined {
  const { text: _text, ...rest } = r;
  switch (r.type) {
    case 'line':
      return r.bytes === undefined ? undefined : { type: 'line', line_number: r.line_number, bytes: r.bytes, terminator: r.terminator };
    case 'stale':
    case 'near':
      return rest;
    case 'file': {
      const { diff: _diff, receipt, ...file } = r as { diff?: unknown; receipt?: { rows?: { line_number: number }[][]; [k: string]: unknown } };
      if (receipt === undefined) return file;
      // the writers print their receipts' regions as line numbers already (edits.ts)
      const { rows, ...kept } = receipt;
      if (rows === undefined) return { ...file, receipt };
      return { ...file, receipt: { ...kept, regions: rows.map((g) => [g[0]?.line_number ?? null, g[g.length - 1]?.line_number ?? null]) } };
    }
    default:
      return r;
  }
}

/**
 * Two printings of one call: `text` (what the CLI prints on stdout) and `json` (what it prints
 * under --json), and the messages it would print on stderr. Printers write to both; `warn` is
 * heard once.
 */
export class ToolOutput {
  private readonly textSink = new Memory();
  private readonly jsonSink = new Memory();
  private readonly messages: string[] = [];
  private status: ExitCode = Exit.ok;
  readonly text: Printing;
  readonly json: Printing;
  /** the bytes the records of lines may take (the call's max_bytes; 0: no bound) */
  budget: number = SERVER_BOUNDS.maxBytes;
  /** the messages in the tool's words */
  private readonly speak: (message: string) => string;

  /** `tool`: whose words the messages are put in */
  constructor(tool: string) {
    this.speak = toolWords(tool);
    const failed = (code: ExitCode) => {
      if (code > this.status) this.status = code;
    };
    this.text = { out: new Output(this.textSink), rowStyle: plain, noteStyle: plain, warn: (m, p) => this.messages.push(messageLine(m, p)), failed };
    this.json = { out: new Output(this.jsonSink), rowStyle: plain, noteStyle: plain, warn: () => {}, failed: () => {} };
  }

  /** A message of the CLI's stderr that is not an error (the file is empty, already applied). */
  note(message: string, path?: string): void {
    this.text.warn(message, path);
  }

  /** The result of a call that ended with `status` (0, or grep's 1 for no match, or 2 after a failed input). */
  done(status: ExitCode = Exit.ok): ToolResult {
    if (status > this.status) this.status = status;
    return this.build(false);
  }

  /** The result of a call that failed with `e`: its message first, then what was printed before it. */
  failed(e: unknown): ToolResult {
    const err = e instanceof LinewiseError ? e : undefined;
    const message = err ? messageLine(err.message, err.path) : messageLine(`internal error: ${(e as Error)?.message ?? String(e)} (please report it)`);
    this.messages.unshift(message);
    this.status = err ? err.exitCode : Exit.usage;
    const r = this.build(true);
    r.structuredContent.error = { code: err?.code ?? 'internal', message: err ? this.speak(err.message) : String(e), path: err?.path ?? null };
    return r;
  }

  private build(isError: boolean): ToolResult {
    this.text.out.flush();
    this.json.out.flush();
    const rows = this.textSink.bytes();
    if (rows.length > 0 && !isUtf8(rows)) this.messages.push(messageLine(NOT_UTF8));
    const records: Record<string, unknown>[] = [];
    // the records of lines (bytes the text cannot carry) are held to the call's byte budget
    let spent = 0;
    let cut = false;
    for (const l of this.jsonSink.bytes().toString('utf8').split('\n')) {
      const r = l === '' ? undefined : slim(JSON.parse(l) as Record<string, unknown>);
      if (r === undefined) continue;
      if (r.type === 'line' || r.type === 'stale' || r.type === 'near') {
        spent += JSON.stringify(r).length + 1;
        if (this.budget > 0 && spent > this.budget) {
          cut = true;
          continue;
        }
      }
      records.push(r);
    }
    if (cut) records.push({ type: 'records_cut', budget: this.budget });
    const messages = this.messages.map(this.speak);
    const blocks = [rows.length > 0 ? rows.toString('utf8') : undefined, messages.length > 0 ? messages.join('\n') : undefined].filter((t) => t !== undefined);
    if (isError) blocks.reverse();
    return {
      content: (blocks.length > 0 ? blocks : ['']).map((text) => ({ type: 'text' as const, text })),
      structuredContent: { records, status: this.status },
      ...(isError ? { isError: true } : {}),
    };
  }
}
