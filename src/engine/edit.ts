// replace as operations: range edits, row edits and content edits planned, guarded and written
// atomically as one transaction, with what changed returned as data (the CLI prints it).

import { EOL_MODES } from '../core/eol.js';
import { LinewiseError } from '../core/errors.js';
import { ArrayRows, type Row, type RowSet, RowTable } from '../core/parse-rows.js';
import { ANCHOR_PATTERN } from '../core/row-fields.js';
import { editRangeProblem } from '../core/ranges.js';
import { splitLines } from '../core/lines.js';
import { applyPlans, type EditRunOptions, type ExpectedLine, type ReplaceResult } from './apply.js';
import { loadEncoding } from './encodings.js';
import { ENCODING_ADVICE, locateText, type TextSpec } from './locate-text.js';
import { expectedLines, type FilePlan, rangePlan, type RangeSpec, rowPlans } from './plans.js';
import { inputSource } from './read.js';
import * as v from './validate.js';

export type { EolMode } from '../core/eol.js';
export type { EditRunOptions, ExpectedLine, FileChange, FileReceipt, ReceiptEdit, ReceiptSpan, Relocation, ReplaceOptions, ReplaceResult, Shift } from './apply.js';
export { TextNotFoundError } from './locate-text.js';

/** One range edit: lines `start..end` become `text`. */
export interface RangeEdit {
  /** first line replaced (1-based); `count + 1` appends */
  start: number;
  /** last line replaced; default `start`; `start - 1` inserts before `start` */
  end?: number;
  /** the new lines (a final newline is optional); empty deletes the range */
  text: string | Uint8Array;
}

/**
 * One content edit: the text `old` becomes `new`. `old` is matched line-ending-agnostic (written
 * with "\n" it matches CRLF lines, mixed lines and a last line without a terminator), may span
 * lines and start or end mid-line, and must occur exactly once unless `all`.
 */
export interface TextEdit {
  old: string | Uint8Array;
  /** the replacement; empty deletes the old text. Its line endings follow `eol` as range edits' do */
  new: string | Uint8Array;
  /** replace every occurrence (left to right, not overlapping); default: exactly one must exist */
  all?: boolean;
}

/** One row edit: line `line` (of `path`) becomes `text`, as `replace --rows` applies a row. */
export interface RowEdit {
  /** the file; may be left out when {@link replaceRows} is given a `path` */
  path?: string;
  line: number;
  /** the line's new text: one line, its terminator optional (under `eol: 'auto'` the line keeps its own) */
  text: string | Uint8Array;
  /** its number in the caller's input of rows, for messages; default its index + 1 */
  rowNumber?: number;
  /**
   * The line's anchor as read (a {@link Line}'s `anchor`, 4 to 16 lowercase hex digits): the
   * row is applied only if the line still has it; else nothing is written (StaleEditError).
   */
  anchor?: string;
}

/**
 * Replaces lines of the file at `path`, as `linewise replace FILE START [END]` does: each edit's
 * lines `start..end` become its `text`; empty text deletes, `end = start - 1` inserts before
 * `start`, `start = count + 1` appends. Several edits address the file as it was before the
 * call and must not overlap. The file is written atomically (a temporary file beside it, flushed,
 * renamed over it; mode, owner and symbolic links kept), or not at all.
 *
 * @throws {@link StaleEditError} (exit code 3) when `expect` does not hold (unless the file
 * already holds the edit: then nothing is written and the file's result says `alreadyApplied`);
 * {@link LinewiseError} with exit code 2 for a range past the end, overlapping edits, a binary
 * file, text the encoding cannot represent; exit code 3 when the file changed while the edit
 * was being prepared. Nothing is written in any of these cases.
 *
 * @example
 * ```ts
 * const [old] = readLines('app.ts', 12, 12);
 * await replace('app.ts', { start: 12, text: 'const x = 2;' }, { expect: [old] });
 * ```
 */
