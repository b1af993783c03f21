// What grep searches: the paths the user named, directories walked (sorted, .gitignore/.ignore,
// hidden files and -g globs applied, symbolic links followed only under -L), and globs expanded.
// fast-glob and ignore load only here, through import(), so a plain file search never pays for them.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { clipped, LinewiseError } from '../core/errors.js';
import { fsPath, pathFromBytes } from '../core/path-names.js';
import { DirRules, NO_SAY, ruleCompiles, type Verdict } from './ignore-rules.js';
import { fileError } from './input.js';
import { realPath } from './real-path.js';
import { closeQuietly } from './streams.js';

export interface WalkOptions {
  /** search hidden files and directories (names starting with ".") */
  hidden: boolean;
  /** do not apply .gitignore and .ignore */
  noIgnore: boolean;
  /** -g globs, gitignore syntax, "!" excludes */
  globs: readonly string[];
  /** follow symbolic links (-L) */
  follow: boolean;
  /** told each directory listed and each ignore file read (a cache of the walk revalidates them) */
  seen?: (path: string, kind: 'dir' | 'rules') => void;
}

/**
 * A file to search: how rows name it, and where it is. `walked` files are skipped quietly when
 * binary. A walked name that is not UTF-8 keeps its bytes (see core/path-names): open it with
 * `fsPath(abs)`.
 */
export interface SearchTarget {
  display: string;
  abs: string;
  walked: boolean;
}

/** A path that could not be walked: reported, and the walk goes on. */
export interface WalkProblem {
  error: LinewiseError;
  /** a note (a symbolic link loop), not an error for the exit status */
  note?: boolean;
}

type Ignore = import('ignore').Ignore;
type IgnoreFactory = (options?: import('ignore').Options) => Ignore;
type FastGlob = typeof import('fast-glob');

/** The loaded dependencies of a walk. */
export interface Walker {
  walk(dirAbs: string, display: string | undefined): Generator<SearchTarget | WalkProblem>;
  glob(pattern: string, cwd: string): string[];
}

