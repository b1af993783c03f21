// The commands and their options: the one declaration of linewise's surface. The command line
// (cli/program.ts), the MCP tools (tools.ts), the library's checks (check.ts), --help and the
// option lists of docs/COMMANDS.md are derived from it; test/surface.test.ts fails on any drift.
// Adding an option is one entry here plus the engine code that honours it.

import * as o from './options.js';
import type { ArgSpec, CommandSpec, OptionSpec } from './types.js';

const file: ArgSpec = { key: 'path', cli: '<file>', kind: 'string', mcp: 'path', help: 'the file, or - for standard input', mcpHelp: 'the file' };

const readlines: CommandSpec = {
  name: 'readlines',
  summary: 'print lines START to END (1-based, inclusive) as rows',
  description:
    'Print lines START to END (1-based, inclusive; END defaults to the last line) as rows "<n><TAB><line>", each line verbatim with its terminator. FILE "-" reads standard input. Reads no further than END.',
  args: [
    file,
    { key: 'start', cli: '<start>', kind: 'integer', mcp: 'start', min: 1, help: 'first line (1-based)' },
    { key: 'end', cli: '[end]', kind: 'integer', mcp: 'end', min: 1, help: 'last line (default: the last line of the file; clamps)' },
  ],
  options: [
    o.maxBytes('cap on the bytes printed: stop before a line that would overflow it (a first line longer than that is shown cut), then a footer says how to go on (default: no cap)'),
    o.fromByte('line START'),
    { ...o.json, help: 'JSON Lines: a record per line, then a summary' },
    o.anchor,
    o.guard,
    o.text('read'),
    o.encoding,
    o.color,
  ],
  conflicts: [],
};

const page: CommandSpec = {
  name: 'page',
  summary: 'print a bounded page of rows, with a footer saying where to go on',
  description: 'Print up to {limit} rows after skipping {offset} lines, within {maxBytes} of output. When lines remain, a blank line and a footer follow, naming the offset to read next.',
  args: [file],
  options: [
    { key: 'offset', kind: 'integer', cli: '--offset <k>', mcp: 'offset', min: 0, default: o.PAGE_DEFAULTS.offset, help: 'lines to skip (0-based)', mcpHelp: 'lines to skip: the offset a footer names' },
    { key: 'limit', kind: 'integer', cli: '--limit <n>', mcp: 'limit', min: 1, default: o.PAGE_DEFAULTS.limit, help: 'rows at most' },
    {
      key: 'last',
      kind: 'integer',
      cli: '--last <n>',
      mcp: 'last',
      min: 1,
      help: 'the last N lines, ending at the last line; as many as {maxBytes} holds (a file, not a pipe: it is read twice, to count then to print)',
      mcpHelp: 'the last N lines instead',
    },
    o.maxBytes('cap on the bytes printed; a longer single line is shown cut (0: no cap)', o.PAGE_DEFAULTS.maxBytes),
    o.countBytes('read at most this far past the page to count the total lines', o.PAGE_DEFAULTS.countBytes),
    o.fromByte('the first line of the page'),
    { ...o.json, help: 'JSON Lines: a record per line, then a summary with the total and next offset' },
    o.anchor,
    o.guard,
    o.text('read'),
    o.encoding,
    o.color,
  ],
  conflicts: [['last', ['offset', 'limit', 'fromByte']]],
};

const collectHelp = '(repeatable)';

