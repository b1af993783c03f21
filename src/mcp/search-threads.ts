// The server's searches off its main thread: grep calls go to a few threads of their own
// (search-thread.ts), so a pattern that backtracks for seconds, or a search of a large tree,
// never keeps the main thread from answering the other calls. The first thread keeps the warm
// cache (--cache-mib) and takes every search when it is free; a search started while it is busy
// goes to a helper thread (no cache), up to SEARCH_THREADS at once, and past them waits its turn.
// Where there is no thread script (run from the sources) searches run on the main thread.

import { Worker } from 'node:worker_threads';
import { type ExitCode, LinewiseError } from '../core/errors.js';
import { Interrupted } from '../io/checkpoint.js';
import { DEFAULT_CACHE_MIB } from '../surface/options.js';
import { CANCEL_GRACE_MS, SEARCH_THREADS, searchHeapMiB } from './bounds.js';
import type { ToolResult } from './result.js';
import type { Roots } from './roots.js';
import { type GrepArgs, grepTool } from './search.js';
import { searchThreadScript } from './thread-source.js';
import { Warm } from './warm.js';

/** What a thread is started with. */
export interface ThreadSetup {
  roots: string[];
  /** the cache it keeps, MiB (0: none) */
  cacheMib: number | undefined;
}

/** What the main thread asks a search thread. */
export type ThreadRequest = { kind: 'grep'; id: number; args: GrepArgs; paths: string[]; roots: string[] } | { kind: 'cancel'; id: number };

/** A thread's answer: the tool's result, or the error it failed with (as data: a class does not cross). */
export type ThreadAnswer = { id: number; json: string } | { id: number; error: { code: string; message: string; path: string | undefined; exitCode: ExitCode | undefined } };

/** A search waiting for, or running on, a thread. */
interface Call {
  id: number;
  args: GrepArgs;
  paths: string[];
  roots: Roots;
  signal: AbortSignal | undefined;
  resolve(r: ToolResult): void;
  reject(e: unknown): void;
  /** the thread's end, when a cancel was not heard in time */
  grace?: NodeJS.Timeout;
}

interface Thread {
  worker: Worker;
  /** the first thread: it keeps the cache */
  warm: boolean;
  call: Call | undefined;
}

export class SearchThreads {
  private readonly threads: Thread[] = [];
  private readonly waiting: Call[] = [];
  private next = 0;
  private closed = false;
  /** the thread's script; undefined: none, or a thread could not start (searches then run here) */
  private script = searchThreadScript();
  /** without threads: the cache of the main thread's searches */
  private local: Warm | undefined;

  constructor(
    private readonly roots: Roots,
    private readonly cacheMib: number | undefined,
    private readonly log: (message: string) => void,
  ) {}

  /** Starts the first thread ahead of the first search (its modules load meanwhile). */
  warmUp(): void {
    if (this.script !== undefined && this.threads.length === 0) this.start(true);
  }

  /** Runs a grep call; its answer, or the error it failed with. */
  grep(args: GrepArgs, paths: string[], roots: Roots, signal: AbortSignal | undefined): Promise<ToolResult> {
    if (this.script === undefined) return this.here(args, paths, roots, signal);
    return new Promise<ToolResult>((resolve, reject) => {
      if (signal?.aborted) return reject(new Interrupted(signal));
      const call: Call = { id: this.next++, args, paths, roots, signal, resolve, reject };
      signal?.addEventListener('abort', () => this.cancel(call), { once: true });
      this.waiting.push(call);
      this.dispatch();
    });
  }

  /** A search on the main thread. */
  private here(args: GrepArgs, paths: string[], roots: Roots, signal: AbortSignal | undefined): Promise<ToolResult> {
    this.local ??= new Warm(this.cacheMib, this.roots);
    return grepTool(args, paths, roots, signal, this.local);
  }

  /** Ends every thread; searches not answered yet end as cancelled. */
  close(): void {
    this.closed = true;
    for (const c of this.waiting.splice(0)) c.reject(new LinewiseError('interrupted', 'the server is closing; the search was not run'));
    for (const t of this.threads.splice(0)) {
      t.call?.reject(new LinewiseError('interrupted', 'the server is closing; the search was stopped'));
      void t.worker.terminate();
    }
  }

