// grep's printing reporter: the engine's report of a search turned into rows, -o parts, counts,
// names or ripgrep-shaped JSON on an Output, problems as messages, and the budget's footer.

import { Exit, type LinewiseError } from '../core/errors.js';
import type { GrepCutOff, GrepReport, GrepReporter, GrepSetup } from '../engine/search.js';
import { grepFooter } from './footer.js';
import { JsonGrep } from './grep-json.js';
import { writeRecord } from './json.js';
import type { RowHasher } from '../core/row-guard.js';
import type { Printing } from './printing.js';
import { type AnchorFn, type GrepPrinterOptions, printCount, printPath, TextGrep } from './rows.js';
import type { Words } from '../surface/words.js';

/** How the rows are printed. */
export interface GrepPrintOptions {
  /** JSON Lines in ripgrep's shapes, not rows */
  json: boolean;
  /** paths end in NUL (-0): the footer then goes to the messages, so the output stays a list */
  nul: boolean;
  /** rows `n#anchor` (`--anchor`) */
  anchor?: AnchorFn;
  /** hide the inputs that could not be read (-s), never a search stopped by its deadline */
  quietErrors?: boolean;
  /** how the footer says to go on: the CLI's words or a tool's */
  words: Words;
  /** name each walked file passed over as binary (`--skipped`), as a note */
  skipped?: boolean;
  /** end the rows with a guard trailer (`--guard`; core/row-guard.ts) */
  guard?: RowHasher;
}

/** Prints a grep run as the CLI does: rows, parts, counts, names or JSON; problems through `warn`. */
export class PrintingGrepReporter implements GrepReporter {
  private text: TextGrep | undefined;
  private json: JsonGrep | undefined;
  private printer!: GrepPrinterOptions;

  constructor(
    private readonly p: Printing,
    private readonly mode: GrepReport,
    private readonly o: GrepPrintOptions,
  ) {}

  begin({ withPath, ranges }: GrepSetup): void {
    const anchor = this.o.anchor;
    const guard = this.mode === 'lines' && !this.o.json ? this.o.guard : undefined;
    this.printer = { withPath, nul: this.o.nul, rowStyle: this.p.rowStyle, noteStyle: this.p.noteStyle, ranges, ...(anchor ? { anchor } : {}), ...(guard ? { guard } : {}) };
    if (this.o.json) this.json = new JsonGrep(this.p.out, ranges, anchor);
    else if (this.mode === 'lines') this.text = new TextGrep(this.p.out, this.printer);
  }

  match(line: number, buf: Buffer, start: number, end: number): void {
    (this.json ?? this.text)?.match(line, buf, start, end);
  }

  replacedMatch(line: number, buf: Buffer, start: number, end: number, original: Buffer): void {
    this.text?.replacedMatch(line, buf, start, end, original); // --json refuses --replace
  }

  context(line: number, buf: Buffer, start: number, end: number): void {
    (this.json ?? this.text)?.context(line, buf, start, end);
  }

  gap(): void {
    this.text?.gap();
  }

  part(line: number, column: number, buf: Buffer, start: number, end: number): void {
    this.text?.part(line, column, buf, start, end);
  }

  cutRow(kind: 'match' | 'context', line: number, buf: Buffer, start: number, end: number, length: number, column?: number, from?: number): void {
    this.text?.cutRow(line, buf, start, end, column, from);
    this.json?.cutRow(kind, line, buf, start, end, length, from);
  }

  restRow(kind: 'match' | 'context', line: number, from: number, buf: Buffer, start: number, end: number): void {
    this.text?.restRow(line, from, buf, start, end);
    this.json?.restRow(kind, line, from, buf, start, end);
  }

  fileRow(display: string, selected: number): void {
    if (this.mode === 'counts' || this.mode === 'matching-counts') printCount(this.p.out, this.printer, display, selected);
    else printPath(this.p.out, this.printer, display);
  }

  file(display: string): void {
    this.text?.file(display);
    this.json?.file(display);
  }

  endFile(): void {
    this.json?.endFile();
  }

  error(e: LinewiseError, display: string | undefined): void {
    this.p.failed(Exit.usage);
    // under --json a failed input is also a record, as a failure that ends a run is (cli/exit.ts)
    if (this.json) writeRecord(this.p.out, { type: 'error', code: e.code, message: e.message, path: display ?? e.path ?? null, status: Exit.usage });
    if (this.o.quietErrors && e.code !== 'timeout') return;
    this.p.out.flush();
    this.p.warn(e.message, display);
  }

  note(message: string, display: string | undefined): void {
    if (this.o.quietErrors) return;
    this.p.out.flush();
    this.p.warn(message, display);
  }

  skipped(display: string, why: string): void {
    if (this.o.skipped) this.note(why, display);
  }

  flush(): void {
    this.p.out.flush();
  }

  /** After a complete search: JSON's summary, or the footer when a budget cut the rows. */
  finish(errors: number, cutOff: GrepCutOff | undefined): void {
    if (this.json) {
      this.json.summary(errors, cutOff);
      return;
    }
    this.printer?.guard?.writeTrailer(this.p.out);
    if (cutOff === undefined) return;
    const footer = grepFooter({ ...cutOff, fileRows: this.mode !== 'lines' }, this.o.words);
    // Under -0 the output is a NUL-separated list for xargs -0 and the like: the footer is a message.
    if (this.o.nul) {
      this.p.out.flush();
      this.p.warn(footer);
    } else this.p.out.text(`\n${this.p.noteStyle.note(footer)}\n`);
  }
}
