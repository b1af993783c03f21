// esbuild plugins shared by the bundle (scripts/build.mjs) and the standalone binary
// (scripts/build-binary.mjs): what keeps a start-up from loading what the command does not use.

/**
 * commander requires node:child_process when it loads, for executable subcommands (a program of
 * their own per subcommand), which linewise has none of; child_process loads net, dgram and the
 * streams: about 3 ms of every start-up (measured). commander gets a stand-in whose spawn loads
 * the real module on first use.
 */
export const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^node:child_process$/ }, (a) => (/[\\/]node_modules[\\/]commander[\\/]/.test(a.importer) ? { path: 'child_process', namespace: 'lazy-builtin' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, () => ({ contents: "module.exports = { spawn: (...a) => require('node:child_process').spawn(...a) };", loader: 'js' }));
  },
};

/**
 * Imports of the packages in `names` (all of them, or only import() ones) left to
 * `./<name>.cjs`, a file of dist/ built on its own.
 */
export function packagesApart(names, { dynamicOnly }) {
  const filter = new RegExp(`^(${names.map((n) => n.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join('|')})$`);
  return {
    name: 'packages-apart',
    setup(b) {
      b.onResolve({ filter, namespace: 'file' }, (a) => (!dynamicOnly || a.kind === 'dynamic-import' ? { path: `./${fileName(a.path)}.cjs`, external: true } : undefined));
    },
  };
}

/** The file name of a package bundled on its own: `@scope/name` is `name`. */
export const fileName = (pkg) => pkg.replace(/^@[^/]+\//, '');

/**
 * `import * as fs from 'node:fs'` in a CommonJS bundle is `__toESM(require('node:fs'))` in each
 * importing module: a fresh object with a getter for each of the built-in's properties (about a
 * hundred for fs), made again by every module that imports it as it initializes: 0.07-0.1 ms
 * each, ten of them on a plain readlines. Here the imports of these built-ins go through one
 * module of the bundle that re-exports the built-in once.
 */
export const sharedBuiltins = {
  name: 'shared-builtins',
  setup(b) {
    b.onResolve({ filter: /^node:(fs|path|buffer)$/ }, (a) => (a.namespace === 'shared-builtin' ? { path: a.path, external: true } : { path: a.path, namespace: 'shared-builtin' }));
    b.onLoad({ filter: /.*/, namespace: 'shared-builtin' }, (a) => ({ contents: `export * from '${a.path}';`, loader: 'js' }));
  },
};
