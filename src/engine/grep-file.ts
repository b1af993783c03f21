// One walked file searched out of its turn, by a worker thread or by the main thread while it
// waits for one: the rows recorded in a RowLog, and all the run needs to report the file in its
// turn as if it had searched it then (grep-run.ts replays it), as plain data that can travel.

import { type ExitCode, LinewiseError } from '../core/errors.js';
import type { Finder } from '../core/finders.js';
import { finderFor } from '../core/finder-choice.js';
import { LineScanner } from '../core/lines.js';
import type { CompiledPattern } from '../core/pattern.js';
import { RowLog } from '../core/row-log.js';
import { lineGatherer, LineSearcher } from '../core/searcher.js';
import { BinaryFileError } from '../io/encodings/sniff.js';
import { fileError, type InputSource, type OpenedText, openText } from '../io/input.js';
import type { SearchSettings } from './grep-options.js';

/** A LinewiseError as data. */
export interface ErrorData {
  code: string;
  message: string;
  path: string | undefined;
  exitCode: ExitCode;
}

/**
 * What searching a file out of turn came to. `searched`: its size, the lines selected, the log
 * of rows, and how the search ended early when it did (an error reading it, the deadline with
 * the line being tested, or a bug). `binary`: skipped (a walk skips binary files quietly).
 * `failed`: it could not be opened. `in-turn`: left to the run, which searches it in its turn (a
 * large file, whose rows would be too many to hold; one that is not a regular file; one decoded).
 */
export type FileResult =
  | { kind: 'searched'; size: number; selected: number; log: Uint8Array; error?: ErrorData; timeoutAt?: number; bug?: string }
  | { kind: 'binary' }
  | { kind: 'failed'; error: ErrorData }
  | { kind: 'in-turn' }
  | { kind: 'bug'; bug: string };

/** Files larger than this are searched in their turn: their rows are never held. */
export const MAX_OUT_OF_TURN_BYTES = 1 << 20;

/** How files are searched out of turn: those of the run's settings that can travel to a worker. */
export type FileSearchSettings = Pick<SearchSettings, 'allowBinary' | 'bufferSize' | 'invert' | 'maxCount' | 'before' | 'after' | 'noNumbers'> & { cwd: string };

export function errorData(e: LinewiseError): ErrorData {
  return { code: e.code, message: e.message, path: e.path, exitCode: e.exitCode };
}

export function errorOf(d: ErrorData): LinewiseError {
  return new LinewiseError(d.code, d.message, d.path, d.exitCode);
}

/** A problem with the file itself (a LinewiseError, or a failed system call), not a bug. */
function isFileProblem(e: unknown): boolean {
  return e instanceof LinewiseError || (e as NodeJS.ErrnoException)?.code !== undefined;
}

/** Searches files one after another with one scanner, one finder and one log. */
export class FileSearch {
  private readonly scanner: LineScanner;
  private readonly finder: Finder | undefined;
  /** one searcher, restarted for each file */
  private readonly searcher: LineSearcher;
  private readonly log = new RowLog();
  private readonly source: InputSource;

  constructor(
    private readonly pattern: CompiledPattern,
    private readonly o: FileSearchSettings,
  ) {
    this.scanner = new LineScanner(() => 0, o.bufferSize);
    this.finder = finderFor(pattern);
    // walked files only: never standard input
    this.source = { cwd: o.cwd, stdin: () => 0 };
    const log = this.log;
    this.searcher = new LineSearcher(pattern, log, {
      invert: o.invert,
      ...(o.maxCount !== undefined ? { maxCount: o.maxCount } : {}),
      before: o.before,
      after: o.after,
      noNumbers: o.noNumbers,
      onNote: (message) => log.note(message),
      finder: this.finder,
      // long lines of every file gathered in one buffer (no garbage per long line)
      gatherer: lineGatherer(),
    });
  }

  /** The file being searched: what `abandon` closes and reports after a deadline stopped the search. */
  private inHand: { text: OpenedText; searcher: LineSearcher; size: number } | undefined;

  /**
   * Searches the file at `abs` (rows name it `display`). A deadline (the caller's: one per file
   * would cost a watchdog thread per file) may stop it midway: then `abandon` gives its result.
   */
  search(abs: string, display: string): FileResult {
    let text: OpenedText;
    try {
      text = openText(abs, this.source, { allowBinary: this.o.allowBinary, bufferSize: this.o.bufferSize, scanner: this.scanner, quietBinary: true });
    } catch (e) {
      if (e instanceof BinaryFileError) return { kind: 'binary' };
      if (!isFileProblem(e)) return { kind: 'bug', bug: bugText(e) };
      return { kind: 'failed', error: errorData(fileError(e, display)) };
    }
    const size = text.input.size;
    if (size === undefined || size > MAX_OUT_OF_TURN_BYTES || text.codec !== undefined) {
      text.input.close();
      return { kind: 'in-turn' };
    }
    const log = this.log;
    log.clear();
    const searcher = this.searcher;
    searcher.restart();
    const ended: { error?: ErrorData; bug?: string } = {};
    this.inHand = { text, searcher, size };
    try {
      text.scanner.scanBlocks((buf, start, end, ends) => {
        const more = searcher.visitor(buf, start, end, ends) !== false;
        log.visited(end - start, more);
        return more;
      });
    } catch (e) {
      if (isFileProblem(e)) ended.error = errorData(fileError(e, display));
      else ended.bug = bugText(e);
    }
    this.inHand = undefined;
    text.input.close();
    return { kind: 'searched', size, selected: searcher.selected, log: Uint8Array.from(log.bytes()), ...ended };
  }

  /**
   * The result of the file a deadline stopped (`search` never returned): the rows found until
   * then, and the line the pattern was being tested on. The file is closed.
   */
  abandon(): FileResult {
    const h = this.inHand!;
    this.inHand = undefined;
    h.text.input.close();
    return { kind: 'searched', size: h.size, selected: h.searcher.selected, log: Uint8Array.from(this.log.bytes()), timeoutAt: h.searcher.currentLine };
  }

  /** A search was stopped midway (by a deadline): `abandon` gives its result. */
  get stopped(): boolean {
    return this.inHand !== undefined;
  }

  /** Gives the scanner's counting kernel back: no file is searched after this. */
  release(): void {
    this.scanner.release();
  }
}

function bugText(e: unknown): string {
  return e instanceof Error ? (e.stack ?? e.message) : String(e);
}
