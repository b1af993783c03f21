// linewise mcp stays up and responsive whatever a client sends (issue 22): a request past the
// SDK's old 10 MiB buffer is served; one past the server's cap, a line that is not JSON, a value
// that is no message are each answered with a JSON-RPC error and the next call is served;
// max_bytes 0 means the server's hard cap, in bounded memory; runaway searches run beside the
// other calls, and end as errors in the tool's words; Object.prototype's names are no arguments.
// Through the SDK's own client, but for what that client cannot send (raw lines, over-cap bytes).
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.js';
import { BIN, connect, type Session } from './mcp-client.js';

const tmp = tempDir();
const root = tmp.dir;
let s: Session;

beforeAll(async () => {
  fs.writeFileSync(path.join(root, 'small.txt'), 'one\ntwo\nthree\n');
  s = await connect(['--root', root], root);
});
afterAll(async () => {
  await s.close();
  tmp.cleanup();
});

/** The most memory the process ever held, MiB (Linux: VmHWM), or undefined where not known. */
function peakMiB(pid: number | null): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** A server spoken to in raw JSON-RPC lines: what the SDK's client would never send. */
class Raw {
  private readonly p: ChildProcessWithoutNullStreams;
  private out = '';
  private readonly waiters = new Map<unknown, (m: Record<string, unknown>) => void>();
  readonly got: Record<string, unknown>[] = [];

  constructor(dir: string) {
    const isJs = BIN.endsWith('.js');
    this.p = spawn(isJs ? process.execPath : BIN, isJs ? [BIN, 'mcp', '--root', dir] : ['mcp', '--root', dir], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } });
    this.p.stdout.on('data', (d: Buffer) => {
      this.out += d.toString('utf8');
      for (let nl = this.out.indexOf('\n'); nl !== -1; nl = this.out.indexOf('\n')) {
        const m = JSON.parse(this.out.slice(0, nl)) as Record<string, unknown>;
        this.out = this.out.slice(nl + 1);
        this.got.push(m);
        this.waiters.get(m.id)?.(m);
      }
    });
    this.p.stderr.resume();
  }

  /** Writes bytes, waiting for the pipe to take them. */
  async write(data: string | Buffer): Promise<void> {
    if (!this.p.stdin.write(data)) await new Promise<void>((r) => this.p.stdin.once('drain', r));
  }

  /** The reply with `id` (waits for it). */
  reply(id: unknown): Promise<Record<string, unknown>> {
    const seen = this.got.find((m) => m.id === id);
    if (seen) return Promise.resolve(seen);
    return new Promise((r) => this.waiters.set(id, r));
  }

  async init(): Promise<void> {
    await this.write(`${JSON.stringify({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } })}\n`);
    await this.reply('init');
    await this.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  }

  call(id: number, name: string, args: Record<string, unknown>): string {
    return `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })}\n`;
  }

  /** Ends the input; resolves with the exit status. */
  end(): Promise<number | null> {
    return new Promise((r) => {
      this.p.once('exit', (code) => r(code));
      this.p.stdin.end();
    });
  }

  get alive(): boolean {
    return this.p.exitCode === null;
  }
}

