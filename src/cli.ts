// The command line: parses arguments (commander), picks colors (chalk), runs a command, and
// turns every error into one line on stderr and an exit status. The only importer of both.

import { Chalk } from 'chalk';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import pkg from '../package.json' with { type: 'json' };
import type { Context } from './commands/context.js';
import { DEFAULT_TIMEOUT, grep } from './commands/grep.js';
import { page, PAGE_DEFAULTS } from './commands/page.js';
import { readlines } from './commands/readlines.js';
import { replace } from './commands/replace.js';
import { EOL_MODES } from './core/edits.js';
import { Exit, type ExitCode, LinewiseError } from './core/errors.js';
import { parseCount } from './core/ranges.js';
import { plain, type Style } from './format/style.js';
import { NO_NEWLINE_MARK } from './format/text.js';
import { encodingNames, prepareEncoding } from './io/encodings/names.js';
import { Output } from './io/output.js';
import { type Io, OutputClosed, processIo } from './io/streams.js';

export const VERSION: string = pkg.version;

type ColorMode = 'auto' | 'always' | 'never';

/** --color beats the environment; NO_COLOR (non-empty) beats FORCE_COLOR; else only on a terminal. */
export function colorEnabled(mode: ColorMode, isTTY: boolean, env: Io['env']): boolean {
  if (mode !== 'auto') return mode === 'always';
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return isTTY && env.TERM !== 'dumb';
}

function colored(): Style {
  const c = new Chalk({ level: 1 });
  return { number: (s) => c.green(s), path: (s) => c.magenta(s), match: (s) => c.bold.red(s), note: (s) => c.dim(s) };
}

/** A commander option parser for a whole number at least `min`. */
function count(what: string, min = 0) {
  return (value: string) => {
    try {
      return parseCount(value, what, min);
    } catch (e) {
      throw new InvalidArgumentError((e as Error).message);
    }
  };
}

const colorOption = () =>
  new Option('--color <when>', 'color: auto (only on a terminal), always, never').choices(['auto', 'always', 'never']).default('auto');

/** --encoding, on every subcommand that reads or writes text; checked before the command runs. */
const encodingOption = () =>
  new Option('--encoding <name>', 'decode the file from NAME (latin1, windows-1252, shift_jis, utf-16le, ...); rows are then UTF-8. "linewise encodings" lists the names');

