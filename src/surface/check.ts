// The one check of what a caller gives a command: the library's options, an MCP tool's arguments
// (and, through commander's parsers, the command line's values) against the declaration: own
// properties only, types, ranges, choices and conflicts, with messages in the caller's words.

import { LinewiseError, quoted } from '../core/errors.js';
import { parseCount } from '../core/ranges.js';
import type { ArgSpec, CommandSpec, OptionSpec, ToolSpec } from './types.js';
import { type Dialect, nameIn, render } from './words.js';

/** A declared value a caller may give: an option, an argument, or a tool's own argument. */
export type Declared = (OptionSpec | ArgSpec) & { readonly required?: boolean; readonly schema?: Readonly<Record<string, unknown>> };

export interface CheckHow {
  dialect: Dialect;
  /** names not declared: refused (a tool's arguments) or left to the caller (the library's extra options) */
  unknown: 'refuse' | 'ignore';
  /** "12" for an integer (clients that send numbers as strings) */
  numericStrings?: boolean;
  /** who is asked, for messages: "grep", "the options" */
  what: string;
}

function bad(name: string, expected: string, value: unknown): LinewiseError {
  const shown = typeof value === 'string' ? quoted(value, 40) : Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value === 'object' ? 'an object' : String(value);
  return new LinewiseError('bad-option', `${name} must be ${expected}, not ${shown}`);
}

/** One value, checked and typed. */
export function checkValue(d: Declared, value: unknown, how: Pick<CheckHow, 'dialect' | 'numericStrings'>): unknown {
  const name = nameIn(d, how.dialect);
  switch (d.kind) {
    case 'boolean':
      if (typeof value !== 'boolean') throw bad(name, 'true or false', value);
      return value;
    case 'integer': {
      const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : how.numericStrings && typeof value === 'string' ? value : undefined;
      if (text === undefined) throw bad(name, 'a number', value);
      const n = parseCount(text, name, d.min ?? 0);
      if (d.max !== undefined && n > d.max) throw new LinewiseError('bad-number', `${name} must be at most ${d.max}, not ${n}`);
      return n;
    }
    case 'string':
      if (typeof value !== 'string') throw bad(name, 'a string', value);
      return value;
    case 'strings':
      if ('schema' in d && d.schema !== undefined) {
        if (!Array.isArray(value)) throw bad(name, 'an array', value);
        return value;
      }
      if (typeof value === 'string') return [value];
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw bad(name, 'a string or an array of strings', value);
      return [...(value as string[])];
    case 'choice': {
      const choices = (d as OptionSpec).choices ?? [];
      if (typeof value !== 'string' || !choices.includes(value)) throw bad(name, `one of ${choices.join(', ')}`, value);
      return value;
    }
  }
}

/**
 * The values `given` holds for `declared`, checked and typed, keyed by the library's names;
 * its own properties only (an argument named `constructor` is unknown, not Object's). Required
 * ones missing, unknown ones (when refused) and any pair `cmd` declares in conflict are refused.
 */
export function checkGiven(cmd: CommandSpec, declared: readonly Declared[], given: unknown, how: CheckHow): Record<string, unknown> {
  if (given === undefined || given === null) given = {};
  if (typeof given !== 'object' || given === null || Array.isArray(given)) throw bad(how.what, 'an object', given);
  const byName = new Map(declared.map((d) => [nameIn(d, how.dialect), d]));
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(given)) {
    const d = byName.get(name);
    if (d === undefined) {
      if (how.unknown === 'ignore') continue;
      throw new LinewiseError('usage', `${how.what} has no argument "${name}"; its arguments are ${[...byName.keys()].join(', ')}`);
    }
    const value = (given as Record<string, unknown>)[name];
    if (value === undefined || (value === null && how.dialect === 'mcp')) continue;
    out[d.key] = checkValue(d, value, how);
  }
  for (const d of declared) {
    if (d.required && out[d.key] === undefined) throw new LinewiseError('usage', `${how.what} needs "${nameIn(d, how.dialect)}": ${how.dialect === 'mcp' ? (d.mcpHelp ?? d.help) : d.help}`);
  }
  const name = (k: string) => nameIn(declared.find((d) => d.key === k) ?? cmd.options.find((o) => o.key === k)!, how.dialect);
  const clash = conflictIn(cmd, out);
  if (clash !== undefined) {
    const [a, b, message] = clash;
    throw new LinewiseError('usage', message !== undefined ? render(message, cmd, how.dialect) : `give ${name(a)} or ${name(b)}, not both`);
  }
  return out;
}

/** The first declared conflict that `given` (by key) holds both sides of: the pair and its message. */
export function conflictIn(cmd: CommandSpec, given: Readonly<Record<string, unknown>>): [string, string, string?] | undefined {
  const set = (k: string) => given[k] !== undefined && given[k] !== false;
  for (const [a, others, message] of cmd.conflicts) {
    if (!set(a)) continue;
    const b = others.find(set);
    if (b !== undefined) return [a, b, message];
  }
  return undefined;
}

/** The library's options for `cmd`: the declared ones checked, defaults applied; others passed through. */
export function checkOptions<T extends object>(cmd: CommandSpec, given: T | undefined, what = 'options'): T {
  const checked = checkGiven(cmd, cmd.options, given, { dialect: 'library', unknown: 'ignore', what });
  const withDefaults: Record<string, unknown> = { ...(given as object) };
  for (const o of cmd.options) {
    if (checked[o.key] !== undefined) withDefaults[o.key] = checked[o.key];
    else if (o.default !== undefined && (given as Record<string, unknown> | undefined)?.[o.key] === undefined) withDefaults[o.key] = o.default;
  }
  return withDefaults as T;
}

/** What a tool takes, resolved: the command's arguments and options it names (required or not), then its own. */
export function toolArguments(tool: ToolSpec, cmd: CommandSpec): Declared[] {
  const out: Declared[] = tool.takes.map((t) => {
    const required = t.endsWith('!');
    const key = required ? t.slice(0, -1) : t;
    const d = cmd.args.find((a) => a.key === key) ?? cmd.options.find((o) => o.key === key) ?? tool.own?.find((o) => o.key === key);
    if (d === undefined) throw new Error(`surface: tool ${tool.name} takes ${key}, which ${cmd.name} does not declare`);
    return { ...d, required };
  });
  for (const own of tool.own ?? []) if (!out.some((d) => d.key === own.key)) out.push(own);
  return out;
}
