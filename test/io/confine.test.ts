// Confinement by descriptor: a file or directory is judged as opened, not by the path checked
// before, on Linux by /proc/self/fd and the portable way (dev and inode against the real path).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { LinewiseError } from '../../src/core/errors.js';
import { checkOpened, type Confinement, confineTestHooks, PinnedDir } from '../../src/io/confine.js';
import { pinTarget, resolveTarget, targetPath, unpinTarget } from '../../src/io/edit-target.js';
import { tempDir, writeTree } from '../helpers.js';

const tmp = tempDir();
const root = fs.realpathSync(path.join(writeTree(tmp.dir, { 'root/a.txt': 'a\n', 'root/d/b.txt': 'b\n', 'out/s.txt': 's\n' }), 'root'));
const out = fs.realpathSync(path.join(tmp.dir, 'out'));
afterAll(() => tmp.cleanup());
afterEach(() => delete confineTestHooks.noProc);

const inRoot: Confinement = {
  allows: (real) => real === root || real.startsWith(root + path.sep),
  refuse: (name, real) => new LinewiseError('outside-roots', `refused: ${real ?? 'unknown'}`, name),
};

/** The refusal `checkOpened` gives `rel` (opened first, then `swap` done), or 'allowed'. */
function judged(rel: string, swap: () => void = () => {}): string {
  const abs = path.join(root, rel);
  const fd = fs.openSync(abs, 'r');
  try {
    swap();
    checkOpened(inRoot, fd, abs, rel);
    return 'allowed';
  } catch (e) {
    if (e instanceof LinewiseError) return e.message;
    throw e;
  } finally {
    fs.closeSync(fd);
  }
}

let k = 0;
for (const way of ['/proc/self/fd', 'the portable way'] as const) {
  describe(`checkOpened (${way})`, () => {
    const setup = () => {
      if (way !== '/proc/self/fd') confineTestHooks.noProc = true;
    };

    it('allows a file inside; refuses one a link led outside when it was opened', () => {
      setup();
      expect(judged('a.txt')).toBe('allowed');
      fs.symlinkSync(path.join(out, 's.txt'), path.join(root, `l${k}`));
      expect(judged(`l${k++}`)).toBe(`refused: ${path.join(out, 's.txt')}`);
    });

    it('judges the file opened, not what its path leads to afterwards', () => {
      setup();
      // opened inside, then its name made a link to outside: still the file inside
      const name = `moved${k++}.txt`;
      fs.writeFileSync(path.join(root, name), 'x\n');
      const swap = () => {
        fs.renameSync(path.join(root, name), path.join(root, `${name}.was`));
        fs.symlinkSync(path.join(out, 's.txt'), path.join(root, name));
      };
      // /proc names the file where it now is (inside); the portable way cannot tell and refuses
      expect(judged(name, swap)).toBe(way === '/proc/self/fd' ? 'allowed' : 'refused: unknown');
    });
  });

  describe(`PinnedDir (${way})`, () => {
    it('names files through the directory opened; refused once the directory is outside', () => {
      if (way !== '/proc/self/fd') confineTestHooks.noProc = true;
      const d = path.join(root, `p${k++}`);
      fs.mkdirSync(d);
      const pin = PinnedDir.open(d, inRoot, 'f');
      try {
        expect(pin.at).toEqual(way === '/proc/self/fd' ? expect.stringMatching(/^\/proc\/self\/fd\/\d+$/) : d);
        fs.writeFileSync(pin.join('f'), 'made\n');
        expect(fs.readFileSync(path.join(d, 'f'), 'utf8')).toBe('made\n');
        pin.recheck();
        fs.renameSync(d, path.join(out, path.basename(d)));
        expect(() => pin.recheck()).toThrow(/^refused: /);
      } finally {
        pin.close();
      }
      expect(() => PinnedDir.open(out, inRoot, 'f')).toThrow(`refused: ${out}`);
    });
  });
}

describe('pinTarget', () => {
  it('pins an edit target to its directory; a link swapped in for the file since it was examined is a changed file (exit 3)', () => {
    const t = resolveTarget('d/b.txt', root);
    pinTarget(t, inRoot);
    try {
      expect(targetPath(t)).toMatch(/^\/proc\/self\/fd\/\d+\/b\.txt$/);
      expect(fs.readFileSync(targetPath(t), 'utf8')).toBe('b\n');
    } finally {
      unpinTarget(t);
    }
    expect(targetPath(t)).toBe(path.join(root, 'd', 'b.txt'));
    const u = resolveTarget('d/b.txt', root);
    fs.renameSync(path.join(root, 'd', 'b.txt'), path.join(root, 'd', 'b.was'));
    fs.symlinkSync(path.join(out, 's.txt'), path.join(root, 'd', 'b.txt'));
    expect(() => pinTarget(u, inRoot)).toThrow(expect.objectContaining({ code: 'changed', exitCode: 3 }));
    expect(u.dir).toBeUndefined();
  });
});
