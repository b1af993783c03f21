// The server's stdio transport: newline-delimited JSON-RPC over standard input and output, in
// place of the SDK's (whose 10 MiB read buffer ends the server, status 0, on a larger request).
// A message up to MAX_MESSAGE_BYTES is served; a larger one is skipped to its newline without
// being held, and answered with an error naming its id; a line that is not JSON gets -32700, a
// JSON value that is not a JSON-RPC message -32600. Nothing a client sends closes the server:
// only the end of its input does.

import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, Transport } from './sdk.js';
import { MAX_MESSAGE_BYTES } from './bounds.js';

type Id = string | number | null;

/** JSON-RPC's error codes for what the transport refuses. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

export interface LineTransportOptions {
  input: Readable;
  output: Writable;
  /** a parsed value as a JSON-RPC message, or undefined when it is none (the SDK's schema; the transport itself knows none) */
  parse(value: unknown): JSONRPCMessage | undefined;
  /** the longest message served, bytes (its newline not counted) */
  maxBytes?: number;
  /** a look at each message before the server's: an error response returned is sent instead */
  screen?(message: JSONRPCMessage): JSONRPCMessage | undefined;
}

/** An error response (id null when the message's id could not be known). */
export function errorResponse(id: Id, code: number, message: string): JSONRPCMessage {
  return { jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage;
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly max: number;
  /** the pieces of the message being read, and their bytes */
  private chunks: Buffer[] = [];
  private size = 0;
  /** the message being skipped: it ran past the cap; only its id is looked for */
  private skipping: IdScanner | undefined;
  private closed = false;
  private started = false;

  constructor(private readonly o: LineTransportOptions) {
    this.max = o.maxBytes ?? MAX_MESSAGE_BYTES;
  }

  private readonly onData = (chunk: Buffer | string): void => {
    try {
      this.take(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    } catch (e) {
      // never from a client's bytes; a fault here must not end the server either
      this.onerror?.(e as Error);
    }
  };
  private readonly onEnd = (): void => {
    // a last message without its newline is still a message
    if (this.size > 0 || this.skipping) this.take(Buffer.from('\n'));
    void this.close();
  };
  private readonly onInputError = (e: Error): void => {
    this.onerror?.(e);
    void this.close();
  };

  async start(): Promise<void> {
    if (this.started) throw new Error('the transport is started already');
    this.started = true;
    this.o.input.on('data', this.onData);
    this.o.input.once('end', this.onEnd);
    this.o.input.on('error', this.onInputError);
  }

  /** Splits `chunk` at its newlines, looking only at its own bytes (a long message is not rescanned). */
  take(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length && !this.closed) {
      const nl = chunk.indexOf(0x0a, at);
      const end = nl === -1 ? chunk.length : nl;
      if (this.skipping) this.skipping.feed(chunk, at, end);
      else if (this.size + (end - at) > this.max) {
        // past the cap: what was kept is scanned for the id and let go, and so is the rest
        const scan = new IdScanner();
        for (const c of this.chunks) scan.feed(c, 0, c.length);
        scan.feed(chunk, at, end);
        this.chunks = [];
        this.size = 0;
        this.skipping = scan;
      } else if (end > at) {
        this.chunks.push(chunk.subarray(at, end));
        this.size += end - at;
      }
      if (nl === -1) return;
      at = nl + 1;
      if (this.skipping) {
        const scan = this.skipping;
        this.skipping = undefined;
        this.refuseLarge(scan);
      } else {
        const line = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
        this.chunks = [];
        this.size = 0;
        this.line(line);
      }
    }
  }

  /** One line: a message for the server, or the error reply the protocol asks for. */
  private line(buf: Buffer): void {
    const text = buf.toString('utf8', 0, buf.length > 0 && buf[buf.length - 1] === 0x0d ? buf.length - 1 : buf.length);
    if (text.trim() === '') return; // a blank line between messages says nothing
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      this.reply(errorResponse(null, PARSE_ERROR, `Parse error: the line is not JSON (${(e as Error).message}); send one JSON-RPC message a line`));
      return;
    }
    const message = this.o.parse(value);
    if (message === undefined) {
      this.reply(errorResponse(idOf(value), INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 request, notification or response'));
      return;
    }
    const refused = this.o.screen?.(message);
    if (refused) {
      this.reply(refused);
      return;
    }
    try {
      this.onmessage?.(message);
    } catch (e) {
      this.onerror?.(e as Error);
    }
  }

  private refuseLarge(scan: IdScanner): void {
    const mib = (n: number) => `${Math.ceil(n / 2 ** 20)} MiB`;
    const message = `Invalid Request: the message is ${scan.bytes} bytes, more than the ${mib(this.max)} the server takes (a request is one line of JSON); it was not read and nothing was done`;
    this.onerror?.(new Error(`a message of ${scan.bytes} bytes, over ${mib(this.max)}, was refused`));
    this.reply(errorResponse(scan.id, INVALID_REQUEST, message));
  }

  private reply(message: JSONRPCMessage): void {
    this.send(message).catch((e: unknown) => this.onerror?.(e as Error));
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      const out = this.o.output;
      if (this.closed || out.destroyed || !out.writable) {
        resolve();
        return;
      }
      if (out.write(`${JSON.stringify(message)}\n`)) resolve();
      else {
        // resolved on drain, or when the client goes away (an EPIPE closes the stream)
        const done = () => {
          out.off('drain', done);
          out.off('close', done);
          resolve();
        };
        out.on('drain', done);
        out.on('close', done);
      }
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.o.input.off('data', this.onData);
    this.o.input.off('end', this.onEnd);
    this.o.input.off('error', this.onInputError);
    this.o.input.pause();
    this.chunks = [];
    this.skipping = undefined;
    this.onclose?.();
  }
}

/** The id of a value that is not a valid message, when it has one a reply can name. */
function idOf(value: unknown): Id {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, 'id')) return null;
  const id = (value as { id: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/**
 * The top-level `"id"` of a JSON object read a piece at a time and kept nowhere: a small state
 * machine over its bytes (strings, escapes, nesting), keeping only the top level's keys and the
 * id's few bytes. The SDK's client writes the id after the params, at the very end.
 */
export class IdScanner {
  /** bytes seen */
  bytes = 0;
  /** the id found (the last one, as JSON.parse would take), or null */
  id: Id = null;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** at depth 1: the key being read, then the last key read */
  private key: number[] | undefined;
  private lastKey = '';
  /** at depth 1, after `"id":`: the value's bytes */
  private value: number[] | undefined;
  private expectKey = false;

  feed(buf: Buffer, start: number, end: number): void {
    this.bytes += end - start;
    for (let i = start; i < end; i++) {
      const c = buf[i]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 0x5c) this.escaped = true;
        else if (c === 0x22) {
          this.inString = false;
          if (this.key !== undefined && this.depth === 1 && this.expectKey) {
            this.lastKey = Buffer.from(this.key).toString('utf8');
            this.key = undefined;
            this.expectKey = false;
            if (this.value !== undefined) this.value = undefined;
            continue;
          }
        }
        // a key longer than 8 bytes is none looked for: only its first 9 are kept
        if (this.key !== undefined && this.key.length <= 8) this.key.push(c);
        if (this.value !== undefined && this.value.length < 512) this.value.push(c);
        continue;
      }
      if (c === 0x22) {
        this.inString = true;
        if (this.depth === 1 && this.expectKey) this.key = [];
        else if (this.value !== undefined) this.value.push(c);
        continue;
      }
      if (c === 0x7b || c === 0x5b) {
        this.depth++;
        if (this.depth === 1) this.expectKey = c === 0x7b;
        else if (this.depth === 2) this.value = undefined; // an object or array is no id
        continue;
      }
      if (c === 0x7d || c === 0x5d) {
        if (this.depth === 1) this.endValue();
        this.depth--;
        continue;
      }
      if (this.depth !== 1) continue;
      if (c === 0x3a) {
        if (this.lastKey === 'id') this.value = [];
      } else if (c === 0x2c) {
        this.endValue();
        this.expectKey = true;
      } else if (this.value !== undefined && this.value.length < 512 && c > 0x20) this.value.push(c);
    }
  }

  private endValue(): void {
    if (this.value === undefined) return;
    const raw = Buffer.from(this.value).toString('utf8');
    this.value = undefined;
    this.lastKey = '';
    try {
      const v: unknown = JSON.parse(raw);
      if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) this.id = v;
    } catch {
      // not an id a reply can name
    }
  }
}
