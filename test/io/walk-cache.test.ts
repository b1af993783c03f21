// The walk cache: a kept walk is used again only while every directory it listed and every ignore
// file it read is as it was: a file added, removed or renamed, or a .gitignore edited, walks again.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CacheBudget } from '../../src/io/cache-budget.js';
import { WalkCache } from '../../src/io/walk-cache.js';
import { tempDir, writeTree } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
const o = { hidden: false, noIgnore: false, globs: [], follow: false };
const names = (items: readonly object[]) => items.map((i) => ('display' in i ? i.display : i));

describe('WalkCache', () => {
  it('walks again after any change a walk would see, and not otherwise', async () => {
    const root = writeTree(path.join(tmp.dir, 't'), { 'a.txt': 'a\n', 'deep/er/b.txt': 'b\n', 'empty/.keep': '', '.gitignore': 'ignored/\n', 'ignored/x.txt': 'x\n' });
    const w = new WalkCache(new CacheBudget(1 << 30), 0);
    expect(names(await w.walk(root, 't', o))).toEqual(['t/a.txt', 't/deep/er/b.txt']);
    expect(names(await w.walk(root, 't', o))).toEqual(['t/a.txt', 't/deep/er/b.txt']);
    expect(w.hits).toBe(1);
    fs.writeFileSync(path.join(root, 'deep/er/c.txt'), 'c\n'); // deep in the tree
    expect(names(await w.walk(root, 't', o))).toEqual(['t/a.txt', 't/deep/er/b.txt', 't/deep/er/c.txt']);
    fs.writeFileSync(path.join(root, 'empty/d.txt'), 'd\n'); // in a directory that held no file searched
    expect(names(await w.walk(root, 't', o))).toContain('t/empty/d.txt');
    const st = fs.statSync(path.join(root, '.gitignore'));
    fs.writeFileSync(path.join(root, '.gitignore'), 'a.txt\n\n\n'); // as long as before, mtime kept: ctime tells
    fs.utimesSync(path.join(root, '.gitignore'), st.atime, st.mtime);
    expect(names(await w.walk(root, 't', o))).toEqual(['t/deep/er/b.txt', 't/deep/er/c.txt', 't/empty/d.txt', 't/ignored/x.txt']);
    fs.renameSync(path.join(root, 'deep/er/b.txt'), path.join(root, 'deep/er/e.txt'));
    expect(names(await w.walk(root, 't', o))).toEqual(['t/deep/er/c.txt', 't/deep/er/e.txt', 't/empty/d.txt', 't/ignored/x.txt']);
    expect(w.hits).toBe(1);
    // other options, another walk
    expect(names(await w.walk(root, 't', { ...o, globs: ['*.txt', '!c.txt'] }))).toEqual(['t/deep/er/e.txt', 't/empty/d.txt', 't/ignored/x.txt']);
  });

  it('keeps no walk of a tree changed a moment ago', async () => {
    const root = writeTree(path.join(tmp.dir, 'new'), { 'a.txt': 'a\n' });
    const w = new WalkCache(new CacheBudget(1 << 30)); // the real RACY_MS: the tree was just written
    await w.walk(root, undefined, o);
    await w.walk(root, undefined, o);
    expect(w.hits).toBe(0);
  });
});
