// The command line's grammar: every subcommand, argument and option (commander), each action
// handing its parsed arguments to the command's adapter in src/commands. The adapters of grep,
// replace and encodings are imported by their actions: a readlines or a page never loads them.

import { Command, InvalidArgumentError, Option, type OutputConfiguration } from 'commander';
import pkg from '../../package.json' with { type: 'json' };
import type { Context } from '../commands/context.js';
import { page } from '../commands/page.js';
import { readlines } from '../commands/readlines.js';
import { EOL_MODES } from '../core/eol.js';
import type { ExitCode } from '../core/errors.js';
import { parseCount } from '../core/ranges.js';
import { loadEncoding } from '../engine/encodings.js';
import { PAGE_DEFAULTS } from '../engine/read.js';
import { DEFAULT_TIMEOUT, MAX_TIMEOUT } from '../engine/search-bounds.js';
import { DEFAULT_CACHE_MIB } from '../io/cache-budget.js';
import type { ColorMode } from './color.js';
import { EXAMPLES } from './help.js';

export const VERSION: string = pkg.version;

/** What an action needs from main: a context for its --color, and where to put its status. */
export interface Runner {
  context(color: ColorMode): Promise<Context>;
  /** runs a command that writes files, with the process's signals mapped to cancellation */
  writing<T>(work: (signal: AbortSignal | undefined) => Promise<T>): Promise<T>;
  status(code: ExitCode): void;
}

/** A commander option parser for a whole number at least `min` (and at most `max`). */
function count(what: string, min = 0, max = Number.MAX_SAFE_INTEGER) {
  return (value: string) => {
    let n: number;
    try {
      n = parseCount(value, what, min);
    } catch (e) {
      throw new InvalidArgumentError((e as Error).message);
    }
    if (n > max) throw new InvalidArgumentError(`${what} must be at most ${max}, not ${n}`);
    return n;
  };
}

const colorOption = () =>
  new Option('--color <when>', 'color: auto (only on a terminal), always, never').choices(['auto', 'always', 'never']).default('auto');

/** --anchor, on every reader: rows that carry a hash of their line, which replace --rows checks. */
const anchorOption = () => new Option('--anchor', 'rows "<n>#<hash><TAB><line>": replace --rows edits the line only if it still has that hash (8 hex digits of SHA-256 of its text)');

/** --encoding, on every subcommand that reads or writes text; checked before the command runs. */
const encodingOption = () =>
  new Option('--encoding <name>', 'decode the file from NAME (latin1, windows-1252, shift_jis, utf-16le, ...); rows are then UTF-8. "linewise encodings" lists the names');

/**
 * The whole command line, its actions bound to `runner`; help and errors go through `output`.
 * Long on purpose: it is the grammar, one declaration per subcommand and option in the order
 * `help` shows them, with no logic between them; split up, a reader would have to assemble it.
 */
