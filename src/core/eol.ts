// Where `--eol` is decided: which terminator each new line gets (auto, keep, lf, crlf), and how a
// new line is written under it. The patcher asks; this file answers.

import { bodyOf, type Terminator, TERMINATOR_BYTES } from './terminators.js';

/**
 * How new text's line endings are written.
 * - `auto`: new lines take the endings of the lines they replace (inserts: of their
 *   neighbours, else the file's dominant one); the last new line ends as the last replaced one.
 * - `keep`: the new text is written literally, byte for byte.
 * - `lf` / `crlf`: every new line ends so; a last new line that replaces an unterminated last
 *   line still gets none (and text appended after such a line still ends without one).
 */
export type EolMode = 'auto' | 'keep' | 'lf' | 'crlf';

export const EOL_MODES: readonly EolMode[] = ['auto', 'keep', 'lf', 'crlf'];

/** The endings of the old lines a replacement removes, as the patcher saw them go by. */
export interface ReplacedEndings {
  /** terminators of the first old lines (as many as there are new lines) */
  eols: Terminator[];
  /** the last old line's terminator, and the one before it */
  lastEol: Terminator;
  beforeLastEol: Terminator;
  /** old lines removed */
  removed: number;
  /** terminator of the line before the first old line, if there is one */
  before: Terminator | undefined;
}

/**
 * A content edit's new text with its line breaks written under `mode` (`keep`: as given): under
 * `auto` break `k` takes `endings[k]`, the `k`th line ending the old text covered, past those the
 * last of them, and with none `around` (the ending of the line the old text is on). When the old
 * text ended with a line ending (`final`: the one it covered) and the new text ends with a break,
 * that break is the old ending's heir, as a range edit's last line is: none if that was none
 * (the end of an unterminated last line), under `lf` and `crlf` too. A "\r" that is not before a
 * "\n" is content, never a break. The bytes around the new text are the file's own, never styled.
 */
export function styleBreaks(text: Buffer, mode: EolMode, endings: readonly Terminator[], around: Terminator, final: Terminator | undefined): Buffer {
  if (mode === 'keep' || text.indexOf(10) === -1) return text;
  const style = (k: number): Terminator => (mode === 'lf' ? '\n' : mode === 'crlf' ? '\r\n' : endings[k] || [...endings].reverse().find((e) => e !== '') || around || '\n');
  const parts: Buffer[] = [];
  let from = 0;
  let k = 0;
  for (let nl = text.indexOf(10); nl !== -1; nl = text.indexOf(10, nl + 1)) {
    parts.push(text.subarray(from, nl > from && text[nl - 1] === 13 ? nl - 1 : nl));
    const heir = nl === text.length - 1 && final !== undefined;
    parts.push(TERMINATOR_BYTES[heir && (mode === 'auto' || final === '') ? final : style(k)]);
    k++;
    from = nl + 1;
  }
  parts.push(text.subarray(from));
  return Buffer.concat(parts);
}

/** A file's most frequent line ending, from its counts (`none` when it has neither): what new lines take where nothing nearer says. */
export function dominantEnding(crlf: number, lf: number, none: Terminator = '\n'): Terminator {
  return crlf > lf ? '\r\n' : lf > 0 ? '\n' : none;
}

/**
 * `auto` for new line `j` of a replacement: the ending of old line `j` while there is one; past
 * the old lines, the last old line's ending; for a last old line without one, its neighbours'.
 */
export function replacementEnding(old: ReplacedEndings, j: number, dominant: Terminator): Terminator {
  if (j < old.removed - 1) return old.eols[j]!;
  if (old.lastEol) return old.lastEol;
  if (old.removed >= 2 && old.beforeLastEol) return old.beforeLastEol;
  if (old.before) return old.before;
  return dominant;
}

/**
 * The new line's text: without its terminator; for a row replacing an unterminated line, without
 * only the "\n" its reader printed to separate it (so a lone "\r" ending that line survives).
 */
export function newBody(line: Buffer, rowForOpenLine: boolean): Buffer {
  if (rowForOpenLine) return line.length > 0 && line[line.length - 1] === 10 ? line.subarray(0, -1) : line;
  return bodyOf(line);
}

/**
 * One new line as written under `mode`: literally under `keep`; else its text and `eol` (forced
 * by `lf`/`crlf`), or no terminator at all when it must stay `unterminated`.
 */
export function renderLine(line: Buffer, mode: EolMode, eol: Terminator, unterminated: boolean, rowForOpenLine = false): Buffer[] {
  if (mode === 'keep') return [line];
  const body = newBody(line, rowForOpenLine);
  if (unterminated) return [body];
  const forced: Terminator = mode === 'lf' ? '\n' : mode === 'crlf' ? '\r\n' : eol || '\n';
  return [body, TERMINATOR_BYTES[forced]];
}