const grep: CommandSpec = {
  name: 'grep',
  summary: 'search files and trees; print matching lines as rows',
  description:
    'Print the lines that match PATTERN as rows "<n><TAB><line>" (with "<path><TAB>" first when several files are searched). The pattern sees each line without its terminator, so $ matches before \\r\\n. PATH may be a file, a directory (searched recursively, skipping .gitignore/.ignore-ignored, hidden and binary files), a glob, or - for standard input; none means standard input when it is a pipe or a file, else the current directory. -L follows symbolic links, as in rg (grep\'s -L is --files-without-match here); -h is --no-filename (help is --help).',
  args: [
    { key: 'pattern', cli: '[pattern]', kind: 'string', mcp: 'pattern', help: 'the pattern (omit it when -e or -f is given)', mcpHelp: "in rg's syntax (a literal with fixed_strings)" },
    { key: 'paths', cli: '[paths...]', kind: 'strings', mcp: 'paths', help: 'files, directories, globs, or - (default: standard input if piped, else the current directory)', mcpHelp: 'files, directories or globs (default: the first root)' },
  ],
  options: [
    { key: 'regexp', kind: 'strings', cli: '-e, --regexp <pattern>', help: `a pattern, for patterns that begin with "-" ${collectHelp}` },
    { key: 'file', kind: 'strings', cli: '-f, --file <patternfile>', help: `read patterns from a file, one a line (- for standard input) ${collectHelp}` },
    { key: 'ignoreCase', kind: 'boolean', cli: '-i, --ignore-case', mcp: 'ignore_case', help: 'match case-insensitively' },
    { key: 'fixedStrings', kind: 'boolean', cli: '-F, --fixed-strings', mcp: 'fixed_strings', help: 'patterns are literal strings, not regular expressions' },
    { key: 'extendedRegexp', kind: 'boolean', cli: '-E, --extended-regexp', habit: true, help: "accepted for grep habits: patterns are always extended regular expressions, in rg's dialect (the default)" },
    {
      key: 'perlRegexp',
      kind: 'boolean',
      cli: '-P, --perl-regexp',
      mcp: 'perl_regexp',
      help: "patterns are JavaScript regular expressions (PCRE-like: lookaround, back references) instead of rg's dialect",
      mcpHelp: "the pattern is a JavaScript regular expression (lookaround, back references) instead of rg's dialect",
    },
    { key: 'wordRegexp', kind: 'boolean', cli: '-w, --word-regexp', mcp: 'word', help: 'match whole words only' },
    { key: 'lineRegexp', kind: 'boolean', cli: '-x, --line-regexp', mcp: 'line', help: 'match whole lines only' },
    { key: 'invertMatch', kind: 'boolean', cli: '-v, --invert-match', mcp: 'invert', help: 'select lines that do not match' },
    { key: 'maxCount', kind: 'integer', cli: '-m, --max-count <num>', mcp: 'max_count', min: 1, help: 'stop after NUM selected lines per file' },
    { key: 'afterContext', kind: 'integer', cli: '-A, --after-context <num>', min: 0, help: 'print NUM lines after each selected line' },
    { key: 'beforeContext', kind: 'integer', cli: '-B, --before-context <num>', min: 0, help: 'print NUM lines before each selected line' },
    { key: 'context', kind: 'integer', cli: '-C, --context <num>', mcp: 'context', min: 0, help: 'print NUM lines before and after', mcpHelp: 'lines around each match' },
    {
      key: 'count',
      kind: 'boolean',
      cli: '-c, --count',
      mcp: 'count',
      help: 'print the number of selected lines per file (with {filesWithMatches}: only files that have some, as rg -c)',
      mcpHelp: 'matching lines per file, instead of the lines',
    },
    { key: 'filesWithMatches', kind: 'boolean', cli: '-l, --files-with-matches', mcp: 'files_with_matches', help: 'print only the names of files with a selected line' },
    { key: 'filesWithoutMatch', kind: 'boolean', cli: '--files-without-match', help: 'print only the names of files without a selected line' },
    { key: 'listFiles', kind: 'boolean', cli: '--files', help: 'print the files that would be searched, one a line, and search nothing (no PATTERN then), as rg --files' },
    { key: 'quiet', kind: 'boolean', cli: '-q, --quiet', help: 'print nothing; stop at the first selected line; the status says if there was one' },
    {
      key: 'onlyMatching',
      kind: 'boolean',
      cli: '-o, --only-matching',
      mcp: 'only_matching',
      help: 'print each match as its own row "<n>:<column><TAB><match>" (not a line: replace refuses it)',
    },
    {
      key: 'replace',
      kind: 'string',
      cli: '--replace <text>',
      mcp: 'replace',
      help: 'print each selected line with every match replaced by TEXT ($1, ${name}, $$ as in rg): rows ready for "replace --rows -"',
      mcpHelp: 'each match replaced by this ($1, ${name}): rows for replace_rows',
    },
    { key: 'lineNumber', kind: 'boolean', cli: '-n, --line-number', habit: true, help: 'accepted for grep habits: rows always carry line numbers' },
    { key: 'withFilename', kind: 'boolean', cli: '-H, --with-filename', help: 'print the path on every row, even for one file' },
    { key: 'noFilename', kind: 'boolean', cli: '-h, --no-filename', help: 'never print the path, even for several files' },
    { key: 'null', kind: 'boolean', cli: '-0, --null', help: 'end paths with a NUL byte instead of a tab (or newline under {filesWithMatches})' },
    { ...o.json, help: 'JSON Lines as ripgrep prints them: begin, match, context, end, summary' },
    o.anchor,
    o.guard,
    o.text('search'),
    { key: 'hidden', kind: 'boolean', cli: '--hidden', mcp: 'hidden', help: 'search hidden files and directories too' },
    { key: 'noIgnore', kind: 'boolean', cli: '--no-ignore', mcp: 'no_ignore', help: 'do not apply .gitignore and .ignore files' },
    {
      key: 'glob',
      kind: 'strings',
      cli: '-g, --glob <glob>',
      mcp: 'glob',
      help: `only search files matching GLOB (gitignore syntax; "!GLOB" excludes) ${collectHelp}`,
      mcpHelp: 'e.g. ["*.ts", "!*.test.ts"]',
    },
    { key: 'include', kind: 'strings', cli: '--include <glob>', help: `as grep: only search files whose name matches GLOB (= {glob} GLOB) ${collectHelp}` },
    { key: 'exclude', kind: 'strings', cli: '--exclude <glob>', help: `as grep: skip files whose name matches GLOB (= {glob} "!GLOB") ${collectHelp}` },
    { key: 'excludeDir', kind: 'strings', cli: '--exclude-dir <glob>', help: `as grep: skip directories whose name matches GLOB ${collectHelp}` },
    { key: 'follow', kind: 'boolean', cli: '-L, --follow', help: 'follow symbolic links in directory walks (as rg -L)' },
    { key: 'recursive', kind: 'boolean', cli: '-r, --recursive', help: 'as grep -r: with no PATH, search the current directory even when standard input is a pipe (directories are always searched recursively)' },
    { key: 'dereferenceRecursive', kind: 'boolean', cli: '-R, --dereference-recursive', help: 'as grep -R: -r, following symbolic links (= {follow})' },
    { key: 'noMessages', kind: 'boolean', cli: '-s, --no-messages', help: 'do not report inputs that cannot be read (the status still says 2)' },
    {
      key: 'skipped',
      kind: 'boolean',
      cli: '--skipped',
      mcp: 'skipped',
      help: 'name each file a walk passed over as binary, on stderr (without it, as rg, nothing is said of them)',
      mcpHelp: 'list each file not searched',
    },
    {
      key: 'threads',
      kind: 'integer',
      cli: '-j, --threads <n>',
      min: 1,
      help: 'threads searching the files of a walk or glob (default 1); more pay on idle cores and long searches; rows come in the same order whatever N',
    },
    { key: 'maxRows', kind: 'integer', cli: '--max-rows <n>', mcp: 'max_rows', min: 1, help: 'print at most N rows across all files; a footer then says how to go on' },
    o.maxBytes('print at most B bytes of rows; a first row longer than that is shown cut (default: no cap)'),
    o.countBytes('when a budget cuts the output, search at most B bytes more to count what was left out'),
    {
      key: 'after',
      kind: 'string',
      cli: '--after <cursor>',
      mcp: 'after',
      help: 'resume after PATH:LINE, as the footer of a cut output says (the same command otherwise)',
      mcpHelp: 'PATH:LINE from a footer: go on after it',
    },
    o.encoding,
    {
      key: 'timeout',
      kind: 'integer',
      cli: '--timeout <seconds>',
      min: 0,
      max: o.MAX_TIMEOUT,
      help: `stop with status 2 when one stretch of the search (a slice of at most a buffer of lines) runs longer than this: a pattern that backtracks without end (default ${o.DEFAULT_TIMEOUT} for files; standard input and pipes only when given; 0: no bound; at most ${o.MAX_TIMEOUT})`,
    },
    o.color,
    { key: 'colour', kind: 'choice', cli: '--colour <when>', choices: o.COLORS, alias: 'color', help: 'the same as {color}' },
  ],
  conflicts: [
    ['filesWithoutMatch', ['count', 'filesWithMatches']],
    ['perlRegexp', ['fixedStrings']],
    ['onlyMatching', ['invertMatch', 'afterContext', 'beforeContext', 'context']],
    ['json', ['count', 'filesWithMatches', 'filesWithoutMatch', 'replace']],
    ['listFiles', ['regexp', 'file', 'count', 'filesWithMatches', 'filesWithoutMatch', 'onlyMatching', 'replace', 'json', 'invertMatch', 'quiet']],
  ],
  lastWins: [['withFilename', 'noFilename']],
};

