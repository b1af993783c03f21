// The surface declared once (src/surface) and what is derived from it: the commander program
// (flags, defaults, conflicts), --help, the engine's constants, and the generated option lists of
// docs/COMMANDS.md. Any drift fails here; UPDATE_SURFACE_DOCS=1 (npm run docs:surface) rewrites the docs.

import * as fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, invokedCommand } from '../src/cli/program.js';
import { MAX_TIMEOUT as ENGINE_MAX_TIMEOUT } from '../src/engine/search-bounds.js';
import { DEFAULT_CACHE_MIB as IO_CACHE_MIB } from '../src/io/cache-budget.js';
import { checkGiven, checkOptions, toolArguments } from '../src/surface/check.js';
import { COMMANDS, command } from '../src/surface/commands.js';
import { docBlock, fillBlocks } from '../src/surface/docs.js';
import { DEFAULT_CACHE_MIB, MAX_TIMEOUT } from '../src/surface/options.js';
import { TOOLS } from '../src/surface/tools.js';
import { longFlag, mcpWords, cliWords, libraryWords } from '../src/surface/words.js';
import { run } from './helpers.js';

const program = (only?: string): Command =>
  buildProgram(
    { context: async () => { throw new Error('not run'); }, writing: async () => { throw new Error('not run'); }, status: () => {} },
    { writeOut: () => {}, writeErr: () => {} },
    only,
  );

describe('the command line is the declaration', () => {
  const p = program();
  for (const spec of COMMANDS) {
    it(`${spec.name}: the same flags, in order, with the same defaults, choices and arguments`, () => {
      const cmd = p.commands.find((c) => c.name() === spec.name)!;
      expect(cmd).toBeDefined();
      const declared = spec.options.filter((o) => o.cli !== undefined);
      expect(cmd.options.map((o) => o.flags).filter((f) => f !== '--help')).toEqual(declared.map((o) => o.cli));
      for (const o of declared) {
        const c = cmd.options.find((x) => x.flags === o.cli)!;
        expect([o.key, c.defaultValue]).toEqual([o.key, o.default]);
        if (o.choices) expect(c.argChoices).toEqual(o.choices);
      }
      expect(cmd.registeredArguments.map((a) => (a.required ? `<${a.name()}>` : `[${a.name()}${a.variadic ? '...' : ''}]`))).toEqual(spec.args.map((a) => a.cli));
    });
  }

  it('a run builds only the command it invokes, and lists every command as the whole program does', () => {
    expect([invokedCommand(['readlines', 'f', '1']), invokedCommand(['help', 'grep']), invokedCommand(['nope']), invokedCommand(['--help'])]).toEqual(['readlines', 'grep', undefined, undefined]);
    const whole = program();
    for (const spec of COMMANDS) {
      const one = program(spec.name);
      expect(one.helpInformation()).toBe(whole.helpInformation());
      const built = one.commands.filter((c) => c.description() !== '').map((c) => c.name());
      expect(built).toEqual([spec.name]);
      const cmd = (p: Command) => p.commands.find((c) => c.name() === spec.name)!;
      expect(cmd(one).helpInformation()).toBe(cmd(whole).helpInformation());
    }
  });

  it('--help shows every declared option of a command, in the CLI words of its help', async () => {
    for (const spec of COMMANDS) {
      const help = (await run([spec.name, '--help'])).stdout.toString();
      for (const o of spec.options.filter((x) => x.cli !== undefined)) expect(help, `${spec.name} ${o.cli}`).toContain(o.cli!);
      for (const k of [...spec.options, ...spec.args].map((x) => x.key)) expect(help).not.toContain(`{${k}}`); // every {key} was named
    }
  });

  it('declared conflicts are refused on the command line and by the library check alike', async () => {
    const r = await run(['page', 'f', '--last', '2', '--offset', '1']);
    expect([r.status, r.stderr]).toEqual([2, "linewise: option '--last <n>' cannot be used with option '--offset <k>'\n"]);
    expect(() => checkOptions(command('page'), { last: 2, offset: 1 })).toThrow('give last or offset, not both');
    expect(() => checkGiven(command('grep'), toolArguments(TOOLS.find((t) => t.name === 'grep')!, command('grep')), { pattern: 'x', count: true, files_with_matches: false, only_matching: true, invert: true }, { dialect: 'mcp', unknown: 'refuse', what: 'grep' })).toThrow(
      'give only_matching or invert, not both',
    );
  });

  it('a conflict declared with its message says it on every surface, in that surface\'s names', async () => {
    const r = await run(['replace', 'f', '1', '--delete', '--from', 'g']);
    expect([r.status, r.stderr]).toEqual([2, 'linewise: give the new text once: --text, --from or --delete\n']);
    expect(() => checkOptions(command('replace'), { delete: true, text: 'x' })).toThrow('give the new text once: text, from or delete');
  });
});

