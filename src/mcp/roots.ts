// Confinement: the directories the server may touch, and every path of a call checked against
// them after realpath. Relative paths start at the first root; `..` out of a root, an absolute
// path elsewhere and a symbolic link that leads outside are refused before anything is opened;
// and, as the engine's Confinement, every file again by its descriptor once opened (a link
// swapped in after the check), every edit's directory through its rename (io/confine.ts).

import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LinewiseError } from '../core/errors.js';
import { fsPath } from '../core/path-names.js';
import { realPath } from '../io/real-path.js';
import type { Confinement } from '../io/confine.js';
import { fileError, fileKind } from '../io/input.js';

/** A root: the directory as named, and its real path (what paths are checked against). */
interface Root {
  given: string;
  real: string;
}

/** `child` is `dir` or inside it (both absolute and normalized). */
function within(dir: string, child: string): boolean {
  if (child === dir) return true;
  return child.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);
}

/** The real path of `p`, or of its nearest existing ancestor joined with the rest (for a file not there yet). */
function realOrAncestor(p: string): string {
  let rest = '';
  for (let at = p; ; ) {
    try {
      const real = realPath(at);
      return rest === '' ? real : path.join(real, rest);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw fileError(e, p);
      const up = path.dirname(at);
      if (up === at) return p;
      rest = rest === '' ? path.basename(at) : path.join(path.basename(at), rest);
      at = up;
    }
  }
}

export class Roots implements Confinement {
  private list: Root[] = [];

  /** `dirs`: directories (paths, or file:// URIs as clients give roots), resolved from `cwd`. */
  constructor(dirs: readonly string[], cwd: string) {
    this.set(dirs, cwd);
  }

  /** Replaces the roots (the client's roots changed); each must be a directory. */
  set(dirs: readonly string[], cwd: string): void {
    const list = dirs.map((d) => {
      const given = path.resolve(cwd, d.startsWith('file:') ? fileURLToPath(d) : d);
      let real: string;
      try {
        real = realPath(given);
        if (!fs.statSync(fsPath(real)).isDirectory()) throw new LinewiseError('not-a-directory', 'a root must be a directory', d);
      } catch (e) {
        throw fileError(e, d);
      }
      return { given, real };
    });
    if (list.length === 0) throw new LinewiseError('usage', 'no root: the server needs a directory to serve');
    this.list = list;
  }

  /** Where relative paths start: the first root, as named. */
  get cwd(): string {
    return this.list[0]!.given;
  }

  /** The roots as named, for messages and for the tool descriptions. */
  get names(): string[] {
    return this.list.map((r) => r.given);
  }

  /**
   * Checks the path `p` of a call (`what` names the argument in messages) and returns it as the
   * engine should open it: relative to {@link cwd}. Refused: an empty path, `-` (standard input
   * is the protocol's channel), a path whose lexical form or real path is outside every root.
   */
  check(p: string, what = 'path'): string {
    if (p === '') throw new LinewiseError('bad-path', `${what} is empty: name a file inside the roots`);
    if (p === '-') throw new LinewiseError('bad-path', `${what}: "-" (standard input) is the server's protocol channel, not a file; name a file inside the roots`);
    const abs = path.resolve(this.cwd, p);
    if (!this.list.some((r) => within(r.given, abs) || within(r.real, abs))) throw this.outside(p, abs === path.normalize(p) ? 'an absolute path outside the roots' : 'it leads out of the roots');
    const real = realOrAncestor(abs);
    if (!this.list.some((r) => within(r.real, real))) throw this.outside(p, 'a symbolic link on it leads out of the roots');
    return path.isAbsolute(p) ? abs : p;
  }

  /**
   * {@link check}, then what an input must be: a regular file (or, with `dirs`, a directory). A
   * named pipe or a device would block the server on its first read, and `-` is refused above.
   * A path that does not exist is left to the engine, which names it.
   */
  checkInput(p: string, what: string, dirs: boolean): string {
    const checked = this.check(p, what);
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(fsPath(path.resolve(this.cwd, checked)), { throwIfNoEntry: false });
    } catch (e) {
      throw fileError(e, p);
    }
    // A missing path that looks like a glob is expanded by the search (engine/grep-inputs.ts),
    // which checks its fixed start and every file it matches against the roots.
    if (st === undefined || st.isFile() || (dirs && st.isDirectory())) return checked;
    throw new LinewiseError('not-a-file', `is ${fileKind(st)}, not a ${dirs ? 'file or directory' : 'file'}; the server reads regular files only`, p);
  }

  /** Whether a real path is inside a root (the engine asks after each open). */
  allows(real: string): boolean {
    return this.list.some((r) => within(r.real, real));
  }

  /** A file that, as opened, was outside every root: its path was checked, then changed. */
  refuse(name: string): LinewiseError {
    return this.outside(name, 'as opened, it is outside the roots (a symbolic link on its path changed after it was checked)');
  }

  private outside(p: string, why: string): LinewiseError {
    return new LinewiseError('outside-roots', `refused: ${why} (${this.names.join(', ')}); nothing was read or written`, p);
  }
}
