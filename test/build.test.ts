// The shape of the bundle: what a plain run loads at start-up, and what only loads on demand.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DIST = fileURLToPath(new URL('../dist', import.meta.url));
const read = (f: string) => readFileSync(`${DIST}/${f}`, 'utf8');

/** Files a module imports statically (`from"./x.js"`, `import"./x.js"`), transitively. */
function staticClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (f: string) => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const m of read(f).matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.js)"/g)) visit(m[1]!);
  };
  visit(entry);
  return seen;
}

/**
 * The files of dist/ that a CLI run loads, in order: a module loader hook, registered before the
 * CLI starts, names each module as it is loaded (on stderr, from the hooks' thread).
 */
function loadedBy(args: string[]): string[] {
  const hook = `import{writeSync}from'node:fs';export async function load(u,c,n){writeSync(2,'loaded '+u+'\\n');return n(u,c)}`;
  const register = `import{register}from'node:module';register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)})`;
  const bin = fileURLToPath(new URL('../bin/linewise.js', import.meta.url));
  const cwd = fileURLToPath(new URL('../fixtures', import.meta.url));
  const r = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, bin, ...args], { cwd, encoding: 'utf8' });
  expect([0, 1], r.stderr).toContain(r.status); // matched, or not
  return [...r.stderr.matchAll(/^loaded file:.*\/dist\/([\w.-]+\.js)$/gm)].map((m) => m[1]!);
}

describe('the bundle (npm run build)', () => {
  // Markers: strings only these packages contain.
  const lazy = { 'iconv-lite': 'defaultCharSingleByte', 'fast-glob': 'onlyDirectories', ignore: 'checkIgnore', diff: 'createTwoFilesPatch' };

  it('keeps iconv-lite, fast-glob, ignore and diff out of what a plain run loads, each in a file of its own', () => {
    const startup = staticClosure('cli.js');
    const all = readdirSync(DIST).filter((f) => f.endsWith('.js'));
    for (const [name, marker] of Object.entries(lazy)) {
      const holding = all.filter((f) => read(f).includes(marker));
      expect(holding, name).toEqual([`${name}.js`]);
      for (const f of startup) expect(read(f), `${f} holds ${name}`).not.toContain(marker);
    }
  });

  it('keeps the library entry free of commander and chalk', () => {
    for (const f of staticClosure('index.js')) {
      expect(read(f), f).not.toContain('commander.helpDisplayed');
      expect(read(f), f).not.toContain('chalkStderr');
    }
  });

  it('loads the regex parser only for a regex with syntax: not for readlines, page, grep -F or a plain word', () => {
    const parser = readdirSync(DIST).filter((f) => f.endsWith('.js') && read(f).includes('Lone quantifier brackets'));
    expect(parser).toHaveLength(1);
    expect(staticClosure('cli.js')).not.toContain(parser[0]);
    expect(loadedBy(['grep', 'a.p', 'crlf.txt'])).toContain(parser[0]); // the trace sees it when it loads
    for (const args of [['readlines', 'crlf.txt', '1', '2'], ['page', 'crlf.txt'], ['grep', '-F', 'a.p', 'crlf.txt'], ['grep', 'alpha', 'crlf.txt'], ['grep', '-i', 'ALPHA', 'crlf.txt']]) {
      const loaded = loadedBy(args);
      expect(loaded, args.join(' ')).toContain('cli.js');
      expect(loaded, args.join(' ')).not.toContain(parser[0]);
    }
  });

  it('loads the MCP server and its SDK only for `linewise mcp`: each in a file of its own, kept out of readlines, page and grep', () => {
    const all = readdirSync(DIST).filter((f) => f.endsWith('.js'));
    const sdk = all.filter((f) => read(f).includes('notifications/roots/list_changed'));
    expect(sdk).toEqual(['mcp-sdk.js']);
    const server = all.filter((f) => read(f).includes('The loop: grep to find'));
    expect(server).toHaveLength(1);
    for (const f of staticClosure('cli.js')) {
      expect(f).not.toBe(server[0]);
      expect(f).not.toBe('mcp-sdk.js');
    }
    // The server ends when its standard input does: here at once, having loaded both.
    expect(loadedBy(['mcp'])).toEqual(expect.arrayContaining(['cli.js', server[0], 'mcp-sdk.js']));
    for (const args of [['readlines', 'crlf.txt', '1', '2'], ['page', 'crlf.txt'], ['grep', 'alpha', 'crlf.txt'], ['grep', '-r', 'alpha', '.']]) {
      const loaded = loadedBy(args);
      expect(loaded, args.join(' ')).toContain('cli.js');
      expect(loaded, args.join(' ')).not.toContain(server[0]);
      expect(loaded, args.join(' ')).not.toContain('mcp-sdk.js');
    }
  });
});
