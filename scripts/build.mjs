// Bundles linewise into dist/ with esbuild: the CLI as one CommonJS script (dist/cli.cjs) that
// bin/linewise.js compiles through V8's code cache, the library (dist/index.js) as ES modules, and
// heavy dependencies (iconv-lite, fast-glob, ignore, diff, the regex parser, the MCP SDK) as
// CommonJS files of their own, loaded only when a command needs them. Declarations come from
// tsconfig.build.json.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileName, lazyChildProcess, packagesApart, sharedBuiltins } from './esbuild-plugins.mjs';

const common = { bundle: true, platform: 'node', target: 'node20', minify: true, keepNames: false, legalComments: 'none', logLevel: 'warning' };

// Packages loaded with import() only when needed, each bundled on its own into dist/<name>.cjs,
// shared by the CLI (its loader requires them through the code cache) and the library (which
// imports the same files). Not left to code splitting: the CLI is one script, and a split
// CommonJS package would move esbuild's helpers into a chunk that loads on every run.
const LAZY = ['iconv-lite', 'fast-glob', 'ignore', 'diff'];
// The regex parser is imported statically by src/core/regex-analysis.ts, which pattern.ts loads
// with import() only for a regex. In the library the two share a chunk; the CLI leaves the parser
// to a file of its own, so that no other run reads it (a fifth of the script).
const CLI_APART = ['@eslint-community/regexpp'];
// `linewise mcp` alone loads the SDK (with zod and ajv): src/mcp/server.ts imports ./sdk.js with
// import(), and src/mcp/sdk.ts is bundled with the SDK into dist/mcp-sdk.cjs.
const MCP_SDK = { name: 'mcp-sdk', entry: 'src/mcp/sdk.ts', import: /^\.\/sdk\.js$/ };
const mcpSdkApart = {
  name: 'mcp-sdk-apart',
  setup(b) {
    b.onResolve({ filter: MCP_SDK.import, namespace: 'file' }, (a) => (a.kind === 'dynamic-import' ? { path: `./${MCP_SDK.name}.cjs`, external: true } : undefined));
  },
};

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await Promise.all([
  // The library: ES modules, split so that what a call does not need is never parsed. esbuild's
  // ESM output has no `require`; the CommonJS packages it bundles (none at start-up) need one.
  build({
    ...common,
    format: 'esm',
    // grep-worker: the worker thread of grep -j (the library's and the CLI's), an ES module loaded
    // by URL beside the chunks it shares with the library (src/engine/worker-source.ts);
    // mcp-search-thread: a search thread of `linewise mcp`, loaded the same way (src/mcp/thread-source.ts)
    entryPoints: { index: 'src/index.ts', 'grep-worker': 'src/engine/grep-worker.ts', 'mcp-search-thread': 'src/mcp/search-thread.ts' },
    outdir: 'dist',
    splitting: true,
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    plugins: [packagesApart(LAZY, { dynamicOnly: true })],
  }),
  // The CLI: one CommonJS script, because V8's code cache (vm.Script cachedData) takes scripts,
  // not ES modules, on Node 20. A script cannot be split, but a module imported with import()
  // (the adapters of grep, replace and encodings, chalk, the regex analysis) runs only when
  // imported, so a readlines compiles and runs none of it. One file: a split build (eight files
  // at start-up) measured slower to load than the one larger script. import() of a package apart
  // becomes a require() that the loader serves from dist/.
  build({
    ...common,
    format: 'cjs',
    entryPoints: { cli: 'src/cli/main.ts' },
    outdir: 'dist',
    outExtension: { '.js': '.cjs' },
    supported: { 'dynamic-import': false },
    // iconv.ts's createRequire(import.meta.url): the script's own URL, made only when asked
    define: { 'import.meta.url': '__linewise_meta.url' },
    banner: { js: "var __linewise_meta={get url(){return require('node:url').pathToFileURL(__filename).href}};" },
    plugins: [packagesApart(LAZY, { dynamicOnly: true }), packagesApart(CLI_APART, { dynamicOnly: false }), mcpSdkApart, lazyChildProcess, sharedBuiltins],
  }),
  ...[...LAZY, ...CLI_APART].map((name) => build({ ...common, format: 'cjs', entryPoints: { [fileName(name)]: name }, outdir: 'dist', outExtension: { '.js': '.cjs' } })),
  build({ ...common, format: 'cjs', entryPoints: { [MCP_SDK.name]: MCP_SDK.entry }, outdir: 'dist', outExtension: { '.js': '.cjs' } }),
]);
