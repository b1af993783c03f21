// A grep run over its inputs, in order and resumable: `step` opens each input, hands its blocks
// to a LineSearcher and the rows to the output stage, until a time, and can be called again.
// With worker threads (grep-pool.ts), walked files are searched ahead, out of turn, by the
// workers and by this thread while it waits, and each result is replayed in its turn: the
// reporter hears the same calls, in the same order, as from a run on one thread.

import { Exit, LinewiseError } from '../core/errors.js';
import type { Finder } from '../core/finders.js';
import { LineScanner } from '../core/lines.js';
import { replayLog } from '../core/row-log.js';
import type { CompiledPattern } from '../core/pattern.js';
import { finderFor } from '../core/finder-choice.js';
import { LineSearcher } from '../core/searcher.js';
import { DeadlineExceeded } from '../io/deadline.js';
import { fileError } from '../io/input.js';
import { BinaryFileError, type OpenedText, openText } from '../io/text.js';
import type { SearchTarget } from '../io/walk.js';
import { errorOf, type FileResult, FileSearch } from './grep-file.js';
import type { GrepItem } from './grep-inputs.js';
import type { GrepReporter, GrepSummary, SearchSettings } from './grep-options.js';
import type { GrepCursor } from './grep-budget.js';
import type { GrepOutput } from './grep-output.js';
import type { GrepPool } from './grep-pool.js';
import { INFLIGHT, type WorkerSetup } from './grep-shared.js';

/** The file being searched. */
interface Current {
  target: SearchTarget;
  text: OpenedText;
  searcher: LineSearcher;
}

/** How a run uses worker threads: how many, from which job on, and what to tell them. */
export interface Parallel {
  workers: number;
  setup: Omit<WorkerSetup, 'ctl' | 'results'>;
  /** the pool's class, loaded with import() only for a search that may use it */
  Pool: typeof GrepPool;
}

/** An input in the queue; `job` numbers a walked file the workers may search (-1: none). */
interface Queued {
  item: GrepItem;
  job: number;
}

/** Walked files queued ahead of the one in turn, for the workers to search meanwhile. */
const LOOKAHEAD = 128;

/** A grep run over its inputs, resumable: `step` works until a time and can be called again. */
export class GrepRun {
  private readonly iter: Iterator<GrepItem>;
  private iterDone = false;
  private readonly queue: Queued[] = [];
  private head = 0;
  private jobs = 0;
  /** jobs taken from the queue in turn */
  private taken = 0;
  /** the workers were started (or failed to): never twice */
  private poolTried = false;
  /** each job's file while it may still be searched out of turn */
  private readonly jobFiles = new Map<number, SearchTarget>();
  private pool: GrepPool | undefined;
  /** this thread's searches out of turn, and the job of the one in hand (-1: none) */
  private outOfTurn: FileSearch | undefined;
  private stealing = -1;
  /** a file searched out of turn ran past its deadline: where and at which line (for the message) */
  private timedOut: { display: string; line: number } | undefined;
  private cur: Current | undefined;
  /** the output refused a file (the count past a budget reached its bound): nothing more is opened */
  private ended = false;
  errors = 0;
  /** the cursor's input is not reached yet: inputs before it are passed over unopened */
  private seeking: boolean;
  /** one scanner (its buffer in a counting kernel) and one finder for every file: no per-file setup */
  private readonly scanner: LineScanner;
  private readonly finder: Finder | undefined;

  constructor(
    private readonly pattern: CompiledPattern,
    items: Iterable<GrepItem>,
    private readonly o: SearchSettings,
    private readonly reporter: GrepReporter,
    private readonly output: GrepOutput,
    private readonly cursor: GrepCursor | undefined,
    /** worker threads for walked files; undefined: this thread alone */
    private readonly parallel?: Parallel,
  ) {
    this.iter = items[Symbol.iterator]();
    this.seeking = cursor !== undefined;
    this.scanner = new LineScanner(() => 0, o.bufferSize);
    this.finder = finderFor(pattern);
  }

