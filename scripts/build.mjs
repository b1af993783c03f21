// Bundles the CLI into dist/ with esbuild: one file to load at start-up, heavy dependencies
// (iconv-lite, fast-glob, diff, the MCP SDK) split into chunks that load only when a command needs them.
// The library entry (dist/index.js) is a second entry point: it shares the core's chunks with
// the CLI, and never loads commander or chalk. Its declarations come from tsconfig.build.json.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

// esbuild's ESM output has no `require`; CommonJS dependencies (commander) need one.
const banner = { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" };
const common = { bundle: true, format: 'esm', platform: 'node', target: 'node20', minify: true, keepNames: false, legalComments: 'none', banner, logLevel: 'warning' };

// Packages the CLI loads with import() only when needed, each bundled on its own into
// dist/<name>.js. Not left to code splitting: a split CommonJS package moves esbuild's helpers
// into a shared chunk that cli.js would then load statically on every run, encoding or not.
// (@eslint-community/regexpp is ESM: it is left to code splitting, in one chunk with
// src/core/regex-analysis.ts, which pattern.ts loads with import() only for a regex.)
const LAZY = ['iconv-lite', 'fast-glob', 'ignore', 'diff'];
// `linewise mcp` alone loads the SDK: src/mcp/server.ts imports ./sdk.js with import().
const MCP_SDK = { name: 'mcp-sdk', entry: 'src/mcp/sdk.ts', import: /^\.\/sdk\.js$/ };

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  ...common,
  // grep-worker: the worker thread of a tree search, loaded by URL beside the chunks it shares
  entryPoints: { cli: 'src/cli/main.ts', index: 'src/index.ts', 'grep-worker': 'src/engine/grep-worker.ts' },
  outdir: 'dist',
  splitting: true,
  plugins: [
    {
      name: 'lazy-packages',
      setup(b) {
        const filter = new RegExp(`^(${LAZY.map((n) => n.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join('|')})$`);
        b.onResolve({ filter, namespace: 'file' }, (a) => (a.kind === 'dynamic-import' ? { path: `./${a.path}.js`, external: true } : undefined));
        // The MCP SDK (with zod and ajv, CommonJS among them): src/mcp/sdk.ts is its own file, too.
        b.onResolve({ filter: MCP_SDK.import, namespace: 'file' }, (a) => (a.kind === 'dynamic-import' ? { path: `./${MCP_SDK.name}.js`, external: true } : undefined));
      },
    },
  ],
});
await Promise.all([
  ...LAZY.map((name) => build({ ...common, entryPoints: { [name]: name }, outdir: 'dist' })),
  build({ ...common, entryPoints: { [MCP_SDK.name]: MCP_SDK.entry }, outdir: 'dist' }),
]);