const replace: CommandSpec = {
  name: 'replace',
  summary: 'replace lines, text or rows, or create a file, atomically',
  description:
    "Replace lines START..END of FILE (END defaults to START) with new text from {text}, {from} or standard input (refused when empty): {delete} or {text} '' deletes, END = START - 1 inserts before START, START = count + 1 appends. With {rows}, apply rows \"<n><TAB><line>\" (or \"<path><TAB><n><TAB><line>\" from grep, then several files in one call, all or nothing; an anchored row \"<n>#<hash>\" is applied only if its line still has that hash). With {old} and {new}, replace a text by its content (line endings agnostic; it must occur once unless {all}). With {edits}, apply several range and content edits in one call. With {create}, write a new file. Every edit addresses the file as it was before the call.",
  args: [
    { key: 'path', cli: '[file]', kind: 'string', mcp: 'path', help: 'the file to edit (not -); optional with path rows', mcpHelp: 'the file' },
    { key: 'start', cli: '[start]', kind: 'integer', mcp: 'start', min: 1, help: 'first line replaced (1-based)' },
    { key: 'end', cli: '[end]', kind: 'integer', mcp: 'end', min: 0, help: 'last line replaced (default START; START - 1 to insert)' },
    { key: 'more', cli: '[more...]', kind: 'strings', help: 'with {old} or {edits}: more files (or globs) edited the same way, all or none' },
  ],
  options: [
    { key: 'text', kind: 'string', cli: '--text <text>', mcp: 'text', help: 'the new text (a final newline is optional)', mcpHelp: '"" deletes' },
    { key: 'from', kind: 'string', cli: '--from <file>', help: 'read the new text from a file (- for standard input, which must not be empty)' },
    { key: 'delete', kind: 'boolean', cli: '--delete', help: "delete lines START..END (the same as {text} ''; empty standard input never deletes)" },
    { key: 'rows', kind: 'string', cli: '--rows [rowsfile]', mcp: 'rows', help: 'apply rows from a file, or from standard input (- or no value)', mcpHelp: 'the rows read, their text edited' },
    { key: 'old', kind: 'string', cli: '--old <text>', mcp: 'old', help: 'the text to replace, found by content (a "\\n" in it matches CRLF too); it must occur once',  },
    { key: 'oldFrom', kind: 'string', cli: '--old-from <file>', help: 'read the old text from a file (- for standard input)' },
    { key: 'new', kind: 'string', cli: '--new <text>', mcp: 'new', help: "the text that replaces {old} ('' deletes it)", mcpHelp: '"" deletes' },
    { key: 'newFrom', kind: 'string', cli: '--new-from <file>', help: 'read the new text of {old} from a file (- for standard input)' },
    { key: 'all', kind: 'boolean', cli: '--all', mcp: 'all', help: 'replace every occurrence of {old}, not exactly one' },
    {
      key: 'edits',
      kind: 'string',
      cli: '--edits <file>',
      help: 'JSON Lines of edits, {"start":S,"end":E,"text":T} or {"old":O,"new":N,"all":false}, all against the file as it is (- for standard input)',
    },
    { key: 'create', kind: 'boolean', cli: '--create', help: 'write FILE as a new file from {text}, {from} or standard input; an existing FILE is refused (exit 3)' },
    { key: 'force', kind: 'boolean', cli: '--force', mcp: 'force', help: 'with {create}: replace an existing FILE whole', mcpHelp: 'replace a file that exists' },
    o.expect,
    { key: 'null', kind: 'boolean', cli: '-0, --null', help: 'the rows carry paths ended by a NUL byte, as grep -0 prints them' },
    { key: 'relocate', kind: 'boolean', cli: '--relocate', mcp: 'relocate', help: 'with {expect} or anchored {rows}: when the lines read moved, unchanged, as one block found once, edit them there' },
    { key: 'receipt', kind: 'boolean', cli: '--receipt', help: 'after the write, print each edited region as it now is (rows, 2 lines of context) and how the numbering moved' },
    { ...o.anchor, mcp: undefined, help: 'the rows of a receipt, and the current lines of a stale edit, are anchored "<n>#<hash><TAB><line>", so the next edit from them is guarded' },
    o.eol,
    o.dryRun,
    { ...o.json, help: 'JSON Lines: a record per file with what changed, then a summary' },
    { key: 'binary', kind: 'boolean', cli: '-a, --binary', help: 'edit a file with NUL bytes, or a line that is not UTF-8, as raw bytes (-a/--text on the readers; here {text} is the new text)' },
    o.encoding,
    o.color,
  ],
  conflicts: [
    ['dryRun', ['receipt']],
    ['delete', ['text', 'from'], 'give the new text once: {text}, {from} or {delete}'],
  ],
};

