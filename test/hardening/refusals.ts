// What every catalogue case checks of a refusal: one line on stderr, its status, nothing on stdout,
// no stack trace, and every file of the directory as it was (no temporary file left).

import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'vitest';
import { esc, run } from '../helpers.js';

/** Every entry under `dir`: a file's bytes (escaped), a link's target, a FIFO or directory by kind. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of (fs.readdirSync(dir, { recursive: true }) as string[]).sort()) {
    const p = path.join(dir, e);
    const st = fs.lstatSync(p);
    if (st.isSymbolicLink()) out[e] = `-> ${fs.readlinkSync(p)}`;
    else if (st.isFile()) out[e] = `${(st.mode & 0o777).toString(8)} ${esc(fs.readFileSync(p))}`;
    else out[e] = st.isDirectory() ? 'dir' : st.isFIFO() ? 'fifo' : 'other';
  }
  return out;
}

export interface Refusal {
  status: number;
  /** the whole stderr line, without "linewise: " and the newline */
  message: string | RegExp;
}

/** Runs linewise in-process in `dir` and checks the refusal: status, one line, nothing on stdout, disk as before. */
export async function refusedIn(dir: string, args: string[], want: Refusal, stdin?: string | Buffer): Promise<string> {
  const before = snapshot(dir);
  const r = await run(args, { cwd: dir, ...(stdin === undefined ? {} : { stdin }) });
  checkRefusal(r.status, r.stdout, r.stderr, want);
  expect(snapshot(dir)).toEqual(before);
  return r.stderr;
}

export function checkRefusal(status: number | null, stdout: Buffer, stderr: string, want: Refusal): void {
  expect({ status, stderr }).toMatchObject({ status: want.status });
  expect(stderr.endsWith('\n') && stderr.indexOf('\n') === stderr.length - 1, `one line: ${JSON.stringify(stderr)}`).toBe(true);
  expect(stderr.startsWith('linewise: ')).toBe(true);
  const line = stderr.slice('linewise: '.length, -1);
  if (typeof want.message === 'string') expect(line).toBe(want.message);
  else expect(line).toMatch(want.message);
  expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
  expect(esc(stdout)).toBe('');
}
