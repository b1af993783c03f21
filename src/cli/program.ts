// The command line's grammar, derived from the surface declaration (src/surface/commands.ts):
// every command, argument and option becomes commander's, with its parser, default, choices and
// conflicts; each action hands the parsed values, named as the library names them, to the
// command's adapter in src/commands. The adapters of grep, replace, patch, mcp and encodings are
// imported by their actions: a readlines or a page never loads them.

import { Command, Help, InvalidArgumentError, Option, type OutputConfiguration } from 'commander';
import pkg from '../../package.json' with { type: 'json' };
import type { Context } from '../commands/context.js';
import { page } from '../commands/page.js';
import { readlines } from '../commands/readlines.js';
import { type ExitCode, LinewiseError } from '../core/errors.js';
import { parseCount } from '../core/ranges.js';
import { loadEncoding } from '../engine/encodings.js';
import { conflictIn } from '../surface/check.js';
import { COMMANDS } from '../surface/commands.js';
import { EXAMPLES } from '../surface/examples.js';
import type { CommandSpec, OptionSpec } from '../surface/types.js';
import { longFlag, render } from '../surface/words.js';
import type { ColorMode } from './color.js';

export const VERSION: string = pkg.version;

/** What an action needs from main: a context for its --color, and where to put its status. */
export interface Runner {
  context(color: ColorMode): Promise<Context>;
  /** runs a command that writes files, with the process's signals mapped to cancellation */
  writing<T>(work: (signal: AbortSignal | undefined) => Promise<T>): Promise<T>;
  status(code: ExitCode): void;
  /** the options the command line asked for, parsed, before the command runs (main reads --json) */
  parsed?(o: Parsed): void;
}

/** Parsed options, by the library's names (surface keys). */
export type Parsed = Record<string, unknown>;

/** What each command does with its parsed arguments and options (the only per-command code here). */
const ACTIONS: Record<string, (runner: Runner, args: (string | string[] | undefined)[], o: Parsed) => Promise<void>> = {
  readlines: async (runner, [file, start, end], o) => {
    runner.status(readlines(await runner.context(o.color as ColorMode), file as string, start as string, end as string | undefined, o));
  },
  page: async (runner, [file], o) => {
    runner.status(page(await runner.context(o.color as ColorMode), file as string, o as never));
  },
  replace: async (runner, [file, start, end, more], o) => {
    const ctx = await runner.context(o.color as ColorMode);
    const { replace } = await import('../commands/replace.js');
    // FILE START END are positions; for a content edit every one of them is a file (replace.ts tells)
    const rest = (more as string[] | undefined) ?? [];
    runner.status(await runner.writing((signal) => replace({ ...ctx, ...(signal ? { signal } : {}) }, file as string | undefined, start as string | undefined, end as string | undefined, o as never, rest)));
  },
  patch: async (runner, [file], o) => {
    const ctx = await runner.context(o.color as ColorMode);
    const { patch } = await import('../commands/patch.js');
    runner.status(await runner.writing((signal) => patch({ ...ctx, ...(signal ? { signal } : {}) }, file as string | undefined, o as never)));
  },
  grep: async (runner, [pattern, paths], o) => {
    const ctx = await runner.context(o.color as ColorMode);
    const { grep } = await import('../commands/grep.js');
    runner.status(await grep(ctx, pattern as string | undefined, (paths as string[] | undefined) ?? [], o));
  },
  mcp: async (runner, _args, o) => {
    const ctx = await runner.context('never');
    // The server and the MCP SDK load only here: no other command's start-up pays for them.
    const { serve } = await import('../mcp/server.js');
    const settings = { roots: (o.root as string[] | undefined) ?? [], readOnly: o.readOnly === true, cacheMib: o.cacheMib as number, cwd: ctx.io.cwd, version: VERSION, log: (m: string) => ctx.warn(m) };
    runner.status(await runner.writing((signal) => serve({ ...settings, ...(signal ? { signal } : {}) })));
  },
  encodings: async (runner) => {
    const ctx = await runner.context('auto');
    const { encodings } = await import('../commands/encodings.js');
    runner.status(await encodings(ctx));
  },
};

/** A commander parser for a whole number from `min` to `max`, with the library's message. */
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

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** `--no-x` flags: commander calls them negations of `x`; the surface names what they turn on. */
const negated = (o: OptionSpec) => longFlag(o).startsWith('--no-');

/** The commander option of one declared option. */
function commanderOption(spec: CommandSpec, o: OptionSpec, attr: (key: string) => string): Option {
  const opt = new Option(o.cli!, render(o.help, spec, 'cli'));
  if (o.kind === 'integer') opt.argParser(count(longFlag(o), o.min ?? 0, o.max));
  else if (o.kind === 'strings') opt.argParser(collect);
  else if (o.kind === 'choice') opt.choices(o.choices ?? []);
  if (o.default !== undefined) opt.default(o.default);
  // on the first of a pair only, so commander names the pair as declared (the library's check sees both ways)
  // a conflict with its own message is checked by the action, in the surface's words
  const against = spec.conflicts.flatMap(([a, others, message]) => (a === o.key && message === undefined ? others : []));
  if (against.length > 0) opt.conflicts(against.map(attr));
  return opt;
}

