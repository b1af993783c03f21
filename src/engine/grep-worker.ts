// A worker thread of a tree search (grep-pool.ts starts it): it compiles the same patterns,
// claims walked files from the shared counter, searches each out of turn (grep-file.ts) and
// posts the results, a few at a time, to the main thread, which reports them in order.

import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { compilePatterns } from '../core/pattern.js';
import { DeadlineExceeded, runWithDeadline } from '../io/deadline.js';
import { type FileResult, FileSearch } from './grep-file.js';
import { HANDED, INFLIGHT, type Job, MAX_INFLIGHT, NEXT, POSTED, type ResultBatch, STOP, TURN, WANTED, WINDOW, type WorkerSetup } from './grep-shared.js';

/** Results posted together at most, and the bytes of logs that make a batch worth posting. */
const BATCH = 8;
const BATCH_BYTES = 64 << 10;

const setup = workerData as WorkerSetup;
const ctl = setup.ctl;
const jobs: Job[] = [];
let files: FileSearch | undefined;
let batch: ResultBatch['results'] = [];
let batchBytes = 0;

function post(): void {
  if (batch.length === 0) return;
  const transfer = batch.flatMap(({ result }) => (result.kind === 'searched' ? [result.log.buffer as ArrayBuffer] : []));
  Atomics.add(ctl, INFLIGHT, batchBytes);
  setup.results.postMessage({ results: batch } satisfies ResultBatch, transfer);
  batch = [];
  batchBytes = 0;
  Atomics.add(ctl, POSTED, 1);
  Atomics.notify(ctl, POSTED);
}

/** What `claim` found instead of a job. */
const NONE = -1; // no job handed over is left: back to the event loop for more
const FULL = -2; // the window or the bytes held are full: wait for the main thread
const STOPPED = -3;

/** Claims a job it has been handed, within the window and the bytes held. */
function claim(): number {
  for (;;) {
    if (Atomics.load(ctl, STOP) === 1) return STOPPED;
    const j = Atomics.load(ctl, NEXT);
    if (j >= jobs.length) return NONE;
    if (j >= Atomics.load(ctl, TURN) + WINDOW || Atomics.load(ctl, INFLIGHT) >= MAX_INFLIGHT) return FULL;
    if (Atomics.compareExchange(ctl, NEXT, j, j + 1) === j) return j;
  }
}

/** The job being searched (for a result if a deadline stops it), or -1. */
let inHand = -1;

function finish(j: number, result: FileResult): void {
  batch.push({ job: j, result });
  if (result.kind === 'searched') batchBytes += result.log.byteLength;
  // the main thread waits for this one (or one before), or enough is gathered: post now
  const wanted = Atomics.load(ctl, WANTED);
  if ((wanted !== -1 && wanted <= j) || batch.length >= BATCH || batchBytes >= BATCH_BYTES) post();
}

/**
 * Searches what can be claimed, in slices (sliceMs) under one deadline each, as the main thread
 * does (a watchdog thread per file, or per message, would cost more than the files: about a
 * millisecond each on a busy machine). Jobs are taken from the port synchronously, and the
 * thread waits in shared memory: it never returns to its event loop, until told to stop.
 */
function work(): void {
  while (Atomics.load(ctl, STOP) !== 1) {
    const start = Date.now();
    const slice = () => {
      while (Date.now() - start < setup.sliceMs) {
        receiveJobs();
        const j = claim();
        if (j === STOPPED) return;
        if (j < 0) {
          // no job to claim now: hand over what is done, and wait for jobs or room
          post();
          const seen = Atomics.load(ctl, HANDED);
          if (j === NONE && Atomics.load(ctl, HANDED) === jobs.length) Atomics.wait(ctl, HANDED, seen, 10);
          else if (j === FULL) Atomics.wait(ctl, TURN, Atomics.load(ctl, TURN), 10);
          continue;
        }
        inHand = j;
        const job = jobs[j]!;
        jobs[j] = undefined as never; // read once: a long walk does not pile its paths up here
        const result = files!.search(job.abs, job.display);
        inHand = -1;
        finish(j, result);
      }
    };
    try {
      if (setup.deadlineMs > 0) runWithDeadline(slice, setup.deadlineMs);
      else slice();
    } catch (e) {
      if (!(e instanceof DeadlineExceeded) || inHand === -1) throw e;
      // the pattern ran too long on this file: its rows so far, and the line, for its turn
      const j = inHand;
      inHand = -1;
      finish(j, files!.abandon());
    }
    post();
  }
  files!.release();
}

/** Takes the jobs the main thread has sent. */
function receiveJobs(): void {
  for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port)) {
    const { first, jobs: sent } = m.message as { first: number; jobs: Job[] };
    for (let i = 0; i < sent.length; i++) jobs[first + i] = sent[i]!;
  }
}

const port = parentPort!;
// (no top-level await: the standalone binary runs this as a CommonJS script)
void compilePatterns(setup.patterns, setup.patternOptions).then((pattern) => {
  files = new FileSearch(pattern, setup.settings);
  work();
  port.close();
});
