// The option lists of docs/COMMANDS.md and the tool list of docs/MCP.md, rendered from the
// declaration; test/surface.test.ts checks the docs hold exactly these (and rewrites them when
// asked: npm run docs:surface).

import { COMMANDS } from './commands.js';
import { toolArguments } from './check.js';
import { TOOLS } from './tools.js';
import type { CommandSpec, OptionSpec } from './types.js';
import { nameIn, render } from './words.js';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/\n/g, ' ');

function value(o: OptionSpec): string {
  const v = /[<[]([^>\]]+)[>\]]/.exec(o.cli ?? '')?.[1];
  if (o.kind === 'boolean') return '';
  if (o.kind === 'choice') return (o.choices ?? []).join(' | ');
  return v === undefined ? o.kind : `${v.toUpperCase()}${o.kind === 'strings' ? ' (repeatable)' : ''}`;
}

/** The markdown table of one command's options. */
export function optionTable(cmd: CommandSpec): string {
  const rows = ['| option | MCP argument | value | default | what it does |', '| --- | --- | --- | --- | --- |'];
  for (const o of cmd.options) {
    const flags = o.cli === undefined ? '' : o.cli.replace(/ [<[].*$/, '');
    const tools = o.mcp === undefined ? '' : `\`${o.mcp}\``;
    const dflt = o.default === undefined ? '' : `\`${String(o.default)}\``;
    const what = o.habit ? `${render(o.help, cmd, 'cli')} (ignored)` : render(o.help, cmd, 'cli');
    rows.push(`| \`${flags}\` | ${tools} | ${cell(value(o))} | ${dflt} | ${cell(what)} |`);
  }
  return rows.join('\n');
}

/** The markdown table of the MCP tools: what each does, its arguments (required ones marked) and the CLI's command. */
export function toolTable(): string {
  const rows = ['| tool | what it does | arguments (* required) | writes | the CLI\'s |', '| --- | --- | --- | --- | --- |'];
  for (const t of TOOLS) {
    const cmd = COMMANDS.find((c) => c.name === t.command)!;
    const args = toolArguments(t, cmd).map((d) => `\`${nameIn(d, 'mcp')}\`${d.required ? '*' : ''}`);
    rows.push(`| \`${t.name}\` | ${cell(t.description)} | ${args.join(', ')} | ${t.writes ? 'yes' : 'no'} | \`${t.command}\` |`);
  }
  return rows.join('\n');
}

/** Replaces each block `<!-- surface:NAME -->...<!-- /surface -->` of `doc` with what `render` gives for NAME. */
export function fillBlocks(doc: string, render: (name: string) => string | undefined): string {
  return doc.replace(/(<!-- surface:([a-z-]+) -->\n)[\s\S]*?(<!-- \/surface -->)/g, (whole, open: string, name: string, close: string) => {
    const body = render(name);
    return body === undefined ? whole : `${open}${body}\n${close}`;
  });
}

/** What each block of the docs holds: `options-<command>` and `tools`. */
export function docBlock(name: string): string | undefined {
  if (name === 'tools') return toolTable();
  const cmd = COMMANDS.find((c) => `options-${c.name}` === name);
  return cmd === undefined ? undefined : optionTable(cmd);
}
