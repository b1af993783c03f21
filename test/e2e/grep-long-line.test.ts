// Issue 22: one 4 MB line of "x" is 4 million matches. grep -o, --json and --replace on it stay
// within a memory bound (the child's peak resident set, VmHWM from /proc, was 1.1 GB) and never
// blame the pattern for backtracking: the built CLI as a real process, its output checked whole.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.js';

const BIN = process.env.LINEWISE_BIN ?? fileURLToPath(new URL('../../bin/linewise.js', import.meta.url));
const tmp = tempDir();
afterAll(() => tmp.cleanup());

const N = 4 << 20;
/** Millions of rows through a pipe on a shared machine: a generous bound (no time is asserted). */
const SLOW = 120_000;
/** Peak resident memory so far, in KiB (VmHWM), or -1 once the process is gone. */
function peak(pid: number): number {
  try {
    return Number(/^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'latin1'))![1]);
  } catch {
    return -1;
  }
}

/** Runs linewise, hashing stdout as it comes (never holding it) and watching the peak memory. */
async function lw(args: string[]): Promise<{ code: number | null; stderr: string; sha: string; size: number; kib: number }> {
  const isJs = BIN.endsWith('.js');
  const child = spawn(isJs ? process.execPath : BIN, [...(isJs ? [BIN] : []), ...args], { cwd: tmp.dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const hash = createHash('sha256');
  let size = 0;
  child.stdout.on('data', (b: Buffer) => {
    hash.update(b);
    size += b.length;
  });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  let kib = 0;
  let exited = false;
  void done.then(() => (exited = true));
  while (!exited) {
    kib = Math.max(kib, peak(child.pid!));
    await new Promise((r) => setTimeout(r, 5));
  }
  return { code: await done, stderr, sha: hash.digest('hex'), size, kib };
}

const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

describe.runIf(process.platform === 'linux')('grep on one line of 4 million matches', () => {
  beforeAll(() => fs.writeFileSync(path.join(tmp.dir, 'x.txt'), `${'x'.repeat(N)}\n`));

  // what each prints, built here the simple way
  const rows = () => {
    const parts: string[] = [];
    for (let i = 1; i <= N; i++) parts.push(`1:${i}\tx\n`);
    return parts.join('');
  };
  const cases: [string, string[], () => string][] = [
    ['-o', ['-o'], rows],
    ['--replace', ['--replace', 'y'], () => `1\t${'y'.repeat(N)}\n`],
    ['-o --replace', ['-o', '--replace', 'yz'], () => rows().replaceAll('\tx\n', '\tyz\n')],
  ];
  for (const [name, extra, expected] of cases) {
    it(`${name}: every row, in bounded memory (under 400 MiB; it took 1.1 GB)`, async () => {
      const r = await lw(['grep', 'x', 'x.txt', ...extra, '--timeout', '0']);
      expect([r.code, r.stderr]).toEqual([0, '']);
      const want = expected();
      expect([r.size, r.sha]).toEqual([Buffer.byteLength(want), sha(want)]);
      expect(r.kib).toBeGreaterThan(0);
      expect(r.kib).toBeLessThan(400 << 10);
    }, SLOW);
  }

  it('--json: one match record of 4 million submatches, the same bytes as one object would give, in bounded memory', async () => {
    const r = await lw(['grep', 'x', 'x.txt', '--json', '--timeout', '0']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const subs: string[] = [];
    for (let i = 0; i < N; i++) subs.push(`{"match":{"text":"x"},"start":${i},"end":${i + 1}}`);
    const match = `{"type":"match","data":{"path":{"text":"x.txt"},"lines":{"text":"${'x'.repeat(N)}\\n"},"line_number":1,"submatches":[${subs.join(',')}],"terminator":"\\n"}}\n`;
    const stats = `"stats":{"searches":1,"searches_with_match":1,"matched_lines":1,"matches":${N}`;
    const want = `{"type":"begin","data":{"path":{"text":"x.txt"}}}\n${match}{"type":"end","data":{"path":{"text":"x.txt"},"binary_offset":null,${stats}}}}\n{"type":"summary","data":{${stats},"errors":0}}}\n`;
    expect([r.size, r.sha]).toEqual([Buffer.byteLength(want), sha(want)]);
    expect(r.kib).toBeLessThan(400 << 10);
  }, SLOW);

  it('under the default deadline the pattern is never blamed: done, or stopped naming the many matches', async () => {
    for (const extra of [['-o'], ['--json'], ['--replace', 'y']]) {
      const r = await lw(['grep', 'x', 'x.txt', ...extra]);
      expect(r.stderr).not.toMatch(/backtracks/);
      if (r.code !== 0) expect([r.code, r.stderr]).toEqual([2, 'linewise: x.txt: the search ran longer than 10 s at or after line 1: a line holds more matches than can be shown in that time; raise --timeout (0: no limit)\n']);
    }
  }, 3 * SLOW);
});
