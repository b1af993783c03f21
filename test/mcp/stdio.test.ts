// The server's stdio transport (src/mcp/stdio.ts) over in-memory streams: messages framed by
// newlines whatever the chunking (a split anywhere, CRLF, a UTF-8 character cut between chunks),
// a message over the cap skipped and answered with its id, -32700 and -32600 replies, and the
// transport going on after each.
import { PassThrough } from 'node:stream';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdScanner, INVALID_REQUEST, LineTransport, PARSE_ERROR } from '../../src/mcp/stdio.js';
import { screenCall } from '../../src/mcp/screen.js';

/** A transport over in-memory streams; what it passed on and what it replied. */
function harness(maxBytes?: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  const got: JSONRPCMessage[] = [];
  const errors: string[] = [];
  let closed = false;
  const t = new LineTransport({
    input,
    output,
    ...(maxBytes !== undefined ? { maxBytes } : {}),
    parse: (v) => {
      const r = JSONRPCMessageSchema.safeParse(v);
      return r.success ? r.data : undefined;
    },
    screen: screenCall,
  });
  t.onmessage = (m) => got.push(m);
  t.onerror = (e) => errors.push(e.message);
  t.onclose = () => (closed = true);
  let out = '';
  output.on('data', (d: Buffer) => (out += d.toString('utf8')));
  return {
    t,
    input,
    got,
    errors,
    closed: () => closed,
    replies: () => out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id: unknown; error?: { code: number; message: string } }),
    /** feeds the bytes in the chunks given (synchronously, as `data` events) */
    feed: (...chunks: (Buffer | string)[]) => {
      for (const c of chunks) t.take(typeof c === 'string' ? Buffer.from(c, 'utf8') : c);
    },
  };
}

const call = (id: number, extra: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'read_lines', arguments: { path: 'a.txt', start: 1, ...extra } } });
const line = (m: unknown, eol = '\n') => `${JSON.stringify(m)}${eol}`;
/** a microtask turn: replies are written by a promise */
const settle = () => new Promise<void>((r) => setImmediate(r));

