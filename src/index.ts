// The library entry (`import { readLines } from 'linewise'`): the CLI's behaviour as typed functions.
//
// Each subcommand is one module under src/api/ exporting its function and types; adding one is
// one export line here (grep and replace come with their branches).

export { type Line, MAX_LINE_BYTES, type Terminator } from './api/collect.js';
export { page, type Page, type PageOptions, readLines, type ReadOptions } from './api/read.js';
export { Exit, type ExitCode, LinewiseError } from './core/errors.js';
export type { Bom } from './core/sniff.js';