/** The parsed options of `spec` by surface key, from commander's attribute values. */
function byKey(spec: CommandSpec, raw: Record<string, unknown>, attr: (key: string) => string): Parsed {
  const out: Parsed = {};
  for (const o of spec.options) {
    const v = o.cli === undefined || o.habit || o.alias !== undefined ? undefined : raw[attr(o.key)];
    if (v === undefined) continue;
    if (!negated(o)) out[o.key] = v;
    else if (v === false) out[o.key] = true; // `--no-x` given
  }
  // an alias given wins over its option's default (`--colour always`)
  for (const o of spec.options) if (o.alias !== undefined && raw[attr(o.key)] !== undefined) out[o.alias] = raw[attr(o.key)];
  return out;
}

/**
 * The whole command line, its actions bound to `runner`; help and errors go through `output`.
 * The grammar is the surface's; nothing here is per option.
 */
export function buildProgram(runner: Runner, output: OutputConfiguration, only?: string): Command {
  const program = new Command('linewise')
    .description('Line-precise file access: read, search and patch lines without touching line endings or bytes.')
    .version(VERSION, '-V, --version')
    .helpCommand('help [command]', 'show help for a command')
    .exitOverride()
    .configureOutput(output) // before the subcommands, which inherit it
    .showSuggestionAfterError(true)
    .allowExcessArguments(false)
    .addHelpText('after', EXAMPLES.main)
    // the list of commands is the surface's, whether or not a command was built
    .configureHelp({ subcommandTerm: (cmd) => commandTerm(cmd) });

  for (const spec of COMMANDS) {
    const cmd = program.command(spec.name).summary(spec.summary);
    // Only the command this run invokes is built whole (its options, parsers, help): building
    // every command's was most of linewise's own start-up. The others are names in the list.
    if (only !== undefined && spec.name !== only) continue;
    cmd.description(render(spec.description, spec, 'cli'));
    // -h is grep's --no-filename (as in grep): help is --help alone there
    if (spec.options.some((o) => /(^|[ ,])-h\b/.test(o.cli ?? ''))) cmd.helpOption('--help', 'display help for command');
    for (const a of spec.args) cmd.argument(a.cli, render(a.help, spec, 'cli'));
    const options = new Map<string, Option>();
    const attr = (key: string) => options.get(key)?.attributeName() ?? key;
    // attribute names first (conflicts name them), then the options in declaration order
    for (const o of spec.options) if (o.cli !== undefined) options.set(o.key, new Option(o.cli));
    for (const o of spec.options) if (o.cli !== undefined) cmd.addOption(commanderOption(spec, o, attr));
    for (const [a, b] of spec.lastWins ?? []) {
      // the last one given wins: giving one clears the other
      cmd.on(`option:${longFlag(specOption(spec, a)).slice(2)}`, () => cmd.setOptionValue(attr(b), negatedValue(specOption(spec, b))));
      cmd.on(`option:${longFlag(specOption(spec, b)).slice(2)}`, () => cmd.setOptionValue(attr(a), negatedValue(specOption(spec, a))));
    }
    const example = (EXAMPLES as Record<string, string>)[spec.name];
    if (example !== undefined) cmd.addHelpText('after', example);
    const action = ACTIONS[spec.name]!;
    cmd.action(async (...got: unknown[]) => {
      const positional = got.slice(0, spec.args.length) as (string | string[] | undefined)[];
      const given = byKey(spec, cmd.opts(), attr);
      runner.parsed?.(given);
      const clash = conflictIn(spec, given);
      if (clash?.[2] !== undefined) throw new LinewiseError('usage', render(clash[2], spec, 'cli'));
      await action(runner, positional, given);
    });
  }

  // An unknown --encoding is refused before any file is opened, and iconv-lite (a chunk of its
  // own) is loaded only when the encoding needs it: plain UTF-8 runs never parse it.
  program.hook('preAction', async (_program, command) => {
    const name = (command.opts() as { encoding?: unknown }).encoding;
    if (typeof name === 'string') await loadEncoding(name);
  });
  return program;
}

/** The command the arguments invoke (`help NAME`: NAME), when it is one of linewise's: the only one main builds. */
export function invokedCommand(argv: readonly string[]): string | undefined {
  const name = argv[0] === 'help' ? argv[1] : argv[0];
  return COMMANDS.some((s) => s.name === name) ? name : undefined;
}

/** A command as the top-level help lists it: `name [options] <args>`, from its declaration. */
function commandTerm(cmd: Command): string {
  const spec = COMMANDS.find((s) => s.name === cmd.name());
  if (spec === undefined) return new Help().subcommandTerm(cmd);
  const options = spec.options.some((o) => o.cli !== undefined) ? ' [options]' : '';
  return `${spec.name}${options}${spec.args.map((a) => ` ${a.cli}`).join('')}`;
}

function specOption(spec: CommandSpec, key: string): OptionSpec {
  return spec.options.find((o) => o.key === key)!;
}

/** The commander value that means "not given" for an option: true for a `--no-x` (its x), else false. */
const negatedValue = (o: OptionSpec) => negated(o);