// Every option of every command appears in at least one example (test/help.test.ts checks it):
// an agent reading `linewise help <command>` learns each flag from a command line it can copy.
const EXAMPLES = {
  main: `
Examples:
  $ linewise grep -n 'TODO' src             find: rows "<path><TAB><n><TAB><line>"
  $ linewise readlines src/app.ts 40 60     read around a hit
  $ linewise page big.log --offset 100      read a file a page at a time
  $ linewise readlines src/app.ts 52 52 > before
  $ linewise replace src/app.ts 52 --text 'fixed();' --expect before
  $ linewise help replace                   every option of a command, with examples
  $ linewise --version                      (also -V) the version, as in package.json

Rows are "<n><TAB><line bytes, terminator included>"; they go back into "replace --rows".
Exit status: 0 ok, 1 grep found nothing, 2 usage or input error, 3 stale edit or conflict.`,
  readlines: `
Examples:
  $ linewise readlines src/app.ts 10 20     lines 10 to 20, as rows "<n><TAB><line>"
  $ linewise readlines notes.txt 5          line 5 to the end
  $ some-command | linewise readlines - 1 3
  $ linewise readlines legacy.ini 1 5 --encoding windows-1252   rows in UTF-8
  $ linewise readlines data.bin 1 3 -a      a file with NUL bytes, read as text (--text)
  $ linewise readlines notes.txt 1 2 --json
    {"type":"line","path":"notes.txt","line_number":1,"text":"alpha","terminator":"\\r\\n"} ... then a summary
  $ linewise readlines notes.txt 1 9 --color never   no color even under FORCE_COLOR

Past the end is an error that names the line count (exit 2, nothing on stdout):
  linewise: notes.txt: line 9 is past the end: the file has 3 lines`,
  page: `
Examples:
  $ linewise page big.log                   the first 100 lines, and a footer if more remain
  $ linewise page big.log --offset 100      the next page, as the footer says
  $ linewise page big.log --last 20         the last 20 lines, numbered (reads the file twice)
  $ linewise page big.log --limit 20 --max-bytes 4096
  $ linewise page huge.log --count-bytes 0  do not read past the page to count the total
  $ linewise page big.log --limit 2 --json  records with the total and the next offset
  $ linewise page dump.txt -a               a file with NUL bytes, read as text (--text)
  $ linewise page legacy.txt --encoding latin1 --color always

The footer (on stdout, after a blank line) says where to go on:
  [Read 100 lines (lines 1-100 of 5000 total). 4900 lines remaining from offset 100.]
  [Read 100 lines (lines 1-100). More lines remain from offset 100.]    (total not counted)
At the end of the file there is no footer. A line longer than --max-bytes is shown cut, its row
numbered "17[cut]", and the footer says how to read it whole; replace refuses a cut row.`,
  replace: `
Examples:
  $ linewise replace app.ts 12 --text 'const x = 2;'     line 12 becomes that line
  $ linewise replace app.ts 12 14 --text ''              delete lines 12 to 14
  $ linewise replace app.ts 5 4 --text '// new'          insert before line 5 (END = START - 1)
  $ printf 'a\\nb\\n' | linewise replace notes.txt 3   new text from standard input
  $ linewise replace app.ts 3 5 --from new-body.txt      new text from a file
  $ linewise readlines app.ts 10 12 > rows; $EDITOR rows; linewise replace app.ts --rows rows
  $ linewise grep -F oldName src | sed 's/oldName/newName/' | linewise replace --rows -
  $ linewise replace app.ts 12 --text 'x = 3' --dry-run  print a unified diff, write nothing
  $ linewise replace app.ts 12 --text 'x = 3' --json     a record per file: what changed
  $ linewise replace blob.dat 2 --text 'v2' -a           a file with NUL bytes (--binary)
  $ linewise replace legacy.ini 3 --text 'név=1' --encoding latin1 --color never

The stale-edit guard (--expect): pass the rows as they were read; if any of those lines changed
since, nothing is written, the current lines are printed, and the status is 3:
  $ linewise readlines app.ts 12 > before
  $ linewise replace app.ts 12 --text 'x = 3' --expect before
  $ linewise grep -F oldName src > hits; sed 's/oldName/newName/' hits | linewise replace --rows - --expect hits
  linewise: app.ts: stale edit: line 12 no longer holds the text read; nothing was written; the current lines are on stdout: read again and retry

Line endings (--eol):
  $ linewise replace win.txt 2 --text 'new'              auto (default): "new\\r\\n" in a CRLF file;
                                                          a last line without newline keeps none
  $ linewise replace app.ts 2 --text $'a\\r\\n' --eol keep  the text literally, byte for byte
  $ linewise replace win.txt 2 --text 'new' --eol lf     force "\\n" (crlf forces "\\r\\n")
  $ linewise replace unix.txt 1 9 --from body.txt --eol crlf

Writes are atomic: a temporary file beside the target, flushed, renamed over it; mode, owner
and symbolic links kept.`,
  grep: `
Examples:
  $ linewise grep 'ta$' notes.txt           rows "<n><TAB><line>"; $ matches before \\r\\n too
  $ linewise grep -w TODO src               a directory: rows "<path><TAB><n><TAB><line>"
  $ linewise grep -F 'a.b' -g '*.ts' -C 1   literal, only .ts files, a line of context
  $ linewise grep -e -foo -e bar log.txt    several patterns; -e for one that starts with "-"
  $ linewise grep -c ERROR '*.log'          a glob (quoted), counts per file
  $ linewise grep -i 'error' -m 5 app.log   case-insensitive, at most 5 rows
  $ linewise grep -v '^#' config.ini        the lines that do not match
  $ linewise grep -B 2 -A 1 panic src       2 lines before and 1 after, groups split by "--"
  $ linewise grep -l -0 TODO src | xargs -0 wc -l   file names, NUL-terminated
  $ linewise grep -H -n main src/app.ts     the path on every row, even for one file (-n: habit)
  $ linewise grep --json 'fn \\w+' src       ripgrep-shaped records with submatch byte ranges
  $ linewise grep -a magic data.bin         search a file with NUL bytes as text (--text)
  $ linewise grep --hidden --no-ignore -L KEY .   hidden and ignored files too, following links
  $ linewise grep 'café' legacy.txt --encoding latin1   matched and printed as UTF-8
  $ linewise grep '(a+)+$' big.txt --timeout 2 --color never

Exit status: 0 a line was selected, 1 none, 2 an error (rows found before it are printed).
A binary file named on the command line is skipped with a note on stderr:
  linewise: data.bin: binary file (it has a NUL byte), not searched; use -a/--text to search it`,
  encodings: `
Examples:
  $ linewise encodings                      every name, a tab, then its aliases
  $ linewise encodings | grep -i jis        shift_jis, euc-jp, ...
  $ linewise readlines legacy.txt 1 5 --encoding cp1252`,
};

