// Live input streams: the process prints each row as soon as its line is complete when it reads a
// pipe or a FIFO (measured at the process: the next line is written only once the row came out,
// so a row held back until the writer ends would hang the test), and -m N stops at the Nth match.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.js';

const BIN = process.env.LINEWISE_BIN ?? fileURLToPath(new URL('../../bin/linewise.js', import.meta.url));
const tmp = tempDir();
afterAll(() => tmp.cleanup());

function lw(args: string[]) {
  const isJs = BIN.endsWith('.js');
  return spawn(isJs ? process.execPath : BIN, [...(isJs ? [BIN] : []), ...args], { cwd: tmp.dir, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
}

/** Collects stdout; `until(text)` resolves once stdout holds `text`. */
function watch(child: ReturnType<typeof lw>) {
  let out = '';
  const waiters: Array<[string, () => void]> = [];
  child.stdout!.on('data', (b: Buffer) => {
    out += b.toString();
    for (const [want, resolve] of waiters) if (out.includes(want)) resolve();
  });
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    until: (want: string) => new Promise<void>((resolve) => (out.includes(want) ? resolve() : waiters.push([want, resolve]))),
    closed,
    out: () => out,
  };
}

describe('rows from a live pipe come out as their lines complete', () => {
  for (const [name, args, first, second] of [
    ['grep ERROR -', ['grep', 'ERROR', '-'], '1\tERROR first\n', '1\tERROR first\n2\tERROR second\n'],
    ['grep --json ERROR -', ['grep', '--json', 'ERROR', '-'], '"lines":{"text":"ERROR first\\n"}', '"lines":{"text":"ERROR second\\n"}'],
    ['readlines - 1', ['readlines', '-', '1'], '1\tERROR first\n', '1\tERROR first\n2\tERROR second\n'],
    ['page -', ['page', '-'], '1\tERROR first\n', '1\tERROR first\n2\tERROR second\n'],
  ] as const) {
    it(`${name}: the first row before the second line is written`, async () => {
      const child = lw([...args]);
      const w = watch(child);
      child.stdin!.write('ERROR first\n');
      await w.until(first); // hangs (and the test times out) if the row waits for the writer to end
      child.stdin!.end('ERROR second\n');
      expect(await w.closed).toBe(0);
      expect(w.out()).toContain(second);
    });
  }

  it('grep on a FIFO named as a path: the same', async () => {
    const fifo = path.join(tmp.dir, 'fifo');
    spawnSync('mkfifo', [fifo]);
    const child = lw(['grep', 'ERROR', fifo]);
    const w = watch(child);
    const writer = fs.createWriteStream(fifo);
    writer.write('ERROR first\n');
    await w.until('1\tERROR first\n');
    writer.end('ERROR second\n');
    expect(await w.closed).toBe(0);
    expect(w.out()).toBe('1\tERROR first\n2\tERROR second\n');
  });

  it('-m 1 stops at the first match while the writer still holds the pipe open', async () => {
    const child = lw(['grep', '-m', '1', 'ERROR', '-']);
    const w = watch(child);
    child.stdin!.write('ok\nERROR first\n');
    expect(await w.closed).toBe(0); // ended without the pipe being closed
    expect(w.out()).toBe('2\tERROR first\n');
    child.stdin!.destroy();
  });
});
