// Bundles the CLI into dist/ with esbuild: one file to load at start-up, heavy dependencies
// (iconv-lite, fast-glob, diff) split into chunks that load only when a command needs them.
// The library entry (dist/index.js) is a second entry point: it shares the core's chunks with
// the CLI, and never loads commander or chalk. Its declarations come from tsconfig.build.json.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli.ts', index: 'src/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  keepNames: false,
  legalComments: 'none',
  // esbuild's ESM output has no `require`; CommonJS dependencies (commander) need one.
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
});
