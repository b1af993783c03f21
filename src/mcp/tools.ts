// The tools the server lists: their names, the descriptions that teach the loop (grep, read the
// range, edit with the rows as read), their arguments and their annotations.

import { EOL_MODES } from '../core/eol.js';
import { inputSchema, type Params } from './schema.js';

/** What a tool is, to the client. */
export interface ToolSpec {
  name: ToolName;
  title: string;
  description: string;
  params: Params;
  /** a writer: not registered under --read-only */
  writes: boolean;
}

export type ToolName = 'read_lines' | 'page' | 'grep' | 'replace_lines' | 'replace_rows' | 'replace_text';

/** Defaults that keep one call from flooding the client. */
export const BOUNDS = { maxBytes: 64 << 10, pageLimit: 100, grepRows: 200 } as const;

const ROWS =
  'Rows are "<n><TAB><line>" (with "<path><TAB>" first when grep searched several files): each line verbatim with its terminator, so a CRLF line ends in "\\r\\n"; after a last line without a newline comes the line "\\ No newline at end of file".';
const LOOP = 'The loop: grep to find, read_lines to read the range around a hit, then replace_lines (with expect: the rows you read) or replace_rows (the rows with their text edited).';
const PATH = 'Paths are relative to the first root (absolute paths must be inside a root); nothing outside the roots is read or written.';

const path: Params[string] = { type: 'string', required: true, description: 'the file, relative to the first root' };
const encoding: Params[string] = { type: 'string', description: 'the file\'s encoding when it is not UTF-8 (latin1, windows-1252, shift_jis, utf-16le, ...): rows are then UTF-8 and edits are encoded back. A UTF-16 file with a byte order mark needs none' };
const maxBytes = (what: string): Params[string] => ({ type: 'integer', min: 0, description: `cap on the bytes of ${what} (default ${BOUNDS.maxBytes}; 0: no cap): they stop before a row that would overflow it, and a footer says how to go on` });
const anchor: Params[string] = { type: 'boolean', description: 'rows "<n>#<hash><TAB><line>": replace_rows then edits a line only if it still has that hash' };
const dryRun: Params[string] = { type: 'boolean', description: 'return the unified diff of the edit; write nothing' };
const expect: Params[string] = {
  type: 'string',
  description: 'the rows of the edited lines as you read them (from read_lines, page or grep, unchanged): if any of those lines changed since, nothing is written and the result is an error with the lines as they are now',
};

