// The library's findFiles (what `grep --files` and the MCP tool find_files list) against the CLI,
// its options checked by the declaration, and grep's `skipped`: the walked binary files passed over.
import { afterAll, describe, expect, it } from 'vitest';
import { findFiles, grep } from '../../src/index.js';
import { run, tempDir, writeTree } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const root = writeTree(tmp.dir, {
  '.gitignore': 'build/\n',
  'a.ts': 'x\n',
  'b.test.ts': 'x\n',
  'src/c.ts': 'x\n',
  'src/d.bin': 'x\0y\n',
  'build/out.ts': 'x\n',
  '.hidden/e.ts': 'x\n',
});

describe('findFiles', () => {
  it('lists what grep --files lists: ignore files and hidden files applied, globs filtering names', async () => {
    const cli = (await run(['grep', '--files'], { cwd: root })).stdout.toString().split('\n').filter(Boolean);
    const lib = await findFiles([], { cwd: root });
    expect(lib.files).toEqual(cli);
    expect(lib.files).toEqual(['a.ts', 'b.test.ts', 'src/c.ts', 'src/d.bin']);
    expect((await findFiles([], { cwd: root, glob: ['*.ts', '!*.test.ts'] })).files).toEqual(['a.ts', 'src/c.ts']);
    expect((await findFiles(['src'], { cwd: root })).files).toEqual(['src/c.ts', 'src/d.bin']);
    expect((await findFiles([], { cwd: root, hidden: true, noIgnore: true })).files).toEqual(['.gitignore', '.hidden/e.ts', 'a.ts', 'b.test.ts', 'build/out.ts', 'src/c.ts', 'src/d.bin']);
    expect((await findFiles(['*.ts'], { cwd: root })).files).toEqual(['a.ts', 'b.test.ts']);
  });

  it('checks its options by the declaration, in the library\'s names', async () => {
    await expect(findFiles([], { cwd: root, hidden: 'yes' as never })).rejects.toThrow('hidden must be true or false, not "yes"');
    await expect(findFiles([], { cwd: root, glob: [1] as never })).rejects.toThrow('glob must be a string or an array of strings');
    const missing = await findFiles(['nope'], { cwd: root });
    expect(missing.files).toEqual(['nope']); // a named file is listed as given, as grep --files does
  });
});

describe('grep: skipped (the library\'s result, the CLI\'s --skipped)', () => {
  it('names the walked binary files passed over, which the CLI does not print', async () => {
    const r = await grep('x', [], { cwd: root });
    expect(r.skipped).toEqual(['src/d.bin']);
    expect(r.notes).toEqual([]);
    expect(r.lines.map((l) => l.path)).toEqual(['a.ts', 'b.test.ts', 'src/c.ts']);
  });

  it('the CLI names them only under --skipped, as notes (the status unchanged)', async () => {
    const quiet = await run(['grep', 'x'], { cwd: root });
    const told = await run(['grep', '--skipped', 'x'], { cwd: root });
    expect([quiet.status, quiet.stderr.toString()]).toEqual([0, '']);
    expect([told.status, told.stdout.toString(), told.stderr.toString()]).toEqual([0, quiet.stdout.toString(), 'linewise: src/d.bin: binary file (it has a NUL byte), not searched; use -a/--text to search it\n']);
  });
});
