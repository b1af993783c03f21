// A tool's arguments as the declaration gives them (surface/tools.ts, through toolArguments): the
// JSON Schema the client sees, and each call's arguments checked by surface/check.ts, in the
// tool's words (numbers sent as strings accepted), then the server's defaults applied.

import { checkGiven, type Declared, toolArguments } from '../surface/check.js';
import { command, type CommandName } from '../surface/commands.js';
import type { CommandSpec, ToolSpec } from '../surface/types.js';
import { nameIn, render } from '../surface/words.js';

const cmdOf = (tool: ToolSpec): CommandSpec => command(tool.command as CommandName);

/**
 * The JSON Schema of one argument, described by its `mcpHelp` alone: an argument without one is
 * said by its name and the server's instructions (tools/list stays small: each byte of it is
 * paid in every conversation).
 */
function argumentSchema(d: Declared, cmd: CommandSpec, dflt: unknown): Record<string, unknown> {
  const description = d.mcpHelp === undefined ? undefined : render(d.mcpHelp, cmd, 'mcp');
  const said = { ...(dflt === undefined ? {} : { default: dflt }), ...(description === undefined ? {} : { description }) };
  if (d.schema !== undefined) return { ...d.schema, ...said };
  switch (d.kind) {
    case 'integer':
      return { type: 'integer', ...(d.min !== undefined ? { minimum: d.min } : {}), ...(d.max !== undefined ? { maximum: d.max } : {}), ...said };
    case 'strings':
      return { type: 'array', items: { type: 'string' }, ...said };
    case 'choice':
      return { type: 'string', enum: 'choices' in d ? d.choices : [], ...said };
    default:
      return { type: d.kind, ...said };
  }
}

/** What the server takes for `d` when a call does not give it: the tool's bound, else the command's default. */
const serverDefault = (tool: ToolSpec, d: Declared): unknown => tool.defaults?.[d.key] ?? ('default' in d ? d.default : undefined);

/** The input schema of `tool`: its arguments, the required ones, nothing else. */
export function inputSchema(tool: ToolSpec): { type: 'object'; properties: Record<string, object>; required?: string[]; additionalProperties: false } {
  const cmd = cmdOf(tool);
  const args = toolArguments(tool, cmd);
  const properties: Record<string, object> = {};
  for (const d of args) properties[nameIn(d, 'mcp')] = argumentSchema(d, cmd, serverDefault(tool, d));
  const required = args.filter((d) => d.required).map((d) => nameIn(d, 'mcp'));
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

/**
 * A call's arguments checked against `tool`'s declaration (unknown names, types, ranges, choices,
 * conflicts refused in its words), keyed by the library's names, with the server's defaults (the
 * tool's, then the command's) for what was not given and conflicts with nothing given.
 */
export function checkArgs(tool: ToolSpec, given: unknown): Record<string, unknown> {
  const cmd = cmdOf(tool);
  const args = toolArguments(tool, cmd);
  const out = checkGiven(cmd, args, given, { dialect: 'mcp', unknown: 'refuse', numericStrings: true, what: tool.name });
  const partners = (key: string) => cmd.conflicts.flatMap(([a, others]) => (a === key ? others : others.includes(key) ? [a] : []));
  for (const d of args) {
    if (out[d.key] !== undefined) continue;
    const dflt = serverDefault(tool, d);
    if (dflt === undefined || partners(d.key).some((p) => out[p] !== undefined && out[p] !== false)) continue;
    out[d.key] = dflt;
  }
  return out;
}
