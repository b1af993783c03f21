// A grep run over its inputs, in order and resumable: `step` opens each input, hands its blocks
// to a LineSearcher and the rows to the output stage, until a time, and can be called again.

import { Exit, LinewiseError } from '../core/errors.js';
import type { Finder } from '../core/finders.js';
import { LineScanner } from '../core/lines.js';
import type { CompiledPattern } from '../core/pattern.js';
import { finderFor } from '../core/finder-choice.js';
import { LineSearcher } from '../core/searcher.js';
import { fileError } from '../io/input.js';
import { BinaryFileError, type OpenedText, openText } from '../io/text.js';
import type { SearchTarget } from '../io/walk.js';
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

/** A grep run over its inputs, resumable: `step` works until a time and can be called again. */
export class GrepRun {
  private readonly iter: Iterator<GrepItem>;
  private peeked: IteratorResult<GrepItem> | undefined;
  private cur: Current | undefined;
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
  ) {
    this.iter = items[Symbol.iterator]();
    this.seeking = cursor !== undefined;
    this.scanner = new LineScanner(() => 0, o.bufferSize);
    this.finder = finderFor(pattern);
  }

  private peek(): IteratorResult<GrepItem> {
    this.peeked ??= this.iter.next();
    return this.peeked;
  }

  /** The next input to open is standard input or a pipe (its reads wait on a writer). */
  nextIsPipe(): boolean {
    if (this.cur) return this.cur.text.input.size === undefined;
    const next = this.peek();
    return !next.done && 'abs' in next.value && next.value.abs === '-';
  }

  line(): number {
    return this.cur?.searcher.currentLine ?? 0;
  }

  current(): string | undefined {
    return this.cur?.target.display;
  }

  /** Searches until `until` (a performance.now() time); true when every input is done. */
  step(until: number): boolean {
    const output = this.output;
    for (;;) {
      if (output.state === 'done') return true; // -q found a line, or the count past a budget reached its bound
      if (!this.cur && !this.openNext()) return true;
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

  /** Opens the next input; false when none is left. Problems are reported in their turn. */
  private openNext(): boolean {
    for (;;) {
      const next = this.peek();
      this.peeked = undefined;
      if (next.done) return false;
      const item = next.value;
      if (this.passOver(item)) continue;
      if ('error' in item) {
        if (item.note) this.reporter.note(item.error.message, item.error.path);
        else this.fail(item.error, item.error.path ?? '.');
        continue;
      }
      let text: OpenedText;
      try {
        text = openText(item.abs, this.o.source, { allowBinary: this.o.allowBinary, encoding: this.o.encoding, bufferSize: this.o.bufferSize, scanner: this.scanner });
      } catch (e) {
        if (e instanceof BinaryFileError) {
          // Walks skip binary files quietly, as rg does; a file named on the command line gets a note.
          if (!item.walked) this.reporter.note(binaryNote(e), item.display);
          continue;
        }
        this.fail(e, item.display);
        continue;
      }
      if (!this.output.chargeFile(text.input.size)) {
        text.input.close();
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
      const cursorLine = this.cursor?.path === item.display && typeof this.cursor.line === 'number' ? this.cursor.line : 0;
      this.output.beginFile(item.display, cursorLine);
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
    this.scanner.release();
  }

  /** An error on one input: reported in one line, and the search goes on. */
  private fail(e: unknown, display: string): void {
    if (!(e instanceof LinewiseError) && (e as NodeJS.ErrnoException)?.code === undefined) throw e; // a bug, or a closed stdout
    this.errors++;
    this.reporter.error(fileError(e, display), display);
  }

  finish(): GrepSummary {
    this.scanner.release();
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
