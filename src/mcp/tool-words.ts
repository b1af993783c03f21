// The engine's messages in a tool's words. The engine, shared with the CLI and the library, names
// options as flags (`--encoding latin1`, `give --force`); every message a client receives passes
// through here, where each flag the declaration knows becomes the tool's argument (`encoding:
// "latin1"`, `force: true`), a command line becomes the tool that does it, and advice about a flag
// no tool has is dropped. What is rewritten is derived from surface/commands.ts, not listed here.

import { COMMANDS } from '../surface/commands.js';
import { TOOLS } from '../surface/tools.js';
import type { CommandSpec, OptionSpec } from '../surface/types.js';
import { longFlag, nameIn } from '../surface/words.js';

/** Advice about a flag no tool offers, dropped with the clause that gives it. */
const NO_TOOL_ADVICE: readonly [RegExp, string][] = [
  [/; use -a(\/--text)? to (search|read) it( as text)?/g, ''],
  // a search cut by its deadline: what a client can change is the pattern
  [/; simplify it or raise --timeout/g, '; simplify the pattern (or set fixed_strings for a literal text)'],
  [/ or raise --timeout/g, ''],
  [/ instead of -a\b/g, ''],
  [/"linewise encodings" lists the names --encoding accepts/g, 'encoding takes names such as latin1, windows-1252, shift_jis, utf-16le'],
  [/; linewise encodings lists the names/g, ''],
  [/(^|: )-g /g, '$1glob '],
  [/as grep -0 prints it: read such rows with replace --null/g, 'which rows here cannot carry'],
];

/** Commands of the command line, in messages, and the tool that does the same. */
const COMMAND_LINES: readonly [RegExp, string][] = [
  [/\blinewise replace FILE --rows\b/g, 'replace_rows with path'],
  [/\b(?:linewise )?replace FILE START END\b/g, 'replace_lines'],
  [/\b(?:linewise )?replace FILE \d+ --text \.\.\./g, 'replace_lines'],
  [/\brun replace with\b/g, 'call the edit again with'],
  [/\brun replace without\b/g, 'call the edit again without'],
  [/\bread it whole with readlines\b/g, 'read it whole with read_lines'],
  [/\blinewise (readlines|page|grep|replace)\b/g, '$1'],
];

/** Words that follow a flag in prose, not as its value (`--encoding or a UTF-16 file`). */
const PROSE = new Set(['or', 'and', 'the', 'a', 'an', 'to', 'with', 'is', 'in', 'of', 'for', 'not', 'takes', 'reads', 'shows', 'accepts', 'names', 'say']);

/** Every option of the declaration with a long flag, by flag; the tool's own command first. */
function flagsOf(first: CommandSpec): Map<string, OptionSpec> {
  const flags = new Map<string, OptionSpec>();
  for (const c of [first, ...COMMANDS.filter((x) => x !== first)]) {
    for (const o of c.options) {
      if (o.cli === undefined || o.mcp === undefined) continue;
      const f = longFlag(o);
      if (!flags.has(f)) flags.set(f, o);
    }
  }
  return flags;
}

const cache = new Map<string, (message: string) => string>();

/** The function that words messages for tool `tool` (a name the declaration lists). */
export function toolWords(tool: string): (message: string) => string {
  const known = cache.get(tool);
  if (known !== undefined) return known;
  const spec = TOOLS.find((t) => t.name === tool);
  const cmd = COMMANDS.find((c) => c.name === spec?.command) ?? COMMANDS[0]!;
  const flags = flagsOf(cmd);
  const speak = (message: string): string => {
    let m = message;
    for (const [re, to] of NO_TOOL_ADVICE) m = m.replace(re, to);
    for (const [re, to] of COMMAND_LINES) m = m.replace(re, to);
    // `page --max-bytes`: an option of another command, named as its tool's argument
    m = m.replace(/\b(readlines|page|grep|replace) (--[a-z][a-z0-9-]*)/g, (whole, _c: string, flag: string) => (flags.has(flag) ? flag : whole));
    return m.replace(/--([a-z][a-z0-9-]*)(?: ([^\s,;)\]]+))?/g, (whole: string, name: string, next: string | undefined, at: number, all: string) => {
      const o = flags.get(`--${name}`);
      if (o === undefined) return whole;
      const arg = nameIn(o, 'mcp');
      const tail = next === undefined ? '' : ` ${next}`;
      if (o.kind === 'boolean') return all[at + name.length + 2] === ':' ? arg : `${arg}: true${tail}`;
      const value = next?.replace(/[.:]$/, '');
      if (value === undefined || value === '' || PROSE.has(value) || /^[A-Z]+$/.test(value)) return `${arg}${tail}`;
      const shown = o.kind === 'integer' && /^\d+$/.test(value) ? value : JSON.stringify(value);
      return `${arg}: ${shown}${next!.slice(value.length)}`;
    });
  };
  cache.set(tool, speak);
  return speak;
}