  /** The run has worker threads (the caller then lets the event loop turn between steps). */
  get threaded(): boolean {
    return this.pool !== undefined;
  }

  /**
   * Queues inputs from the list: with worker threads, until LOOKAHEAD walked files are queued
   * ahead (each numbered as a job and handed to the workers), else one. Inputs before the cursor
   * are passed over here, in order, never queued.
   */
  private fill(): void {
    const ahead = this.parallel === undefined ? 1 : LOOKAHEAD;
    while (!this.iterDone && (this.queue.length - this.head === 0 || (this.parallel !== undefined && this.jobs - this.turnJob() < ahead))) {
      const next = this.iter.next();
      if (next.done) {
        this.iterDone = true;
        break;
      }
      const item = next.value;
      if (this.passOver(item)) continue;
      let job = -1;
      if (this.parallel !== undefined && 'walked' in item && item.walked) {
        job = this.jobs++;
        this.jobFiles.set(job, item);
        this.pool?.add({ abs: item.abs, display: item.display });
      }
      this.queue.push({ item, job });
    }
    if (!this.poolTried && this.parallel !== undefined && this.jobs > this.turnJob()) this.startPool(this.parallel);
    this.pool?.flush();
  }

  /** The job in turn: every job before it was taken from the queue. */
  private turnJob(): number {
    return this.taken;
  }

  /** Starts the workers on the jobs not yet taken in turn. */
  private startPool(p: Parallel): void {
    this.poolTried = true;
    const pool = new p.Pool(p.workers, p.setup);
    if (pool.broken) {
      pool.close();
      return;
    }
    const first = this.turnJob();
    pool.startAt(first);
    for (let j = first; j < this.jobs; j++) {
      const f = this.jobFiles.get(j)!;
      pool.add({ abs: f.abs, display: f.display });
    }
    this.pool = pool;
  }

  private peekQueued(): Queued | undefined {
    if (this.queue.length - this.head === 0 || this.parallel !== undefined) this.fill();
    return this.queue[this.head];
  }

  private shift(): void {
    const { job } = this.queue[this.head]!;
    if (job >= 0) this.taken = job + 1;
    this.queue[this.head++] = undefined as never;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
  }

  /** The next input to open is standard input or a pipe (its reads wait on a writer). */
  nextIsPipe(): boolean {
    if (this.cur) return this.cur.text.input.size === undefined;
    const next = this.peekQueued();
    return next !== undefined && 'abs' in next.item && next.item.abs === '-';
  }

  line(): number {
    return this.timedOut?.line ?? this.cur?.searcher.currentLine ?? 0;
  }

  current(): string | undefined {
    return this.timedOut?.display ?? this.cur?.target.display;
  }

  /** Searches until `until` (a performance.now() time); true when every input is done. */
  step(until: number): boolean {
    const output = this.output;
    for (;;) {
      if (output.state === 'done') return true; // -q found a line, or the count past a budget reached its bound
      if (!this.cur) {
        const opened = this.openNext(until);
        if (opened === 'later') return false;
        if (!opened) return true;
      }
      const cur = this.cur!;
      let stopped = false;
      let finished: boolean;
      try {
        finished = cur.text.scanner.scanBlocks((buf, start, end, ends) => {
          if (cur.searcher.visitor(buf, start, end, ends) === false || output.state === 'done' || !output.scanned(end - start)) {
            stopped = true;
            return false;
          }
          return performance.now() < until;
        });
      } catch (e) {
        this.closeCurrent();
        this.fail(e, cur.target.display);
        continue;
      }
      if (!finished && !stopped) return false; // time is up: resume later
      this.endFile(cur);
      if (performance.now() >= until) return false;
    }
  }

  /** The item is the cursor's input, or one before it (passed over); false once the cursor is reached. */
  private passOver(item: GrepItem): boolean {
    if (!this.seeking) return false;
    if ('error' in item || item.display !== this.cursor!.path) return true;
    this.seeking = false;
    // -c and -l resume after the whole file: their rows are files
    return this.cursor!.line === 'end' || this.o.noNumbers;
  }

