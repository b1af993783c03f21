// What a grep searches, in order: the paths named (files, directories walked, globs expanded, `-`),
// with problems kept in their turn so they are reported where they occur.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { LinewiseError } from '../core/errors.js';
import { fsPath } from '../core/path-names.js';
import { isGlob, loadWalker, type SearchTarget, type WalkOptions, type WalkProblem, type Walker } from '../io/walk.js';

/** One entry of the work list: a file or "-", or a problem to report in its turn. */
export type GrepItem = SearchTarget | WalkProblem;

/** How a server resolves the inputs: its walks (a cache), and its check of every path found. */
export interface InputHooks {
  /** the files and problems of walking a directory (default: the walker) */
  walk?(dirAbs: string, display: string | undefined, o: WalkOptions): Promise<GrepItem[]>;
  /**
   * Checks a directory before it is walked and a glob's fixed start before it is expanded (a
   * refusal ends the call), and each file a glob matched (a refusal is that item's problem,
   * reported in turn).
   */
  allow?(abs: string, display: string): void;
}

/**
 * The inputs to search, in order; `multi` when a directory or glob was named (rows then name
 * their file). No paths: the directory `cwd`, its files named without "./".
 */
export async function grepInputs(cwd: string, paths: readonly string[], walkOptions: WalkOptions, hooks?: InputHooks): Promise<{ list: Iterable<GrepItem>; multi: boolean }> {
  if (hooks !== undefined) return inputList(cwd, paths, walkOptions, hooks);
  if (paths.length === 0) {
    const walker = await loadWalker(walkOptions, false);
    return { list: walker.walk(path.resolve(cwd), undefined), multi: true };
  }
  // Classify first, so the walk dependencies load only when a directory or glob is named.
  const kinds = paths.map((p) => kindOf(cwd, p));
  const needsWalker = kinds.some((k) => k !== 'file');
  const walker: Walker | undefined = needsWalker ? await loadWalker(walkOptions, kinds.includes('glob')) : undefined;
  function* list(): Generator<GrepItem> {
    for (let i = 0; i < paths.length; i++) {
      const p = paths[i]!;
      const abs = p === '-' ? '-' : path.resolve(cwd, p);
      if (kinds[i] === 'file') yield { display: p, abs, walked: false };
      else if (kinds[i] === 'dir') yield* walker!.walk(abs, p);
      else {
        const found = walker!.glob(p, path.resolve(cwd));
        if (found.length === 0) yield { error: new LinewiseError('no-match', 'no file matches this glob', p) };
        for (const f of found) yield { display: f, abs: path.resolve(cwd, f), walked: true };
      }
    }
  }
  return { list: list(), multi: needsWalker };
}

/** A path named: a file (or "-", or missing: reported when opened), a directory, or a glob. */
function kindOf(cwd: string, p: string): 'file' | 'dir' | 'glob' {
  if (p === '-') return 'file';
  let st: fs.Stats;
  try {
    st = fs.statSync(fsPath(path.resolve(cwd, p)));
  } catch {
    return isGlob(p) ? 'glob' : 'file'; // a missing file is reported when it is opened
  }
  return st.isDirectory() ? 'dir' : 'file';
}

/** The fixed start of a glob: its directories before the first one with a glob character. */
function globBase(p: string): string {
  const parts = p.split('/');
  const at = parts.findIndex((x) => isGlob(x));
  return parts.slice(0, at).join('/') || '.';
}

/** The inputs resolved at once, through `hooks` (a server's walk cache and its roots). */
async function inputList(cwd: string, paths: readonly string[], walkOptions: WalkOptions, hooks: InputHooks): Promise<{ list: GrepItem[]; multi: boolean }> {
  const walk = hooks.walk ?? (async (abs: string, display: string | undefined, o: WalkOptions) => [...(await loadWalker(o, false)).walk(abs, display)]);
  const refused = (abs: string, display: string): WalkProblem | undefined => {
    try {
      hooks.allow?.(abs, display);
      return undefined;
    } catch (e) {
      if (e instanceof LinewiseError) return { error: new LinewiseError(e.code, e.message, display, e.exitCode) };
      throw e;
    }
  };
  const list: GrepItem[] = [];
  if (paths.length === 0) {
    const abs = path.resolve(cwd);
    hooks.allow?.(abs, '.');
    list.push(...(await walk(abs, undefined, walkOptions)));
    return { list, multi: true };
  }
  const kinds = paths.map((p) => kindOf(cwd, p));
  const globs = kinds.includes('glob') ? await loadWalker(walkOptions, true) : undefined;
  for (let i = 0; i < paths.length; i++) {
    const p = paths[i]!;
    const abs = path.resolve(cwd, p);
    if (kinds[i] === 'file') {
      list.push({ display: p, abs, walked: false });
      continue;
    }
    // a directory named, or a glob's start, refused: the call is (a file a glob found: that file)
    hooks.allow?.(kinds[i] === 'dir' ? abs : path.resolve(cwd, globBase(p)), kinds[i] === 'dir' ? p : globBase(p));
    if (kinds[i] === 'glob' && p.split('/').slice(globBase(p).split('/').length).includes('..')) {
      // past its fixed start a glob only descends: ".." there would match outside what was checked
      list.push({ error: new LinewiseError('bad-glob', 'a glob may not climb with ".." after its first wildcard', p) });
    }
    else if (kinds[i] === 'dir') list.push(...(await walk(abs, p, walkOptions)));
    else {
      const found = globs!.glob(p, path.resolve(cwd));
      if (found.length === 0) list.push({ error: new LinewiseError('no-match', 'no file matches this glob', p) });
      for (const f of found) list.push(refused(path.resolve(cwd, f), f) ?? { display: f, abs: path.resolve(cwd, f), walked: true });
    }
  }
  return { list, multi: kinds.some((k) => k !== 'file') };
}
