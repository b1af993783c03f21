// Issue 22: a long content search (--old, --edits) honours SIGINT and SIGTERM. The built CLI runs
// as a real process on a 96 MiB file; the signal is sent once the search has read well into it
// (the process's read count, /proc/PID/io), and the file is compared byte for byte afterwards.

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

const sha = (p: string) => createHash('sha256').update(fs.readFileSync(p)).digest('hex');

/** Bytes the process has read so far (its own code included), or -1 once it is gone. */
function readBytes(pid: number): number {
  try {
    return Number(/^rchar: (\d+)$/m.exec(fs.readFileSync(`/proc/${pid}/io`, 'latin1'))![1]);
  } catch {
    return -1;
  }
}

describe.runIf(process.platform === 'linux')('a signal during a long content search', () => {
  const dir = path.join(tmp.dir, 'search');
  const big = path.join(dir, 'big.txt');
  let hash = '';
  beforeAll(() => {
    fs.mkdirSync(dir);
    // 96 MiB of lines of "y": every byte may start each old text, so the search looks at each one.
    const block = `${'y'.repeat(127)}\n`.repeat(8192);
    const fd = fs.openSync(big, 'w');
    for (let i = 0; i < 96; i++) fs.writeSync(fd, block);
    fs.closeSync(fd);
    // ten content edits that are not in the file: one Aho-Corasick pass, then the near-match pass
    fs.writeFileSync(path.join(tmp.dir, 'edits.jsonl'), Array.from({ length: 10 }, (_, k) => JSON.stringify({ old: `${'y'.repeat(40)}z${k}`, new: `E${k}` })).join('\n'));
    hash = sha(big);
  });

  const cases: [NodeJS.Signals, string[]][] = [
    ['SIGINT', ['--old', `${'y'.repeat(300)}z`, '--new', 'E']],
    ['SIGTERM', ['--edits', path.join(tmp.dir, 'edits.jsonl')]],
  ];
  for (const [signal, edit] of cases) {
    it(`${signal} during replace ${edit[0]}: the file intact, no temporary file, linewise dies by ${signal}`, async () => {
      const isJs = BIN.endsWith('.js');
      const child = spawn(isJs ? process.execPath : BIN, [...(isJs ? [BIN] : []), 'replace', 'big.txt', ...edit], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      const err: Buffer[] = [];
      child.stderr.on('data', (b: Buffer) => err.push(b));
      child.stdout.resume();
      const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, sig) => resolve({ code, signal: sig })));
      // 24 MiB read: the search is well under way (the CLI's own code is a few MiB)
      let read = 0;
      while ((read = readBytes(child.pid!)) !== -1 && read < 24 << 20) await new Promise((r) => setTimeout(r, 5));
      expect(read).toBeGreaterThan(0);
      child.kill(signal);
      // Stopped at the next checkpoint (every 4 MiB searched), not at the end of the file: what
      // it reads after the signal stays far below the 96 MiB (a count of bytes, not of time).
      let most = read;
      for (let now = read; now !== -1; now = readBytes(child.pid!)) {
        most = Math.max(most, now);
        await new Promise((r) => setTimeout(r, 1));
      }
      expect(most).toBeLessThan(read + (24 << 20));
      const r = await done;
      expect([r.code, r.signal, Buffer.concat(err).toString()]).toEqual([null, signal, '']);
      expect(fs.readdirSync(dir)).toEqual(['big.txt']);
      expect(sha(big)).toBe(hash);
    });
  }
});