/** Characters that make a path argument a glob (when no file of that name exists). */
export function isGlob(p: string): boolean {
  return /[*?[\]{}]/.test(p);
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** A directory entry, its name read as bytes: two names that are not UTF-8 never print or open alike. */
interface Entry {
  name: string;
  dirent: fs.Dirent<string> | fs.Dirent<Buffer>;
}

/**
 * The entries of a directory, names as strings that keep every byte (core/path-names). Read as
 * strings first (the fast path); only a listing where Node shows U+FFFD is read again as bytes.
 */
function listDir(dir: string): Entry[] {
  const entries = fs.readdirSync(fsPath(dir), { withFileTypes: true });
  if (!entries.some((e) => e.name.includes('\ufffd'))) return entries.map((dirent) => ({ name: dirent.name, dirent }));
  return fs.readdirSync(fsPath(dir), { withFileTypes: true, encoding: 'buffer' }).map((dirent) => ({ name: pathFromBytes(dirent.name), dirent }));
}

/**
 * The text of an ignore file, or undefined when it cannot be read or is no regular file reached
 * without a symbolic link (as git since 2.32 does not follow one): a named pipe there would block
 * the walk, a link to /dev/zero read forever, a link out of a server's roots read a file outside.
 */
function ruleText(p: string): string | undefined {
  let fd: number;
  try {
    fd = fs.openSync(fsPath(p), fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
  try {
    return fs.fstatSync(fd).isFile() ? fs.readFileSync(fd, 'utf8') : undefined;
  } catch {
    return undefined;
  } finally {
    closeQuietly(fd);
  }
}

/**
 * Loads ignore (and fast-glob when `globs` is true) and returns a walker. One closure rather than
 * a class or several functions: every step of the walk (rules, verdicts, frames) shares the
 * loaded packages, the compiled -g matchers, the pending notes and the options; split apart, each
 * piece would take them all as arguments.
 */
export async function loadWalker(o: WalkOptions, globs: boolean): Promise<Walker> {
  const ignoreModule = await import('ignore');
  const factory = ((ignoreModule as unknown as { default: IgnoreFactory }).default ?? ignoreModule) as IgnoreFactory;
  const fg: FastGlob | undefined = globs ? ((await import('fast-glob')) as unknown as { default: FastGlob }).default : undefined;

  const invalid = o.globs.find((g) => !ruleCompiles(factory, g));
  if (invalid !== undefined) throw new LinewiseError('bad-glob', `-g ${clipped(invalid, 80)}: not a valid glob (an unclosed [ or a stray \\?)`);
  const positive = o.globs.filter((g) => !g.startsWith('!'));
  const include = positive.length > 0 ? factory().add(positive) : undefined;
  const negative = o.globs.filter((g) => g.startsWith('!')).map((g) => g.slice(1));
  // Undefined when there is none: an empty matcher still costs a cached lookup per path.
  const exclude = negative.length > 0 ? factory().add(negative) : undefined;

  /** A directory's rules; `base` is its path relative to the walk's start. */
  interface Rules {
    base: string;
    rules: DirRules;
  }

  /**
   * gitignore precedence: the deepest rule set that has a say decides; later rules beat earlier
   * ones. `verdicts` are each set's verdicts on the path (deepest last).
   */
  const decide = (verdicts: readonly Verdict[]): boolean => {
    for (let i = verdicts.length - 1; i >= 0; i--) {
      const t = verdicts[i]!;
      if (t.ignored) return true;
      if (t.unignored) return false;
    }
    return false;
  };

  /** Rule set `r`'s verdict on `rel` (last name `name`), given its verdict on the directory. */
  const verdict = (r: Rules, rel: string, name: string, dir: boolean, parent: Verdict): Verdict =>
    r.rules.test(r.base === '' ? rel : rel.slice(r.base.length + 1), name, dir, parent);

  /** Whether a file is ignored: the sets asked deepest first, and no further than the first with a say. */
  const fileIgnored = (rules: readonly Rules[], verdicts: readonly Verdict[], rel: string, name: string): boolean => {
    for (let i = rules.length - 1; i >= 0; i--) {
      const t = verdict(rules[i]!, rel, name, false, verdicts[i]!);
      if (t.ignored) return true;
      if (t.unignored) return false;
    }
    return false;
  };

  /** Notes on rules left out, said by the walk right after the directory that holds them. */
  const ruleNotes: WalkProblem[] = [];

  const readRules = (dirAbs: string, base: string, entries: readonly Entry[], shown: (rel: string) => string): Rules | undefined => {
    let rules: DirRules | undefined;
    for (const name of ['.gitignore', '.ignore']) {
      // Only names the listing holds: a failed open per directory costs more than the search of a small file.
      if (!entries.some((e) => e.name === name)) continue;
      o.seen?.(path.join(dirAbs, name), 'rules');
      const text = ruleText(path.join(dirAbs, name));
      if (text === undefined) continue; // none here (or unreadable: as git, go on without it)
      for (const bad of (rules ??= new DirRules(factory)).add(text)) {
        const where = shown(base === '' ? name : `${base}/${name}`);
        ruleNotes.push({ error: new LinewiseError('ignore-rule', `line ${bad.line}: left out a rule that is no valid pattern: ${clipped(bad.rule, 80)}`, where), note: true });
      }
    }
    return rules === undefined ? undefined : { base, rules };
  };

  /**
   * A directory being walked: its sorted entries, the next one, the rule sets that apply in it
   * (deepest last) and each one's verdict on the directory itself (a directory is tested once, by
   * its parent, and its verdicts handed down to its entries).
   */
  interface Frame {
    abs: string;
    rel: string;
    entries: Entry[];
    next: number;
    rules: readonly Rules[];
    verdicts: readonly Verdict[];
    ancestors: readonly string[];
  }

  /** Lists a directory and reads its rules; a problem instead when it cannot be listed. */
  const open = (abs: string, rel: string, rules: readonly Rules[], verdicts: readonly Verdict[], ancestors: readonly string[], shown: (rel: string) => string): Frame | WalkProblem => {
    let entries: Entry[];
    try {
      entries = listDir(abs);
    } catch (e) {
      return { error: fileError(e, shown(rel) || '.') };
    }
    o.seen?.(abs, 'dir');
    const own = o.noIgnore ? undefined : readRules(abs, rel, entries, shown);
    entries.sort(byName);
    return {
      abs,
      rel,
      entries,
      next: 0,
      rules: own === undefined ? rules : [...rules, own],
      verdicts: own === undefined ? verdicts : [...verdicts, NO_SAY],
      ancestors,
    };
  };

  /**
   * Walks a tree depth-first, entries in byte order, with a stack of directories rather than
   * nested generators (each of which would pass every file up through every level).
   */
  function* walkTree(abs: string, real: string, shown: (rel: string) => string): Generator<SearchTarget | WalkProblem> {
    const root = open(abs, '', [], [], [real], shown);
    yield* ruleNotes.splice(0);
    if ('error' in root) {
      yield root;
      return;
    }
    const stack: Frame[] = [root];
    while (stack.length > 0) {
      const f = stack[stack.length - 1]!;
      if (f.next === f.entries.length) {
        stack.pop();
        continue;
      }
      const { name, dirent: entry } = f.entries[f.next++]!;
      if (!o.hidden && name.startsWith('.')) continue;
      const childRel = f.rel === '' ? name : `${f.rel}/${name}`;
      // the walk's directories are absolute and normalized, names hold no "/": no path.join needed
      const childAbs = f.abs.endsWith(path.sep) ? `${f.abs}${name}` : `${f.abs}${path.sep}${name}`;
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        if (!o.follow) continue; // never follow a path the user did not give
        try {
          const st = fs.statSync(fsPath(childAbs));
          isDir = st.isDirectory();
          isFile = st.isFile();
        } catch (e) {
          yield { error: fileError(e, shown(childRel)) };
          continue;
        }
      }
      if (isDir) {
        const verdicts = f.rules.map((r, i) => verdict(r, childRel, name, true, f.verdicts[i]!));
        if (decide(verdicts) || exclude?.ignores(`${childRel}/`)) continue;
        // A loop needs a followed link: without -L a directory cannot be its own ancestor, and
        // its real path (a system call per directory) is not needed.
        let ancestors = f.ancestors;
        if (o.follow) {
          let real: string;
          try {
            // the native realpath: the JavaScript one turns a path of bytes into a string, losing them
            real = realPath(childAbs);
          } catch (e) {
            yield { error: fileError(e, shown(childRel)) };
            continue;
          }
          if (f.ancestors.includes(real)) {
            yield { error: new LinewiseError('loop', 'symbolic link loop, not followed', shown(childRel)), note: true };
            continue;
          }
          ancestors = [...f.ancestors, real];
        }
        const child = open(childAbs, childRel, f.rules, verdicts, ancestors, shown);
        yield* ruleNotes.splice(0);
        if ('error' in child) yield child;
        else stack.push(child);
      } else if (isFile) {
        if (fileIgnored(f.rules, f.verdicts, childRel, name)) continue;
        if (include !== undefined && !include.ignores(childRel)) continue;
        if (exclude?.ignores(childRel)) continue;
        yield { display: shown(childRel), abs: childAbs, walked: true };
      }
      // sockets, devices and named pipes found by a walk are not searched
    }
  }

  return {
    walk(dirAbs, display) {
      // display undefined: the current directory, whose files are named without "./" (but "./-":
      // a row naming "-" would mean standard input)
      const shown = (rel: string) => (display === undefined ? (rel === '-' ? './-' : rel) : display.endsWith('/') ? `${display}${rel}` : `${display}/${rel}`);
      let real = dirAbs;
      try {
        real = realPath(dirAbs);
      } catch {
        // reported by readdir below
      }
      return walkTree(dirAbs, real, shown);
    },
    glob(pattern, cwd) {
      return fg!.sync(pattern, { cwd, dot: o.hidden, onlyFiles: true, followSymbolicLinks: o.follow, unique: true }).sort();
    },
  };
}
