// How each surface names an option, and says how to go on: `--max-bytes 8000` on the command line,
// `max_bytes: 8000` to an MCP client, `maxBytes: 8000` in the library. Footers, hints and errors
// are worded through a Words, so an agent is never told a flag its tool does not have.

import type { ArgSpec, CommandSpec, OptionSpec } from './types.js';
import { COMMANDS } from './commands.js';
import { TOOLS } from './tools.js';

export type Dialect = 'cli' | 'mcp' | 'library';

/** The long flag of an option's commander syntax: `-m, --max-count <num>` -> `--max-count`. */
export function longFlag(o: OptionSpec): string {
  const m = /--[a-z0-9-]+/.exec(o.cli ?? '');
  if (m === null) throw new Error(`surface: ${o.key} has no long flag`);
  return m[0];
}

/** What an option or argument is called in `dialect` (`--max-bytes`, `max_bytes`, `maxBytes`; an argument: `START`). */
export function nameIn(x: OptionSpec | ArgSpec, dialect: Dialect): string {
  if (dialect === 'library') return x.key;
  if (dialect === 'mcp') return x.mcp ?? snake(x.key);
  const cli = x.cli ?? '';
  return cli.startsWith('-') ? longFlag(x as OptionSpec) : cli.replace(/[<>[\].]/g, '').toUpperCase() || x.key;
}

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** `{key}` in a command's help texts, named in `dialect`. */
export function render(text: string, cmd: CommandSpec, dialect: Dialect): string {
  return text.replace(/\{([a-zA-Z]+)\}/g, (whole, key: string) => {
    const x = cmd.options.find((o) => o.key === key) ?? cmd.args.find((a) => a.key === key);
    return x === undefined ? whole : nameIn(x, dialect);
  });
}

/**
 * A word of a command line shown to the user, quoted only when it needs it. Control characters
 * go in `$'...'` with C escapes, so a footer stays one line without a tab (which `replace --rows`
 * relies on to tell it from a row).
 */
export function shellWord(word: string): string {
  if (/^[\w./@%+=:,-]+$/.test(word)) return word;
  if (!/[\x00-\x1f\x7f]/.test(word)) return `'${word.replace(/'/g, `'\\''`)}'`;
  return `$'${word.replace(/[\x00-\x1f\x7f'\\]/g, (c) => (c === "'" || c === '\\' ? `\\${c}` : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`))}'`;
}

/** A value as written after its name: a shell word on the command line, JSON to a tool. */
function shown(value: unknown, dialect: Dialect): string {
  return dialect === 'cli' ? shellWord(String(value)) : JSON.stringify(value);
}

/**
 * The words of one surface for one command: how its options are named, and how a call that goes
 * on (a footer's next page, a hint's fix) is written. The engine and the printers take one.
 */
export class Words {
  constructor(
    readonly dialect: Dialect,
    readonly command: string,
    /** the MCP tool these words answer for (find_files is a view of grep) */
    readonly tool?: string,
  ) {}

  private get spec(): CommandSpec {
    return COMMANDS.find((c) => c.name === this.command)!;
  }

  /** The option or argument `key` as this surface names it: `--encoding`, `encoding`. */
  name(key: string): string {
    const x = this.spec.options.find((o) => o.key === key) ?? this.spec.args.find((a) => a.key === key);
    if (x === undefined) return key;
    return nameIn(x, this.dialect);
  }

  /** The option with a value: `--encoding latin1`, `encoding: "latin1"`, `encoding: "latin1"`. */
  set(key: string, value?: unknown): string {
    if (value === undefined) return this.dialect === 'cli' ? this.name(key) : `${this.name(key)}: true`;
    return this.dialect === 'cli' ? `${this.name(key)} ${shown(value, 'cli')}` : `${this.name(key)}: ${shown(value, this.dialect)}`;
  }

  /**
   * A call of `command` with `args` (keys of its arguments and options, in order): a command line
   * (`linewise readlines big.log 96 500 --max-bytes 8000`), or the tool and its arguments
   * (`read_lines with {"path":"big.log","start":96,"end":500,"max_bytes":8000}`).
   */
  call(command: string, args: Record<string, unknown>, tool?: string): string {
    const spec = COMMANDS.find((c) => c.name === command)!;
    if (this.dialect === 'cli') {
      const words: string[] = ['linewise', command];
      // a file named like an option is named "./-x", so the command reads it as a file
      const word = (v: unknown) => (typeof v === 'string' && v.startsWith('-') && v !== '-' ? `./${v}` : v);
      for (const a of spec.args) if (args[a.key] !== undefined) words.push(...[args[a.key]].flat().map((v) => shown(word(v), 'cli')));
      for (const o of spec.options) {
        const v = args[o.key];
        if (v === undefined || v === false) continue;
        words.push(v === true ? longFlag(o) : `${longFlag(o)} ${shown(v, 'cli')}`);
      }
      return words.join(' ');
    }
    const name = tool ?? (command === this.command ? this.tool : undefined) ?? TOOLS.find((t) => t.command === command)?.name ?? command;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(args)) {
      const x = spec.options.find((o) => o.key === k) ?? spec.args.find((a) => a.key === k);
      out[x === undefined ? k : nameIn(x, this.dialect)] = v;
    }
    return this.dialect === 'mcp' ? `call ${name} with ${JSON.stringify(out)}` : `${command}(${JSON.stringify(out)})`;
  }

  /** How a footer says to repeat the call with one argument set: `Run the same command with --after X`. */
  sameWith(key: string, value: unknown): string {
    if (this.dialect === 'cli') return `Run the same command with ${this.set(key, value)}`;
    const name = this.tool ?? TOOLS.find((t) => t.command === this.command)?.name ?? this.command;
    return `Call ${this.dialect === 'mcp' ? name : `${this.command}()`} again with ${this.set(key, value)}`;
  }
}

/** The words of `command` on the command line, to an MCP client, and in the library. */
export const cliWords = (command: string) => new Words('cli', command);
export const mcpWords = (command: string, tool?: string) => new Words('mcp', command, tool);
export const libraryWords = (command: string) => new Words('library', command);
