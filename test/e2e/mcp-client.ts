// The MCP tests' client: the SDK's own Client over stdio, spawning the built CLI's `mcp` (or the
// binary named by LINEWISE_BIN), and the CLI run as a process to compare the tools' output with.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const BIN = process.env.LINEWISE_BIN ?? fileURLToPath(new URL('../../bin/linewise.js', import.meta.url));
const isJs = BIN.endsWith('.js');

/** A text result's blocks, and its structured content. */
export interface Result {
  texts: string[];
  records: Record<string, unknown>[];
  status: number;
  isError: boolean;
  error?: { code: string; message: string; path: string | null };
}

export interface Session {
  client: Client;
  call(name: string, args: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<Result>;
  /** what the server wrote on stderr so far */
  stderr(): string;
  /** the server's process id */
  pid: number | null;
  close(): Promise<void>;
}

/** Starts `linewise mcp ...args` in `cwd` (with `env` added to the environment) and connects the SDK's client to it. */
export async function connect(args: string[], cwd: string, capabilities: ConstructorParameters<typeof Client>[1] = {}, env: Record<string, string> = {}): Promise<Session> {
  const client = new Client({ name: 'linewise-tests', version: '0' }, capabilities);
  const transport = new StdioClientTransport({ command: isJs ? process.execPath : BIN, args: isJs ? [BIN, 'mcp', ...args] : ['mcp', ...args], cwd, stderr: 'pipe', env: { ...process.env, NO_COLOR: '1', ...env } as Record<string, string> });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  await client.connect(transport);
  return {
    client,
    async call(name, a, options = {}) {
      const r = (await client.callTool({ name, arguments: a }, undefined, options)) as unknown as { content: { type: string; text: string }[]; structuredContent: Result & { records: Record<string, unknown>[] }; isError?: boolean };
      const s = r.structuredContent;
      return { texts: r.content.map((c) => c.text), records: s.records, status: s.status, isError: r.isError === true, ...(s.error ? { error: s.error } : {}) };
    },
    stderr: () => err,
    pid: transport.pid,
    close: () => client.close(),
  };
}

/** The CLI run as a process in `cwd`: its stdout as text, stderr, status. */
export function cli(args: string[], cwd: string): { stdout: string; stderr: string; status: number | null } {
  // stdin /dev/null: grep with no path walks the directory, as the server's does
  const r = spawnSync(isJs ? process.execPath : BIN, isJs ? [BIN, ...args] : args, { cwd, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  return { stdout: r.stdout.toString('utf8'), stderr: r.stderr.toString('utf8'), status: r.status };
}

/** JSON Lines as records. */
export const records = (jsonl: string) => jsonl.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
