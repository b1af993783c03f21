// The directory trees the benchmark searches (generated, the project's own node_modules, git's
// source when present), with the flags that make linewise, rg and GNU grep search the same files,
// and a check that they do.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BASE_ENV } from './measure.mjs';

/**
 * rg flags that give it linewise's ignore rules: the .gitignore and .ignore files inside the tree,
 * whether or not it is a git repository, and none from above it (`/bench/data/` in this project's
 * .gitignore), from the user's global excludes or from .git/info/exclude. Both skip hidden and
 * binary files and do not follow symbolic links by default.
 */
export const RG_AS_LINEWISE = ['--no-config', '--no-ignore-parent', '--no-require-git', '--no-ignore-global', '--no-ignore-exclude'];

/**
 * GNU grep flags for the same files: recursive, hidden files and directories left out, binary files
 * (a NUL byte) left out. It reads no .gitignore: a tree's ignored folders are excluded by name.
 */
const grepFlags = (excludeDirs) => ['-r', '-I', '--exclude=.*', '--exclude-dir=.*', ...excludeDirs.map((d) => `--exclude-dir=${d}`)];

/**
 * The trees, relative to the project root (the benchmark's working directory, so rows carry short
 * paths, alike for every tool). `ignore: false` searches with --no-ignore in linewise and rg.
 */
export function trees(root, generatedRel) {
  const git = path.join(root, 'bench', 'data', 'git');
  return [
    { id: 'generated', rel: generatedRel, what: 'the generated tree (4,000 files + an ignored build/ of 200)', literal: 'TODO_MARKER', ignore: true, grepExcludeDirs: ['build'] },
    { id: 'node_modules', rel: 'node_modules', what: "the project's node_modules (after npm ci), --no-ignore", literal: 'readFileSync', ignore: false, grepExcludeDirs: [] },
    fs.existsSync(path.join(git, 'Makefile'))
      ? { id: 'git', rel: path.relative(root, git), what: `git's source tree${gitCommit(git)}`, literal: 'strbuf_addf', ignore: true, grepExcludeDirs: [] }
      : { id: 'git', absent: true },
  ];
}

function gitCommit(dir) {
  const r = spawnSync('git', ['-C', dir, 'rev-parse', '--short=12', 'HEAD']);
  return r.status === 0 ? ` at ${r.stdout.toString().trim()}` : '';
}

/** The argv of each tool for `flags` + `pattern` over the tree (linewise's without node and script). */
export function treeArgv(tree, flags, pattern) {
  const noIgnore = tree.ignore ? [] : ['--no-ignore'];
  return {
    linewise: ['grep', ...noIgnore, ...flags, pattern, tree.rel],
    rg: ['rg', ...RG_AS_LINEWISE, ...noIgnore, '-n', ...flags, pattern, tree.rel],
    grep: ['grep', ...grepFlags(tree.grepExcludeDirs), '-n', ...flags, pattern, tree.rel],
  };
}

/**
 * Whether the three tools do the same work: the files each searches (those where the empty pattern
 * matches: every file with a line that it does not skip) and the rows each prints for the case's
 * literal. Files listed by some tools only are named; those with a NUL byte are binary files on
 * which the tools give up at different points (rg after the matches it found before the NUL;
 * linewise and grep on sight).
 */
export function sameWork(tree, root, lwArgv) {
  const run = (flags, pattern) => {
    const a = treeArgv(tree, flags, pattern);
    const out = (argv, env) => {
      const r = spawnSync(argv[0], argv.slice(1), { cwd: root, env: { ...BASE_ENV, ...env }, maxBuffer: 1 << 28 });
      if (r.status !== 0 && r.status !== 1) throw new Error(`${argv.join(' ')}: exit ${r.status}: ${r.stderr}`);
      // rows and file names, not the guard's trailers (rg and grep print none)
      return r.stdout.toString().split('\n').filter((l) => l !== '' && !l.startsWith('\\ read {'));
    };
    return { linewise: out([...lwArgv, ...a.linewise]), rg: out(a.rg), grep: out(a.grep, { LC_ALL: 'C' }) };
  };
  const lists = run(['-l'], '');
  const sets = Object.fromEntries(Object.entries(lists).map(([k, v]) => [k, new Set(v)]));
  const all = new Set(lists.linewise.concat(lists.rg, lists.grep));
  const odd = [...all].filter((f) => !(sets.linewise.has(f) && sets.rg.has(f) && sets.grep.has(f)));
  const rows = Object.entries(run(['-F'], tree.literal)).map(([k, v]) => `${k} ${v.length}`);
  const found = `rows for ${tree.literal}: ${rows.join(', ')}`;
  if (odd.length === 0) return `linewise, rg and grep search the same ${sets.linewise.size} files with lines; ${found}`;
  const show = odd.slice(0, 5).map((f) => {
    const by = Object.keys(sets).filter((k) => sets[k].has(f)).join('+');
    return `${f} (only ${by}${hasNul(path.join(root, f)) ? '; it has a NUL byte: the tools give up on binary files at different points' : ''})`;
  });
  return `linewise searches ${sets.linewise.size} files with lines; ${odd.length} differ: ${show.join(', ')}${odd.length > 5 ? ', ...' : ''}; ${found}`;
}

function hasNul(file) {
  try {
    return fs.readFileSync(file).includes(0);
  } catch {
    return false;
  }
}

/** Files in the tree, hidden, ignored and binary ones too, but not a .git folder's: the size the row names. */
export function countFiles(dir) {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && !(e.parentPath ?? e.path).split(path.sep).includes('.git')) n++;
  }
  return n;
}
