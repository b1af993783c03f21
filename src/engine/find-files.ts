// findFiles: the files a search of some paths would read (files named, directories walked with
// .gitignore/.ignore and hidden files applied, globs expanded), listed, none opened: `linewise
// grep --files` and the MCP tool find_files as a library function. Its options are the
// declaration's (surface/tools.ts: what find_files takes), checked there.

import type { LinewiseError } from '../core/errors.js';
import { checkGiven, toolArguments } from '../surface/check.js';
import { command } from '../surface/commands.js';
import { TOOLS } from '../surface/tools.js';
import { grep } from './search.js';
import * as v from './validate.js';

/** What {@link findFiles} lists; each field as grep's (the CLI's flag in parentheses). */
export interface FindFilesOptions {
  /** list hidden files and directories too (`--hidden`) */
  hidden?: boolean;
  /** do not apply .gitignore and .ignore files (`--no-ignore`) */
  noIgnore?: boolean;
  /** only files matching these globs, gitignore syntax, `!` excludes (`-g`) */
  glob?: string | readonly string[];
  /** follow symbolic links in directory walks (`-L`) */
  follow?: boolean;
  /** the directory relative paths start from; default the process's working directory */
  cwd?: string;
  signal?: AbortSignal;
}

/** The files listed, and the paths that could not be listed. */
export interface FoundFiles {
  /** as rows name them: relative to `cwd` as given or walked, in the order a search reads them */
  files: string[];
  /** a path missing, a directory unreadable, a glob matching nothing: the search went on */
  errors: LinewiseError[];
  /** not errors: a symbolic link loop, an ignore rule left out */
  notes: { path: string | undefined; message: string }[];
}

/** The declared options findFiles checks: find_files' own (but paths, its first parameter) and follow. */
const declared = () => {
  const grepCmd = command('grep');
  const tool = TOOLS.find((t) => t.name === 'find_files')!;
  const own = toolArguments(tool, grepCmd).filter((d) => ['hidden', 'noIgnore', 'glob'].includes(d.key));
  return [...own, grepCmd.options.find((o) => o.key === 'follow')!];
};

/**
 * Lists the files a search of `paths` would read (none: the directory `cwd`), as `linewise grep
 * --files` prints them: named files as given, directories walked in order (skipping what
 * .gitignore and .ignore ignore, and hidden files), globs expanded. Nothing is opened.
 *
 * @throws {@link LinewiseError} (exit code 2) for a bad option value or an invalid glob.
 *
 * @example
 * ```ts
 * const { files } = await findFiles(['src'], { glob: ['*.ts', '!*.test.ts'] });
 * ```
 */
export async function findFiles(paths: string | readonly string[] = [], options: FindFilesOptions = {}): Promise<FoundFiles> {
  const o = v.options<FindFilesOptions>(options, 'options');
  const checked = checkGiven(command('grep'), declared(), o, { dialect: 'library', unknown: 'ignore', what: 'options' }) as FindFilesOptions;
  const r = await grep([], paths, { ...checked, ...(o.cwd !== undefined ? { cwd: o.cwd } : {}), ...(o.signal ? { signal: o.signal } : {}), listFiles: true });
  return { files: r.files.map((f) => f.path), errors: r.errors, notes: r.notes };
}
