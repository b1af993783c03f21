// The examples of `linewise help` and `linewise help <command>` (part of the surface: one block per command).

// Every option of every command appears in at least one example (test/help.test.ts checks it):
// an agent reading `linewise help <command>` learns each flag from a command line it can copy.
export const EXAMPLES = {
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
A last line without a newline is followed by "\\ No newline at end of file" on a line of its own.
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
  $ linewise readlines app.ts 12 14 --anchor        rows "12#9f86d081<TAB>..." that guard their edit
  $ linewise readlines big.log 1 500 --max-bytes 8000   at most 8000 bytes of rows, then a footer:
    [Read 95 lines (lines 1-95); 405 more lines did not fit --max-bytes 8000. Go on with: linewise readlines big.log 96 500 --max-bytes 8000]
  $ linewise readlines wide.json 1 --max-bytes 8000 --from-byte 7996   the rest of a line a footer cut ("1[@7996]")
  $ linewise readlines app.ts 10 12 --guard always > rows   end with the trailer "\\ read {...}" even on a terminal

Past the end is an error that names the line count (exit 2, nothing on stdout):
  linewise: notes.txt: line 9 is past the end: the file has 3 lines
A range is two arguments: "readlines f 2-4" is refused with the command to type, "readlines f 2 4".`,
  page: `
Examples:
  $ linewise page big.log                   the first 100 lines, and a footer if more remain
  $ linewise page big.log --offset 100      the next page, as the footer says
  $ linewise page big.log --last 20         the last 20 lines, numbered (reads the file twice); as
                                            many as --max-bytes holds, and a footer names the rest
  $ linewise page big.log --limit 20 --max-bytes 4096
  $ linewise page huge.log --count-bytes 0  do not read past the page to count the total
  $ linewise page big.log --limit 2 --json  records with the total and the next offset
  $ linewise page dump.txt -a               a file with NUL bytes, read as text (--text)
  $ linewise page legacy.txt --encoding latin1 --color always
  $ linewise page app.ts --anchor           rows "N#HASH<TAB>line": replace --rows checks each hash
  $ linewise page wide.json --offset 0 --from-byte 65530   the rest of line 1, from the cursor a footer gave
  $ linewise page app.ts --guard never | wc -l   no trailer "\\ read {...}" after the rows (default: in a pipe)

The footer (on stdout, after a blank line) says where to go on:
  [Read 100 lines (lines 1-100 of 5000 total). 4900 lines remaining from offset 100.]
  [Read 100 lines (lines 1-100). More lines remain from offset 100.]    (total not counted)
At the end of the file there is no footer. A line longer than --max-bytes is shown cut, its row
numbered "17[cut]", and the footer gives the cursor inside it (--from-byte) and how to read it
whole; replace refuses a cut row and its parts ("17[@B]").`,
  replace: `
Examples:
  $ linewise replace app.ts 12 --text 'const x = 2;'     line 12 becomes that line
  $ linewise replace app.ts 12 14 --delete               delete lines 12 to 14 (or --text '')
  $ linewise replace app.ts 5 4 --text '// new'          insert before line 5 (END = START - 1)
  $ printf 'a\\nb\\n' | linewise replace notes.txt 3   new text from standard input (empty: refused)
  $ linewise replace app.ts 3 5 --from new-body.txt      new text from a file
  $ linewise readlines app.ts 10 12 > rows; $EDITOR rows; linewise replace app.ts --rows rows
  $ linewise grep -F oldName src --replace newName | linewise replace --rows -
  $ linewise grep -0 -H -F old src --replace new | linewise replace --rows - -0   paths end in NUL (--null)
  $ linewise replace app.ts 12 --text 'x = 3' --dry-run  print a unified diff, write nothing
  $ linewise replace app.ts 12 --text 'x = 3' --json     a record per file: what changed
  $ linewise replace blob.dat 2 --text 'v2' -a           a file with NUL bytes (--binary)
  $ linewise replace legacy.ini 3 --text 'név=1' --encoding latin1 --color never

By content (--old/--new): the old text, written with "\\n", matches CRLF lines too; it must occur
once (several: exit 2, naming the line of each; not found: exit 3, near matches shown):
  $ linewise replace app.ts --old $'let x = 1;\\nlet y = 2;' --new 'const x = 1;'
  $ linewise replace app.ts --old 'oldName' --new 'newName' --all      every occurrence
  $ linewise replace app.ts --old-from old.txt --new-from new.txt      texts from files
  $ printf 'debug();\\n' | linewise replace app.ts --old-from - --new ''   delete it (stdin)

Several edits in one call (--edits), JSON Lines, all against the file as it is:
  $ printf '%s\\n' '{"start":3,"end":2,"text":"// new"}' '{"old":"foo()","new":"bar()"}' | linewise replace app.ts --edits -

A new file (--create), refused (exit 3) if it exists, unless --force replaces it whole:
  $ linewise replace notes/todo.txt --create --text $'one\\ntwo' --eol crlf
  $ linewise replace notes/todo.txt --create --force --from todo.txt

A receipt (--receipt): each edited region as it now is, then how the numbering moved; its rows
feed back into --rows as they are:
  $ linewise replace app.ts --old 'x = 1' --new 'x = 2' --receipt
  [Edited app.ts: line 12 -> 12; no other line moved.]
  $ linewise replace app.ts 12 --text 'x = 3' --receipt --anchor > rows   rows "12#HASH<TAB>...": guarded

Anchored rows carry their own guard: "12#9f86d081<TAB>text" is applied only if line 12 still has
that hash (the first 8 hex digits of the SHA-256 of its text); else nothing is written, exit 3:
  $ linewise grep --anchor -F oldName src --replace newName | linewise replace --rows -

The stale-edit guard (--expect): pass the rows as they were read; if any of those lines changed
since, nothing is written, the current lines are printed, and the status is 3:
  $ linewise readlines app.ts 12 > before
  $ linewise replace app.ts 12 --text 'x = 3' --expect before
  $ linewise grep -F oldName src > hits; linewise grep -F oldName src --replace newName | linewise replace --rows - --expect hits
  linewise: app.ts: stale edit: line 12 no longer holds the text read; nothing was written; the current lines are on stdout: read again and retry
  $ linewise replace app.ts 12 --text 'x = 3' --expect before --relocate   follow the lines if they moved

Line endings (--eol):
  $ linewise replace win.txt 2 --text 'new'              auto (default): "new\\r\\n" in a CRLF file;
                                                          a last line without newline keeps none
  $ linewise replace app.ts 2 --text $'a\\r\\n' --eol keep  the text literally, byte for byte
  $ linewise replace win.txt 2 --text 'new' --eol lf     force "\\n" (crlf forces "\\r\\n")
  $ linewise replace unix.txt 1 9 --from body.txt --eol crlf

Writes are atomic: a temporary file beside the target, flushed, renamed over it; mode, owner
and symbolic links kept.`,
  patch: `
Examples:
  $ git diff main -- src | linewise patch              a unified diff from standard input
  $ linewise patch fix.patch                             from a file; paths as git writes them (a/ b/)
  $ linewise patch fix.patch --check                     does it apply? (exit 0: yes, or already applied)
  $ linewise patch fix.patch --dry-run                   the unified diff of what would change
  $ linewise patch fix.patch -R                          undo it (--reverse)
  $ diff -ruN old new | linewise patch -p 1 -d project   cut one path component (--strip); in project (--directory)
  $ linewise patch fix.patch --json                      a record per hunk: applied or already, offset, lines
  $ linewise patch fix.patch --receipt                   the changed rows as they now are
  $ linewise patch fix.patch --ignore-whitespace         if a hunk's lines differ only in spaces (reported)
  $ git diff -U0 | linewise patch --unidiff-zero         hunks without context, placed by their line numbers alone
  $ linewise patch legacy.patch --encoding latin1 --color never   files in latin1, the patch in UTF-8
  $ linewise patch - <<'EOF'                             an apply_patch envelope
  *** Begin Patch
  *** Update File: app.py
  @@ def main():
  -    print("hi")
  +    print("hello")
  *** End Patch
  EOF

Lines match whatever their terminators (an LF patch applies to a CRLF file, which stays CRLF).
A hunk whose result is there already is skipped: a patch run twice writes nothing the second time.
A hunk that fits nowhere, or at two places equally near, writes nothing in any file (exit 3):
  linewise: app.py: hunk @@ -10,4 +10,4 @@ (patch line 3) does not apply: its 4 old lines are not in the file; nearest: line 12, where 3 of its 4 old lines match (...)`,
  grep: `
Examples:
  $ linewise grep 'ta$' notes.txt           rows "<n><TAB><line>"; $ matches before \\r\\n too
  $ echo "x y" | linewise grep x            no PATH, standard input a pipe or file: it is searched
  $ linewise grep -w TODO src               a directory: rows "<path><TAB><n><TAB><line>"
  $ linewise grep -F 'a.b' -g '*.ts' -C 1   literal, only .ts files, a line of context
  $ linewise grep -r -E --include '*.c' --exclude 'test_*' --exclude-dir build 'x|y' .   grep's flags
  $ linewise grep -e -foo -e bar log.txt    several patterns; -e for one that starts with "-"
  $ linewise grep -f words.txt -x -s a.txt  patterns from a file, whole lines only, no messages
  $ linewise grep -c ERROR '*.log'          a glob (quoted), counts per file (-c -l: only files with some)
  $ linewise grep -i 'error' -m 5 app.log   case-insensitive, at most 5 rows
  $ linewise grep -v '^#' config.ini        the lines that do not match
  $ linewise grep '^[[:space:]]*(?i)todo\\b' src   rg's dialect: POSIX classes, inline flags, Unicode \\b
  $ linewise grep -P '(?<=return )\\w+' src  -P: JavaScript regexps, lookaround and back references
  $ linewise grep -B 2 -A 1 panic src       2 lines before and 1 after, groups split by "--"
  $ linewise grep -l -0 TODO src | xargs -0 wc -l   file names, NUL-terminated
  $ linewise grep --files-without-match LICENSE src   names of files with no match
  $ linewise grep --files -g '*.ts' src       the files a search would read (no PATTERN), as rg --files
  $ linewise grep --skipped TODO .            name on stderr the files passed over as binary
  $ linewise grep -F oldName src --replace newName --guard always > patch.rows   rows and their guard trailer
  $ linewise grep -q TODO src && echo found   no output; stops at the first match; exit 0 or 1
  $ linewise grep -o -h '[0-9]+ms' logs     each match a row "<n>:<column><TAB><match>", no paths
  $ linewise grep -H -n main src/app.ts     the path on every row, even for one file (-n: habit)
  $ linewise grep -F oldName src --replace newName | linewise replace --rows -
                                            rows with each match replaced ($1, \${name}), applied
  $ linewise grep --json 'fn \\w+' src       ripgrep-shaped records with submatch byte ranges
  $ linewise grep -a magic data.bin         search a file with NUL bytes as text (--text)
  $ linewise grep --hidden --no-ignore -L KEY .   hidden and ignored files too, following links
  $ linewise grep -R KEY .                  recursive, following links (= -L)
  $ linewise grep -rn TODO                  -r and no PATH: the current directory, never stdin (grep's rule)
  $ linewise grep -j 4 -c 'fn \\w+\\(' .      4 threads (-j/--threads) on a machine with idle cores
  $ linewise grep 'café' legacy.txt --encoding latin1   matched and printed as UTF-8
  $ linewise grep '(a+)+$' big.txt --timeout 2 --color never
  $ linewise grep --anchor -w TODO src      rows "<path><TAB>N#HASH<TAB><line>" for a guarded replace --rows
  $ linewise grep --colour always TODO src   (or --color=always); a piped row is never colored

Budgets, for an agent's context:
  $ linewise grep TODO src --max-rows 100 --max-bytes 20000 --count-bytes 1000000
  ...
  [Read 100 of 2340 matching lines (in 12 of 87 files). Run the same command with --after src/b.ts:88 to go on.]
  $ linewise grep TODO src --max-rows 100 --max-bytes 20000 --after src/b.ts:88   the next rows
A row longer than --max-bytes, when it comes first, is shown cut ("17[cut]"; replace refuses it).

-L follows symbolic links, as in rg (grep's -L is --files-without-match); -h is --no-filename
(help is --help); -r is grep's --recursive (rg's -r is --replace here).
A path holding a tab, newline, control character, quote, backslash or bytes that are not UTF-8 is
printed quoted as git quotes it ("a\\t3"); replace --rows reads it back. Under -0 it is as it is.
Exit status: 0 a line was selected, 1 none, 2 an error (rows found before it are printed; -q
with a match: 0). A binary file named on the command line is skipped with a note on stderr:
  linewise: data.bin: binary file (it has a NUL byte), not searched; use -a/--text to search it`,
  mcp: `
Examples:
  $ linewise mcp                            serve the client's roots (or the current directory)
  $ linewise mcp --root .                   serve this directory; relative paths start here
  $ linewise mcp --root src --root docs     two roots: paths from src/, absolute ones in either
  $ linewise mcp --root . --read-only       read_lines, page and grep only
  $ linewise mcp --root . --cache-mib 16    keep at most 16 MiB (contents, walks, answers) between searches
  $ npx @modelcontextprotocol/inspector-cli --cli linewise mcp --root . --method tools/list

A client starts it from its configuration, e.g. {"mcpServers":{"linewise":{"command":"linewise","args":["mcp","--root","."]}}}.
The tools' results are the rows, footers and messages of readlines, page, grep and replace;
a refused call (a stale edit, a path outside the roots) is a result with isError, in one line.`,
  encodings: `
Examples:
  $ linewise encodings                      every name, a tab, then its aliases
  $ linewise encodings | grep -i jis        shift_jis, euc-jp, ...
  $ linewise readlines legacy.txt 1 5 --encoding cp1252`,
};