describe('LineTransport: framing', () => {
  it('gives each message once whatever the chunking, with LF or CRLF line ends', () => {
    const text = line(call(1, { path: 'é.txt' })) + line(call(2), '\r\n') + '\n' + line({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const bytes = Buffer.from(text, 'utf8');
    for (let cut = 0; cut <= bytes.length; cut++) {
      for (const second of [cut, Math.min(bytes.length, cut + 1), Math.min(bytes.length, cut + 7)]) {
        const h = harness();
        h.feed(bytes.subarray(0, cut), bytes.subarray(cut, second), bytes.subarray(second));
        expect(h.got, `cut at ${cut}, ${second}`).toEqual([call(1, { path: 'é.txt' }), call(2), { jsonrpc: '2.0', method: 'notifications/initialized' }]);
        expect(h.errors).toEqual([]);
      }
    }
  });

  it('keeps a multi-byte UTF-8 character cut between chunks, at every byte of it', () => {
    const text = line(call(3, { path: '日本語\u{1F600}.txt' }));
    const bytes = Buffer.from(text, 'utf8');
    for (let size = 1; size <= 5; size++) {
      const h = harness();
      for (let at = 0; at < bytes.length; at += size) h.feed(bytes.subarray(at, at + size));
      expect(h.got).toEqual([call(3, { path: '日本語\u{1F600}.txt' })]);
    }
  });

  it('takes a message of exactly the cap, and a last message without its newline when the input ends', async () => {
    const m = line(call(4));
    const h = harness(Buffer.byteLength(m) - 1);
    await h.t.start();
    h.input.write(m);
    h.input.end(JSON.stringify(call(5)));
    await settle();
    expect(h.got).toEqual([call(4), call(5)]);
    expect(h.closed()).toBe(true);
  });

  it('property: any chunking of any messages gives the same messages', () => {
    const id = fc.integer({ min: 0, max: 1e6 });
    const text = fc.string({ unit: fc.constantFrom('a', 'é', '日', '\u{1F600}', '"', '\\', '\n', '\r', '{', '}', ':', ',') , maxLength: 12 });
    fc.assert(
      fc.property(fc.array(fc.tuple(id, text, fc.boolean()), { minLength: 1, maxLength: 4 }), fc.array(fc.nat(), { maxLength: 6 }), (msgs, cuts) => {
        const ms = msgs.map(([i, t]) => call(i, { path: t }));
        const bytes = Buffer.from(msgs.map(([, , crlf], k) => line(ms[k], crlf ? '\r\n' : '\n')).join(''), 'utf8');
        const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const h = harness();
        let from = 0;
        for (const p of [...points, bytes.length]) {
          h.feed(bytes.subarray(from, p));
          from = p;
        }
        expect(h.got).toEqual(ms);
      }),
    );
  });
});

describe('LineTransport: what it refuses, and goes on after', () => {
  it('answers a line that is not JSON with -32700 (id null), then serves the next', async () => {
    const h = harness();
    h.feed('this is not json\n', line(call(6)));
    await settle();
    expect(h.replies()).toEqual([{ jsonrpc: '2.0', id: null, error: { code: PARSE_ERROR, message: expect.stringMatching(/^Parse error: the line is not JSON/) } }]);
    expect(h.got).toEqual([call(6)]);
  });

  it('answers JSON that is no JSON-RPC message with -32600, naming its id when it has one', async () => {
    const h = harness();
    h.feed('[1,2]\n', '42\n', '{"jsonrpc":"2.0","id":9,"method":5}\n', '{"id":"x","hello":1}\n', line(call(7)));
    await settle();
    expect(h.replies().map((r) => [r.id, r.error?.code])).toEqual([
      [null, INVALID_REQUEST],
      [null, INVALID_REQUEST],
      [9, INVALID_REQUEST],
      ['x', INVALID_REQUEST],
    ]);
    expect(h.got).toEqual([call(7)]);
  });

  it('skips a message over the cap unheld, answers it with its id (written last, as the SDK writes it), and serves the next', async () => {
    const h = harness(1000);
    const big = `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"replace_lines","arguments":{"path":"a.txt","start":1,"text":"${'x\\"'.repeat(2000)}","id":99}},"id":12}\n`;
    // in chunks of 100 bytes: past the cap, nothing more is kept
    const bytes = Buffer.from(big + line(call(13)));
    for (let at = 0; at < bytes.length; at += 100) h.feed(bytes.subarray(at, at + 100));
    await settle();
    const [r] = h.replies();
    expect(r!.id).toBe(12);
    expect(r!.error!.code).toBe(INVALID_REQUEST);
    expect(r!.error!.message).toMatch(/the message is \d+ bytes, more than the 1 MiB the server takes/);
    expect(h.got).toEqual([call(13)]);
    expect(h.errors.length).toBe(1);
  });

  it('refuses arguments named as Object.prototype members (-32602) before the server sees them', async () => {
    const h = harness();
    for (const [i, name] of ['constructor', 'toString', 'valueOf', '__proto__', 'hasOwnProperty'].entries()) {
      h.feed(`{"jsonrpc":"2.0","id":${20 + i},"method":"tools/call","params":{"name":"read_lines","arguments":{"path":"a.txt","start":1,"${name}":{"path":"b"}}}}\n`);
    }
    h.feed(line(call(30)));
    await settle();
    expect(h.replies().map((r) => [r.id, r.error?.code])).toEqual([20, 21, 22, 23, 24].map((id) => [id, -32602]));
    expect(h.replies()[3]!.error!.message).toContain('"__proto__"');
    expect(h.got).toEqual([call(30)]);
  });
});

describe('IdScanner', () => {
  const scan = (text: string, size: number) => {
    const s = new IdScanner();
    const b = Buffer.from(text, 'utf8');
    for (let at = 0; at < b.length; at += size) s.feed(b, at, Math.min(b.length, at + size));
    return s.id;
  };

  it('finds the top-level id wherever it is, never one nested or inside a string', () => {
    const cases: [string, unknown][] = [
      ['{"id":1,"method":"x"}', 1],
      ['{"method":"x","params":{"id":5,"a":["\\"id\\":7"]},"id":"abc"}', 'abc'],
      ['{"params":{"id":5},"method":"x"}', null],
      ['{"a":"\\"id\\":3","b":[{"id":4}]}', null],
      ['{ "id" : -2.5 , "x" : 1 }', -2.5],
      ['{"id":null}', null],
      ['{"id":{"x":1}}', null],
      ['{"idx":3,"xid":4}', null],
      ['[{"id":1}]', null],
      ['{"id":"é\\u0041"}', 'éA'],
    ];
    for (const [text, id] of cases) for (const size of [1, 2, 3, 1000]) expect(scan(text, size), `${text} in ${size}s`).toEqual(id);
  });

  it('property: the id JSON.parse finds, for any object and any chunk size', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }), fc.oneof(fc.integer(), fc.string({ maxLength: 10 })), fc.integer({ min: 1, max: 9 }), (obj, id, size) => {
        const text = JSON.stringify({ ...obj, id });
        const parsed = JSON.parse(text) as { id: unknown };
        expect(scan(text, size)).toEqual(parsed.id);
      }),
    );
  });
});
