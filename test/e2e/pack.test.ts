// The npm package as a user gets it: `npm pack` a copy of the repo (prepack builds it), install the
// tarball globally into a temporary prefix and as a dependency, then run the CLI and the library.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esc, fixture, tempDir } from '../helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const tmp = tempDir();
afterAll(() => tmp.cleanup());

/** npm, quietly, never asking the network for what the tarball does not need. */
function npm(args: string[], cwd: string): string {
  return execFileSync('npm', [...args, '--no-audit', '--no-fund', '--no-update-notifier'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

let tarball = '';
let files: string[] = [];
const prefix = join(tmp.dir, 'prefix');

beforeAll(() => {
  // A copy of the sources without any build output, so the tarball is what prepack builds on a
  // fresh clone, and the repo's own dist/ (which other tests run) is never rebuilt under them.
  const copy = join(tmp.dir, 'repo');
  // Only what git would clone (tracked, or new and not ignored): no build output, no bench data.
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  for (const f of listed.split('\0').filter(Boolean)) {
    if (!existsSync(join(ROOT, f))) continue; // deleted in the work tree
    mkdirSync(dirname(join(copy, f)), { recursive: true });
    cpSync(join(ROOT, f), join(copy, f));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const out = join(tmp.dir, 'pack');
  mkdirSync(out);
  npm(['pack', '--pack-destination', out], copy);
  const [name] = readdirSync(out).filter((f) => f.endsWith('.tgz'));
  tarball = join(out, name!);
  files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
  npm(['install', '--global', '--prefix', prefix, '--offline', tarball], tmp.dir);
}, 240_000);

describe('the npm package', () => {
  it('from a clone: `npm link` makes `linewise` a command, and `npx linewise` runs it in the clone', () => {
    const clone = join(tmp.dir, 'repo'); // built by the prepack above, as `npm run build` builds a clone
    const linked = join(tmp.dir, 'linked');
    mkdirSync(linked);
    execFileSync('npm', ['link', '--no-audit', '--no-fund', '--no-update-notifier', '--offline'], { cwd: clone, env: { ...process.env, npm_config_prefix: linked }, stdio: 'ignore' });
    const env = { ...process.env, NO_COLOR: '1', PATH: `${join(linked, 'bin')}:${process.env.PATH}` };
    const r = spawnSync('linewise', ['readlines', fixture('crlf.txt'), '2'], { env, cwd: tmp.dir });
    expect([r.status, esc(r.stdout), r.stderr.toString()]).toEqual([0, '2\\tbeta\\r\\n3\\tgamma\\r\\n', '']);
    const npx = spawnSync('npx', ['--offline', 'linewise', 'readlines', fixture('crlf.txt'), '3'], { cwd: clone, env: { ...process.env, NO_COLOR: '1' } });
    expect([npx.status, esc(npx.stdout)]).toEqual([0, '3\\tgamma\\r\\n']);
  }, 120_000);

  it('holds only what users need: bin, the bundle, types, README, LICENSE, CHANGELOG', () => {
    const allowed = [
      /^package\/(package\.json|README\.md|LICENSE|CHANGELOG\.md)$/,
      /^package\/bin\/(linewise\.js|package\.json)$/,
      /^package\/dist\/[\w-]+\.c?js$/,
      /^package\/dist\/types\/([\w-]+\/)*[\w-]+\.d\.ts$/,
    ];
    for (const f of files) expect(allowed.some((re) => re.test(f)), f).toBe(true);
    for (const must of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'bin/linewise.js', 'bin/package.json', 'dist/cli.cjs', 'dist/index.js', 'dist/types/index.d.ts']) {
      expect(files).toContain(`package/${must}`);
    }
  });

  it('installs globally with no dependencies (all bundled) and runs, bytes verbatim', () => {
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(existsSync(join(prefix, 'lib', 'node_modules', 'linewise', 'node_modules'))).toBe(false);
    const bin = join(prefix, 'bin', 'linewise');
    const r = spawnSync(bin, ['readlines', fixture('mixed.txt'), '2'], { env: { ...process.env, NO_COLOR: '1' } });
    expect(r.stderr.toString()).toBe('');
    expect(r.status).toBe(0);
    expect(esc(r.stdout)).toBe('2\\ttwo\\n3\\tthree\\r\\n4\\tfour\\n\\\\ No newline at end of file\\n');
    expect(spawnSync(bin, ['--version']).stdout.toString()).toBe(`${pkg.version}\n`);
  });

  it('works as a library dependency: the entry imports, and its types check', () => {
    const app = join(tmp.dir, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    npm(['install', '--offline', tarball], app);
    writeFileSync(
      join(app, 'use.mjs'),
      `import { readLines, page } from 'linewise';
const lines = readLines(process.argv[2], 1);
process.stdout.write(Buffer.concat(lines.map((l) => l.bytes)));
process.stdout.write(JSON.stringify([lines.map((l) => l.terminator), page(process.argv[2], { limit: 1 }).nextOffset]));`,
    );
    const r = spawnSync(process.execPath, ['use.mjs', fixture('mixed.txt')], { cwd: app });
    expect(r.stderr.toString()).toBe('');
    expect(esc(r.stdout)).toBe(esc(Buffer.concat([readFileSync(fixture('mixed.txt')), Buffer.from('[["\\r\\n","\\n","\\r\\n",""],1]')])));

    // A consumer in strict TypeScript resolves the declarations through package.json "exports".
    writeFileSync(
      join(app, 'use.ts'),
      `import { applyEdits, createFile, type Line, LinewiseError, page, readLines, type ReplaceResult, replaceText, TextNotFoundError } from 'linewise';
const lines: Line[] = readLines('f', 1, 2, { text: true });
const next: number | undefined = page('f', { offset: 0, limit: 10 }).nextOffset;
const code: 0 | 1 | 2 | 3 = new LinewiseError('x', 'y').exitCode;
// @ts-expect-error line numbers are numbers
readLines('f', '1');
// the edits agents make: by content, several in one call, a new file; typed results and errors
const edited: ReplaceResult = await replaceText('f', { old: 'a\\nb', new: 'A', all: false }, { receipt: true, dryRun: true });
const regions: Line[][] | undefined = edited.files[0]?.receipt?.regions;
const mixed = await applyEdits('f', [{ start: 1, end: 0, text: 'top' }, { old: 'x', new: 'y' }]);
const made = await createFile('g', 'text\\n', { eol: 'crlf', force: false });
const notFound = (e: unknown): boolean => e instanceof TextNotFoundError && e.difference !== undefined && e.near.length > 0;
// @ts-expect-error a content edit needs its new text
await replaceText('f', { old: 'a' });
export { lines, next, code, regions, mixed, made, notFound };`,
    );
    const tsc = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext',
        '--target', 'es2022', '--types', 'node', '--typeRoots', join(ROOT, 'node_modules', '@types'), 'use.ts'],
      { cwd: app, encoding: 'utf8' },
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 180_000); // npm install and a tsc run: tens of seconds on a busy machine
});