describe('linewise mcp: requests of every size', () => {
  it('serves a request over 10 MiB (the SDK\'s old limit, which ended the server), then the next call', async () => {
    const text = `${'x'.repeat(11 << 20)}\n`;
    fs.writeFileSync(path.join(root, 'big-edit.txt'), 'old\n');
    const r = await s.call('replace_lines', { path: 'big-edit.txt', start: 1, text });
    expect(r.isError, r.texts.join('\n')).toBe(false);
    expect(fs.readFileSync(path.join(root, 'big-edit.txt')).equals(Buffer.from(text))).toBe(true);
    const next = await s.call('read_lines', { path: 'small.txt', start: 2, end: 2 });
    expect(next.texts[0]).toBe('2\ttwo\n');
  }, 60_000);

  it('refuses a request over 256 MiB with an error naming its id, unheld, and serves the next call', async () => {
    const raw = new Raw(root);
    await raw.init();
    // the id last, as the SDK writes it: the server finds it without keeping the message
    await raw.write('{"jsonrpc":"2.0","method":"tools/call","params":{"name":"replace_lines","arguments":{"path":"small.txt","start":1,"text":"');
    const mib = Buffer.alloc(1 << 20, 'y');
    for (let i = 0; i < 257; i++) await raw.write(mib);
    await raw.write('"}},"id":7}\n');
    await raw.write(raw.call(8, 'read_lines', { path: 'small.txt', start: 1, end: 1 }));
    const refused = await raw.reply(7);
    expect(refused.error).toEqual({ code: -32600, message: expect.stringMatching(/^Invalid Request: the message is \d+ bytes, more than the 256 MiB the server takes/) });
    const next = (await raw.reply(8)) as { result: { content: { text: string }[] } };
    expect(next.result.content[0]!.text).toBe('1\tone\n');
    expect(fs.readFileSync(path.join(root, 'small.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    expect(raw.alive).toBe(true);
    expect(await raw.end()).toBe(0);
  }, 120_000);

  it('answers a line that is not JSON with -32700, JSON that is no message with -32600, and goes on', async () => {
    const raw = new Raw(root);
    await raw.init();
    await raw.write('this is not JSON\n');
    await raw.write('{"jsonrpc":"2.0","id":5,"method":7}\n');
    await raw.write(raw.call(6, 'read_lines', { path: 'small.txt', start: 3 }));
    const six = (await raw.reply(6)) as { result: { content: { text: string }[] } };
    expect(six.result.content[0]!.text).toBe('3\tthree\n');
    const errors = raw.got.filter((m) => 'error' in m).map((m) => [m.id, (m.error as { code: number }).code]);
    expect(errors).toEqual([
      [null, -32700],
      [5, -32600],
    ]);
    expect(await raw.end()).toBe(0);
  }, 60_000);
});

describe('linewise mcp: answers bounded whatever the arguments', () => {
  it('max_bytes 0 is the hard cap (1 MiB of rows) with a footer to go on, read and grep, in bounded memory', async () => {
    // 48 MiB of 64-byte lines: unbounded, the answer alone would be hundreds of MiB
    const lineOf = (n: number) => `line ${String(n).padStart(8, '0')} ${'z'.repeat(49)}\n`;
    const count = (48 << 20) / 64;
    const fd = fs.openSync(path.join(root, 'large.txt'), 'w');
    for (let at = 0; at < count; at += 16384) {
      let chunk = '';
      for (let n = at + 1; n <= Math.min(count, at + 16384); n++) chunk += lineOf(n);
      fs.writeSync(fd, chunk);
    }
    fs.closeSync(fd);
    // a server of its own: its high-water mark owes nothing to the other tests' calls
    const s = await connect(['--root', root], root);
    await s.call('read_lines', { path: 'small.txt', start: 1 });
    const before = peakMiB(s.pid);
    const read = await s.call('read_lines', { path: 'large.txt', start: 1, max_bytes: 0 });
    expect(read.isError).toBe(false);
    const [rows, footer] = read.texts[0]!.split('\n\n');
    expect(Buffer.byteLength(rows!)).toBeLessThanOrEqual(1 << 20);
    expect(rows!.startsWith(`1\t${lineOf(1)}`)).toBe(true);
    expect(footer).toMatch(/read_lines/);
    expect(footer).not.toMatch(/--/);
    const grep = await s.call('grep', { pattern: 'line', paths: ['large.txt'], max_bytes: 0, max_rows: 1e9 });
    expect(grep.isError).toBe(false);
    const [hits] = grep.texts[0]!.split('\n\n');
    expect(Buffer.byteLength(hits!)).toBeLessThanOrEqual(1 << 20);
    expect(grep.texts[0]).toMatch(/after/);
    // a max_bytes past the cap is the cap too
    const more = await s.call('read_lines', { path: 'large.txt', start: 1, max_bytes: 1e9 });
    expect(more.texts[0]).toBe(read.texts[0]);
    const peak = peakMiB(s.pid);
    // the rows, their text and their JSON records are a few MiB: the process grows by little
    // (unbounded, the 48 MiB file alone would be read whole into the answer several times over)
    if (before !== undefined && peak !== undefined) expect(peak - before).toBeLessThan(150);
    await s.close();
  }, 120_000);
});

describe('linewise mcp: answers within 8 MiB', () => {
  it('asks a read or search of short lines again with less, so the answer fits and its footer goes on from where it stopped', async () => {
    // 1 MiB of rows of 2-byte lines is over 100,000 rows: each a JSON record of about 90 to 180 bytes
    fs.writeFileSync(path.join(root, 'short.txt'), 'a\n'.repeat(150_000));
    for (const [tool, args] of [
      ['read_lines', { path: 'short.txt', start: 1, max_bytes: 0 }],
      ['grep', { pattern: 'a', paths: ['short.txt'], max_bytes: 0, max_rows: 1e9 }],
    ] as const) {
      const r = await s.call(tool, args);
      expect(r.isError, tool).toBe(false);
      expect(Buffer.byteLength(JSON.stringify({ content: r.texts, records: r.records })), tool).toBeLessThanOrEqual(8 << 20);
      const [rows, footer] = r.texts[0]!.split('\n\n');
      const numbers = rows!.split('\n').filter(Boolean).map((l) => Number(l.split('\t')[0]));
      expect(numbers, tool).toEqual(numbers.map((_, i) => i + 1));
      expect(numbers.length, tool).toBeGreaterThan(1000);
      const next = numbers.length + 1;
      const m = /max_bytes":(\d+)/.exec(footer!);
      if (tool === 'read_lines') expect(footer).toContain(`"start":${next},`);
      else expect(footer).toContain(`after: "short.txt:${next - 1}"`);
      if (m) expect(Number(m[1])).toBeLessThan(1 << 20);
    }
  }, 120_000);
});

describe('linewise mcp: runaway searches', () => {
  it('three runaway greps at once do not hold up a read, and each ends as an error in the tool\'s words', async () => {
    fs.writeFileSync(path.join(root, 'runaway.txt'), `${'a'.repeat(40)}!\n`);
    const order: string[] = [];
    const greps = [1, 2, 3].map((k) =>
      s.call('grep', { pattern: '(a+)+$', paths: ['runaway.txt'] }).then((r) => {
        order.push(`grep ${k}`);
        return r;
      }),
    );
    const read = await s.call('read_lines', { path: 'small.txt', start: 1, end: 1 });
    order.push('read');
    expect(read.texts[0]).toBe('1\tone\n');
    // the read was answered while every search was still running (each runs to its 10 s deadline)
    expect(order).toEqual(['read']);
    for (const r of await Promise.all(greps)) {
      expect(r.isError).toBe(true);
      expect(r.status).toBe(2);
      expect(r.error?.code).toBe('timeout');
      expect(r.texts[0]).toMatch(/^linewise: runaway\.txt: the search ran longer than 10 s at or after line 1: the pattern backtracks too much; simplify the pattern/);
      expect(r.texts.join('\n')).not.toMatch(/--/);
    }
    // and the server goes on
    expect((await s.call('grep', { pattern: 'two', paths: ['small.txt'] })).texts[0]).toBe('2\ttwo\n');
  }, 120_000);
});

describe('linewise mcp: a cancelled runaway search', () => {
  it('ends the thread of a search that cannot hear the cancel (one line, deep in the pattern), and the next search runs', async () => {
    fs.writeFileSync(path.join(root, 'runaway2.txt'), `${'a'.repeat(40)}!\n`);
    const stop = new AbortController();
    const grep = s.call('grep', { pattern: '(a+)+$', paths: ['runaway2.txt'] }, { signal: stop.signal }).catch((e: unknown) => e);
    expect((await s.call('read_lines', { path: 'small.txt', start: 1, end: 1 })).texts[0]).toBe('1\tone\n');
    stop.abort();
    expect(await grep).toBeInstanceOf(Error);
    // A search inside one line hears a cancel only at its 10 s deadline, which would answer it as
    // a timeout, not as cancelled: this line comes only from the thread ended under it.
    while (!s.stderr().includes('mcp: grep: cancelled by the client; stopped')) await new Promise((r) => setTimeout(r, 50));
    expect((await s.call('grep', { pattern: 'three', paths: ['small.txt'] })).texts[0]).toBe('3\tthree\n');
  }, 60_000);
});

describe('linewise mcp: arguments are the call\'s own', () => {
  for (const name of ['constructor', 'toString', 'valueOf', '__proto__']) {
    it(`refuses an argument named ${name} (a name every object has), and serves the next call`, async () => {
      // JSON.parse makes "__proto__" an own key, as a client's JSON does
      const args = JSON.parse(`{"path":"small.txt","start":1,${JSON.stringify(name)}:{"path":"elsewhere.txt","start":2}}`) as Record<string, unknown>;
      const refused = await s.call('read_lines', args).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(McpError);
      expect((refused as McpError).code).toBe(-32602);
      expect((refused as McpError).message).toContain(`no argument ${JSON.stringify(name)}`);
      expect((await s.call('read_lines', { path: 'small.txt', start: 1, end: 1 })).texts[0]).toBe('1\tone\n');
    });
  }
});