  /**
   * Opens the next input to search in turn; false when none is left (or the output is done),
   * 'later' when time is up while a worker's result is awaited. Problems, and files searched out
   * of turn, are reported in their turn on the way.
   */
  private openNext(until: number): boolean | 'later' {
    for (;;) {
      if (this.ended || this.output.state === 'done') return false;
      const next = this.peekQueued();
      if (next === undefined) return false;
      const { item, job } = next;
      if ('error' in item) {
        this.shift();
        if (item.note) this.reporter.note(item.error.message, item.error.path);
        else this.fail(item.error, item.error.path ?? '.');
        continue;
      }
      // a walked file: searched out of turn already, or this thread's to search now
      const r = job >= 0 && this.pool !== undefined ? this.inTurn(job, until) : undefined;
      if (r === 'later') return 'later';
      this.shift();
      if (job >= 0) this.jobFiles.delete(job);
      if (r !== undefined && r.kind !== 'in-turn') {
        if (!this.replay(item, r)) return false;
        if (performance.now() >= until) return 'later';
        continue;
      }
      if (this.open(item)) return true;
      if (this.ended) return false;
    }
  }

  /**
   * Job `j`'s result when a worker (or this thread, out of turn) has searched it; undefined when
   * it is this thread's to search now, in turn; 'later' when time ran out waiting for it.
   * While it waits, this thread searches the next unclaimed job out of turn.
   */
  private inTurn(j: number, until: number): FileResult | undefined | 'later' {
    const pool = this.pool!;
    pool.turn(j);
    for (;;) {
      const r = pool.take(j);
      if (r !== undefined) {
        if (r.kind === 'searched') pool.reported(r.log.byteLength);
        return r;
      }
      if (pool.claimInTurn(j)) return undefined;
      if (pool.broken) {
        // a worker died: its jobs are this thread's now, and the rest too
        this.closePool();
        return undefined;
      }
      if (!this.searchOutOfTurn()) pool.wait(j, Math.max(0, Math.min(10, until - performance.now())));
      if (performance.now() >= until) return 'later';
    }
  }

