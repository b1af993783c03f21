// The library entry (`import { readLines, grep, replace } from 'linewise'`): the CLI's behaviour
// as typed functions.
//
// Each subcommand is one module under src/api/ exporting its function and types; adding one is
// one export line here.

export { type Line, MAX_LINE_BYTES, type Terminator } from './api/collect.js';
export { loadEncoding } from './api/encoding.js';
export { grep, type GrepFile, type GrepLine, type GrepOptions, type GrepResult, type Submatch } from './api/grep.js';
export { page, type Page, type PageOptions, readLines, type ReadOptions } from './api/read.js';
export {
  type EolMode,
  type ExpectedLine,
  type FileChange,
  type RangeEdit,
  replace,
  type ReplaceOptions,
  type ReplaceResult,
  replaceRows,
  type RowEdit,
  StaleEditError,
} from './api/replace.js';
export { Exit, type ExitCode, LinewiseError } from './core/errors.js';
export type { Bom } from './core/sniff.js';
