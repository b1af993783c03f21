#!/usr/bin/env node
// Runs the bundled CLI and sets the exit status, compiling the bundle (dist/cli.cjs, a CommonJS
// script) through V8's code cache: start-up is paid on every agent step, and compiling the bundle
// was most of it. Any trouble with the cache only means a slower start, never an error.
//
// CommonJS (bin/package.json), not an ES module: an ES module entry loads Node's ESM loader and
// fs/promises, about 4 ms more per start (measured). vm.Script's cachedData, not
// module.enableCompileCache: Node 20 has no compile cache, and on Node 24 a cache made after the
// run (holding the functions the command compiled, not only the top level) measured faster.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

// grep, and readlines or replace of a large file: V8's young generation kept at its first
// size, and no Maglev; a grep that walks a tree: TurboFan later (src/cli/heap.ts says why and
// what counts; the standalone binary calls that). Set before the bundle is compiled, and part of
// the cache's key.
// patch: the same and no TurboFan.
const heapFlag = runFlags(process.argv.slice(2));
if (heapFlag !== '') process.getBuiltinModule?.('node:v8')?.setFlagsFromString(heapFlag);

/** As src/cli/heap.ts's runFlags (the bundle is not loaded yet): the V8 flags of a run, '' for none. */
function runFlags(argv) {
  const grep = '--semi-space-growth-factor=1 --no-maglev';
  if (argv[0] === 'patch') return `${grep} --no-opt`;
  if (!tunedRun(argv)) return '';
  return walksTree(argv) ? `${grep} --interrupt-budget=1000000` : grep;
}

/** As src/cli/heap.ts's walksTree (V8 11 alone: later ones call --interrupt-budget unrecognized). */
function walksTree(argv) {
  if (!/^11\./.test(process.versions.v8) || argv[0] !== 'grep') return false;
  const words = argv.slice(1).filter((a) => !a.startsWith('-'));
  return (
    words.length <= 1 ||
    words.some((a) => {
      try {
        return fs.statSync(a, { throwIfNoEntry: false })?.isDirectory() === true;
      } catch {
        return false;
      }
    })
  );
}

/** As src/cli/heap.ts's tunedRun (the bundle is not loaded yet). */
function tunedRun(argv) {
  if (argv[0] === 'grep') return true;
  if (argv[0] !== 'readlines' && argv[0] !== 'replace') return false;
  return argv.slice(1).some((a) => {
    if (a.startsWith('-')) return false;
    try {
      const st = fs.statSync(a, { throwIfNoEntry: false });
      return st !== undefined && st.isFile() && st.size >= 64 * 1024 * 1024;
    } catch {
      return false;
    }
  });
}

/** dist/ scripts already run, by path: a file required twice is one module */
const loaded = new Map();
/** the caches to write once the command is done, so they hold the functions it compiled */
const toWrite = [];

/** The cache directory (undefined: none); looked for once. */
let dir;
function cacheDir() {
  if (dir === undefined) dir = makeCacheDir() ?? null;
  return dir ?? undefined;
}

/**
 * A directory per user in the temporary directory, where Node keeps its own compile cache, so a
 * read-only install still gets one. Used only if it is a real directory of this user that no
 * one else may write to (a code cache is code): else there is no cache.
 */
function makeCacheDir() {
  const uid = process.getuid?.();
  const at = path.join(tmpdir(), `linewise-compile-cache${uid === undefined ? '' : `-${uid}`}`);
  try {
    let st = lstat(at);
    if (st === undefined) {
      fs.mkdirSync(at, { mode: 0o700 });
      st = fs.lstatSync(at);
    }
    // (Without user ids, on Windows, the temporary directory is the user's own.)
    return st.isDirectory() && (uid === undefined || (st.uid === uid && (st.mode & 0o022) === 0)) ? at : undefined;
  } catch {
    return undefined; // no temporary directory, or not writable: run without a cache
  }
}

/** os.tmpdir() without loading node:os (about 0.2 ms of every start): the same rule on POSIX. */
function tmpdir() {
  if (process.platform === 'win32') return require('node:os').tmpdir();
  const t = process.env.TMPDIR || process.env.TMP || process.env.TEMP || '/tmp';
  return t.length > 1 && t.endsWith('/') ? t.slice(0, -1) : t;
}

function lstat(p) {
  try {
    return fs.lstatSync(p);
  } catch (e) {
    if (e.code === 'ENOENT') return undefined;
    throw e;
  }
}

