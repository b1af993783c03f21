// The page footer: the text that says what a page showed and the offset to read next.

import { plural } from '../core/errors.js';

/** What a page footer reports. `total` is undefined when the count stopped at its bound. */
export interface FooterInfo {
  /** 1-based number of the first row shown */
  first: number;
  /** rows shown */
  shown: number;
  total: number | undefined;
  /** a line shown cut: its number, bytes shown and full length (undefined if not counted) */
  cut?: { line: number; shown: number; length: number | undefined; path: string; options?: string[] };
}

/**
 * The footer of a page, without its leading blank line or final newline, e.g.
 * `[Read 2 lines (lines 1-2 of 5 total). 3 lines remaining from offset 2.]`.
 * Returns undefined at the end of the file when nothing was cut: no footer then.
 */
export function pageFooter(f: FooterInfo): string | undefined {
  const last = f.first + f.shown - 1;
  const next = last; // the next offset is the number of lines before the next unread one
  const remaining = f.total === undefined ? undefined : f.total - last;
  const more = remaining === undefined || remaining > 0;
  if (!more && !f.cut) return undefined;
  let text = `[Read ${plural(f.shown)} (lines ${f.first}-${last}`;
  if (remaining !== undefined) {
    text += ` of ${f.total} total).`;
    if (remaining > 0) text += ` ${plural(remaining)} remaining from offset ${next}.`;
  } else {
    text += `). More lines remain from offset ${next}.`;
  }
  if (f.cut) {
    const len = f.cut.length === undefined ? 'more than' : 'of';
    const total = f.cut.length === undefined ? `${f.cut.shown}` : `${f.cut.length}`;
    text +=
      ` Line ${f.cut.line} was cut at ${f.cut.shown} ${len} ${total} bytes;` +
      ` read it whole with: linewise readlines ${shellWord(f.cut.path.startsWith('-') && f.cut.path !== '-' ? `./${f.cut.path}` : f.cut.path)} ${f.cut.line} ${f.cut.line}` +
      (f.cut.options ?? []).map((o) => ` ${shellWord(o)}`).join('');
  }
  return text + ']';
}

/**
 * Quotes a path for a command line shown to the user, only when it needs quoting. Control
 * characters go in `$'...'` with C escapes, so the footer stays one line without a tab (which
 * `replace --rows` relies on to tell it from a row).
 */
function shellWord(word: string): string {
  if (/^[\w./@%+=:,-]+$/.test(word)) return word;
  if (!/[\x00-\x1f\x7f]/.test(word)) return `'${word.replace(/'/g, `'\\''`)}'`;
  return `$'${word.replace(/[\x00-\x1f\x7f'\\]/g, (c) => (c === "'" || c === '\\' ? `\\${c}` : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`))}'`;
}
