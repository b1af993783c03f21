// A grep run over its inputs, in order and resumable: `step` opens each input, hands its blocks
// to a LineSearcher and the rows to the output stage, until a time, and can be called again.
// With worker threads (grep -j), walked files are searched ahead of their turn (grep-ahead.ts)
// and each result is replayed in its turn: the reporter hears the same calls, in the same order,
// as from a run on one thread.

import { Exit, LinewiseError } from '../core/errors.js';
import type { Finder } from '../core/finders.js';
import { LineScanner } from '../core/lines.js';
import type { CompiledPattern } from '../core/pattern.js';
import { finderFor } from '../core/finder-choice.js';
import { lineGatherer, LineSearcher } from '../core/searcher.js';
import { DeadlineExceeded } from '../io/deadline.js';
import { BinaryFileError } from '../io/encodings/sniff.js';
import { fileError, type OpenedText, openText, type TextOptions, WalkedFile } from '../io/input.js';
import type { SearchTarget } from '../io/walk.js';
import type { Parallel, SearchAhead, Turn } from './grep-ahead.js';
import type { GrepItem } from './grep-inputs.js';
import type { GrepReporter, GrepSummary, SearchSettings } from './grep-options.js';
import type { GrepCursor } from './grep-budget.js';
import type { GrepOutput } from './grep-output.js';

/** The file being searched. */
interface Current {
  target: SearchTarget;
  text: OpenedText;
  searcher: LineSearcher;
}

/** An input in the queue; `job` numbers a walked file the workers may search (-1: none). */
interface Queued {
  item: GrepItem;
  job: number;
}

/** Walked files queued ahead of the one in turn, for the workers to search meanwhile. */
const LOOKAHEAD = 128;

/** A grep run over its inputs, resumable: `step` works until a time and can be called again. */
export class GrepRun implements Turn {
  private readonly iter: Iterator<GrepItem>;
  private iterDone = false;
  private readonly queue: Queued[] = [];
  private head = 0;
  /** jobs taken from the queue in turn */
  private taken = 0;
  /** walked files searched ahead of their turn (grep -j), undefined on one thread */
  private readonly ahead: SearchAhead | undefined;
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
  /** one searcher, restarted for each file (no per-file searcher, options or closures) */
  private readonly searcher: LineSearcher;
  /** how files named on the command line, and walked ones, are opened: made once, not per file */
  private readonly namedOptions: TextOptions;
  private readonly walkedOptions: TextOptions;

  constructor(
    private readonly pattern: CompiledPattern,
    items: Iterable<GrepItem>,
    private readonly o: SearchSettings,
    readonly reporter: GrepReporter,
    readonly output: GrepOutput,
    private readonly cursor: GrepCursor | undefined,
    /** worker threads for walked files; undefined: this thread alone */
    parallel?: Parallel,
  ) {
    this.iter = items[Symbol.iterator]();
    this.seeking = cursor !== undefined;
    this.scanner = new LineScanner(() => 0, o.bufferSize);
    this.finder = finderFor(pattern);
    this.searcher = new LineSearcher(pattern, output.sink, {
      invert: o.invert,
      ...(o.maxCount !== undefined ? { maxCount: o.maxCount } : {}),
      before: o.before,
      after: o.after,
      noNumbers: o.noNumbers,
      // only ever said while a file is being searched: `cur` is that file
      onNote: (message) => this.reporter.note(message, this.cur?.target.display ?? '-'),
      finder: this.finder,
      // long lines of every file gathered in one buffer (no garbage per long line)
      gatherer: lineGatherer(),
    });
    this.ahead = parallel === undefined ? undefined : new parallel.SearchAhead(parallel, pattern);
    this.namedOptions = { allowBinary: o.allowBinary, encoding: o.encoding, bufferSize: o.bufferSize, scanner: this.scanner, quietBinary: false };
    this.walkedOptions = { ...this.namedOptions, quietBinary: true, walked: new WalkedFile() };
  }

  /** The run has worker threads (the caller then lets the event loop turn between steps). */
  get threaded(): boolean {
    return this.ahead?.started === true;
  }

  /**
   * Queues inputs from the list: with worker threads, until LOOKAHEAD walked files are queued
   * ahead (each numbered as a job and handed to the workers), else one. Inputs before the cursor
   * are passed over here, in order, never queued.
   */
  private fill(): void {
    const ahead = this.ahead;
    while (!this.iterDone && (this.queue.length - this.head === 0 || (ahead !== undefined && ahead.jobs - this.taken < LOOKAHEAD))) {
      const next = this.iter.next();
      if (next.done) {
        this.iterDone = true;
        break;
      }
      const item = next.value;
      if (this.passOver(item)) continue;
      const job = ahead !== undefined && 'walked' in item && item.walked ? ahead.hand(item) : -1;
      this.queue.push({ item, job });
    }
    ahead?.start(this.taken);
  }