/**
 * Runs linewise with `argv` (without node and script) against `io`; resolves to the exit status.
 * Never calls process.exit, so tests run it in-process.
 */
export async function main(argv: string[], io: Io = processIo()): Promise<ExitCode> {
  const out = new Output(io.stdout);
  const errLine = (message: string, path?: string) =>
    io.stderr.write(Buffer.from(`linewise: ${path === undefined ? '' : `${path}: `}${message}\n`));
  let status: ExitCode = Exit.ok;
  let usageError: string | undefined;

  const program = new Command('linewise')
    .description('Line-precise file access: read, search and patch lines without touching line endings or bytes.')
    .version(VERSION, '-V, --version')
    .helpCommand('help [command]', 'show help for a command')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => out.text(s),
      writeErr: (s) => io.stderr.write(Buffer.from(s)),
      outputError: (s) => {
        usageError = s.replace(/^error: /, '').trim();
      },
    })
    .showSuggestionAfterError(true)
    .allowExcessArguments(false)
    .addHelpText('after', EXAMPLES.main);

  const context = (color: ColorMode): Context => {
    const on = colorEnabled(color, io.stdout.isTTY, io.env);
    const style = on ? colored() : plain;
    return { io, out, rowStyle: io.stdout.isTTY ? style : plain, noteStyle: style, warn: errLine };
  };

  program
    .command('readlines')
    .summary('print lines START to END (1-based, inclusive) as rows')
    .description('Print lines START to END (1-based, inclusive; END defaults to the last line) as rows "<n><TAB><line>", each line verbatim with its terminator. FILE "-" reads standard input. Reads no further than END.')
    .argument('<file>', 'the file, or - for standard input')
    .argument('<start>', 'first line (1-based)')
    .argument('[end]', 'last line (default: the last line of the file; clamps)')
    .option('--json', 'JSON Lines: a record per line, then a summary')
    .option('-a, --text', 'read a file with NUL bytes as text')
    .addOption(encodingOption())
    .addOption(colorOption())
    .addHelpText('after', EXAMPLES.readlines)
    .action((file: string, start: string, end: string | undefined, o) => {
      status = readlines(context(o.color), file, start, end, o);
    });

  program
    .command('page')
    .summary('print a bounded page of rows, with a footer saying where to go on')
    .description('Print up to --limit rows after skipping --offset lines, within --max-bytes of output. When lines remain, a blank line and a footer follow, naming the offset to read next.')
    .argument('<file>', 'the file, or - for standard input')
    .option('--offset <k>', 'lines to skip (0-based)', count('--offset'), PAGE_DEFAULTS.offset)
    .option('--limit <n>', 'rows at most', count('--limit', 1), PAGE_DEFAULTS.limit)
    .addOption(new Option('--last <n>', 'the last N lines (a file, not a pipe: it is read twice, to count then to print)').argParser(count('--last', 1)).conflicts(['offset']))
    .option('--max-bytes <b>', 'cap on the bytes printed; a longer single line is shown cut (0: no cap)', count('--max-bytes'), PAGE_DEFAULTS.maxBytes)
    .option('--count-bytes <b>', 'read at most this far past the page to count the total lines', count('--count-bytes'), PAGE_DEFAULTS.countBytes)
    .option('--json', 'JSON Lines: a record per line, then a summary with the total and next offset')
    .option('-a, --text', 'read a file with NUL bytes as text')
    .addOption(encodingOption())
    .addOption(colorOption())
    .addHelpText('after', EXAMPLES.page)
    .action((file: string, o) => {
      status = page(context(o.color), file, o);
    });

  program
    .command('replace')
    .summary('replace lines, or apply rows read by readlines/page/grep, atomically')
    .description(
      'Replace lines START..END of FILE (END defaults to START) with new text from --text, --from or standard input: empty text deletes, END = START - 1 inserts before START, START = count + 1 appends. With --rows, apply rows "<n><TAB><line>" (or "<path><TAB><n><TAB><line>" from grep, then several files in one call, all or nothing). Every edit addresses the file as it was before the call.',
    )
    .argument('[file]', 'the file to edit (not -); optional with path rows')
    .argument('[start]', 'first line replaced (1-based)')
    .argument('[end]', 'last line replaced (default START; START - 1 to insert)')
    .option('--text <text>', 'the new text (a final newline is optional)')
    .option('--from <file>', 'read the new text from a file (- for standard input)')
    .option('--rows [rowsfile]', 'apply rows from a file, or from standard input (- or no value)')
    .option('--expect <oldrows>', 'rows as they were read: if a line changed since, exit 3 and write nothing')
    .addOption(new Option('--eol <mode>', 'line endings of the new text: auto, keep, lf, crlf').choices(EOL_MODES).default('auto'))
    .option('--dry-run', 'print a unified diff; write nothing')
    .option('--json', 'JSON Lines: a record per file with what changed, then a summary')
    .option('-a, --binary', 'edit a file with NUL bytes as text (-a/--text on the readers; here --text is the new text)')
    .addOption(encodingOption())
    .addOption(colorOption())
    .addHelpText('after', EXAMPLES.replace)
    .action(async (file: string | undefined, start: string | undefined, end: string | undefined, o) => {
      status = await replace(context(o.color), file, start, end, o);
    });

  const collect = (value: string, previous: string[] = []) => [...previous, value];
  program
    .command('grep')
    .summary('search files and trees; print matching lines as rows')
    .description('Print the lines that match PATTERN (a JavaScript regular expression, Unicode mode) as rows "<n><TAB><line>" (with "<path><TAB>" first when several files are searched). The pattern sees each line without its terminator, so $ matches before \\r\\n. PATH may be a file, a directory (searched recursively, skipping .gitignore/.ignore-ignored, hidden and binary files), a glob, or - for standard input; none means the current directory.')
    .argument('[pattern]', 'the pattern (omit it when -e is given)')
    .argument('[paths...]', 'files, directories, globs, or - (default: the current directory)')
    .option('-e, --regexp <pattern>', 'a pattern (repeatable; for patterns that begin with "-")', collect)
    .option('-i, --ignore-case', 'match case-insensitively')
    .option('-F, --fixed-strings', 'patterns are literal strings, not regular expressions')
    .option('-w, --word-regexp', 'match whole words only')
    .option('-v, --invert-match', 'select lines that do not match')
    .option('-m, --max-count <num>', 'stop after NUM selected lines per file', count('--max-count', 1))
    .option('-A, --after-context <num>', 'print NUM lines after each selected line', count('--after-context'))
    .option('-B, --before-context <num>', 'print NUM lines before each selected line', count('--before-context'))
    .option('-C, --context <num>', 'print NUM lines before and after', count('--context'))
    .option('-c, --count', 'print the number of selected lines per file')
    .option('-l, --files-with-matches', 'print only the names of files with a selected line')
    .option('-n, --line-number', 'accepted for grep habits: rows always carry line numbers')
    .option('-H, --with-filename', 'print the path on every row, even for one file')
    .option('-0, --null', 'end paths with a NUL byte instead of a tab (or newline under -l)')
    .addOption(new Option('--json', 'JSON Lines as ripgrep prints them: begin, match, context, end, summary').conflicts(['count', 'filesWithMatches']))
    .option('-a, --text', 'search files with NUL bytes as text')
    .option('--hidden', 'search hidden files and directories too')
    .option('--no-ignore', 'do not apply .gitignore and .ignore files')
    .option('-g, --glob <glob>', 'only search files matching GLOB (gitignore syntax; "!GLOB" excludes; repeatable)', collect)
    .option('-L, --follow', 'follow symbolic links in directory walks')
    .addOption(encodingOption())
    .option('--timeout <seconds>', `stop with status 2 when one stretch of the search (a slice of at most a buffer of lines) runs longer than this: a pattern that backtracks without end (default ${DEFAULT_TIMEOUT} for files; standard input and pipes only when given; 0: no bound)`, count('--timeout'))
    .addOption(colorOption())
    .addHelpText('after', EXAMPLES.grep)
    .action(async (pattern: string | undefined, paths: string[], o) => {
      status = await grep(context(o.color), pattern, paths, o);
    });

  program
    .command('encodings')
    .summary('list the names --encoding accepts')
    .description('List the encodings --encoding accepts, one a line: the name, a tab, then its aliases. Names match ignoring case and punctuation (Shift_JIS = shift-jis = shiftjis). UTF-8 is the default and reads bytes as they are; a UTF-16 file with a byte order mark needs no flag.')
    .addHelpText('after', EXAMPLES.encodings)
    .action(async () => {
      for (const { name, aliases } of await encodingNames()) out.text(`${name}\t${aliases.join(' ')}\n`);
    });

  // An unknown --encoding is refused before any file is opened, and iconv-lite (a chunk of its
  // own) is loaded only when the encoding needs it: plain UTF-8 runs never parse it.
  program.hook('preAction', async (_program, command) => {
    const name = (command.opts() as { encoding?: unknown }).encoding;
    if (typeof name === 'string') await prepareEncoding(name);
  });

  try {
    if (argv.length === 0) {
      program.outputHelp();
      out.flush();
      return Exit.usage;
    }
    // "help NAME" for no command: one line and status 2, not the general help (commander's way).
    if (argv[0] === 'help' && argv[1] !== undefined && !program.commands.some((c) => c.name() === argv[1])) {
      const names = program.commands.map((c) => c.name()).filter((n) => n !== 'help');
      errLine(`unknown command '${argv[1]}'; the commands are ${names.join(', ')} (see linewise --help)`);
      return Exit.usage;
    }
    await program.parseAsync(argv, { from: 'user' });
    finish(out, io);
    return status;
  } catch (e) {
    return handle(e, out, io, errLine, usageError);
  }
}

