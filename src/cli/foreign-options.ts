// The grep and rg options linewise grep does not take (and the GNU patch and git apply options
// linewise patch does not), each with the one-line reason (and what to type instead) that follows
// "unknown option" on stderr: a grep, rg, patch or git user learns why, not only no.

/** Option (as typed, before any `=` or attached value) -> what to say after "unknown option". */
const GREP_FOREIGN: Record<string, string> = {
  '-P': 'patterns are JavaScript regular expressions already (lookarounds, \\d, named groups): drop -P',
  '--perl-regexp': 'patterns are JavaScript regular expressions already (lookarounds, \\d, named groups): drop it',
  '-z': 'lines end in \\n here, never in NUL; for NUL-ended file names use -l -0',
  '--null-data': 'lines end in \\n here, never in NUL; for NUL-ended file names use -l -0',
  '-U': 'a pattern sees one line at a time; to change a text that spans lines, use replace FILE --old',
  '--multiline': 'a pattern sees one line at a time; to change a text that spans lines, use replace FILE --old',
  '-t': "there are no file types: select files by glob, -g '*.py' (or --include '*.py')",
  '--type': "there are no file types: select files by glob, -g '*.py' (or --include '*.py')",
  '-T': "there are no file types: exclude files by glob, -g '!*.py' (or --exclude '*.py')",
  '--type-not': "there are no file types: exclude files by glob, -g '!*.py' (or --exclude '*.py')",
  '-N': 'rows always carry line numbers, so that replace --rows can read them back',
  '--no-line-number': 'rows always carry line numbers, so that replace --rows can read them back',
  '-I': "binary files are skipped already (grep's -I); to leave out file names (rg's -I), use -h",
  '-Z': 'paths end in a NUL byte with -0 (--null)',
  '-u': 'give --no-ignore for ignored files and --hidden for hidden ones',
  '-uu': 'give --no-ignore for ignored files and --hidden for hidden ones',
  '-uuu': 'give --no-ignore --hidden -a',
  '--unrestricted': 'give --no-ignore for ignored files and --hidden for hidden ones',
  '-S': 'there is no smart case: give -i to ignore case',
  '--smart-case': 'there is no smart case: give -i to ignore case',
  '--crlf': 'no need: $ already matches before \\r\\n',
  '--no-heading': 'rows are one line each already: PATH<TAB>N<TAB>line',
  '--vimgrep': 'rows are one line each already: PATH<TAB>N<TAB>line (-o adds the column: N:COLUMN)',
  '--binary-files': 'binary files are skipped; -a searches them as text',
  '--column': 'rows name lines, not columns; -o prints N:COLUMN for each match',
};

const NO_BACKUPS = 'no backup, .orig or .rej file is ever written: a patch applies whole or not at all';
const PATCH_FOREIGN: Record<string, string> = {
  '-i': 'give the patch file as the argument: linewise patch FILE (- or none: standard input)',
  '--input': 'give the patch file as the argument: linewise patch FILE (- or none: standard input)',
  '-N': 'no need: a hunk already applied is skipped, and a patch wholly applied exits 0',
  '--forward': 'no need: a hunk already applied is skipped, and a patch wholly applied exits 0',
  '-s': 'no need: success prints nothing; notes (offsets, already applied) go to stderr',
  '--silent': 'no need: success prints nothing; notes (offsets, already applied) go to stderr',
  '--quiet': 'no need: success prints nothing; notes (offsets, already applied) go to stderr',
  '-F': 'there is no fuzz: a hunk applies with all its context, at its line or the nearest place (--ignore-whitespace for whitespace)',
  '--fuzz': 'there is no fuzz: a hunk applies with all its context, at its line or the nearest place (--ignore-whitespace for whitespace)',
  '-C': 'there is no fuzz: a hunk applies with all its context, at its line or the nearest place (--ignore-whitespace for whitespace)',
  '-b': NO_BACKUPS,
  '--backup': NO_BACKUPS,
  '--no-backup-if-mismatch': NO_BACKUPS,
  '-r': NO_BACKUPS,
  '--reject': NO_BACKUPS,
  '--reject-file': NO_BACKUPS,
  '--index': "linewise patch changes files, not git's index: apply, then git add",
  '--cached': "linewise patch changes files, not git's index: apply, then git add",
  '-3': 'there is no three-way merge: a hunk that does not fit writes nothing and says where its lines nearly are',
  '--3way': 'there is no three-way merge: a hunk that does not fit writes nothing and says where its lines nearly are',
  '--stat': 'use --json (a record per hunk and file) or --dry-run (the diff)',
  '--numstat': 'use --json (a record per hunk and file) or --dry-run (the diff)',
  '--ignore-space-change': 'use --ignore-whitespace',
  '-l': 'use --ignore-whitespace',
};

/**
 * The reason for an unknown option of `command`, or undefined. `option` is commander's, as typed:
 * `--type=py` and `-tpy` are looked up as `--type` and `-t`.
 */
export function foreignOptionReason(command: string | undefined, option: string): string | undefined {
  const table = command === 'grep' ? GREP_FOREIGN : command === 'patch' ? PATCH_FOREIGN : undefined;
  if (table === undefined) return undefined;
  const head = option.startsWith('--') ? option.split('=')[0]! : /^-u+$/.test(option) ? option : option.slice(0, 2);
  return Object.hasOwn(table, head) ? table[head] : undefined;
}
