// The MCP tools: each a view of one command of commands.ts, naming the arguments it offers (so a
// tool's argument is the command's option, declared once), with a short description. What every
// tool shares (rows, paths, the edit loop) is said once, in the server's instructions.

import { SERVER_BOUNDS } from './options.js';
import type { ToolSpec } from './types.js';

/** What the server says once for every tool (MCP `instructions`). */
export const INSTRUCTIONS =
  'Line-precise file access. Rows are "<n><TAB><line>" ("<path><TAB><n><TAB><line>" when a search names several files): each line verbatim with its terminator (a CRLF line ends in "\\r\\n"); after a last line without a newline comes the line "\\ No newline at end of file". Paths are relative to the first root; nothing outside the roots is read or written. The loop: grep (or find_files) to find, read_lines around a hit, then edit with the rows as read: replace_lines with expect (a line changed since is refused), replace_rows (the rows with their text edited), replace_text or apply_edits by content. Every edit is atomic and all or nothing, and running it again on its own result changes nothing. A cut answer ends with a footer naming the call that goes on.';

export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'read_lines',
    title: 'Read lines',
    command: 'readlines',
    description: 'Read lines start to end (1-based, inclusive; end omitted: to the last line) of a file as rows. The rows you read are what the edit tools take as expect.',
    takes: ['path!', 'start!', 'end', 'anchor', 'encoding', 'maxBytes', 'fromByte'],
    writes: false,
    defaults: { maxBytes: SERVER_BOUNDS.maxBytes },
  },
  {
    name: 'page',
    title: 'Read a page',
    command: 'page',
    description: 'Read a file a page at a time: up to limit rows after skipping offset lines (or the last N lines). When lines remain a footer names the offset to call page with next.',
    takes: ['path!', 'offset', 'limit', 'last', 'anchor', 'encoding', 'maxBytes', 'fromByte'],
    writes: false,
    defaults: { limit: SERVER_BOUNDS.pageLimit, maxBytes: SERVER_BOUNDS.maxBytes },
  },
  {
    name: 'grep',
    title: 'Search files',
    command: 'grep',
    description:
      'Search files and directory trees (recursively, skipping what .gitignore ignores, hidden and binary files, as rg does; no paths: the first root) for lines matching a pattern in rg\'s syntax, matched against each line without its terminator. Rows feed replace_rows unchanged but for their text.',
    takes: ['pattern!', 'paths', 'fixedStrings', 'ignoreCase', 'wordRegexp', 'lineRegexp', 'invertMatch', 'context', 'maxCount', 'glob', 'hidden', 'noIgnore', 'filesWithMatches', 'count', 'onlyMatching', 'replace', 'maxRows', 'maxBytes', 'after', 'anchor', 'encoding'],
    own: [{ key: 'skipped', kind: 'boolean', mcp: 'skipped', help: 'list the files not searched (binary, unreadable) instead of one line counting them' }],
    writes: false,
    defaults: { maxRows: SERVER_BOUNDS.grepRows, maxBytes: SERVER_BOUNDS.maxBytes },
  },
  {
    name: 'find_files',
    title: 'Find files',
    command: 'grep',
    description: 'List the files under the paths (default: the first root) that a search would read, one a line, honouring .gitignore: names by glob, e.g. glob: ["*.ts"].',
    takes: ['paths', 'glob', 'hidden', 'noIgnore', 'maxRows', 'maxBytes', 'after'],
    writes: false,
    defaults: { maxRows: SERVER_BOUNDS.grepRows * 5, maxBytes: SERVER_BOUNDS.maxBytes },
  },
  {
    name: 'replace_lines',
    title: 'Replace lines',
    command: 'replace',
    description:
      'Replace lines start to end (end defaults to start) with text, atomically: "" deletes, end = start - 1 inserts before start, start = line count + 1 appends. New lines take the endings of the lines they replace (eol auto). Pass expect, the rows as you read them. Answers with the edited region as it now is.',
    takes: ['path!', 'start!', 'end', 'text!', 'expect', 'relocate', 'eol', 'encoding', 'dryRun'],
    writes: true,
  },
  {
    name: 'replace_rows',
    title: 'Apply rows',
    command: 'replace',
    description:
      'Apply rows as the readers print them, each replacing its own line with its text: copy the rows you read, edit their text, pass them. Rows with paths may edit several files, all or none; footers and "--" are skipped; anchored rows apply only to unchanged lines.',
    takes: ['rows!', 'path', 'expect', 'relocate', 'encoding', 'dryRun'],
    writes: true,
  },
  {
    name: 'replace_text',
    title: 'Replace text',
    command: 'replace',
    description:
      'Replace a text by its content, atomically: old is matched line-ending-agnostic (written with "\\n" it matches CRLF too), may span lines, and must occur exactly once unless all (several: an error naming each line; none: the lines that nearly hold it). Already replaced: nothing to do.',
    takes: ['path!', 'old!', 'new!', 'all', 'eol', 'encoding', 'dryRun'],
    writes: true,
  },
  {
    name: 'apply_edits',
    title: 'Edit a file in several places',
    command: 'replace',
    description: 'Apply several edits to one file in one call, all against the file as it is, all or nothing: line ranges {start, end, text} and texts by content {old, new, all}.',
    takes: ['path!', 'editList!', 'expect', 'eol', 'encoding', 'dryRun'],
    own: [
      {
        key: 'editList',
        kind: 'strings',
        mcp: 'edits',
        required: true,
        help: 'the edits: {"start":S,"end":E,"text":T} or {"old":O,"new":N,"all":false}',
        schema: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            properties: { start: { type: 'integer', minimum: 1 }, end: { type: 'integer', minimum: 0 }, text: { type: 'string' }, old: { type: 'string' }, new: { type: 'string' }, all: { type: 'boolean' } },
            additionalProperties: false,
          },
        },
      },
    ],
    writes: true,
  },
  {
    name: 'create_file',
    title: 'Create a file',
    command: 'replace',
    description: 'Write a new file atomically with text (as given; eol can force endings). An existing file is refused unless force.',
    takes: ['path!', 'text!', 'force', 'eol', 'encoding', 'dryRun'],
    writes: true,
  },
];