const patch: CommandSpec = {
  name: 'patch',
  summary: 'apply a unified diff or an apply_patch envelope, exactly and all or nothing',
  description:
    'Apply a patch read from PATCH (or standard input: - or none) to the files under {directory}: a unified diff (git diff, diff -u, diff -ruN: several files, new, deleted, renamed and copied files, mode changes, "\\ No newline at end of file") or an apply_patch envelope ("*** Begin Patch" ... "*** End Patch"). Lines match whatever their terminators, and added lines take the terminators around them. Every hunk of every file is located before anything is written: a hunk that fits nowhere, or at two equally near places, writes nothing (exit 3) and says where its lines nearly are. A hunk whose result is already there is skipped, so running a patch twice is harmless (exit 0, nothing written). Paths that climb out of the directory are refused (exit 2).',
  args: [{ key: 'patch', cli: '[patch]', kind: 'string', help: 'the patch file (- or none: standard input)' }],
  options: [
    { key: 'directory', kind: 'string', cli: '-d, --directory <dir>', help: "the directory the patch's paths start from (default: the current directory); nothing outside it is read or written" },
    { key: 'strip', kind: 'integer', cli: '-p, --strip <n>', min: 0, help: "leading path components cut from a unified diff's names, as patch -pN and git apply -pN (default: git's a/ and b/ when the names carry them, else none)" },
    { key: 'reverse', kind: 'boolean', cli: '-R, --reverse', help: 'undo the patch: added lines are removed and removed lines put back' },
    { key: 'check', kind: 'boolean', cli: '--check', help: 'locate every hunk and write nothing: the exit status says whether the patch applies (0; already applied counts), and why not' },
    { ...o.dryRun, help: 'print the unified diff of what would change; write nothing' },
    { key: 'receipt', kind: 'boolean', cli: '--receipt', help: 'after the write, print the rows of each changed region as they now are (2 lines of context) and how the numbering moved, as replace --receipt' },
    { ...o.json, help: 'JSON Lines: a record per hunk (status applied or already, offset, whitespace, line numbers), a record per file, then a summary' },
    { key: 'ignoreWhitespace', kind: 'boolean', cli: '--ignore-whitespace', help: "when a hunk's lines are not there exactly, match runs of spaces and tabs as one (and none at either end); each hunk matched so is reported" },
    {
      key: 'unidiffZero',
      kind: 'boolean',
      cli: '--unidiff-zero',
      help: 'let hunks without context lines (diff -U0) go by their line numbers alone, as git apply --unidiff-zero; without it such a hunk applies only where it covers the whole file. Where lines repeat, a line number cannot tell one place from another, nor a hunk applied before from one not yet: its added lines standing there already are taken as applied',
    },
    { ...o.encoding, mcp: undefined, help: "decode the files from NAME (latin1, windows-1252, shift_jis, ...) and encode them back; the patch is read as UTF-8 then" },
    o.color,
  ],
  conflicts: [
    ['check', ['dryRun', 'receipt']],
    ['dryRun', ['receipt']],
  ],
};

