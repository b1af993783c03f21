// A tool call's output, printed as the CLI prints: rows and footers into the text content, --json
// records into structuredContent, messages (the CLI's stderr lines) into a text block of their
// own; and errors as results with isError, in the CLI's one-line message.

import { isUtf8 } from 'node:buffer';
import { Exit, type ExitCode, LinewiseError } from '../core/errors.js';
import { messageLine, type Printing } from '../format/printing.js';
import { plain } from '../format/style.js';
import { Output } from '../io/output.js';
import type { Sink } from '../io/streams.js';

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
  'the rows hold bytes that are not UTF-8, shown here as U+FFFD: do not copy those lines into an edit; structuredContent has them exactly (base64 "bytes"), or pass the file\'s encoding (for example encoding: "latin1") to read and edit them as text';

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

  constructor() {
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
    r.structuredContent.error = { code: err?.code ?? 'internal', message: err?.message ?? String(e), path: err?.path ?? null };
    return r;
  }

  private build(isError: boolean): ToolResult {
    this.text.out.flush();
    this.json.out.flush();
    const rows = this.textSink.bytes();
    if (rows.length > 0 && !isUtf8(rows)) this.messages.push(messageLine(NOT_UTF8));
    const records = this.jsonSink
      .bytes()
      .toString('utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as unknown);
    const blocks = [rows.length > 0 ? rows.toString('utf8') : undefined, this.messages.length > 0 ? this.messages.join('\n') : undefined].filter((t) => t !== undefined);
    if (isError) blocks.reverse();
    return {
      content: (blocks.length > 0 ? blocks : ['']).map((text) => ({ type: 'text' as const, text })),
      structuredContent: { records, status: this.status },
      ...(isError ? { isError: true } : {}),
    };
  }
}
