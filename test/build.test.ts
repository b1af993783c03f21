// The shape of the bundle: what a plain run loads at start-up, and what only loads on demand.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DIST = fileURLToPath(new URL('../dist', import.meta.url));
const read = (f: string) => readFileSync(`${DIST}/${f}`, 'utf8');

/** Files an ES module of the library imports statically (`from"./x.js"`, `import"./x.js"`), transitively. */
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
 * The scripts of dist/ that a CLI run loads: bin/linewise.js keeps a code cache file per script
 * it runs, named after it, in a directory of the temporary directory; a fresh one per run.
 */
function loadedBy(args: string[]): string[] {
  const temp = mkdtempSync(join(tmpdir(), 'lw-loaded-'));
  try {
    const bin = fileURLToPath(new URL('../bin/linewise.js', import.meta.url));
    const cwd = fileURLToPath(new URL('../fixtures', import.meta.url));
    const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', env: { ...process.env, TMPDIR: temp } });
    expect([0, 1], r.stderr).toContain(r.status); // matched, or not
    const [cache] = readdirSync(temp);
    return readdirSync(join(temp, cache!)).map((f) => f.replace(/-[0-9a-f]+$/, ''));
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

describe('the bundle (npm run build)', () => {
  // Markers: strings only these packages contain.
  const apart = { 'iconv-lite': 'defaultCharSingleByte', 'fast-glob': 'onlyDirectories', ignore: 'checkIgnore', diff: 'createTwoFilesPatch' };
  const scripts = readdirSync(DIST).filter((f) => f.endsWith('.cjs'));

  it('keeps iconv-lite, fast-glob, ignore and diff out of the CLI and the library, each in a file of its own', () => {
    const all = readdirSync(DIST).filter((f) => /\.c?js$/.test(f));
    for (const [name, marker] of Object.entries(apart)) {
      const holding = all.filter((f) => read(f).includes(marker));
      expect(holding, name).toEqual([`${name}.cjs`]);
    }
  });

  it('loads only the CLI script for a plain run, the others when a command needs them', () => {
    expect(loadedBy(['readlines', 'crlf.txt', '1', '2'])).toEqual(['cli.cjs']);
    expect(loadedBy(['page', 'crlf.txt'])).toEqual(['cli.cjs']);
    expect(loadedBy(['readlines', '--encoding', 'shift_jis', 'crlf.txt', '1']).sort()).toEqual(['cli.cjs', 'iconv-lite.cjs']);
  });

  it('keeps the library entry free of commander and chalk', () => {
    for (const f of staticClosure('index.js')) {
      expect(read(f), f).not.toContain('commander.helpDisplayed');
      expect(read(f), f).not.toContain('chalkStderr');
    }
  });

  it('loads the regex parser only for a regex with syntax: not for readlines, page, grep -F or a plain word', () => {
    const parser = scripts.filter((f) => read(f).includes('Lone quantifier brackets'));
    expect(parser).toEqual(['regexpp.cjs']);
    expect(loadedBy(['grep', 'a.p', 'crlf.txt'])).toContain('regexpp.cjs'); // the trace sees it when it loads
    for (const args of [['readlines', 'crlf.txt', '1', '2'], ['page', 'crlf.txt'], ['grep', '-F', 'a.p', 'crlf.txt'], ['grep', 'alpha', 'crlf.txt'], ['grep', '-i', 'ALPHA', 'crlf.txt']]) {
      const loaded = loadedBy(args);
      expect(loaded, args.join(' ')).toContain('cli.cjs');
      expect(loaded, args.join(' ')).not.toContain('regexpp.cjs');
    }
  });

  it('loads the MCP SDK only for `linewise mcp`, from a file of its own, never for readlines, page or grep', () => {
    // The server itself (src/mcp) is part of the CLI's script, imported with import() by the mcp
    // action: its module runs only then (esbuild's lazy initialisation within a script).
    const all = readdirSync(DIST).filter((f) => /\.c?js$/.test(f));
    expect(all.filter((f) => read(f).includes('notifications/roots/list_changed'))).toEqual(['mcp-sdk.cjs']);
    expect(all.filter((f) => read(f).includes('The loop: grep (or find_files) to find'))).toEqual(['cli.cjs']);
    // The server ends when its standard input does: here at once, having loaded the SDK.
    expect(loadedBy(['mcp']).sort()).toEqual(['cli.cjs', 'mcp-sdk.cjs']);
    for (const args of [['readlines', 'crlf.txt', '1', '2'], ['page', 'crlf.txt'], ['grep', 'alpha', 'crlf.txt'], ['grep', '-r', 'alpha', '.']]) {
      expect(loadedBy(args), args.join(' ')).not.toContain('mcp-sdk.cjs');
    }
  });
});

describe('the Node modules a run loads', () => {
  /** Node's own modules a CLI run loaded, its standard output sent to `stdout`. */
  function nodeModules(args: string[], stdout: 'ignore' | 'pipe'): string[] {
    const bin = fileURLToPath(new URL('../bin/linewise.js', import.meta.url));
    const cwd = fileURLToPath(new URL('../fixtures', import.meta.url));
    const temp = mkdtempSync(join(tmpdir(), 'lw-modules-'));
    try {
      const report = join(temp, 'report.cjs');
      writeFileSync(report, "process.on('exit', () => require('fs').writeSync(2, JSON.stringify(process.moduleLoadList)));\n");
      const r = spawnSync(process.execPath, ['--require', report, bin, ...args], { cwd, encoding: 'utf8', stdio: ['ignore', stdout, 'pipe'] });
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stderr) as string[];
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  }

  it('never loads node:tty (with net and the streams, 3 ms) for output to a pipe or to /dev/null', () => {
    // stdio 'ignore' is /dev/null, a character device as a terminal is: told apart without node:tty
    for (const out of ['ignore', 'pipe'] as const) {
      for (const args of [['readlines', 'crlf.txt', '1', '2'], ['page', 'crlf.txt']]) {
        expect(nodeModules(args, out), `${args.join(' ')} > ${out}`).not.toContain('NativeModule tty');
      }
    }
  });

  it('loads node:v8 for grep, and readlines of a file of 64 MiB or more, only, to set their V8 flags (src/cli/heap.ts)', () => {
    expect(nodeModules(['grep', '-c', '-F', 'beta', 'crlf.txt'], 'pipe').filter((m) => m === 'NativeModule v8')).toEqual(['NativeModule v8']);
    for (const args of [['readlines', 'crlf.txt', '1', '2'], ['page', 'crlf.txt']]) expect(nodeModules(args, 'pipe')).not.toContain('NativeModule v8');
    // a sparse file of 64 MiB: its first line, then NUL bytes (read with --text)
    const temp = mkdtempSync(join(tmpdir(), 'lw-large-'));
    try {
      const large = join(temp, 'large.txt');
      writeFileSync(large, 'first\n');
      truncateSync(large, 64 << 20);
      expect(nodeModules(['readlines', large, '1', '1', '--text'], 'pipe')).toContain('NativeModule v8');
      // page reads little of it (--last): node:v8 would cost it more than the flags save
      expect(nodeModules(['page', '--text', large, '--limit', '1'], 'pipe')).not.toContain('NativeModule v8');
      truncateSync(large, (64 << 20) - 1);
      expect(nodeModules(['readlines', large, '1', '1', '--text'], 'pipe')).not.toContain('NativeModule v8');
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });
});