  private peekQueued(): Queued | undefined {
    if (this.queue.length - this.head === 0 || this.ahead !== undefined) this.fill();
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
    if (this.cur) return this.cur.text.input.unsized !== true && this.cur.text.input.size === undefined;
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
      // A closure per step over locals, not one method reading its state from `this`: the
      // visitor runs for every block, and the shared one made a large file's search 25-30 %
      // slower (grep -F of the 256 MiB log with no match, 0.13 -> 0.17 s, same rounds).
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
      const r = job >= 0 && this.ahead !== undefined ? this.ahead.inTurn(job, until, () => this.fill()) : undefined;
      if (r === 'later') return 'later';
      this.shift();
      if (r !== undefined && r.kind !== 'in-turn') {
        if (!this.ahead!.report(item, r, this)) return false;
        if (performance.now() >= until) return 'later';
        continue;
      }
      if (this.open(item)) return true;
      if (this.ended) return false;
    }
  }

  /**
   * A file searched out of turn ran past its deadline, as it would have in turn: the message
   * names it and the line (`current`, `line`), and the run ends as after any deadline.
   */
  timeOut(display: string, line: number): never {
    this.timedOut = { display, line };
    throw new DeadlineExceeded(0);
  }

  /** The output refused a file (the count past a budget is at its bound): nothing more is opened. */
  end(): void {
    this.ended = true;
  }

  /**
   * The step's deadline stopped a file this thread searched out of turn (its result is kept for
   * its turn): true; false when it stopped the search in turn, reported by the caller now.
   */
  outOfTurnTimedOut(): boolean {
    return this.ahead?.outOfTurnTimedOut() === true;
  }

  /** The line of `item` up to which rows were shown before (the cursor), or 0. */
  cursorLine(item: SearchTarget): number {
    if (this.cursor?.path !== item.display || typeof this.cursor.line !== 'number') return 0;
    // inside a line: the lines before it were shown, and it is shown from its byte (cursorRest)
    return this.cursor.byte !== undefined ? this.cursor.line - 1 : this.cursor.line;
  }

  /** The row of `item` the cursor is inside of, and its byte to go on from. */
  cursorRest(item: SearchTarget): { line: number; byte: number } | undefined {
    const c = this.cursor;
    return c?.path === item.display && typeof c.line === 'number' && c.byte !== undefined ? { line: c.line, byte: c.byte } : undefined;
  }

  /**
   * Opens an input to search it in turn; false when it is not searched (a binary file, an error,
   * reported in its turn) or when the output refuses it (then `output.state` says it is done).
   */
  private open(item: SearchTarget): boolean {
    if (this.o.list) {
      // --files: named in turn as a file with a selected line would be, never opened
      this.reporter.file(item.display);
      this.output.beginFile(item.display, this.cursorLine(item), this.cursorRest(item));
      this.output.endFile(item.display, 1);
      this.reporter.endFile(item.display, 1);
      return false;
    }
    {
      let text: OpenedText;
      try {
        text = openText(item.abs, this.o.source, item.walked ? this.walkedOptions : this.namedOptions);
      } catch (e) {
        if (e instanceof BinaryFileError) {
          // Walks skip binary files quietly, as rg does; a file named on the command line gets a note.
          if (!item.walked) this.reporter.note(binaryNote(e), item.display);
          else this.reporter.skipped?.(item.display, binaryNote(e));
          return false;
        }
        this.fail(e, item.display);
        return false;
      }
      // the size is asked only while counting (a walked file's costs an fstat, which may refuse it)
      let charged: boolean;
      try {
        charged = this.output.state !== 'counting' || this.output.chargeFile(text.input.size);
      } catch (e) {
        text.input.close();
        this.fail(e, item.display);
        return false;
      }
      if (!charged) {
        text.input.close();
        this.ended = true;
        return false;
      }
      const searcher = this.searcher;
      searcher.restart();
      this.cur = { target: item, text, searcher };
      this.reporter.file(item.display);
      this.output.beginFile(item.display, this.cursorLine(item), this.cursorRest(item));
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
    this.ahead?.close();
    this.scanner.release();
  }

  /** An error on one input: reported in one line, and the search goes on. */
  fail(e: unknown, display: string): void {
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