describe('the checks of given values', () => {
  const grepTool = TOOLS.find((t) => t.name === 'grep')!;
  const args = toolArguments(grepTool, command('grep'));
  const check = (given: unknown, numericStrings = false) => checkGiven(command('grep'), args, given, { dialect: 'mcp', unknown: 'refuse', what: 'grep', numericStrings });

  it('own properties only: Object.prototype names are unknown arguments', () => {
    for (const name of ['constructor', 'toString', 'valueOf', '__proto__', 'hasOwnProperty']) {
      expect(() => check(JSON.parse(`{"pattern":"x","${name}":1}`)), name).toThrow(`grep has no argument "${name}"`);
    }
  });

  it('numbers as strings where asked, in the tool\'s words; ranges and required arguments named so', () => {
    expect(check({ pattern: 'x', max_rows: '12' }, true)).toEqual({ pattern: 'x', maxRows: 12 });
    expect(() => check({ pattern: 'x', max_rows: '12' })).toThrow('max_rows must be a number, not "12"');
    expect(() => check({ pattern: 'x', max_rows: 0 })).toThrow('max_rows must be at least 1, not 0');
    expect(() => check({ max_rows: 3 })).toThrow('grep needs "pattern"');
  });
});

describe('words: each surface names options its own way', () => {
  it('a footer call and an option, on the command line, to a tool, in the library', () => {
    const args = { path: 'big.log', start: 96, end: 500, maxBytes: 8000 };
    expect(cliWords('readlines').call('readlines', args)).toBe('linewise readlines big.log 96 500 --max-bytes 8000');
    expect(mcpWords('readlines').call('readlines', args)).toBe('call read_lines with {"path":"big.log","start":96,"end":500,"max_bytes":8000}');
    expect(libraryWords('readlines').call('readlines', args)).toBe('readlines({"path":"big.log","start":96,"end":500,"maxBytes":8000})');
    expect(cliWords('grep').sameWith('after', 'src/a.ts:17')).toBe('Run the same command with --after src/a.ts:17');
    expect(mcpWords('grep').sameWith('after', 'src/a.ts:17')).toBe('Call grep again with after: "src/a.ts:17"');
    expect(mcpWords('grep', 'find_files').sameWith('after', 'a b')).toBe('Call find_files again with after: "a b"');
    expect(cliWords('readlines').call('readlines', { path: '-x', start: 1, end: 1 })).toBe('linewise readlines ./-x 1 1');
    expect(cliWords('readlines').call('readlines', { path: 'a\tb', start: 1 })).toBe("linewise readlines $'a\\x09b' 1");
    expect(cliWords('replace').set('encoding', 'latin1')).toBe('--encoding latin1');
    expect(mcpWords('replace').set('encoding', 'latin1')).toBe('encoding: "latin1"');
  });

  it('every option on the command line has a long flag, and every tool argument one name', () => {
    for (const spec of COMMANDS) for (const o of spec.options) if (o.cli !== undefined) expect(longFlag(o)).toMatch(/^--[a-z0-9-]+$/);
    for (const t of TOOLS) {
      const names = toolArguments(t, COMMANDS.find((c) => c.name === t.command)!).map((d) => d.mcp ?? d.key);
      expect(new Set(names).size, t.name).toBe(names.length);
    }
  });
});

describe('what others keep agrees with the declaration', () => {
  it('the engine\'s and the server\'s constants', () => {
    expect(MAX_TIMEOUT).toBe(ENGINE_MAX_TIMEOUT);
    expect(DEFAULT_CACHE_MIB).toBe(IO_CACHE_MIB);
  });

  /** The doc's generated blocks as the declaration gives them (rewritten under npm run docs:surface). */
  const generated = (name: string): string => {
    const at = fileURLToPath(new URL(`../docs/${name}`, import.meta.url));
    const doc = fs.readFileSync(at, 'utf8');
    const want = fillBlocks(doc, docBlock);
    if (process.env.UPDATE_SURFACE_DOCS === '1' && want !== doc) fs.writeFileSync(at, want);
    else expect(doc, 'run npm run docs:surface').toBe(want);
    return doc;
  };

  it('docs/COMMANDS.md holds the option lists the declaration gives', () => {
    const doc = generated('COMMANDS.md');
    for (const spec of COMMANDS.filter((c) => c.options.length > 0)) expect(doc).toContain(`<!-- surface:options-${spec.name} -->`);
  });

  it('docs/MCP.md holds the tools table the declaration gives', () => {
    const doc = generated('MCP.md');
    expect(doc).toContain('<!-- surface:tools -->');
    for (const t of TOOLS) expect(doc).toContain(`| \`${t.name}\` |`);
  });
});
