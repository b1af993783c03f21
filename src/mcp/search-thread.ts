// A search thread of the MCP server (search-threads.ts starts it): runs grep calls, one at a time,
// through the same grepTool the main thread would, with its own roots and warm cache, and posts
// each answer back; a cancel from the main thread is heard between the search's slices.

import { parentPort, workerData } from 'node:worker_threads';
import { LinewiseError } from '../core/errors.js';
import { Roots } from './roots.js';
import { type GrepArgs, grepTool } from './search.js';
import type { ThreadAnswer, ThreadRequest, ThreadSetup } from './search-threads.js';
import { Warm } from './warm.js';

const setup = workerData as ThreadSetup;
const port = parentPort!;
const roots = new Roots(setup.roots, '/');
let named = JSON.stringify(setup.roots);
const warm = new Warm(setup.cacheMib, roots);
const running = new Map<number, AbortController>();

async function run(m: Extract<ThreadRequest, { kind: 'grep' }>): Promise<ThreadAnswer> {
  const stop = new AbortController();
  running.set(m.id, stop);
  try {
    // the client's roots may have changed since the last call: the checks use these
    const key = JSON.stringify(m.roots);
    if (key !== named) {
      roots.set(m.roots, '/');
      named = key;
    }
    // as JSON: a string crosses to the main thread several times faster than its objects cloned
    return { id: m.id, json: JSON.stringify(await grepTool(m.args as GrepArgs, m.paths, roots, stop.signal, warm)) };
  } catch (e) {
    const err = e instanceof LinewiseError ? e : undefined;
    return { id: m.id, error: { code: err?.code ?? 'internal', message: err?.message ?? String((e as Error)?.message ?? e), path: err?.path, exitCode: err?.exitCode } };
  } finally {
    running.delete(m.id);
  }
}

port.on('message', (m: ThreadRequest) => {
  if (m.kind === 'cancel') running.get(m.id)?.abort();
  else void run(m).then((answer) => port.postMessage(answer));
});