export async function replace(path: string, edits: RangeEdit | readonly RangeEdit[], options: EditRunOptions = {}): Promise<ReplaceResult> {
  const list: readonly RangeEdit[] = Array.isArray(edits) ? edits : [v.options<RangeEdit>(edits, 'edit') as RangeEdit];
  return applyEdits(path, list, options);
}

/**
 * Replaces text in the file at `path`, as `linewise replace FILE --old OLD --new NEW [--all]`
 * does: see {@link TextEdit}. Several content edits address the file as it was before the call.
 * Several paths: each file gets the edits, all written or none ({@link applyEdits}). Safe to run
 * twice: an edit the file already holds writes nothing, and the result says `alreadyApplied`.
 *
 * @throws {@link TextNotFoundError} (exit code 3) when an old text is not in the file, with the
 * lines that hold it but for whitespace or case; {@link LinewiseError} (exit code 2, code
 * `ambiguous`) when it occurs more than once without `all`, naming the lines where each starts;
 * otherwise as {@link replace}. Nothing is written in any of these cases.
 *
 * @example
 * ```ts
 * await replaceText('app.ts', { old: 'let x = 1;\nlet y = 2;', new: 'const x = 1;' });
 * await replaceText(['a.json', 'b.json'], { old: '"version": "1.2.4"', new: '"version": "1.2.5"' });
 * ```
 */
export async function replaceText(path: string | readonly string[], edits: TextEdit | readonly TextEdit[], options: EditRunOptions = {}): Promise<ReplaceResult> {
  const list: readonly TextEdit[] = Array.isArray(edits) ? edits : [v.options<TextEdit>(edits, 'edit') as TextEdit];
  return applyEdits(path, list, options);
}

/**
 * Applies range edits and content edits to the file at `path` in one call (`replace FILE --edits`):
 * every edit addresses the file as it was before the call, overlapping edits are refused, and
 * the file is written with all of them or not at all. Inserts (`end = start - 1`) and deletes
 * (empty `text`) mix with replacements.
 *
 * Content edits are safe to run twice: an edit the file already holds (its old text gone and its
 * new text there once, or its old text only inside its new text) is left out, and when every
 * edit of a file is, that file is not written and its result says `alreadyApplied`.
 *
 * Several paths (content edits only): each file gets every edit, each old text must occur once
 * in each file (or be applied there), and the files are written all or none.
 *
 * @throws as {@link replace} and {@link replaceText}.
 *
 * @example
 * ```ts
 * await applyEdits('app.ts', [{ start: 1, end: 0, text: '// header' }, { old: 'foo()', new: 'bar()' }]);
 * ```
 */