const mcp: CommandSpec = {
  name: 'mcp',
  summary: 'serve the read, search and edit tools to agents over MCP (stdio)',
  description:
    'Run a Model Context Protocol server on standard input and output (for Claude, Cursor, VS Code and other MCP clients) with the tools of the commands here. Their results are the rows, footers and messages of the commands, worded in the tools\' own argument names. No path outside the roots (after resolving symbolic links) is read or written. Ends when the client closes standard input.',
  args: [],
  options: [
    {
      key: 'root',
      kind: 'strings',
      cli: '--root <dir>',
      help: "a directory the tools may read and write (repeatable; relative paths start at the first; default: the client's roots when it offers them, else the current directory)",
    },
    { key: 'readOnly', kind: 'boolean', cli: '--read-only', help: 'offer only the tools that read: none writes' },
    {
      key: 'cacheMib',
      kind: 'integer',
      cli: '--cache-mib <n>',
      min: 0,
      default: o.DEFAULT_CACHE_MIB,
      help: 'the most the server keeps in memory between searches, in MiB: file contents, what it knows of each file, walks and recent answers (0: nothing; all of it is checked against the files first)',
    },
  ],
  conflicts: [],
};

const encodings: CommandSpec = {
  name: 'encodings',
  summary: 'list the names --encoding accepts',
  description:
    'List the encodings --encoding accepts, one a line: the name, a tab, then its aliases. Names match ignoring case and punctuation (Shift_JIS = shift-jis = shiftjis). UTF-8 is the default and reads bytes as they are; a UTF-16 file with a byte order mark needs no flag.',
  args: [],
  options: [],
  conflicts: [],
};

/** Every command, in the order --help lists them. */
export const COMMANDS: readonly CommandSpec[] = [readlines, page, replace, patch, grep, mcp, encodings];

export type CommandName = 'readlines' | 'page' | 'replace' | 'patch' | 'grep' | 'mcp' | 'encodings';

/** The declaration of one command. */
export function command(name: CommandName): CommandSpec {
  return COMMANDS.find((c) => c.name === name)!;
}

/** One option of a command, by key (a bug in the caller when it has none). */
export function option(cmd: CommandSpec, key: string): OptionSpec {
  const found = cmd.options.find((x) => x.key === key);
  if (found === undefined) throw new Error(`surface: ${cmd.name} has no option ${key}`);
  return found;
}
