// The options several commands share, each declared once (the commands in commands.ts take them
// as they are, or with their own default or help), and the bounds the surface names.

import type { OptionSpec } from './types.js';

/** Page's defaults (the library's `page()` too). */
export const PAGE_DEFAULTS = { offset: 0, limit: 100, maxBytes: 64 << 10, countBytes: 8 << 20 } as const;

/**
 * grep's --timeout: the default for files, and the most node:vm can bound (its deadline plus a
 * slice within 2^32 - 1 ms; engine/search-bounds.ts computes it, a test holds the two equal).
 */
export const DEFAULT_TIMEOUT = 10;
export const MAX_TIMEOUT = 4294967;

/** The MCP server's memory between calls (--cache-mib; io/cache-budget.ts keeps it, a test holds the two equal). */
export const DEFAULT_CACHE_MIB = 48;

/** What the MCP server answers at most when a call does not say (`max_bytes`, `limit`, `max_rows`). */
export const SERVER_BOUNDS = { maxBytes: 64 << 10, pageLimit: 100, grepRows: 200 } as const;

export const COLORS = ['auto', 'always', 'never'] as const;
export const EOL_CHOICES = ['auto', 'keep', 'lf', 'crlf'] as const;

export const color: OptionSpec = { key: 'color', kind: 'choice', cli: '--color <when>', choices: COLORS, default: 'auto', help: 'color: auto (only on a terminal), always, never' };

export const GUARDS = ['auto', 'always', 'never'] as const;

/** The readers' guard trailer (core/row-guard.ts): on the command line only; a tool's rows are read by the agent. */
export const guard: OptionSpec = {
  key: 'guard',
  kind: 'choice',
  cli: '--guard <when>',
  choices: GUARDS,
  help: 'end the rows with a trailer line "\\ read {...}" holding a hash of each line read, so replace --rows writes only the rows you edited and refuses them if their lines changed since: auto (when stdout is not a terminal), always, never (default: $LINEWISE_GUARD, else auto)',
};

export const json: OptionSpec = { key: 'json', kind: 'boolean', cli: '--json', help: 'JSON Lines: a record per line, then a summary' };

export const anchor: OptionSpec = {
  key: 'anchor',
  kind: 'boolean',
  cli: '--anchor',
  mcp: 'anchor',
  help: 'rows "<n>#<hash><TAB><line>": replace --rows edits the line only if it still has that hash (8 hex digits of SHA-256 of its text)',
};

export const encoding: OptionSpec = {
  key: 'encoding',
  kind: 'string',
  cli: '--encoding <name>',
  mcp: 'encoding',
  help: 'decode the file from NAME (latin1, windows-1252, shift_jis, utf-16le, ...); rows are then UTF-8. "linewise encodings" lists the names',
};

/** -a on the readers and grep: a file with NUL bytes read as text. */
export const text = (what: string): OptionSpec => ({ key: 'text', kind: 'boolean', cli: '-a, --text', help: `${what} a file with NUL bytes as text` });

/** A cap on the bytes of rows printed (readlines, page, grep). */
export const maxBytes = (help: string, dflt?: number): OptionSpec => ({
  key: 'maxBytes',
  kind: 'integer',
  cli: '--max-bytes <b>',
  mcp: 'max_bytes',
  min: 0,
  ...(dflt !== undefined ? { default: dflt } : {}),
  help,
});

/** Where a read starts inside its first line: the rest of a line a budget cut (the footer's cursor). */
export const fromByte = (first: string): OptionSpec => ({
  key: 'fromByte',
  kind: 'integer',
  cli: '--from-byte <b>',
  mcp: 'from_byte',
  min: 0,
  help: `start ${first} at its byte B: the rest of a line a budget cut, as the footer's cursor says (a row "N[@B]" that replace refuses)`,
});

export const countBytes = (help: string, dflt?: number): OptionSpec => ({ key: 'countBytes', kind: 'integer', cli: '--count-bytes <b>', min: 0, ...(dflt !== undefined ? { default: dflt } : {}), help });

export const dryRun: OptionSpec = { key: 'dryRun', kind: 'boolean', cli: '--dry-run', mcp: 'dry_run', help: 'print a unified diff; write nothing', mcpHelp: 'return the diff; write nothing' };

export const expect: OptionSpec = {
  key: 'expect',
  kind: 'string',
  cli: '--expect <oldrows>',
  mcp: 'expect',
  help: 'rows as they were read (a file, or - for standard input): if a line changed since, exit 3 and write nothing',
  mcpHelp: 'the rows as read: refused if they changed',
};

export const eol: OptionSpec = {
  key: 'eol',
  kind: 'choice',
  cli: '--eol <mode>',
  mcp: 'eol',
  choices: EOL_CHOICES,
  default: 'auto',
  help: 'line endings of the new text: auto (as the lines replaced), keep (as written), lf, crlf',
};