export async function applyEdits(path: string | readonly string[], edits: readonly (RangeEdit | TextEdit)[], options: EditRunOptions = {}): Promise<ReplaceResult> {
  const o = v.options<EditRunOptions>(options, 'options');
  const files = Array.isArray(path) ? path.map((p, i) => v.string(p, `path ${i + 1}`)) : [v.string(path, 'path')];
  if (files.length === 0) throw new LinewiseError('bad-option', 'no path: give the file to edit');
  if (!Array.isArray(edits)) throw new LinewiseError('bad-option', 'edits must be an array of { start, end?, text } or { old, new, all? }');
  const ranges: RangeSpec[] = [];
  const texts: TextSpec[] = [];
  edits.forEach((e, i) => {
    const what = edits.length === 1 ? '' : `edit ${i + 1}: `;
    if (e !== null && typeof e === 'object' && 'old' in e) texts.push(textSpec(e, what, edits.length === 1 ? 'the old text' : `edit ${i + 1}`));
    else ranges.push({ ...rangeSpec(e as RangeEdit, what), ...(edits.length === 1 ? {} : { origin: `edit ${i + 1}` }) });
  });
  const source = inputSource(o);
  const expectations = expectationsOf(o);
  if (files.length > 1 && (ranges.length > 0 || expectations.length > 0)) {
    throw new LinewiseError('bad-option', 'several files take content edits only: a range and expected lines belong to one file');
  }
  const plans = files.flatMap((file) => rangePlan(source.cwd, file, ranges, expectations, v.optionalString(o.expectSource, 'expectSource')));
  const seen = new Map<string, string>();
  for (const p of plans) {
    const twice = seen.get(p.target.real);
    if (twice !== undefined) throw new LinewiseError('bad-option', `${twice} and ${p.given} are the same file: name each file once`, p.given);
    seen.set(p.target.real, p.given);
  }
  const done = new Map<FilePlan, number>(); // plans whose every edit the file already holds: their line counts
  if (texts.length > 0) {
    const encoding = v.optionalString(o.encoding, 'encoding');
    if (encoding !== undefined) await loadEncoding(encoding);
    const wording = { shown: o.staleShown ?? "in the error's `near`", encoding: o.encodingAdvice ?? ENCODING_ADVICE };
    const eol = o.eol === undefined ? 'auto' : v.oneOf(o.eol, 'eol', EOL_MODES);
    const signal = v.optionalSignal(o.signal);
    for (const plan of plans) {
      const found = await locateText(plan.target.real, plan.given, texts, source, { allowBinary: v.optionalBoolean(o.text, 'text'), encoding }, wording, eol, signal);
      if (found.ranges.length === 0 && plan.edits.length === 0 && plan.expect === undefined) done.set(plan, found.count);
      // Lines the caller expects are guarded by what the caller read, not by what was found.
      const own = new Set(expectedLines(plan).map((x) => x.line));
      plan.fixed = {
        // literal: the new text's breaks are styled already, and every other byte is the file's own
        edits: found.ranges.map((r) => ({ start: r.start, end: r.end, lines: splitLines(r.text), origin: r.origin, literal: true })),
        expect: found.ranges.flatMap((r) => r.expect.filter((x) => !own.has(x.line)).map((x) => ({ ...x, origin: `${r.origin} (line ${x.line} as found)` }))),
      };
    }
  }
  const rest = plans.filter((p) => !done.has(p));
  const result = rest.length > 0 ? await applyPlans(rest, o) : { dryRun: v.optionalBoolean(o.dryRun, 'dryRun') === true, files: [] };
  if (done.size === 0) return result;
  // Each file in the order given: the ones already done say so, the others as applyPlans reported them.
  const changes = new Map(rest.map((p, i) => [p, result.files[i]!]));
  return {
    dryRun: result.dryRun,
    files: plans.map((p) => changes.get(p) ?? { path: p.given, changed: false, written: false, linesBefore: done.get(p)!, linesAfter: done.get(p)!, edits: [], alreadyApplied: true }),
  };
}

function rangeSpec(e: RangeEdit, what: string): RangeSpec {
  const start = v.count(e?.start, `${what}start`, 1);
  const end = e.end === undefined ? start : v.count(e.end, `${what}end`);
  const problem = editRangeProblem(start, end);
  if (problem !== undefined) throw new LinewiseError('bad-range', `${what}${problem}`);
  return { start, end, text: v.textBytes(e.text, `${what}text`) };
}

function textSpec(e: TextEdit, what: string, origin: string): TextSpec {
  const old = v.textBytes(e.old, `${what}old`);
  if (old.length === 0) throw new LinewiseError('bad-option', `${what}the old text is empty: give the text to replace`);
  return { old, new: v.textBytes(e.new, `${what}new`), all: v.optionalBoolean(e.all, `${what}all`) === true, origin };
}

/**
 * Applies row edits, as `linewise replace [FILE] --rows` does: each row replaces its own line
 * with one line. Rows with paths may edit several files in one call: all are written, or none.
 * With `options.path`, every row is for that file. Lines read with readLines, page or grep can
 * be fed back with a new `text`: `{ ...line, text: 'new' }`.
 *
 * @throws as {@link replace}; a row whose text holds more than one line is refused (exit code 2).
 *
 * @example
 * ```ts
 * const { lines } = await grep('oldName', ['src'], { fixedStrings: true });
 * await replaceRows(lines.map((l) => ({ ...l, text: l.text!.replaceAll('oldName', 'newName') })), { expect: lines });
 * ```
 */
