// What grep searches: the paths the user named, directories walked (sorted, .gitignore/.ignore,
// hidden files and -g globs applied, symbolic links followed only under -L), and globs expanded.
// fast-glob and ignore load only here, through import(), so a plain file search never pays for them.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { LinewiseError } from '../core/errors.js';
import { fsPath, pathFromBytes } from '../core/path-names.js';
import { fileError } from './input.js';

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

/** Loads ignore (and fast-glob when `globs` is true) and returns a walker. */
export async function loadWalker(o: WalkOptions, globs: boolean): Promise<Walker> {
  const ignoreModule = await import('ignore');
  const factory = ((ignoreModule as unknown as { default: IgnoreFactory }).default ?? ignoreModule) as IgnoreFactory;
  const fg: FastGlob | undefined = globs ? ((await import('fast-glob')) as unknown as { default: FastGlob }).default : undefined;

  const positive = o.globs.filter((g) => !g.startsWith('!'));
  const include = positive.length > 0 ? factory().add(positive) : undefined;
  const negative = o.globs.filter((g) => g.startsWith('!')).map((g) => g.slice(1));
  // Undefined when there is none: an empty matcher still costs a cached lookup per path.
  const exclude = negative.length > 0 ? factory().add(negative) : undefined;

  interface Rules {
    base: string;
    ig: Ignore;
  }

  /** gitignore precedence: the deepest file that has a say decides; later rules beat earlier ones. */
  const ignored = (rules: readonly Rules[], rel: string, dir: boolean): boolean => {
    for (let i = rules.length - 1; i >= 0; i--) {
      const r = rules[i]!;
      const sub = r.base === '' ? rel : rel.slice(r.base.length + 1);
      const t = r.ig.test(dir ? `${sub}/` : sub);
      if (t.ignored) return true;
      if (t.unignored) return false;
    }
    return false;
  };

  const readRules = (dirAbs: string, base: string, rules: readonly Rules[], entries: readonly Entry[]): readonly Rules[] => {
    let ig: Ignore | undefined;
    for (const name of ['.gitignore', '.ignore']) {
      // Only names the listing holds: a failed open per directory costs more than the search of a small file.
      if (!entries.some((e) => e.name === name)) continue;
      o.seen?.(path.join(dirAbs, name), 'rules');
      let text: string;
      try {
        text = fs.readFileSync(fsPath(path.join(dirAbs, name)), 'utf8');
      } catch {
        continue; // none here (or unreadable: as git, go on without it)
      }
      ig = (ig ?? factory()).add(text);
    }
    return ig === undefined ? rules : [...rules, { base, ig }];
  };

  function* walkDir(
    dirAbs: string,
    rel: string,
    shown: (rel: string) => string,
    rules: readonly Rules[],
    ancestors: readonly string[],
  ): Generator<SearchTarget | WalkProblem> {
    let entries: Entry[];
    try {
      entries = listDir(dirAbs);
    } catch (e) {
      yield { error: fileError(e, shown(rel) || '.') };
      return;
    }
    o.seen?.(dirAbs, 'dir');
    const local = o.noIgnore ? rules : readRules(dirAbs, rel, rules, entries);
    entries.sort(byName);
    for (const { name, dirent: entry } of entries) {
      if (!o.hidden && name.startsWith('.')) continue;
      const childRel = rel === '' ? name : `${rel}/${name}`;
      const childAbs = path.join(dirAbs, name);
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
        if (ignored(local, childRel, true) || exclude?.ignores(`${childRel}/`)) continue;
        let real: string;
        try {
          // the native realpath: the JavaScript one turns a path of bytes into a string, losing them
          real = pathFromBytes(fs.realpathSync.native(fsPath(childAbs), { encoding: 'buffer' }));
        } catch (e) {
          yield { error: fileError(e, shown(childRel)) };
          continue;
        }
        if (ancestors.includes(real)) {
          yield { error: new LinewiseError('loop', 'symbolic link loop, not followed', shown(childRel)), note: true };
          continue;
        }
        yield* walkDir(childAbs, childRel, shown, local, [...ancestors, real]);
      } else if (isFile) {
        if (ignored(local, childRel, false)) continue;
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
        real = fs.realpathSync(dirAbs);
      } catch {
        // reported by readdir below
      }
      return walkDir(dirAbs, '', shown, [], [real]);
    },
    glob(pattern, cwd) {
      return fg!.sync(pattern, { cwd, dot: o.hidden, onlyFiles: true, followSymbolicLinks: o.follow, unique: true }).sort();
    },
  };
}
