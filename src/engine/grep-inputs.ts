// What a grep searches, in order: the paths named (files, directories walked, globs expanded, `-`),
// with problems kept in their turn so they are reported where they occur.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { LinewiseError } from '../core/errors.js';
import { fsPath } from '../core/path-names.js';
import { isGlob, loadWalker, type SearchTarget, type WalkOptions, type WalkProblem, type Walker } from '../io/walk.js';

/** One entry of the work list: a file or "-", or a problem to report in its turn. */
export type GrepItem = SearchTarget | WalkProblem;

/**
 * The inputs to search, in order; `multi` when a directory or glob was named (rows then name
 * their file). No paths: the directory `cwd`, its files named without "./".
 */
export async function grepInputs(cwd: string, paths: readonly string[], walkOptions: WalkOptions): Promise<{ list: Iterable<GrepItem>; multi: boolean }> {
  if (paths.length === 0) {
    const walker = await loadWalker(walkOptions, false);
    return { list: walker.walk(path.resolve(cwd), undefined), multi: true };
  }
  // Classify first, so the walk dependencies load only when a directory or glob is named.
  const kinds = paths.map((p) => {
    if (p === '-') return 'file';
    let st: fs.Stats;
    try {
      st = fs.statSync(fsPath(path.resolve(cwd, p)));
    } catch {
      return isGlob(p) ? 'glob' : 'file'; // a missing file is reported when it is opened
    }
    return st.isDirectory() ? 'dir' : 'file';
  });
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