export async function replaceRows(rows: readonly RowEdit[], options: EditRunOptions & { path?: string } = {}): Promise<ReplaceResult> {
  const o = v.options<EditRunOptions & { path?: string }>(options, 'options');
  if (!Array.isArray(rows)) throw new LinewiseError('bad-option', 'rows must be an array of { path?, line, text }');
  const parsed: Row[] = rows.map((r: RowEdit, i) => {
    const rowNumber = r?.rowNumber ?? i + 1;
    const bytes = v.textBytes(r?.text, `row ${rowNumber}: text`);
    const nl = bytes.indexOf(10);
    if (nl !== -1 && nl !== bytes.length - 1) {
      throw new LinewiseError('bad-row', `row ${rowNumber}: a row's text is one line; use replace() with a range for several`, 'rows');
    }
    const anchor = v.optionalString(r.anchor, `row ${rowNumber}: anchor`);
    if (anchor !== undefined && !ANCHOR_PATTERN.test(anchor)) throw new LinewiseError('bad-option', `row ${rowNumber}: anchor must be 4 to 16 lowercase hex digits, not "${anchor}"`);
    return { path: v.optionalString(r.path, `row ${rowNumber}: path`), line: v.count(r.line, `row ${rowNumber}: line`, 1), bytes, rowNumber, ...(anchor !== undefined ? { anchor } : {}) };
  });
  return replaceParsedRows(parsed, o);
}

/**
 * {@link replaceRows} for rows as `replace --rows` parsed them (checked there, one line each):
 * objects, or a RowTable (parseRowTable), which holds millions of rows in a few bytes each.
 */
export async function replaceParsedRows(rows: readonly Row[] | RowSet, options: EditRunOptions & { path?: string }): Promise<ReplaceResult> {
  const o = v.options<EditRunOptions & { path?: string }>(options, 'options');
  const source = inputSource(o);
  const set = rows instanceof RowTable || rows instanceof ArrayRows ? rows : new ArrayRows(rows as readonly Row[]);
  const plans = rowPlans(source.cwd, v.optionalString(o.path, 'path'), set, expectationsOf(o), v.optionalString(o.expectSource, 'expectSource'));
  return applyPlans(plans, o);
}

/**
 * The expected rows: as parsed (`expectRows`, which wins), or made from `expect`. A guard given
 * but holding no row (an empty file, empty stdin, only a footer, `[]`) is refused: it would
 * guard nothing, and the caller who gave it believes the edit is guarded.
 */
function expectationsOf(o: EditRunOptions): RowSet {
  const set = o.expectRows instanceof RowTable ? o.expectRows : new ArrayRows(o.expectRows === undefined ? expectedRows(o.expect) : v.parsedRows(o.expectRows, 'expectRows'));
  if (set.length === 0 && (o.expectRows !== undefined || o.expect !== undefined)) {
    const source = v.optionalString(o.expectSource, 'expectSource') ?? 'expect';
    throw new LinewiseError('empty-guard', `${source} holds no rows (it is empty, or holds only footers or separators), so it would guard nothing; nothing was written: give the rows as they were read, or no guard`);
  }
  return set;
}

/** Expected lines as the rows `--expect` would have parsed. */
function expectedRows(expect: readonly ExpectedLine[] | undefined): Row[] {
  if (expect === undefined) return [];
  if (!Array.isArray(expect)) throw new LinewiseError('bad-option', 'expect must be an array of { path?, line, bytes or text }');
  return expect.map((e: ExpectedLine, i) => {
    const rowNumber = e?.rowNumber ?? i + 1;
    const bytes = e.bytes !== undefined ? v.textBytes(e.bytes, `expected line ${rowNumber}: bytes`) : e.text !== undefined ? v.textBytes(e.text, `expected line ${rowNumber}: text`) : undefined;
    if (bytes === undefined) throw new LinewiseError('bad-row', `expected line ${rowNumber} (line ${e.line}) has neither bytes nor text`, 'expect');
    return { path: v.optionalString(e.path, `expected line ${rowNumber}: path`), line: v.count(e.line, `expected line ${rowNumber}: line`, 1), bytes, rowNumber };
  });
}
