// The MCP tools: each a view of one command of commands.ts, naming the arguments it offers (so a
// tool's argument is the command's option, declared once), with a short description. What every
// tool shares (rows, paths, the edit loop, what structuredContent holds) is said once, in the
// server's instructions: tools/list is paid for in every conversation (a test keeps it <= 8 KB).

import { SERVER_BOUNDS } from './options.js';
import type { ToolSpec } from './types.js';

/** What the server says once for every tool (MCP `instructions`). */
export const INSTRUCTIONS =
  'Line-precise file access. Rows are "<n><TAB><line>" ("<path><TAB><n><TAB><line>" when a search names several files): each line verbatim with its terminator (a CRLF line ends in "\\r\\n"); after a last line without a newline comes the line "\\ No newline at end of file". Paths are relative to the first root; nothing outside the roots is read or written. The loop: grep (or find_files) to find, read_lines around a hit, then edit with the rows as read: replace_lines with expect (a line changed since is refused), replace_rows (the rows with their text edited), replace_text or apply_edits by content. New lines take the endings of the lines they replace (eol: auto). Every edit is atomic and all or nothing, and running it again on its own result changes nothing; a writer answers with the edited regions as they now are (rows with 2 lines of context), or the diff under dry_run. encoding: the file\'s when not UTF-8 (latin1, shift_jis, utf-16le, ...): rows are then UTF-8 and edits are encoded back. anchor: rows "<n>#<hash><TAB><line>", whose edits apply only to lines still so. A cut answer (max_bytes, max_rows, limit; max_bytes 0: the server\'s cap) ends with a footer naming the call that goes on. structuredContent is {status, records}: status is the CLI\'s exit status (0 ok, 1 nothing matched, 2 error, 3 stale edit); records give positions, counts, the cursor and receipts, never the lines again (only the base64 bytes of a line that is not UTF-8).';

export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'read_lines',
    title: 'Read lines',
    command: 'readlines',
    description: 'Read lines start to end (1-based, inclusive; no end: to the last line) as rows.',
    takes: ['path!', 'start!', 'end', 'anchor', 'encoding', 'maxBytes', 'fromByte'],
    writes: false,
    defaults: { maxBytes: SERVER_BOUNDS.maxBytes },
  },
  {
    name: 'page',
    title: 'Read a page',
    command: 'page',
    description: 'Read up to limit rows after skipping offset lines, or the last N; a footer names the next offset.',
    takes: ['path!', 'offset', 'limit', 'last', 'anchor', 'encoding', 'maxBytes', 'fromByte'],
    writes: false,
    defaults: { limit: SERVER_BOUNDS.pageLimit, maxBytes: SERVER_BOUNDS.maxBytes },
  },
  {
    name: 'grep',
    title: 'Search files',
    command: 'grep',
    description:
      "Search files, globs and trees (skipping what .gitignore ignores, hidden and binary files, as rg) for lines matching a pattern in rg's syntax, matched without the line's terminator. Rows feed replace_rows.",
    takes: ['pattern!', 'paths', 'fixedStrings', 'perlRegexp', 'ignoreCase', 'wordRegexp', 'lineRegexp', 'invertMatch', 'context', 'maxCount', 'glob', 'hidden', 'noIgnore', 'filesWithMatches', 'count', 'onlyMatching', 'replace', 'maxRows', 'maxBytes', 'after', 'anchor', 'encoding', 'skipped'],
    writes: false,
    defaults: { maxRows: SERVER_BOUNDS.grepRows, maxBytes: SERVER_BOUNDS.maxBytes },
  },
  {
    name: 'find_files',
    title: 'Find files',
    command: 'grep',
    description: 'List the files under paths (default: the first root) a search would read, honouring .gitignore; glob filters names.',
    takes: ['paths', 'glob', 'hidden', 'noIgnore', 'maxRows', 'maxBytes', 'after'],
    writes: false,
    defaults: { maxRows: SERVER_BOUNDS.grepRows * 5, maxBytes: SERVER_BOUNDS.maxBytes },
  },
  {
    name: 'replace_lines',
    title: 'Replace lines',
    command: 'replace',
    description: 'Replace lines start to end (default start) with text: end = start - 1 inserts, start = line count + 1 appends. Pass expect.',
    takes: ['path!', 'start!', 'end', 'text!', 'expect', 'relocate', 'eol', 'encoding', 'dryRun'],
    writes: true,
  },
  {
    name: 'replace_rows',
    title: 'Apply rows',
    command: 'replace',
    description: 'Apply rows as read with their text edited, each to its own line; rows with paths may edit several files, all or none.',
    takes: ['rows!', 'path', 'expect', 'relocate', 'encoding', 'dryRun'],
    writes: true,
  },
  {
    name: 'replace_text',
    title: 'Replace text',
    command: 'replace',
    description: 'Replace old by new, matched by content ("\\n" matches CRLF too; may span lines); it must occur once unless all.',
    takes: ['path!', 'old!', 'new!', 'all', 'eol', 'encoding', 'dryRun'],
    writes: true,
  },
  {
    name: 'apply_edits',
    title: 'Edit in several places',
    command: 'replace',
    description: 'Apply several edits to one file, all against it as it is now, all or none.',
    takes: ['path!', 'editList!', 'expect', 'eol', 'encoding', 'dryRun'],
    own: [
      {
        key: 'editList',
        kind: 'strings',
        mcp: 'edits',
        required: true,
        help: 'the edits: {"start":S,"end":E,"text":T} or {"old":O,"new":N,"all":false}',
        mcpHelp: '{start, end, text} by line, or {old, new, all} by content',
        schema: { type: 'array', minItems: 1, items: { type: 'object' } },
      },
    ],
    writes: true,
  },
  {
    name: 'apply_patch',
    title: 'Apply a patch',
    command: 'patch',
    description: 'Apply a unified diff (git diff, diff -u) or a "*** Begin Patch" envelope under the first root: every hunk located first, then all files written or none; hunks already applied are skipped.',
    takes: ['patchText!', 'strip', 'reverse', 'check', 'ignoreWhitespace', 'unidiffZero', 'dryRun'],
    own: [{ key: 'patchText', kind: 'string', mcp: 'patch', required: true, help: 'the patch text' }],
    writes: true,
  },
  {
    name: 'create_file',
    title: 'Create a file',
    command: 'replace',
    description: 'Write a new file with text, atomically; one that exists is refused unless force.',
    takes: ['path!', 'text!', 'force', 'eol', 'encoding', 'dryRun'],
    writes: true,
  },
];