export function buildProgram(runner: Runner, output: OutputConfiguration): Command {
  const program = new Command('linewise')
    .description('Line-precise file access: read, search and patch lines without touching line endings or bytes.')
    .version(VERSION, '-V, --version')
    .helpCommand('help [command]', 'show help for a command')
    .exitOverride()
    .configureOutput(output) // before the subcommands, which inherit it
    .showSuggestionAfterError(true)
    .allowExcessArguments(false)
    .addHelpText('after', EXAMPLES.main);

  program
    .command('readlines')
    .summary('print lines START to END (1-based, inclusive) as rows')
    .description('Print lines START to END (1-based, inclusive; END defaults to the last line) as rows "<n><TAB><line>", each line verbatim with its terminator. FILE "-" reads standard input. Reads no further than END.')
    .argument('<file>', 'the file, or - for standard input')
    .argument('<start>', 'first line (1-based)')
    .argument('[end]', 'last line (default: the last line of the file; clamps)')
    .option('--max-bytes <b>', 'cap on the bytes printed: stop before a line that would overflow it (a first line longer than that is shown cut), then a footer says how to go on (default: no cap)', count('--max-bytes'))
    .option('--json', 'JSON Lines: a record per line, then a summary')
    .addOption(anchorOption())
    .option('-a, --text', 'read a file with NUL bytes as text')
    .addOption(encodingOption())
    .addOption(colorOption())
    .addHelpText('after', EXAMPLES.readlines)
    .action(async (file: string, start: string, end: string | undefined, o) => {
      runner.status(readlines(await runner.context(o.color), file, start, end, o));
    });

  program
    .command('page')
    .summary('print a bounded page of rows, with a footer saying where to go on')
    .description('Print up to --limit rows after skipping --offset lines, within --max-bytes of output. When lines remain, a blank line and a footer follow, naming the offset to read next.')
    .argument('<file>', 'the file, or - for standard input')
    .option('--offset <k>', 'lines to skip (0-based)', count('--offset'), PAGE_DEFAULTS.offset)
    .option('--limit <n>', 'rows at most', count('--limit', 1), PAGE_DEFAULTS.limit)
    .addOption(new Option('--last <n>', 'the last N lines, ending at the last line; as many as --max-bytes holds (a file, not a pipe: it is read twice, to count then to print)').argParser(count('--last', 1)).conflicts(['offset', 'limit']))
    .option('--max-bytes <b>', 'cap on the bytes printed; a longer single line is shown cut (0: no cap)', count('--max-bytes'), PAGE_DEFAULTS.maxBytes)
    .option('--count-bytes <b>', 'read at most this far past the page to count the total lines', count('--count-bytes'), PAGE_DEFAULTS.countBytes)
    .option('--json', 'JSON Lines: a record per line, then a summary with the total and next offset')
    .addOption(anchorOption())
    .option('-a, --text', 'read a file with NUL bytes as text')
    .addOption(encodingOption())
    .addOption(colorOption())
    .addHelpText('after', EXAMPLES.page)
    .action(async (file: string, o) => {
      runner.status(page(await runner.context(o.color), file, o));
    });

  program
    .command('replace')
    .summary('replace lines, text or rows, or create a file, atomically')
    .description(
      'Replace lines START..END of FILE (END defaults to START) with new text from --text, --from or standard input (refused when empty): --delete or --text \'\' deletes, END = START - 1 inserts before START, START = count + 1 appends. With --rows, apply rows "<n><TAB><line>" (or "<path><TAB><n><TAB><line>" from grep, then several files in one call, all or nothing; an anchored row "<n>#<hash>" is applied only if its line still has that hash). With --old and --new, replace a text by its content (line endings agnostic; it must occur once unless --all). With --edits, apply several range and content edits in one call. With --create, write a new file. Every edit addresses the file as it was before the call.',
    )
    .argument('[file]', 'the file to edit (not -); optional with path rows')
    .argument('[start]', 'first line replaced (1-based)')
    .argument('[end]', 'last line replaced (default START; START - 1 to insert)')
    .option('--text <text>', 'the new text (a final newline is optional)')
    .option('--from <file>', 'read the new text from a file (- for standard input, which must not be empty)')
    .option('--delete', 'delete lines START..END (the same as --text \'\'; empty standard input never deletes)')
    .option('--rows [rowsfile]', 'apply rows from a file, or from standard input (- or no value)')
    .option('--old <text>', 'the text to replace, found by content (a "\\n" in it matches CRLF too); it must occur once')
    .option('--old-from <file>', 'read the old text from a file (- for standard input)')
    .option('--new <text>', "the text that replaces --old ('' deletes it)")
    .option('--new-from <file>', 'read the new text of --old from a file (- for standard input)')
    .option('--all', 'replace every occurrence of --old, not exactly one')
    .option('--edits <file>', 'JSON Lines of edits, {"start":S,"end":E,"text":T} or {"old":O,"new":N,"all":false}, all against the file as it is (- for standard input)')
    .option('--create', 'write FILE as a new file from --text, --from or standard input; an existing FILE is refused (exit 3)')
    .option('--force', 'with --create: replace an existing FILE whole')
    .option('--expect <oldrows>', 'rows as they were read: if a line changed since, exit 3 and write nothing')
    .option('-0, --null', 'the rows carry paths ended by a NUL byte, as grep -0 prints them')
    .option('--relocate', 'with --expect or anchored --rows: when the lines read moved, unchanged, as one block found once, edit them there')
    .option('--receipt', 'after the write, print each edited region as it now is (rows, 2 lines of context) and how the numbering moved')
    .option('--anchor', 'the rows of a receipt, and the current lines of a stale edit, are anchored "<n>#<hash><TAB><line>", so the next edit from them is guarded')
    .addOption(new Option('--eol <mode>', 'line endings of the new text: auto, keep, lf, crlf').choices(EOL_MODES).default('auto'))
    .option('--dry-run', 'print a unified diff; write nothing')
    .option('--json', 'JSON Lines: a record per file with what changed, then a summary')
    .option('-a, --binary', 'edit a file with NUL bytes as text (-a/--text on the readers; here --text is the new text)')
    .addOption(encodingOption())
    .addOption(colorOption())
    .addHelpText('after', EXAMPLES.replace)
    .action(async (file: string | undefined, start: string | undefined, end: string | undefined, o) => {
      const ctx = await runner.context(o.color);
      const { replace } = await import('../commands/replace.js');
      runner.status(await runner.writing((signal) => replace({ ...ctx, ...(signal ? { signal } : {}) }, file, start, end, o)));
    });

  const collect = (value: string, previous: string[] = []) => [...previous, value];
  const grep = program
    .command('grep')
    .summary('search files and trees; print matching lines as rows')
    .description(
      'Print the lines that match PATTERN (a JavaScript regular expression, Unicode mode) as rows "<n><TAB><line>" (with "<path><TAB>" first when several files are searched). The pattern sees each line without its terminator, so $ matches before \\r\\n. PATH may be a file, a directory (searched recursively, skipping .gitignore/.ignore-ignored, hidden and binary files), a glob, or - for standard input; none means standard input when it is a pipe or a file, else the current directory. -L follows symbolic links, as in rg (grep\'s -L is --files-without-match here); -h is --no-filename (help is --help).',
    )
    .helpOption('--help', 'display help for command')
    .argument('[pattern]', 'the pattern (omit it when -e or -f is given)')
    .argument('[paths...]', 'files, directories, globs, or - (default: standard input if piped, else the current directory)')
    .option('-e, --regexp <pattern>', 'a pattern (repeatable; for patterns that begin with "-")', collect)
    .option('-f, --file <patternfile>', 'read patterns from a file, one a line (- for standard input; repeatable)', collect)
    .option('-i, --ignore-case', 'match case-insensitively')
    .option('-F, --fixed-strings', 'patterns are literal strings, not regular expressions')
    .option('-E, --extended-regexp', 'accepted for grep habits: patterns are always extended (JavaScript) regular expressions')
    .option('-w, --word-regexp', 'match whole words only')
    .option('-x, --line-regexp', 'match whole lines only')
    .option('-v, --invert-match', 'select lines that do not match')
    .option('-m, --max-count <num>', 'stop after NUM selected lines per file', count('--max-count', 1))
    .option('-A, --after-context <num>', 'print NUM lines after each selected line', count('--after-context'))
    .option('-B, --before-context <num>', 'print NUM lines before each selected line', count('--before-context'))
    .option('-C, --context <num>', 'print NUM lines before and after', count('--context'))
    .option('-c, --count', 'print the number of selected lines per file (with -l: only files that have some, as rg -c)')
    .option('-l, --files-with-matches', 'print only the names of files with a selected line')
    .addOption(new Option('--files-without-match', 'print only the names of files without a selected line').conflicts(['count', 'filesWithMatches']))
    .option('-q, --quiet', 'print nothing; stop at the first selected line; the status says if there was one')
    .addOption(new Option('-o, --only-matching', 'print each match as its own row "<n>:<column><TAB><match>" (not a line: replace refuses it)').conflicts(['invertMatch', 'afterContext', 'beforeContext', 'context']))
    .option('--replace <text>', 'print each selected line with every match replaced by TEXT ($1, ${name}, $$ as in rg): rows ready for "replace --rows -"')
    .option('-n, --line-number', 'accepted for grep habits: rows always carry line numbers')
    .option('-H, --with-filename', 'print the path on every row, even for one file')
    .option('-h, --no-filename', 'never print the path, even for several files')
    .option('-0, --null', 'end paths with a NUL byte instead of a tab (or newline under -l)')
    .addOption(new Option('--json', 'JSON Lines as ripgrep prints them: begin, match, context, end, summary').conflicts(['count', 'filesWithMatches', 'filesWithoutMatch', 'replace']))
    .addOption(anchorOption())
    .option('-a, --text', 'search files with NUL bytes as text')
    .option('--hidden', 'search hidden files and directories too')
    .option('--no-ignore', 'do not apply .gitignore and .ignore files')
    .option('-g, --glob <glob>', 'only search files matching GLOB (gitignore syntax; "!GLOB" excludes; repeatable)', collect)
    .option('--include <glob>', 'as grep: only search files whose name matches GLOB (= -g GLOB)', collect)
    .option('--exclude <glob>', 'as grep: skip files whose name matches GLOB (= -g "!GLOB")', collect)
    .option('--exclude-dir <glob>', 'as grep: skip directories whose name matches GLOB', collect)
    .option('-L, --follow', 'follow symbolic links in directory walks (as rg -L)')
    .option('-r, --recursive', 'as grep -r: with no PATH, search the current directory even when standard input is a pipe (directories are always searched recursively)')
    .option('-R, --dereference-recursive', 'as grep -R: -r, following symbolic links (= -L)')
    .option('-s, --no-messages', 'do not report inputs that cannot be read (the status still says 2)')
    .option('-j, --threads <n>', 'threads searching the files of a walk or glob (default 1); more pay on idle cores and long searches; rows come in the same order whatever N', count('--threads', 1))
    .option('--max-rows <n>', 'print at most N rows across all files; a footer then says how to go on', count('--max-rows', 1))
    .option('--max-bytes <b>', 'print at most B bytes of rows; a first row longer than that is shown cut (default: no cap)', count('--max-bytes'))
    .option('--count-bytes <b>', 'when a budget cuts the output, search at most B bytes more to count what was left out', count('--count-bytes'))
    .option('--after <cursor>', 'resume after PATH:LINE, as the footer of a cut output says (the same command otherwise)')
    .addOption(encodingOption())
    .option('--timeout <seconds>', `stop with status 2 when one stretch of the search (a slice of at most a buffer of lines) runs longer than this: a pattern that backtracks without end (default ${DEFAULT_TIMEOUT} for files; standard input and pipes only when given; 0: no bound; at most ${MAX_TIMEOUT})`, count('--timeout', 0, MAX_TIMEOUT))
    .addOption(colorOption())
    .addOption(new Option('--colour <when>', 'the same as --color').choices(['auto', 'always', 'never']))
    .addHelpText('after', EXAMPLES.grep)
    .action(async (pattern: string | undefined, paths: string[], o) => {
      const ctx = await runner.context(o.colour ?? o.color);
      const { grep: grepCommand } = await import('../commands/grep.js');
      runner.status(await grepCommand(ctx, pattern, paths, o));
    });
  // -H and -h: the last one given wins, as in grep and rg.
  grep.on('option:with-filename', () => grep.setOptionValue('filename', true));
  grep.on('option:no-filename', () => grep.setOptionValue('withFilename', false));

  program
    .command('mcp')
    .summary('serve read_lines, page, grep and the replace tools to agents over MCP (stdio)')
    .description(
      'Run a Model Context Protocol server on standard input and output (for Claude, Cursor, VS Code and other MCP clients) with the tools read_lines, page, grep, replace_lines, replace_rows and replace_text. Their results are the rows, footers and messages of the commands here. No path outside the roots (after resolving symbolic links) is read or written. Ends when the client closes standard input.',
    )
    .option('--root <dir>', "a directory the tools may read and write (repeatable; relative paths start at the first; default: the client's roots when it offers them, else the current directory)", collect)
    .option('--read-only', 'offer only read_lines, page and grep: no tool writes')
    .option('--cache-mib <n>', 'the most the server keeps in memory between searches, in MiB: file contents, what it knows of each file, walks and recent answers (0: nothing; all of it is checked against the files first)', count('--cache-mib'), DEFAULT_CACHE_MIB)
    .addHelpText('after', EXAMPLES.mcp)
    .action(async (o: { root?: string[]; readOnly?: boolean; cacheMib: number }) => {
      const ctx = await runner.context('never');
      // The server and the MCP SDK load only here: no other command's start-up pays for them.
      const { serve } = await import('../mcp/server.js');
      const settings = { roots: o.root ?? [], readOnly: o.readOnly === true, cacheMib: o.cacheMib, cwd: ctx.io.cwd, version: VERSION, log: (m: string) => ctx.warn(m) };
      runner.status(await runner.writing((signal) => serve({ ...settings, ...(signal ? { signal } : {}) })));
    });

  program
    .command('encodings')
    .summary('list the names --encoding accepts')
    .description('List the encodings --encoding accepts, one a line: the name, a tab, then its aliases. Names match ignoring case and punctuation (Shift_JIS = shift-jis = shiftjis). UTF-8 is the default and reads bytes as they are; a UTF-16 file with a byte order mark needs no flag.')
    .addHelpText('after', EXAMPLES.encodings)
    .action(async () => {
      const ctx = await runner.context('auto');
      const { encodings } = await import('../commands/encodings.js');
      runner.status(await encodings(ctx));
    });

  // An unknown --encoding is refused before any file is opened, and iconv-lite (a chunk of its
  // own) is loaded only when the encoding needs it: plain UTF-8 runs never parse it.
  program.hook('preAction', async (_program, command) => {
    const name = (command.opts() as { encoding?: unknown }).encoding;
    if (typeof name === 'string') await loadEncoding(name);
  });
  return program;
}
