// Inputs: the path a file is opened by is the one path.resolve gives, by the fast way or not.
import * as path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolvePath } from '../../src/io/input.js';

describe('resolvePath', () => {
  it('gives what path.resolve gives: relative, with "." and ".." parts, doubled or trailing slashes', () => {
    for (const p of ['a/b', '/a/b', '/a//b', '/a/./b', '/a/../b', '/a/b/', '/a/b/.', '/a/b/..', '/', '/.', '/..', '/.x', '/a/..b', '/a/b...', '/a/.../b', '.', '..', '']) {
      expect(resolvePath('/w/d', p)).toBe(path.resolve('/w/d', p));
    }
  });

  it('property: the same for any path of "/", ".", "a" and "é"', () => {
    const part = fc.constantFrom('/', '.', 'a', 'é', '..');
    fc.assert(fc.property(fc.array(part, { maxLength: 12 }).map((a) => a.join('')), (p) => {
          expect(resolvePath('/w', p)).toBe(path.resolve('/w', p));
        }));
  });
});
