// What a printer of a whole command's outcome writes to: rows on an Output, notes and errors as
// one-line messages, the styles of both; the CLI gives it stdout and stderr, the MCP server a result.

import { type ExitCode, oneLine } from '../core/errors.js';
import { quotePath } from '../core/path-names.js';
import type { Output } from '../io/output.js';
import type { Style } from './style.js';

export interface Printing {
  out: Output;
  /** style of rows: plain unless stdout is a terminal, so piped rows are never colored */
  rowStyle: Style;
  /** style of footers, separators and notes */
  noteStyle: Style;
  /** says `linewise: <path>: <message>` (stderr, or a result's messages), for notes that are not errors */
  warn(message: string, path?: string): void;
  /** records a failure already said through `warn` (grep: one file could not be searched) */
  failed(status: ExitCode): void;
}

/** The one-line message of linewise, `linewise: <path>: <message>`, without its newline (a control
 * character left in the message is escaped, so no message spans two lines). */
export function messageLine(message: string, path?: string): string {
  return `linewise: ${path === undefined ? '' : `${quotePath(path)}: `}${oneLine(message)}`;
}
