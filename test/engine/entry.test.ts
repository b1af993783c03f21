// The built package entry (dist/index.js through package.json "exports"), and the library examples
// of the README and docs/LIBRARY.md run exactly as written, their output compared with what they show.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { esc } from '../helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Runs ES module code with the repo as working directory, so `'linewise'` resolves to the package itself. */
function node(code: string) {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the package entry', () => {
  it("resolves 'linewise' to the built dist/index.js and returns the CLI's data", () => {
    const r = node(`
      import * as lw from 'linewise';
      import { createRequire } from 'node:module';
      const require = createRequire(import.meta.url);
      const lines = lw.readLines('fixtures/mixed.txt', 3);
      console.log(JSON.stringify({
        resolved: import.meta.resolve('linewise').endsWith('/dist/index.js'),
        exports: Object.keys(lw).sort(),
        version: require('linewise/package.json').version,
        lines: lines.map((l) => [l.line, l.bytes.toString('latin1'), l.text, l.terminator, l.path]),
        latin1: lw.readLines('fixtures/latin1.txt', 1, 1)[0].text === undefined,
        exit: lw.Exit,
      }));
      try { lw.page('fixtures/nul.bin'); } catch (e) { console.log(e instanceof lw.LinewiseError, e.code, e.exitCode, e.path); }`);
    expect(r.stderr).toBe('');
    const [data, error] = r.stdout.split('\n');
    expect(JSON.parse(data!)).toEqual({
      resolved: true,
      exports: ['Exit', 'LinewiseError', 'MAX_LINE_BYTES', 'PatchFailedError', 'StaleEditError', 'TextNotFoundError', 'anchorOf', 'applyEdits', 'applyPatch', 'createFile', 'grep', 'loadEncoding', 'page', 'readLines', 'replace', 'replaceRows', 'replaceText'],
      version: JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')).version,
      lines: [
        [3, 'three\r\n', 'three', '\r\n', 'fixtures/mixed.txt'],
        [4, 'four', 'four', '', 'fixtures/mixed.txt'],
      ],
      latin1: true,
      exit: { ok: 0, noMatch: 1, usage: 2, stale: 3 },
    });
    expect(error).toBe('true binary 2 fixtures/nul.bin');
  });

  it('`npx linewise` from the repo runs the package bin', () => {
    const r = spawnSync('npx', ['--offline', '--', 'linewise', '--version'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')).version}\n`);
  });

  /** The code block after `<!-- example: library... -->` in DOC and the output block after it. */
  function example(doc: string) {
    const text = readFileSync(`${ROOT}/${doc}`, 'utf8');
    const block = (marker: string) => {
      const m = new RegExp(`<!-- ${marker}[^>]*-->\\n\`\`\`\\w*\\n([\\s\\S]*?)\`\`\`\\n`).exec(text);
      if (!m) throw new Error(`${doc} has no block after <!-- ${marker} -->`);
      return m[1]!;
    };
    return { code: block('example: library'), output: block('example output') };
  }

  // The README's short example and the reference's full one (find, read, replace with the guard).
  it.each(['README.md', 'docs/LIBRARY.md'])('runs the example of %s and prints what it says', (doc) => {
    const { code, output } = example(doc);
    const r = node(code);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(esc(r.stdout)).toBe(esc(output));
  });
});