/**
 * The cache file of a script: one per script, Node version and V8 flags (V8 rejects a cache
 * made under other flags, so two ways of running would overwrite each other's). FNV-1a, as hex.
 */
function cacheFile(file) {
  const d = cacheDir();
  if (d === undefined) return undefined;
  const key = [file, process.version, process.arch, ...process.execArgv, heapFlag, process.env.NODE_OPTIONS ?? ''].join('\0');
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return path.join(d, `${path.basename(file)}-${(h >>> 0).toString(16)}`);
}

/**
 * Runs the CommonJS script `file` and returns its exports. Its cache starts with a line naming
 * the file it was made from (device, inode, size, modification time, read from the descriptor
 * the source is read from): V8 itself checks only the length of the source, so a cache is used
 * only for the very file it was made from. A script's `require('./x')` is served the same way.
 */
function load(file) {
  const done = loaded.get(file);
  if (done !== undefined) return done.exports;
  const fd = fs.openSync(file, 'r');
  let source;
  let stamp;
  try {
    const st = fs.fstatSync(fd);
    stamp = Buffer.from(`${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}\n`);
    source = fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
  const cache = cacheFile(file);
  let cachedData;
  if (cache !== undefined) {
    try {
      const bytes = fs.readFileSync(cache);
      if (bytes.subarray(0, stamp.length).equals(stamp)) cachedData = bytes.subarray(stamp.length);
    } catch {
      // none yet, or unreadable: compile
    }
  }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  if (cache !== undefined && (cachedData === undefined || script.cachedDataRejected)) toWrite.push({ cache, stamp, script });
  const module = { exports: {} };
  loaded.set(file, module);
  const at = path.dirname(file);
  const requireHere = (id) => (id.startsWith('./') ? load(path.join(at, id)) : require(id));
  script.runInThisContext().call(module.exports, module.exports, requireHere, module, file, at);
  return module.exports;
}

/**
 * Caches kept in the directory. Each install path, Node version and set of V8 flags has a cache of
 * its own (300-450 KB for the CLI), none of which is ever removed by a later run: without a bound
 * they pile up (a developer's machine held 1,425 of them, 362 MB, after a few weeks of tests and
 * benchmarks from many checkouts).
 */
const CACHES_KEPT = 64;
/** A temporary file older than this is from a run that died while writing it. */
const TEMP_ABANDONED_MS = 60 * 60 * 1000;

/** Writes the caches that were missing or stale, each whole under a temporary name, then renamed. */
function writeCaches() {
  if (toWrite.length > 0) pruneCaches();
  for (const { cache, stamp, script } of toWrite) {
    const temp = `${cache}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(temp, Buffer.concat([stamp, script.createCachedData()]), { mode: 0o600, flag: 'wx' });
      fs.renameSync(temp, cache); // atomic: a run at the same time reads the old cache or this one
    } catch {
      try {
        fs.unlinkSync(temp);
      } catch {
        // never made
      }
    }
  }
}

/**
 * Keeps the newest CACHES_KEPT caches (by last use, as far as the file system records it, or by
 * when written) less one for each about to be written, and removes abandoned temporary files. Run
 * only when a cache is written, which is rare: a run that finds its cache never lists the
 * directory. A cache removed while another run reads it was read whole or is read to its end.
 */
function pruneCaches() {
  const d = cacheDir();
  if (d === undefined) return;
  const caches = [];
  const now = Date.now();
  try {
    for (const name of fs.readdirSync(d)) {
      const st = fs.lstatSync(path.join(d, name), { throwIfNoEntry: false });
      if (st === undefined || !st.isFile()) continue;
      if (!name.endsWith('.tmp')) caches.push({ name, used: Math.max(st.atimeMs, st.mtimeMs) });
      else if (now - st.mtimeMs > TEMP_ABANDONED_MS) fs.rmSync(path.join(d, name), { force: true });
    }
    caches.sort((a, b) => b.used - a.used);
    for (const { name } of caches.slice(Math.max(0, CACHES_KEPT - toWrite.length))) fs.rmSync(path.join(d, name), { force: true });
  } catch {
    // a cache left in place costs disk space, never a run
  }
}

const { main } = load(path.join(__dirname, '..', 'dist', 'cli.cjs'));
main(process.argv.slice(2)).then((status) => {
  process.exitCode = status;
  writeCaches();
});