  /** Searches the next unclaimed job out of turn and keeps its result; false when there is none. */
  private searchOutOfTurn(): boolean {
    const pool = this.pool!;
    this.fill();
    const k = pool.claim(this.jobs);
    if (k === -1) return false;
    const f = this.jobFiles.get(k)!;
    this.outOfTurn ??= new FileSearch(this.pattern, this.parallel!.setup.settings);
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
  private replay(item: SearchTarget, r: FileResult): boolean {
    if (r.kind === 'binary') return true;
    if (r.kind === 'failed') {
      this.fail(errorOf(r.error), item.display);
      return true;
    }
    if (r.kind === 'bug') throw new Error(r.bug);
    if (r.kind !== 'searched') return true;
    const output = this.output;
    if (!output.chargeFile(r.size)) {
      this.ended = true;
      return false;
    }
    this.reporter.file(item.display);
    output.beginFile(item.display, this.cursorLine(item));
    const sink = output.sink;
    let selected = 0;
    const finished = replayLog(r.log, {
      match: (n, b, s, e) => {
        selected++;
        sink.match(n, b, s, e);
      },
      context: (n, b, s, e) => sink.context(n, b, s, e),
      gap: () => sink.gap(),
      note: (message) => this.reporter.note(message, item.display),
      visited: (bytes, more) => more && output.state !== 'done' && output.scanned(bytes),
    });
    if (finished && r.timeoutAt !== undefined) {
      this.timedOut = { display: item.display, line: r.timeoutAt };
      throw new DeadlineExceeded(0);
    }
    if (finished && r.bug !== undefined) throw new Error(r.bug);
    if (finished && r.error !== undefined) {
      this.fail(errorOf(r.error), item.display);
      return true;
    }
    output.endFile(item.display, selected);
    this.reporter.endFile(item.display, selected);
    return true;
  }

  /** The line of `item` up to which rows were shown before (the cursor), or 0. */
  private cursorLine(item: SearchTarget): number {
    return this.cursor?.path === item.display && typeof this.cursor.line === 'number' ? this.cursor.line : 0;
  }

  /**
   * Opens an input to search it in turn; false when it is not searched (a binary file, an error,
   * reported in its turn) or when the output refuses it (then `output.state` says it is done).
   */
  private open(item: SearchTarget): boolean {
    {
      let text: OpenedText;
      try {
        text = openText(item.abs, this.o.source, { allowBinary: this.o.allowBinary, encoding: this.o.encoding, bufferSize: this.o.bufferSize, scanner: this.scanner, quietBinary: item.walked });
      } catch (e) {
        if (e instanceof BinaryFileError) {
          // Walks skip binary files quietly, as rg does; a file named on the command line gets a note.
          if (!item.walked) this.reporter.note(binaryNote(e), item.display);
          return false;
        }
        this.fail(e, item.display);
        return false;
      }
      if (!this.output.chargeFile(text.input.size)) {
        text.input.close();
        this.ended = true;
        return false;
      }
      const searcher = new LineSearcher(this.pattern, this.output.sink, {
        invert: this.o.invert,
        ...(this.o.maxCount !== undefined ? { maxCount: this.o.maxCount } : {}),
        before: this.o.before,
        after: this.o.after,
        noNumbers: this.o.noNumbers,
        onNote: (message) => this.reporter.note(message, item.display),
        finder: this.finder,
      });
      this.cur = { target: item, text, searcher };
      this.reporter.file(item.display);
      this.output.beginFile(item.display, this.cursorLine(item));
      return true;
    }
  }

  private endFile(cur: Current): void {
    this.closeCurrent();
    const n = cur.searcher.selected;
    this.output.endFile(cur.target.display, n);
    this.reporter.endFile(cur.target.display, n);
  }

  private closeCurrent(): void {
    const cur = this.cur;
    this.cur = undefined;
    cur?.text.input.close();
    // a decoded file's own scanner gives its buffer to the next one; the shared one is kept
    if (cur !== undefined && cur.text.scanner !== this.scanner) cur.text.scanner.release();
  }

  /** Abandons the file being searched (after a deadline, or when cancelled). */
  abort(): void {
    this.closeCurrent();
    this.release();
  }

  /** Ends the run wherever it is (idempotent): the worker threads go, the scanners' kernels come back. */
  close(): void {
    this.closeCurrent();
    this.release();
  }

  /** Lets the worker threads go, and the kernels of the scanners back. */
  private release(): void {
    this.closePool();
    this.scanner.release();
    this.outOfTurn?.release();
    this.outOfTurn = undefined;
  }

  private closePool(): void {
    this.pool?.close();
    this.pool = undefined;
  }

  /** An error on one input: reported in one line, and the search goes on. */
  private fail(e: unknown, display: string): void {
    if (!(e instanceof LinewiseError) && (e as NodeJS.ErrnoException)?.code === undefined) throw e; // a bug, or a closed stdout
    this.errors++;
    this.reporter.error(fileError(e, display), display);
  }

  finish(): GrepSummary {
    this.release();
    if (this.seeking) {
      throw new LinewiseError('bad-cursor', `--after: ${this.cursor!.path} is not among the inputs this search reaches (renamed or deleted since?); search again without --after`);
    }
    const cutOff = this.output.cutOff();
    const found = this.output.found;
    // -q: a line found is success even after an error, as in grep and rg
    const status = this.errors > 0 && !(found && this.o.quiet) ? Exit.usage : found ? Exit.ok : Exit.noMatch;
    return { status, errors: this.errors, complete: true, ...(cutOff ? { cutOff } : {}) };
  }
}

/**
 * The note for a binary file named in the paths: -a, or the encoding it looks like (UTF-16
 * without a mark), worded for grep, which skips such a file rather than refusing it.
 */
function binaryNote(e: BinaryFileError): string {
  if (e.wide === undefined) return 'binary file (it has a NUL byte), not searched; use -a/--text to search it';
  return `looks like ${e.wide.toUpperCase()} text without a byte order mark, not searched; search it with --encoding ${e.wide}`;
}
