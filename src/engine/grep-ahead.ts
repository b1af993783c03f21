// Walked files searched ahead of their turn (grep -j): numbered as jobs and handed to the worker
// threads (grep-pool.ts), searched by this thread too while it waits for one, and each result
// reported in its turn as the search in turn would have reported the file. Loaded with import()
// only for a search with worker threads, so one thread never loads any of it.

import type { CompiledPattern } from '../core/pattern.js';
import { replayLog } from '../core/row-log.js';
import type { SearchTarget } from '../io/walk.js';
import { errorOf, type FileResult, FileSearch } from './grep-file.js';
import type { GrepReporter } from './grep-options.js';
import type { GrepOutput } from './grep-output.js';
import { GrepPool } from './grep-pool.js';
import { INFLIGHT, type WorkerSetup } from './grep-shared.js';

/** How a run uses worker threads: how many, and what to tell them. */
export interface Parallel {
  workers: number;
  setup: Omit<WorkerSetup, 'ctl' | 'results'>;
  /** this module's class, loaded with import() only for a search with worker threads */
  SearchAhead: typeof SearchAhead;
}

/** The run a result is reported into, in its turn (grep-run.ts GrepRun). */
export interface Turn {
  readonly output: GrepOutput;
  readonly reporter: GrepReporter;
  cursorLine(item: SearchTarget): number;
  cursorRest(item: SearchTarget): { line: number; byte: number } | undefined;
  fail(e: unknown, display: string): void;
  /** throws the run's deadline, naming the file and line */
  timeOut(display: string, line: number): never;
  /** the output refused a file: nothing more is opened */
  end(): void;
}

export class SearchAhead {
  /** walked files numbered so far */
  jobs = 0;
  private pool: GrepPool | undefined;
  /** the workers were started (or failed to): never twice */
  private tried = false;
  /** each job's file until it is taken in turn */
  private readonly files = new Map<number, SearchTarget>();
  /** this thread's searches out of turn, and the job of the one in hand (-1: none) */
  private outOfTurn: FileSearch | undefined;
  private stealing = -1;

  constructor(
    private readonly p: Parallel,
    private readonly pattern: CompiledPattern,
  ) {}

  /** The workers are running. */
  get started(): boolean {
    return this.pool !== undefined;
  }

  /** Numbers a walked file as the next job, and hands it to the workers. */
  hand(target: SearchTarget): number {
    const j = this.jobs++;
    this.files.set(j, target);
    this.pool?.add({ abs: target.abs, display: target.display });
    return j;
  }

  /** Starts the workers once, on the jobs from `first` on (those before were taken in turn); sends what is queued. */
  start(first: number): void {
    if (!this.tried && this.jobs > first) {
      this.tried = true;
      const pool = new GrepPool(this.p.workers, this.p.setup);
      if (pool.broken) pool.close();
      else {
        pool.startAt(first);
        for (let j = first; j < this.jobs; j++) {
          const f = this.files.get(j)!;
          pool.add({ abs: f.abs, display: f.display });
        }
        this.pool = pool;
      }
    }
    this.pool?.flush();
  }

  /**
   * Job `j`'s result when a worker (or this thread, out of turn) has searched it; undefined when
   * it is this thread's to search now, in turn; 'later' when time ran out waiting for it.
   * While it waits, this thread searches the next unclaimed job out of turn (`more` queues more).
   */
  inTurn(j: number, until: number, more: () => void): FileResult | undefined | 'later' {
    const pool = this.pool;
    if (pool === undefined) {
      this.files.delete(j);
      return undefined;
    }
    pool.turn(j);
    for (;;) {
      const r = pool.take(j);
      if (r !== undefined) {
        if (r.kind === 'searched') pool.reported(r.log.byteLength);
        this.files.delete(j);
        return r;
      }
      if (pool.claimInTurn(j)) {
        this.files.delete(j);
        return undefined;
      }
      if (pool.broken) {
        // a worker died: its jobs are this thread's now, and the rest too
        this.closePool();
        this.files.delete(j);
        return undefined;
      }
      more();
      if (!this.searchOutOfTurn()) pool.wait(j, Math.max(0, Math.min(10, until - performance.now())));
      if (performance.now() >= until) return 'later';
    }
  }

  /** Searches the next unclaimed job out of turn and keeps its result; false when there is none. */
  private searchOutOfTurn(): boolean {
    const k = this.pool!.claim(this.jobs);
    if (k === -1) return false;
    const f = this.files.get(k)!;
    this.outOfTurn ??= new FileSearch(this.pattern, this.p.setup.settings);
    this.stealing = k;
    const r = this.outOfTurn.search(f.abs, f.display);
    this.stealing = -1;
    this.keep(k, r);
    return true;
  }

  private keep(k: number, r: FileResult): void {
    if (r.kind === 'searched') Atomics.add(this.pool!.ctl, INFLIGHT, r.log.byteLength);
    this.pool!.keep(k, r);
  }

  /**
   * The step's deadline stopped a file this thread searched out of turn: its result (rows so
   * far, the line) is kept for its turn, where the deadline is reported, and true is returned;
   * false when the deadline stopped the search in turn (the caller reports it now).
   */
  outOfTurnTimedOut(): boolean {
    if (this.stealing === -1 || this.pool === undefined || !this.outOfTurn?.stopped) return false;
    this.keep(this.stealing, this.outOfTurn.abandon());
    this.stealing = -1;
    return true;
  }

  /**
   * Reports a file searched out of turn as the search in turn would have: its rows up to where
   * that search would have stopped, then its end, its error or its deadline. False when the
   * output refuses the file (the count past a budget is at its bound): the run ends there.
   */
  report(item: SearchTarget, r: FileResult, turn: Turn): boolean {
    if (r.kind === 'in-turn') return true;
    if (r.kind === 'binary') {
      turn.reporter.skipped?.(item.display, 'binary file (it has a NUL byte), not searched');
      return true;
    }
    if (r.kind === 'failed') {
      turn.fail(errorOf(r.error), item.display);
      return true;
    }
    if (r.kind === 'bug') throw new Error(r.bug);
    const { output, reporter } = turn;
    if (!output.chargeFile(r.size)) {
      turn.end();
      return false;
    }
    reporter.file(item.display);
    output.beginFile(item.display, turn.cursorLine(item), turn.cursorRest(item));
    const sink = output.sink;
    let selected = 0;
    const finished = replayLog(r.log, {
      match: (n, b, s, e) => {
        selected++;
        sink.match(n, b, s, e);
      },
      context: (n, b, s, e) => sink.context(n, b, s, e),
      gap: () => sink.gap(),
      note: (message) => reporter.note(message, item.display),
      visited: (bytes, more) => more && output.state !== 'done' && output.scanned(bytes),
    });
    if (finished && r.timeoutAt !== undefined) turn.timeOut(item.display, r.timeoutAt);
    if (finished && r.bug !== undefined) throw new Error(r.bug);
    if (finished && r.error !== undefined) {
      turn.fail(errorOf(r.error), item.display);
      return true;
    }
    output.endFile(item.display, selected);
    reporter.endFile(item.display, selected);
    return true;
  }

  /** Lets the workers go, and this thread's out-of-turn scanner. */
  close(): void {
    this.closePool();
    this.outOfTurn?.release();
    this.outOfTurn = undefined;
  }

  private closePool(): void {
    this.pool?.close();
    this.pool = undefined;
  }
}
