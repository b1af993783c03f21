// What every command is handed by the CLI: the process edges, buffered stdout, and the styles.

import type { Printing } from '../format/printing.js';
import type { Io } from '../io/streams.js';

/**
 * Printing on stdout and stderr: `warn` writes to stderr, and `failed` records a failure so that
 * a stdout closed later (`| head`) cannot end the run with 0.
 */
export interface Context extends Printing {
  io: Io;
  /** fires when the process is asked to stop (SIGINT, SIGTERM, SIGHUP, SIGQUIT), for commands that write */
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