/** Ends the output: a terminal gets a marker after a last row without a terminator. */
function finish(out: Output, io: Io): void {
  if (out.endsOpen && io.stdout.isTTY) out.text(`${NO_NEWLINE_MARK}\n`);
  out.flush();
}

function handle(
  e: unknown,
  out: Output,
  io: Io,
  errLine: (message: string, path?: string) => void,
  usageError: string | undefined,
): ExitCode {
  try {
    out.flush(); // results found before an error are still printed
  } catch (closed) {
    if (closed instanceof OutputClosed) return Exit.ok;
  }
  if (e instanceof OutputClosed) return Exit.ok;
  if (e instanceof CommanderError) {
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return Exit.ok;
    errLine(usageMessage(usageError ?? e.message));
    return Exit.usage;
  }
  if (e instanceof LinewiseError) {
    errLine(e.message, e.path);
    return e.exitCode;
  }
  // A bug, not a user error: say so in one line, with the detail behind an environment variable.
  const err = e as Error;
  errLine(`internal error: ${err?.message ?? String(e)} (please report it; LINEWISE_DEBUG=1 shows the stack)`);
  if (io.env.LINEWISE_DEBUG) io.stderr.write(Buffer.from(`${err?.stack ?? ''}\n`));
  return Exit.usage;
}

/** Commander's wording, with a hint where a negative number was taken for an option. */
function usageMessage(message: string): string {
  const negative = /unknown option '(-\d+)'/.exec(message);
  if (negative) return `line numbers and counts are never negative: ${negative[1]}`;
  return message;
}
