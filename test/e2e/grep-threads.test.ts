// A tree search gives the same bytes whatever the number of threads (-j): rows, their order,
// notes and errors on stderr, footers and the exit status, over a tree with every kind of file a
// worker hands back (matches, none, binary, a decoded UTF-16 file and one past the size searched
// out of turn, both left to the main thread), under the options that shape the output.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { esc, tempDir, writeTree } from '../helpers.js';

const BIN = process.env.LINEWISE_BIN ?? fileURLToPath(new URL('../../bin/linewise.js', import.meta.url));
const tmp = tempDir();
afterAll(() => tmp.cleanup());

/** Runs the CLI, without blocking the worker: the cases below run at the same time. */
function linewise(args: string[], cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const isJs = BIN.endsWith('.js');
  const child = spawn(isJs ? process.execPath : BIN, isJs ? [BIN, ...args] : args, { cwd, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (b: Buffer) => out.push(b));
  child.stderr.on('data', (b: Buffer) => err.push(b));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout: esc(Buffer.concat(out)), stderr: Buffer.concat(err).toString() }));
  });
}

/** A deterministic tree of 1,200 files in 60 directories, each kind of file among them. */
function makeTree(root: string): string {
  let x = 12345;
  const rnd = (n: number) => {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    return x % n;
  };
  const words = ['alpha', 'needle', 'beta', 'Needle', 'gamma', 'needles', 'x', '', 'naïve', 'needle needle'];
  const files: Record<string, string | Uint8Array> = { '.gitignore': 'ignored/\n*.skip\n' };
  for (let d = 0; d < 60; d++) {
    for (let f = 0; f < 20; f++) {
      const lines = Array.from({ length: rnd(30) }, () => Array.from({ length: 1 + rnd(4) }, () => words[rnd(words.length)]).join(' '));
      const eol = rnd(4) === 0 ? '\r\n' : '\n';
      const last = rnd(3) === 0 ? '' : eol; // some files end without a newline
      files[`dir${String(d).padStart(2, '0')}/f${f}.txt`] = lines.join(eol) + (lines.length > 0 ? last : '');
    }
  }
  files['dir03/binary.bin'] = Buffer.from('needle\0needle\n');
  files['dir04/utf16.txt'] = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a needle\nnone\n', 'utf16le')]);
  files['dir05/big.txt'] = `${'filler line\n'.repeat(100_000)}the last needle\n`;
  files['dir06/invalid.txt'] = Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0xff, 0x0a]);
  files['ignored/needle.txt'] = 'needle\n';
  files['dir07/x.skip'] = 'needle\n';
  files['dir08/slow.txt'] = `needle first\n${'a'.repeat(40)}b\nneedle after\n`;
  return writeTree(root, files);
}

const CASES: string[][] = [
  ['needle'],
  ['-F', 'needle'],
  ['-i', '-w', 'needle'],
  ['-c', 'needle'],
  ['-l', 'needle'],
  ['--files-without-match', 'needle'],
  ['-v', '-c', 'needle'],
  ['-C', '1', 'needle'],
  ['-m', '1', 'needle'],
  ['-o', 'need[a-z]*'],
  ['--json', 'needle'],
  ['-q', 'needle'],
  ['--max-rows', '25', 'needle'],
  ['--max-bytes', '300', '--count-bytes', '2000', 'needle'],
  ['--after', 'dir09/f3.txt:2', '--max-rows', '10', 'needle'],
  ['--replace', 'PIN', 'needle'],
  ['-e', 'alpha', '-e', 'gamma$'],
  ['needle', 'dir01', 'dir02/f1.txt', 'dir05'],
];

// The cases only read the tree, so they run at the same time (each spawns its runs one by one):
// the file took 30 s one case after another, most of it waiting for processes to start.
describe.concurrent('the built CLI: grep -j (threads)', () => {
  const root = makeTree(path.join(tmp.dir, 'tree'));

  it.each(CASES)('%s ...: the same bytes, stderr and status with 1, 2 and 4 threads', async (...args) => {
    const one = await linewise(['grep', '-j', '1', ...args], root);
    expect(one.status, one.stderr).not.toBe(2);
    for (const j of ['2', '4']) expect(await linewise(['grep', '-j', j, ...args], root), `-j ${j}`).toEqual(one);
    expect(await linewise(['grep', ...args], root), 'default').toEqual(one);
  });

  it('a pattern that runs past its deadline in a walked file: the same rows before it, the same message', async () => {
    const args = (j: string) => ['grep', '-j', j, '--timeout', '1', '(a+)+$', '.'];
    const one = await linewise(args('1'), root);
    expect(one.status).toBe(2);
    expect(one.stderr).toMatch(/^linewise: \.\/dir08\/slow\.txt: the search ran longer than 1 s at or after line \d+: /);
    expect(await linewise(args('2'), root)).toEqual(one);
  });
});
