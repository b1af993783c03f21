// The library entry (`import { readLines, grep, replace } from 'linewise'`): the engine, which
// the CLI and the MCP server only adapt. Each operation's module exports its functions and types.

export { loadEncoding } from './engine/encodings.js';
export {
  applyEdits,
  type ExpectedLine,
  type EolMode,
  type FileChange,
  type FileReceipt,
  type RangeEdit,
  type ReceiptEdit,
  type ReceiptSpan,
  type Relocation,
  replace,
  type ReplaceOptions,
  type ReplaceResult,
  replaceRows,
  replaceText,
  type RowEdit,
  type Shift,
  type TextEdit,
  TextNotFoundError,
} from './engine/edit.js';
export { createFile, type CreateOptions } from './engine/create.js';
export { applyPatch, type HunkFailure, type HunkResult, PatchFailedError, type PatchedFile, type PatchOptions, type PatchResult } from './engine/patch.js';
export { type Bom, type Page, page, type PageOptions, readLines, type ReadOptions } from './engine/read.js';
export { anchorOf, type Line, MAX_LINE_BYTES, type Terminator } from './engine/results.js';
export { findFiles, type FindFilesOptions, type FoundFiles } from './engine/find-files.js';
export { grep, type GrepFile, type GrepLine, type GrepOptions, type GrepResult, type Submatch } from './engine/search.js';
export { StaleEditError } from './engine/stale.js';
export { Exit, type ExitCode, LinewiseError } from './core/errors.js';
