// The paths a patch names, made safe before anything is read for writing: relative, never climbing
// out (no `..`, no absolute path, no symbolic link leading outside the directory or the caller's
// confinement), and no file named twice.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { LinewiseError } from '../core/errors.js';
import { fsPath, quotePath } from '../core/path-names.js';
import type { Confinement } from '../io/confine.js';
import { realPath } from '../io/real-path.js';

/** A path of the patch, checked: where it is, and whether something is there. */
export interface SafePath {
  /** as the patch names it (after -p) */
  given: string;
  /** resolved: symbolic links in its directories (and of the file itself, when it exists) followed */
  real: string;
  /** the name itself, its directories resolved but not a link it may be: what a removal unlinks */
  name: string;
  exists: boolean;
}

/** The directory a patch applies in, and the confinement its paths are checked against. */
export interface PatchRoot {
  /** the directory, real */
  dir: string;
  /** the caller's confinement (a server's roots), on top of the directory's own */
  confine?: Confinement;
  /**
   * real paths of the directories met so far: a patch of 500 files in 20 directories resolves
   * 20, not 1,000 (each a readlink per component)
   */
  realDirs?: Map<string, string>;
}

function unsafe(given: string, why: string): LinewiseError {
  return new LinewiseError('unsafe-path', `${why}; nothing was written`, given);
}

/** The directory's own confinement: inside it, or it. */
function inside(dir: string, real: string): boolean {
  return real === dir || real.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);
}

/**
 * Checks one path of the patch and resolves it inside the root. Refused (exit 2): an empty or
 * absolute path, a `..` component, a NUL, and a path whose real location (its existing part's
 * symbolic links followed) is outside the directory or the confinement.
 */
export function safePath(root: PatchRoot, given: string): SafePath {
  if (given === '' || given.includes('\0')) throw unsafe(given, 'an empty path, or one holding a NUL byte');
  if (path.isAbsolute(given) || /^[A-Za-z]:[\\/]/.test(given) || given.startsWith('\\')) throw unsafe(given, 'an absolute path: a patch names files relative to its directory');
  if (given.split(/[\\/]+/).includes('..')) throw unsafe(given, 'a path with "..": a patch may not climb out of its directory');
  const abs = path.join(root.dir, given);
  // the longest part that exists, resolved; the rest appended as named
  let existing = abs;
  const rest: string[] = [];
  let real: string | undefined;
  for (;;) {
    try {
      const st = fs.lstatSync(fsPath(existing));
      // a file that is not a link is where its directory really is
      real = st.isSymbolicLink() || existing === root.dir ? realPath(existing) : path.join(realDir(root, path.dirname(existing)), path.basename(existing));
      break;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new LinewiseError('unsafe-path', `cannot be resolved (${code ?? String(e)}); nothing was written`, given);
      if (existing === root.dir || existing === path.dirname(existing)) throw unsafe(given, 'its directory does not exist');
      // a dangling symbolic link is there: refuse rather than follow it somewhere new
      if (isLink(existing)) throw unsafe(given, `${quotePath(path.relative(root.dir, existing))} is a symbolic link to nothing`);
      rest.unshift(path.basename(existing));
      existing = path.dirname(existing);
    }
  }
  const resolved = rest.length === 0 ? real : path.join(real, ...rest);
  if (!inside(root.dir, resolved)) throw unsafe(given, `it leads outside the directory (to ${quotePath(resolved)}), through a symbolic link`);
  if (root.confine !== undefined && !root.confine.allows(resolved)) throw root.confine.refuse(given, resolved);
  const name = rest.length === 0 && abs !== root.dir ? path.join(realDir(root, path.dirname(abs)), path.basename(abs)) : resolved;
  return { given, real: resolved, name, exists: rest.length === 0 };
}

function realDir(root: PatchRoot, dir: string): string {
  let real = root.realDirs?.get(dir);
  if (real === undefined) {
    real = realPath(dir);
    (root.realDirs ??= new Map()).set(dir, real);
  }
  return real;
}

function isLink(p: string): boolean {
  try {
    return fs.lstatSync(fsPath(p)).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Refuses one file named twice (by two paths of the patch, or two names of one file). */
export class OnceOnly {
  private readonly seen = new Map<string, string>();

  claim(p: SafePath): void {
    const keys = [p.real];
    if (p.exists) {
      try {
        const st = fs.statSync(fsPath(p.real), { bigint: true });
        keys.push(`${st.dev}:${st.ino}`);
      } catch {
        // gone meanwhile: the real path alone
      }
    }
    for (const k of keys) {
      const before = this.seen.get(k);
      if (before !== undefined) {
        throw new LinewiseError('unsafe-path', `the patch names this file twice (${before === p.given ? 'twice by this name' : `also as ${quotePath(before)}`}): split the patch; nothing was written`, p.given);
      }
    }
    for (const k of keys) this.seen.set(k, p.given);
  }
}
