// The worker threads of a tree search, seen from the main thread: starting them, handing them
// the walked files (jobs, numbered in walk order), claiming jobs against them, and taking their
// results back, all without leaving the synchronous search (shared memory and
// receiveMessageOnPort), so the run stays one deadline-bounded loop that reports in order.
//
// Why threads at all: the open/read/close of thousands of small files is most of a tree search,
// and one thread does it at a few microseconds a file. Why not the libuv pool: each fs call
// costs a callback on the main thread, measured 3-7 times slower than the synchronous calls.

import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { FileResult } from './grep-file.js';
import { HANDED, INFLIGHT, type Job, MAX_INFLIGHT, NEXT, POSTED, type ResultBatch, SLOTS, STOP, TURN, WANTED, WINDOW, type WorkerSetup } from './grep-shared.js';
import { grepWorkerScript } from './worker-source.js';

/**
 * The workers of one search and the jobs handed to them. Jobs are claimed from one counter
 * (NEXT) by workers and by the main thread alike; a result comes back through `take`.
 */
export class GrepPool {
  readonly ctl = new Int32Array(new SharedArrayBuffer(SLOTS * 4));
  private readonly workers: Array<{ worker: Worker; port: MessagePort }> = [];
  private readonly results = new Map<number, FileResult>();
  /** jobs handed to the workers so far */
  private posted = 0;
  private pending: Job[] = [];
  /** a worker failed to start or died: the main thread does the rest alone */
  broken = false;

  constructor(count: number, setup: Omit<WorkerSetup, 'ctl' | 'results'>) {
    Atomics.store(this.ctl, WANTED, -1);
    const script = grepWorkerScript();
    if (script === undefined) {
      this.broken = true;
      return;
    }
    for (let i = 0; i < count; i++) {
      const { port1, port2 } = new MessageChannel();
      const data: WorkerSetup = { ...setup, ctl: this.ctl, results: port2 };
      let worker: Worker;
      try {
        worker = 'code' in script ? new Worker(script.code, { eval: true, workerData: data, transferList: [port2] }) : new Worker(script.url, { workerData: data, transferList: [port2] });
      } catch {
        this.broken = true;
        return;
      }
      // A worker that dies leaves its claimed jobs undone: the run notices (alive) and does them.
      worker.on('error', () => (this.broken = true));
      worker.on('exit', () => (this.broken = true));
      worker.unref();
      port1.unref();
      this.workers.push({ worker, port: port1 });
    }
  }

  /** Jobs before `first` were searched in turn before the workers started: they are not sent. */
  startAt(first: number): void {
    Atomics.store(this.ctl, NEXT, first);
    this.turn(first);
    this.posted = first;
    Atomics.store(this.ctl, HANDED, first);
  }

  /** Queues a job for the workers (sent in batches by `flush`). */
  add(job: Job): void {
    this.pending.push(job);
    if (this.pending.length >= 32) this.flush();
  }

  /** Sends the queued jobs. */
  flush(): void {
    if (this.pending.length === 0) return;
    for (const w of this.workers) w.worker.postMessage({ first: this.posted, jobs: this.pending });
    this.posted += this.pending.length;
    this.pending = [];
    Atomics.store(this.ctl, HANDED, this.posted);
    Atomics.notify(this.ctl, HANDED);
  }

  /** The result of job `j` when a worker has posted it (taken: asked once). */
  take(j: number): FileResult | undefined {
    if (!this.results.has(j)) this.drain();
    const r = this.results.get(j);
    if (r !== undefined) this.results.delete(j);
    return r;
  }

  /** Keeps a result the main thread made out of turn, for its turn. */
  keep(j: number, r: FileResult): void {
    this.results.set(j, r);
  }

  /** results posted when the ports were last drained */
  private drained = 0;

  /** Moves every posted result into the map (nothing to do when no worker posted since). */
  private drain(): void {
    const posted = Atomics.load(this.ctl, POSTED);
    if (posted === this.drained) return;
    this.drained = posted;
    for (const w of this.workers) {
      for (let m = receiveMessageOnPort(w.port); m !== undefined; m = receiveMessageOnPort(w.port)) {
        for (const { job, result } of (m.message as ResultBatch).results) this.results.set(job, result);
      }
    }
  }

  /** Claims the next job when it is `j` (the one in turn); false when another thread has it. */
  claimInTurn(j: number): boolean {
    return Atomics.compareExchange(this.ctl, NEXT, j, j + 1) === j;
  }

  /** Claims the next unclaimed job below `limit` and within the window, or -1. */
  claim(limit: number): number {
    const ceiling = Math.min(limit, Atomics.load(this.ctl, TURN) + WINDOW);
    for (;;) {
      const j = Atomics.load(this.ctl, NEXT);
      if (j >= ceiling || Atomics.load(this.ctl, INFLIGHT) >= MAX_INFLIGHT) return -1;
      if (Atomics.compareExchange(this.ctl, NEXT, j, j + 1) === j) return j;
    }
  }

  /** The run reports job `j` now: workers may claim up to WINDOW past it. */
  turn(j: number): void {
    Atomics.store(this.ctl, TURN, j);
    // a worker waits on TURN only when the window is full: waking it every few jobs is enough
    if (j % 32 === 0) Atomics.notify(this.ctl, TURN);
  }

  /** A result of `bytes` was reported: its memory is free. */
  reported(bytes: number): void {
    if (bytes > 0) {
      Atomics.sub(this.ctl, INFLIGHT, bytes);
      Atomics.notify(this.ctl, TURN); // a worker waiting for room waits on TURN
    }
  }

  /** Waits until a worker posts something, or `ms` pass, telling them job `j` is wanted. */
  wait(j: number, ms: number): void {
    const seen = Atomics.load(this.ctl, POSTED);
    Atomics.store(this.ctl, WANTED, j);
    this.drain();
    if (!this.results.has(j) && ms > 0) Atomics.wait(this.ctl, POSTED, seen, ms);
    Atomics.store(this.ctl, WANTED, -1);
  }

  /** Stops the workers (they finish the file in hand and exit) and lets their threads go. */
  close(): void {
    Atomics.store(this.ctl, STOP, 1);
    Atomics.notify(this.ctl, TURN);
    Atomics.notify(this.ctl, HANDED);
    for (const w of this.workers) {
      w.port.close();
      void w.worker.terminate();
    }
    this.workers.length = 0;
    this.results.clear();
  }
}