export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'read_lines',
    title: 'Read lines',
    description: `Read lines start to end (1-based, inclusive) of a file as rows. ${ROWS} Read the range around a grep hit before editing it; the rows you read are what replace_lines takes as expect. End omitted: to the last line. Output is capped by max_bytes; a footer then gives the call that goes on. ${LOOP} ${PATH}`,
    params: { path, start: { type: 'integer', min: 1, required: true, description: 'the first line (1-based)' }, end: { type: 'integer', min: 1, description: 'the last line (default: the last line of the file; clamps)' }, anchor, encoding, max_bytes: maxBytes('the rows') },
    writes: false,
  },
  {
    name: 'page',
    title: 'Read a page',
    description: `Read a file a page at a time: up to limit rows after skipping offset lines. ${ROWS} When lines remain, a footer follows, e.g. "[Read 100 lines (lines 1-100 of 950 total). 850 lines remaining from offset 100.]": call page again with that offset; at the end of the file there is no footer. last: the last N lines instead. ${LOOP} ${PATH}`,
    params: {
      path,
      offset: { type: 'integer', min: 0, description: 'lines to skip (0-based; default 0): the offset a footer names' },
      limit: { type: 'integer', min: 1, description: `rows at most (default ${BOUNDS.pageLimit})` },
      last: { type: 'integer', min: 1, description: 'the last N lines of the file instead of offset and limit' },
      anchor,
      encoding,
      max_bytes: maxBytes('the page'),
    },
    writes: false,
  },
  {
    name: 'grep',
    title: 'Search files',
    description: `Search files and directory trees for lines matching a pattern in rg's regex dialect (a JavaScript regular expression with perl_regexp), matched against each line without its terminator ($ matches before "\\r\\n"). Directories are searched recursively, skipping what .gitignore ignores, hidden and binary files, as rg does; no paths: the first root. ${ROWS} Matching rows feed replace_rows unchanged but for their text. The rows are capped (max_rows, max_bytes): a footer then says "Run the same command with --after PATH:LINE to go on": call grep again with the same arguments and after: "PATH:LINE". ${LOOP} ${PATH}`,
    params: {
      pattern: { type: 'string', required: true, description: "a regular expression in rg's dialect (POSIX classes, (?i), \\b Unicode-aware; a literal string with fixed_strings, a JavaScript regex with lookaround and back references with perl_regexp)" },
      paths: { type: 'strings', description: 'files or directories to search (default: the first root)' },
      fixed_strings: { type: 'boolean', description: 'the pattern is a literal string, not a regular expression' },
      perl_regexp: { type: 'boolean', description: "the pattern is a JavaScript regular expression (lookaround, back references) instead of rg's dialect" },
      ignore_case: { type: 'boolean', description: 'match case-insensitively' },
      word: { type: 'boolean', description: 'match whole words only' },
      context: { type: 'integer', min: 0, description: 'lines of context before and after each match (groups apart by "--")' },
      glob: { type: 'strings', description: 'only search files matching these globs (gitignore syntax, "!GLOB" excludes), e.g. ["*.ts", "!*.test.ts"]' },
      max_rows: { type: 'integer', min: 1, description: `rows at most, across all files (default ${BOUNDS.grepRows})` },
      max_bytes: maxBytes('the rows'),
      after: { type: 'string', description: 'resume after PATH:LINE, as the footer of a cut search says (the same arguments otherwise)' },
      anchor,
      encoding,
    },
    writes: false,
  },
  {
    name: 'replace_lines',
    title: 'Replace lines',
    description: `Replace lines start to end (end defaults to start) of a file with text, atomically. text "" deletes the lines; end = start - 1 inserts before start (start = line count + 1 appends). Line endings by default (eol auto): the new lines take the ending of the lines they replace, so a CRLF file stays CRLF and a last line without a newline keeps none; the text may use "\\n". Pass expect (the rows as you read them) so that an edit of lines that changed since is refused. The result is silent on success (a diff with dry_run). ${LOOP} ${PATH}`,
    params: {
      path,
      start: { type: 'integer', min: 1, required: true, description: 'the first line replaced (1-based)' },
      end: { type: 'integer', min: 0, description: 'the last line replaced (default start; start - 1 to insert before start)' },
      text: { type: 'string', required: true, description: 'the new lines (a final newline is optional); "" deletes' },
      expect,
      eol: { type: 'string', choices: EOL_MODES, description: 'line endings of the new text: auto (default: as the lines replaced), keep (as written), lf, crlf' },
      encoding,
      dry_run: dryRun,
    },
    writes: true,
  },
  {
    name: 'replace_rows',
    title: 'Apply rows',
    description: `Apply rows as the readers print them, "<n><TAB><line>" or "<path><TAB><n><TAB><line>" (grep over several files), each replacing its own line with its text: copy the rows you read, edit their text, pass them here. Rows with paths may edit several files in one call: all are written or none. Anchored rows ("<n>#<hash>") are applied only to lines that still have that hash. Footers and "--" separators are skipped; anything else that is not a row is refused. ${LOOP} ${PATH}`,
    params: {
      rows: { type: 'string', required: true, description: 'the rows, one a line, each with its edited text' },
      path: { type: 'string', description: 'the file, for rows without a path (from read_lines, page, or grep of one file)' },
      expect,
      encoding,
      dry_run: dryRun,
    },
    writes: true,
  },
  {
    name: 'replace_text',
    title: 'Replace text',
    description: `Replace a text by its content, atomically: old is matched line-ending-agnostic (written with "\\n" it matches CRLF lines too), may span lines, and must occur exactly once unless all (several: an error naming the line of each; none: an error showing the lines that nearly hold it). new takes the file's line endings as replace_lines does. ${LOOP} ${PATH}`,
    params: {
      path,
      old: { type: 'string', required: true, description: 'the text to replace, as it reads (may span lines)' },
      new: { type: 'string', required: true, description: 'the text that replaces it ("" deletes it)' },
      all: { type: 'boolean', description: 'replace every occurrence, not exactly one' },
      encoding,
      dry_run: dryRun,
    },
    writes: true,
  },
];

/** A tool as tools/list shows it. */
export function listed(t: ToolSpec): Record<string, unknown> {
  return {
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: inputSchema(t.params),
    outputSchema: {
      type: 'object',
      properties: {
        records: { type: 'array', items: { type: 'object' }, description: 'the JSON Lines records of the CLI\'s --json' },
        status: { type: 'integer', description: "the CLI's exit status: 0 ok, 1 grep found nothing, 2 an error, 3 a stale edit" },
      },
      required: ['records', 'status'],
    },
    annotations: t.writes
      ? { title: t.title, readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false }
      : { title: t.title, readOnlyHint: true, openWorldHint: false },
  };
}
