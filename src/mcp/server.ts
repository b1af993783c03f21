// `linewise mcp`: the server over stdio. Lists the tools (the readers only under --read-only),
// checks each call's arguments and paths, runs it through the engine and answers with the CLI's
// rows, footers and messages; a failure is a result with isError, never a crashed server.

import * as fs from 'node:fs';
import { Exit, type ExitCode, LinewiseError } from '../core/errors.js';
import { Interrupted } from '../io/checkpoint.js';
import { type EditArgs, editTool } from './edits.js';
import { FileLocks } from './locks.js';
import { pageTool, readLinesTool, type PageArgs, type ReadArgs } from './readers.js';
import { ToolOutput, type ToolResult } from './result.js';
import { Roots } from './roots.js';
import { checkArgs } from './schema.js';
import type { GrepArgs } from './search.js';
import { listed, type ToolName, type ToolSpec, TOOLS } from './tools.js';
import { boundedAnswer, withinAnswer } from './bounds.js';
import { screenCall } from './screen.js';
import { SearchThreads } from './search-threads.js';
import { LineTransport } from './stdio.js';

export interface ServeOptions {
  /** --root: the directories served; none: the client's roots if it offers them, else `cwd` */
  roots: readonly string[];
  readOnly: boolean;
  /** the most kept in memory between searches, MiB (`--cache-mib`): contents, files, walks, answers */
  cacheMib?: number;
  cwd: string;
  version: string;
  /** a line on stderr (the client's log), `linewise: ...` */
  log(message: string): void;
  /** stops the server (the process was asked to stop); writes in progress are cancelled */
  signal?: AbortSignal;
}

/** How long calls wait for the client to list its roots before the server goes on with its own. */
const ROOTS_TIMEOUT_MS = 10_000;

const INSTRUCTIONS =
  'Line-precise file access. grep finds lines as rows "<path><TAB><n><TAB><line>"; read_lines reads the range around a hit; replace_lines edits it with expect set to the rows read (a line changed since is refused), or replace_rows applies the rows with their text edited. Rows keep every byte: CRLF, a missing final newline, a byte order mark and other encodings survive the round trip.';

/** Serves until the client closes standard input (status 0) or `signal` fires. */
export async function serve(o: ServeOptions): Promise<ExitCode> {
  const roots = new Roots(o.roots.length > 0 ? o.roots : [o.cwd], o.cwd);
  // the first search thread loads its modules while the SDK loads here
  const searches = new SearchThreads(roots, o.cacheMib, o.log);
  searches.warmUp();
  const sdk = await import('./sdk.js');
  const tools = new Map(TOOLS.filter((t) => !(o.readOnly && t.writes)).map((t) => [t.name, t]));
  const calls = new Calls(roots, searches, testPause(process.env.LINEWISE_MCP_TEST_PAUSE));
  const server = new sdk.Server({ name: 'linewise', version: o.version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });

  // The client's roots, when it has some and --root did not say: calls wait until they are known.
  let ready: Promise<void> = Promise.resolve();
  const fromClient = async () => {
    try {
      const { roots: list } = await server.listRoots(undefined, { timeout: ROOTS_TIMEOUT_MS });
      const dirs = list.map((r) => r.uri).filter((u) => u.startsWith('file:'));
      if (dirs.length > 0) roots.set(dirs, o.cwd);
    } catch (e) {
      o.log(`mcp: the client's roots could not be used (${(e as Error).message}); serving ${roots.names.join(', ')}`);
    }
  };
  server.oninitialized = () => {
    if (o.roots.length === 0 && server.getClientCapabilities()?.roots) ready = fromClient();
  };
  server.setNotificationHandler(sdk.RootsListChangedNotificationSchema, async () => {
    if (o.roots.length === 0) ready = fromClient();
  });

  server.setRequestHandler(sdk.ListToolsRequestSchema, async () => ({ tools: [...tools.values()].map(listed) }));
  // Calls in progress: the server ends only once they have settled (a write cancelled by the
  // close removes its temporary file before the process exits, perhaps by a signal).
  const inFlight = new Set<Promise<unknown>>();
  server.setRequestHandler(sdk.CallToolRequestSchema, (request, extra) => {
    const call = answer(request.params.name, request.params.arguments, extra.signal);
    inFlight.add(call);
    void call.finally(() => inFlight.delete(call));
    return call;
  });
  const answer = async (name: string, args: unknown, signal: AbortSignal): Promise<ToolResult> => {
    await ready;
    const out = new ToolOutput();
    const tool = tools.get(name as ToolName);
    try {
      if (tool === undefined) {
        const why = o.readOnly && TOOLS.some((t) => t.name === name) ? 'the server is read-only (--read-only)' : `the tools are ${[...tools.keys()].join(', ')}`;
        throw new LinewiseError('usage', `no tool "${name}": ${why}`);
      }
      return await withinAnswer(tool.name, checkArgs(tool.name, tool.params, args), (a, fresh) => calls.run(tool, a, fresh ? new ToolOutput() : out, signal));
    } catch (e) {
      if (e instanceof Interrupted && signal.aborted) o.log(`mcp: ${name}: cancelled by the client; stopped`);
      return boundedAnswer(out.failed(e));
    }
  };

  // Our own transport (stdio.ts): the SDK's ends the server on a request over 10 MiB.
  const transport = new LineTransport({
    input: process.stdin,
    output: process.stdout,
    parse: (v) => {
      const r = sdk.JSONRPCMessageSchema.safeParse(v);
      return r.success ? r.data : undefined;
    },
    screen: screenCall,
  });
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  server.onerror = (e) => o.log(`mcp: ${e.message}`);
  await server.connect(transport);
  process.stdout.on('error', () => void server.close()); // the client went away (EPIPE)
  o.signal?.addEventListener('abort', () => void server.close(), { once: true });
  await closed;
  await Promise.allSettled([...inFlight]);
  searches.close();
  return Exit.ok;
}

