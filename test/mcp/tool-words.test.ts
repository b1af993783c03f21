// The engine's messages (shared with the CLI, naming flags) as an MCP client receives them: each
// flag the declaration knows as the tool's argument, a command line as the tool that does it,
// advice about a flag no tool has dropped. The messages below are the engine's own.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { toolWords } from '../../src/mcp/tool-words.js';
import { COMMANDS } from '../../src/surface/commands.js';

describe('toolWords', () => {
  it('names flags as the tool\'s arguments, with their values as JSON', () => {
    const grep = toolWords('grep');
    expect(grep('binary file (it has a NUL byte), not searched; use -a/--text to search it')).toBe('binary file (it has a NUL byte), not searched');
    expect(grep('looks like UTF-16LE text without a byte order mark, not searched; search it with --encoding utf-16le')).toBe('looks like UTF-16LE text without a byte order mark, not searched; search it with encoding: "utf-16le"');
    expect(grep('the search ran longer than 10 s at or after line 7: the pattern backtracks too much; simplify it or raise --timeout')).toBe('the search ran longer than 10 s at or after line 7: the pattern backtracks too much; simplify the pattern (or set fixed_strings for a literal text)');
    expect(grep('--after: a.txt is not among the inputs this search reaches (renamed or deleted since?); search again without --after')).toBe('after: a.txt is not among the inputs this search reaches (renamed or deleted since?); search again without after');
    expect(grep('linewise: -g [: not a valid glob (an unclosed [ or a stray \\?)')).toBe('linewise: glob [: not a valid glob (an unclosed [ or a stray \\?)');
    const edit = toolWords('replace_text');
    expect(edit('already exists; nothing was written (edit it, or give --force to replace it whole)')).toBe('already exists; nothing was written (edit it, or give force: true to replace it whole)');
    expect(edit('give more of the text around it so it occurs once, or replace every occurrence (--all)')).toBe('give more of the text around it so it occurs once, or replace every occurrence (all: true)');
    expect(edit('stale edit (--relocate: the lines read occur twice)')).toBe('stale edit (relocate: the lines read occur twice)');
    expect(edit('row 1 has no path: name the file, as in linewise replace FILE --rows')).toBe('row 1 has no path: name the file, as in replace_rows with path');
    expect(edit('line 3 was cut by page --max-bytes and cannot be written back; read it whole with readlines')).toBe('line 3 was cut by max_bytes and cannot be written back; read it whole with read_lines');
    expect(edit("unknown encoding 'x'; \"linewise encodings\" lists the names --encoding accepts")).toBe("unknown encoding 'x'; encoding takes names such as latin1, windows-1252, shift_jis, utf-16le");
    expect(toolWords('page')('the file has 2 lines (an offset is the number of lines skipped: --offset 1 shows the last line)')).toBe('the file has 2 lines (an offset is the number of lines skipped: offset: 1 shows the last line)');
    expect(toolWords('read_lines')('give --encoding or a UTF-16 file')).toBe('give encoding or a UTF-16 file');
  });

  it('leaves no flag of an engine message that a tool reaches: every long flag in src/{engine,io,core} has a tool argument or is dropped', () => {
    const src = fileURLToPath(new URL('../../src/', import.meta.url));
    const flags = new Set<string>();
    for (const dir of ['engine', 'io', 'core']) {
      for (const f of fs.readdirSync(path.join(src, dir), { recursive: true }) as string[]) {
        if (!f.endsWith('.ts')) continue;
        const code = fs.readFileSync(path.join(src, dir, f), 'utf8').replace(/^\s*(\/\/|\*|\/\*).*$/gm, '');
        // `diff --git` is a patch's header line, quoted from the patch, not a flag
        for (const m of code.matchAll(/['"`][^'"`\n]*?(?<!diff )(--[a-z][a-z0-9-]*)/g)) flags.add(m[1]!);
      }
    }
    // the CLI's own flags, named only in messages no tool can reach (standard input, -0 rows, --json, the CLI's input files)
    const cliOnly = new Set(['--null', '--json', '--from', '--old-from', '--new-from', '--rows', '--edits', '--create', '--delete', '--receipt', '--text', '--timeout', '--files', '--count-bytes']);
    const speak = toolWords('grep');
    const left = [...flags].filter((f) => !cliOnly.has(f) && /--[a-z]/.test(speak(`x ${f} y`)));
    expect(left).toEqual([]);
    // and those CLI-only flags are the command line's indeed
    const declared = new Set(COMMANDS.flatMap((c) => c.options.map((o) => /--[a-z0-9-]+/.exec(o.cli ?? '')?.[0])));
    for (const f of cliOnly) expect(declared.has(f), f).toBe(true);
  });
});
