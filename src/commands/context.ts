// What every command is handed by the CLI: the process edges, buffered stdout, and the styles.

import type { ExitCode } from '../core/errors.js';
import type { Style } from '../format/style.js';
import type { Output } from '../io/output.js';
import type { Io } from '../io/streams.js';

export interface Context {
  io: Io;
  out: Output;
  /** style of rows: plain unless stdout is a terminal, so piped rows are never colored */
  rowStyle: Style;
  /** style of footers, separators and notes (colored under --color always, even in a pipe) */
  noteStyle: Style;
  /** writes `linewise: <path>: <message>` to stderr, for notes that are not errors */
  warn(message: string, path?: string): void;
  /**
   * Records a failure already reported on stderr (grep: one file could not be searched), so
   * that a stdout closed later (`| head`) cannot end the run with 0.
   */
  failed(status: ExitCode): void;
  /** fires when the process is asked to stop (SIGINT, SIGTERM, SIGHUP), for commands that write */
  signal?: AbortSignal;
}

/** Options every reader takes. */
export interface ReaderOptions {
  json?: boolean;
  /** read files with NUL bytes as text */
  text?: boolean;
  /** `--encoding NAME`: decode files from NAME; rows are then UTF-8 */
  encoding?: string;
  /** `--anchor`: rows `<n>#<anchor>\t<line>`, which replace --rows checks against the line */
  anchor?: boolean;
}