/**
 * For tests of races only (LINEWISE_MCP_TEST_PAUSE, a named pipe): between checking a call's
 * paths and running it, the server reads the pipe to its end, so a test holds it exactly in the
 * window a swapped link would use. It only waits; without the variable there is no pause.
 */
function testPause(fifo: string | undefined): () => Promise<void> {
  if (fifo === undefined || fifo === '') return async () => {};
  return async () => {
    const fh = await fs.promises.open(fifo, 'r');
    try {
      const buf = Buffer.alloc(64);
      while ((await fh.read(buf, 0, buf.length, null)).bytesRead > 0);
    } finally {
      await fh.close();
    }
  };
}

/** The calls of one server: paths checked against the roots, writes to one file in turn. */
class Calls {
  private readonly locks = new FileLocks();

  constructor(
    private readonly roots: Roots,
    private readonly searches: SearchThreads,
    /** after a call's paths are checked (see testPause) */
    private readonly checked: () => Promise<void>,
  ) {}

  async run(tool: ToolSpec, args: Record<string, unknown>, out: ToolOutput, signal: AbortSignal): Promise<ToolResult> {
    switch (tool.name) {
      case 'read_lines': {
        const a = args as unknown as ReadArgs;
        const path = this.roots.checkInput(a.path, 'path', false);
        await this.checked();
        await readLinesTool(out, { ...a, path }, this.roots);
        return out.done();
      }
      case 'page': {
        const a = args as unknown as PageArgs;
        const path = this.roots.checkInput(a.path, 'path', false);
        await this.checked();
        await pageTool(out, { ...a, path }, this.roots);
        return out.done();
      }
      case 'grep': {
        const a = args as unknown as GrepArgs;
        const paths = (a.paths ?? []).map((p) => this.roots.checkInput(p, 'paths', true));
        await this.checked();
        return this.searches.grep(a, paths, this.roots, signal);
      }
      default: {
        const a = args as unknown as EditArgs;
        const checked = a.path === undefined ? a : { ...a, path: this.roots.check(a.path) };
        await editTool(tool.name, out, checked, this.roots, this.locks, signal, this.checked);
        return out.done();
      }
    }
  }
}