  /** Hands waiting calls to free threads: the warm one first, then helpers, started as needed. */
  private dispatch(): void {
    while (this.waiting.length > 0 && !this.closed) {
      let t = this.threads.find((x) => x.call === undefined);
      if (t === undefined && this.threads.length < SEARCH_THREADS) t = this.start(!this.threads.some((x) => x.warm));
      if (t === undefined && this.script === undefined) {
        // no thread can start: the calls waiting run here, as they would without threads
        for (const c of this.waiting.splice(0)) this.here(c.args, c.paths, c.roots, c.signal).then(c.resolve, c.reject);
        return;
      }
      if (t === undefined) return;
      const call = this.waiting.shift()!;
      t.call = call;
      t.worker.ref(); // a search in progress keeps the process up until it is answered
      t.worker.postMessage({ kind: 'grep', id: call.id, args: call.args, paths: call.paths, roots: call.roots.names } satisfies ThreadRequest);
    }
  }

  private start(warm: boolean): Thread | undefined {
    const script = this.script!;
    const data: ThreadSetup = { roots: this.roots.names, cacheMib: warm ? this.cacheMib : 0 };
    let worker: Worker;
    try {
      const resourceLimits = { maxOldGenerationSizeMb: searchHeapMiB(this.cacheMib ?? DEFAULT_CACHE_MIB) };
      worker = 'code' in script ? new Worker(script.code, { eval: true, workerData: data, resourceLimits }) : new Worker(script.url, { workerData: data, resourceLimits });
    } catch (e) {
      this.log(`mcp: a search thread could not start (${(e as Error).message}); searches run on the main thread`);
      if (this.threads.length === 0) this.script = undefined;
      return undefined;
    }
    const t: Thread = { worker, warm, call: undefined };
    worker.unref();
    worker.on('message', (a: ThreadAnswer) => this.answered(t, a));
    worker.on('error', (e) => this.lost(t, `its thread failed: ${e.message}`));
    worker.on('exit', () => this.lost(t, 'its thread ended'));
    this.threads.push(t);
    return t;
  }

  private answered(t: Thread, a: ThreadAnswer): void {
    const call = t.call;
    if (call === undefined || call.id !== a.id) return; // the answer of a call given up on
    this.free(t);
    if ('json' in a) call.resolve(JSON.parse(a.json) as ToolResult);
    else if (a.error.code === 'interrupted' && call.signal?.aborted) call.reject(new Interrupted(call.signal));
    else if (a.error.code === 'internal') call.reject(new Error(a.error.message));
    else call.reject(new LinewiseError(a.error.code, a.error.message, a.error.path, a.error.exitCode));
    this.dispatch();
  }

  private free(t: Thread): void {
    if (t.call?.grace) clearTimeout(t.call.grace);
    t.call = undefined;
    t.worker.unref();
  }

  /** A thread died (out of memory, ended to stop a search): its call fails, the next call starts another. */
  private lost(t: Thread, why: string): void {
    const at = this.threads.indexOf(t);
    if (at === -1) return;
    this.threads.splice(at, 1);
    const call = t.call;
    if (call !== undefined) {
      this.free(t);
      if (call.signal?.aborted) call.reject(new Interrupted(call.signal));
      else call.reject(new LinewiseError('search-failed', `the search stopped: ${why}; nothing is wrong with the files, try a narrower search (paths, glob, a simpler pattern)`));
    }
    void t.worker.terminate();
    this.dispatch();
  }

  /** The client cancelled: a waiting call is dropped; a running one is told, and its thread ended if it does not stop in time. */
  private cancel(call: Call): void {
    const waiting = this.waiting.indexOf(call);
    if (waiting !== -1) {
      this.waiting.splice(waiting, 1);
      call.reject(new Interrupted(call.signal!));
      return;
    }
    const t = this.threads.find((x) => x.call === call);
    if (t === undefined) return;
    t.worker.postMessage({ kind: 'cancel', id: call.id } satisfies ThreadRequest);
    // a pattern deep in one line is heard only at its next slice, or its deadline: end the thread
    call.grace = setTimeout(() => {
      if (t.call === call) this.lost(t, 'cancelled by the client');
    }, CANCEL_GRACE_MS);
    call.grace.unref();
  }
}
