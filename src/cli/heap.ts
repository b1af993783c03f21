// The V8 flags of a grep run in its own process (or of a read of a large file): the young
// generation kept at its first size, and no Maglev. The standalone binary's entry calls this
// before main (bin/linewise.js does the same before it loads the bundle, whose code cache V8
// checks against the flags); a host that runs main or the library keeps its own.

import * as fs from 'node:fs';

/** The flags (bin/linewise.js spells them too). */
const GREP_FLAGS = '--semi-space-growth-factor=1 --no-maglev';

/** A file at least this large makes readlines and replace run as grep does. */
const LARGE_FILE = 64 << 20;

/**
 * V8 doubles its young generation whenever more bytes survived scavenges since it last grew than
 * it holds. A tree search keeps each directory's sorted listing alive across scavenges, so over a
 * few thousand files the young generation grows from 1 to 4 MiB a semi-space, and its pages stay
 * resident: grep over git's source (4,843 files) peaked at 60-64 MiB on Node 20, 58-61 MiB with
 * growth factor 1, in the same time (docs/PERFORMANCE.md). V8 reads the factor each time it would
 * grow the space, so setting it at run time takes effect.
 *
 * Maglev, the compiler tier between Sparkplug and TurboFan (on by default from Node 22; Node 20
 * has it off), compiles a hundred or so functions of a tree search on V8's background threads,
 * each of which keeps the memory it compiled in as a malloc arena of its own: 6-7 MiB resident
 * at the peak, on Node 24 grep over node_modules 72-76 MiB with it, 63-66 without, in the same
 * time (docs/PERFORMANCE.md). V8 asks the flag each time a function gets hot, so it too takes
 * effect at run time; hot code then goes from Sparkplug to TurboFan, as on Node 20.
 *
 * For grep, the one command that walks trees, and for readlines and replace when an argument
 * names a regular file of 64 MiB or more (every row of a 256 MiB log on Node 24: 65-66 MiB
 * without, 62-63 with). node:v8 is loaded only then: it pulls in Node's streams, 2-3 ms of a
 * start-up that is about 30, and 2 MiB (page --last of the same log: 56 MiB without, 58 with).
 */
export function tunedRun(argv: readonly string[]): boolean {
  if (argv[0] === 'grep') return true;
  if (argv[0] !== 'readlines' && argv[0] !== 'replace') return false;
  return argv.slice(1).some((a) => {
    if (a.startsWith('-')) return false;
    try {
      const st = fs.statSync(a, { throwIfNoEntry: false });
      return st !== undefined && st.isFile() && st.size >= LARGE_FILE;
    } catch {
      return false; // not a path that can be looked at: the command says so
    }
  });
}

/**
 * TurboFan later, for a grep that walks a tree: a fresh process searching thousands of small
 * files spends its time in code that runs a few thousand times (open, sniff, the ignore tables,
 * a block's search), where TurboFan compiled a hundred or so functions on V8's background
 * threads, which on 2 cores took the main thread's core for about as long as the search itself:
 * grep over git's source took 2.3-2.5 x a bare Node walk of it, and with 7.5 x V8's interrupt
 * budget (132 KiB) 1.25-1.3 x; the generated tree 1.7 x, then 1.05 x (docs/PERFORMANCE.md).
 * Not for one large file, whose one hot loop TurboFan compiles early to good effect (a regex
 * in a 134 MB file took 4-10 % longer with it). Node 24 was not measured to gain from its
 * counterpart (`--invocation-count-for-turbofan`): it runs as before.
 */
const WALK_FLAGS = '--interrupt-budget=1000000';

/**
 * V8 11 (Node 20) alone: from V8 12 on, TurboFan's tier-up counts calls instead, and V8 names
 * `--interrupt-budget` an unrecognized flag on stderr.
 */
const BUDGETED = /^11\./.test(process.versions.v8);

/**
 * A grep that walks a tree (on V8 11): an argument names a directory, or there is at most one argument
 * that is no option (the pattern: the working directory is walked). A guess from the words
 * alone (an option's value is taken for a path; `-e PAT` with no path is one word): it chooses
 * flags, never what is searched.
 */
export function walksTree(argv: readonly string[]): boolean {
  if (!BUDGETED || argv[0] !== 'grep') return false;
  const words = argv.slice(1).filter((a) => !a.startsWith('-'));
  return words.length <= 1 || words.some((a) => {
    try {
      return fs.statSync(a, { throwIfNoEntry: false })?.isDirectory() === true;
    } catch {
      return false;
    }
  });
}

/**
 * `patch`: the grep flags, and no TurboFan. A patch runs its code a few thousand times (a file,
 * a hunk) to a few hundred thousand (a line): TurboFan compiled a hundred or so of its functions
 * on V8's background threads, whose malloc arenas stayed resident, for no gain in time on 2
 * cores. A 500-file, 5,000-hunk patch peaked at 73-75 MiB on Node 20 (82 on Node 24), 68 with
 * the young generation kept small or without TurboFan alone, 55 with both (59 on Node 24, where
 * Maglev is off too), in the same time (docs/PERFORMANCE.md).
 */
const PATCH_FLAGS = `${GREP_FLAGS} --no-opt`;

/** The V8 flags of a run (see tunedRun and walksTree), '' for none. */
export function runFlags(argv: readonly string[]): string {
  if (argv[0] === 'patch') return PATCH_FLAGS;
  if (!tunedRun(argv)) return '';
  return walksTree(argv) ? `${GREP_FLAGS} ${WALK_FLAGS}` : GREP_FLAGS;
}

/** Sets the flags for a run that needs them (see runFlags). */
export function tuneHeap(argv: readonly string[]): void {
  const flags = runFlags(argv);
  if (flags === '') return;
  const v8 = process.getBuiltinModule?.('node:v8') as typeof import('node:v8') | undefined;
  v8?.setFlagsFromString(flags);
}
