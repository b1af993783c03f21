// Holds the design's one-way dependencies, reading every import (static, type-only and dynamic):
// adapters (cli, commands, mcp) -> format (printers) -> engine -> core, io; the surface (one
// declaration of every command and option) is data over core, read by all of them; core is pure;
// nothing imports the CLI.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src', import.meta.url));
const files = (dir: string): string[] =>
  readdirSync(join(SRC, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
const ALL = files('.');

interface Import {
  spec: string;
  /** the layer (top folder of src) a relative import lands in, or the package name */
  target: string;
  typeOnly: boolean;
}

/** Every import of a file: `import ... from`, `export ... from`, `import '...'` and `import('...')`. */
function imports(file: string): Import[] {
  const text = readFileSync(join(SRC, file), 'utf8');
  const found: Import[] = [];
  const add = (spec: string, typeOnly: boolean) => {
    let target = spec;
    if (spec.startsWith('.')) {
      const resolved = normalize(join(dirname(file), spec));
      target = resolved.startsWith('..') ? resolved : resolved.includes('/') ? resolved.split('/')[0]! : '.';
    }
    found.push({ spec, target, typeOnly });
  };
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?[^'";]*?\bfrom\s+'([^']+)'/gm)) add(m[3]!, m[2] !== undefined);
  for (const m of text.matchAll(/^\s*import\s+'([^']+)'/gm)) add(m[1]!, false);
  for (const m of text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) add(m[1]!, false);
  for (const m of text.matchAll(/\bimport\(\s*[^'\s)]/g)) throw new Error(`${file}: import() of a computed name cannot be checked: ${m[0]}`);
  return found;
}

/** The code of a file without its comments (a doc example may show `process.stdout`). */
const code = (f: string) =>
  readFileSync(join(SRC, f), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');

const layer = (f: string) => (f.includes('/') ? f.split('/')[0]! : '.');
const inLayer = (name: string) => ALL.filter((f) => layer(f) === name);
const relative = (i: Import) => i.spec.startsWith('.');

describe('architecture', () => {
  it('reads imports of every kind (the checks below see dynamic imports too)', () => {
    const search = imports('engine/apply.ts').map((i) => i.spec);
    expect(search).toContain('./diff.js'); // loaded with import() for dry runs only
  });

  it('core imports only core, node:buffer and the regex parser, and never touches the process', () => {
    for (const f of inLayer('core')) {
      for (const i of imports(f)) {
        const ok = (relative(i) && i.target === 'core') || i.spec === 'node:buffer' || i.spec === '@eslint-community/regexpp';
        expect(ok, `${f} imports ${i.spec}`).toBe(true);
      }
      expect(code(f), `${f} touches process`).not.toMatch(/\bprocess\./);
    }
  });

  it('io imports only core and io', () => {
    for (const f of inLayer('io')) {
      for (const i of imports(f).filter(relative)) expect(['core', 'io'], `${f} imports ${i.spec}`).toContain(i.target);
    }
  });

  it('format prints engine results: it imports core, only types of the engine, and writes through the Output type', () => {
    for (const f of inLayer('format')) {
      for (const i of imports(f)) {
        if (!relative(i)) expect(['node:buffer'], `${f} imports ${i.spec}`).toContain(i.spec);
        else if (i.target === 'io') expect(i.typeOnly && i.spec.endsWith('/output.js'), `${f} imports ${i.spec}`).toBe(true);
        else if (i.target === 'engine') expect(i.typeOnly, `${f} imports ${i.spec} (types only)`).toBe(true);
        else expect(['core', 'format', 'surface'], `${f} imports ${i.spec}`).toContain(i.target);
      }
      expect(code(f), `${f} touches process`).not.toMatch(/\bprocess\./);
    }
  });

  it('the engine imports no printer, no adapter, no commander or chalk, and never touches the process', () => {
    for (const f of inLayer('engine')) {
      for (const i of imports(f)) {
        if (relative(i)) expect(['core', 'io', 'engine', 'surface'], `${f} imports ${i.spec}`).toContain(i.target);
        else expect(['commander', 'chalk'], `${f} imports ${i.spec}`).not.toContain(i.spec);
      }
      expect(code(f), `${f} touches process`).not.toMatch(/\bprocess\./);
    }
  });

  it('the surface (the declaration every adapter derives from) is data over core: it imports core and itself only, and no package', () => {
    expect(inLayer('surface').length).toBeGreaterThan(3);
    for (const f of inLayer('surface')) {
      for (const i of imports(f)) expect(relative(i) && ['core', 'surface'].includes(i.target), `${f} imports ${i.spec}`).toBe(true);
      expect(code(f), `${f} touches process`).not.toMatch(/\bprocess\./);
    }
  });

  it('the library entry exports the engine and nothing of an adapter', () => {
    for (const i of imports('index.ts')) expect(['engine', 'core'], i.spec).toContain(i.target);
  });

  it('nothing imports the CLI but the CLI and the binary entry; no adapter imports another', () => {
    for (const f of ALL) {
      for (const i of imports(f).filter(relative)) {
        if (i.target === 'cli') expect(layer(f) === 'cli' || f === 'sea.ts', `${f} imports ${i.spec}`).toBe(true);
        if (i.target === 'commands') expect(['cli', 'commands'], `${f} imports ${i.spec}`).toContain(layer(f));
        if (i.target === 'mcp') expect(['cli', 'mcp'], `${f} imports ${i.spec}`).toContain(layer(f));
      }
    }
  });

  it('the MCP server imports no command and no CLI, and only the subcommand dispatch loads it, with import()', () => {
    for (const f of inLayer('mcp')) {
      for (const i of imports(f).filter(relative)) expect(['cli', 'commands'], `${f} imports ${i.spec}`).not.toContain(i.target);
    }
    const importers = ALL.filter((f) => layer(f) !== 'mcp').flatMap((f) => imports(f).filter((i) => relative(i) && i.target === 'mcp').map((i) => ({ f, i })));
    expect(importers.map(({ f, i }) => `${f} ${i.spec}`)).toEqual(['cli/program.ts ../mcp/server.js']);
    expect(code('cli/program.ts')).toContain("await import('../mcp/server.js')");
    // The SDK is reached through one module, which the server loads with import() (its own chunk).
    for (const f of ALL.filter((x) => x !== 'mcp/sdk.ts')) {
      for (const i of imports(f)) expect(i.spec.startsWith('@modelcontextprotocol/'), `${f} imports ${i.spec}`).toBe(false);
    }
    expect(imports('mcp/sdk.ts').every((i) => i.spec.startsWith('@modelcontextprotocol/sdk/'))).toBe(true);
    expect(code('mcp/server.ts')).toContain("await import('./sdk.js')");
    for (const f of inLayer('mcp')) {
      for (const i of imports(f).filter((x) => x.spec === './sdk.js' && !code(f).includes("import('./sdk.js')"))) expect(i.typeOnly, `${f} imports the SDK statically`).toBe(true);
    }
  });

  it('only the CLI imports commander and chalk', () => {
    for (const f of ALL) {
      if (layer(f) === 'cli') continue;
      for (const i of imports(f)) expect(['commander', 'chalk'], `${f} imports ${i.spec}`).not.toContain(i.spec);
    }
  });

  it('every source file opens with a one-line comment saying its job', () => {
    for (const f of ALL) expect(readFileSync(join(SRC, f), 'utf8'), f).toMatch(/^\/\/ \S/);
  });
});
