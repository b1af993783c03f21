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

/** A value as written after its name: a word as it is on the command line, JSON to a tool. */
function shown(value: unknown, dialect: Dialect): string {
  if (dialect === 'cli') return typeof value !== 'string' || /^[\w./:@+-]+$/.test(value) ? String(value) : `'${value.replace(/'/g, "'\\''")}'`;
  return JSON.stringify(value);
}

/**
 * The words of one surface for one command: how its options are named, and how a call that goes
 * on (a footer's next page, a hint's fix) is written. The engine and the printers take one.
 */
export class Words {
  constructor(
    readonly dialect: Dialect,
    readonly command: string,
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
      for (const a of spec.args) if (args[a.key] !== undefined) words.push(...[args[a.key]].flat().map((v) => shown(v, 'cli')));
      for (const o of spec.options) {
        const v = args[o.key];
        if (v === undefined || v === false) continue;
        words.push(v === true ? longFlag(o) : `${longFlag(o)} ${shown(v, 'cli')}`);
      }
      return words.join(' ');
    }
    const name = tool ?? TOOLS.find((t) => t.command === command)?.name ?? command;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(args)) {
      const x = spec.options.find((o) => o.key === k) ?? spec.args.find((a) => a.key === k);
      out[x === undefined ? k : nameIn(x, this.dialect)] = v;
    }
    return this.dialect === 'mcp' ? `call ${name} with ${JSON.stringify(out)}` : `${command}(${JSON.stringify(out)})`;
  }

  /** "the same call, with X": how a footer says to go on with one argument changed. */
  again(key: string, value: unknown): string {
    return this.dialect === 'cli' ? `run the same command with ${this.set(key, value)}` : `call ${this.dialect === 'mcp' ? 'the tool' : this.command} again with ${this.set(key, value)}`;
  }
}

/** The words of `command` on the command line, to an MCP client, and in the library. */
export const cliWords = (command: string) => new Words('cli', command);
export const mcpWords = (command: string) => new Words('mcp', command);
export const libraryWords = (command: string) => new Words('library', command);
