// linewise mcp's warm engine through the SDK's client: a repeated search over files that are old
// enough to be kept in memory gets the same rows, and any change on disk (even one that keeps a
// file's size and mtime, or an edit of .gitignore) shows in the very next search.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RACY_MS } from '../../src/io/file-cache.js';
import { tempDir, writeTree } from '../helpers.js';
import { cli, connect, type Session } from './mcp-client.js';

const tmp = tempDir();
const root = tmp.dir;
let s: Session;

beforeAll(async () => {
  const files: Record<string, string> = { '.gitignore': 'build/\n' };
  for (let i = 0; i < 40; i++) files[`src/m${i}/f${i}.ts`] = `export const v${i} = ${i};\r\n${i % 10 === 0 ? 'needle here\r\n' : 'nothing\r\n'}`;
  files['build/out.ts'] = 'needle in an ignored file\n';
  writeTree(root, files);
  // Files changed a moment ago are never kept: let the tree age so that the cache holds it.
  await new Promise((r) => setTimeout(r, RACY_MS + 200));
  s = await connect(['--root', root], root);
});
afterAll(async () => {
  await s.close();
  tmp.cleanup();
});

/** Rewrites a file with bytes of the same length and puts its mtime back: only its ctime moves. */
function sneakyWrite(rel: string, bytes: string): void {
  const f = path.join(root, rel);
  const st = fs.statSync(f);
  expect(Buffer.byteLength(bytes)).toBe(st.size);
  fs.writeFileSync(f, bytes);
  fs.utimesSync(f, st.atime, st.mtime);
}

const grep = async () => (await s.call('grep', { pattern: 'needle' })).texts[0];
const fromCli = () => cli(['grep', '--max-rows', '200', '--max-bytes', '65536', 'needle'], root).stdout;

describe('linewise mcp: the warm engine', () => {
  it('answers a repeated search as a search from scratch, and sees every change on disk at once', async () => {
    const first = await grep();
    expect(first).toBe('src/m0/f0.ts\t2\tneedle here\r\nsrc/m10/f10.ts\t2\tneedle here\r\nsrc/m20/f20.ts\t2\tneedle here\r\nsrc/m30/f30.ts\t2\tneedle here\r\n');
    expect(await grep()).toBe(first);
    expect(await grep()).toBe(fromCli());
    // a file that had no match gets one, keeping its size and mtime
    sneakyWrite('src/m1/f1.ts', 'export const v1 = 1;\r\nneedle!\r\n');
    expect(await grep()).toContain('src/m1/f1.ts\t2\tneedle!\r\n');
    expect(await grep()).toBe(fromCli());
    // a file with a match loses it
    sneakyWrite('src/m0/f0.ts', 'export const v0 = 0;\r\nneedl_ here\r\n');
    expect(await grep()).not.toContain('src/m0/f0.ts');
    // a new file, deep in the tree; a file removed
    writeTree(root, { 'src/m5/deeper/new.ts': 'needle new\n' });
    expect(await grep()).toContain('src/m5/deeper/new.ts\t1\tneedle new\n');
    fs.rmSync(path.join(root, 'src/m10/f10.ts'));
    expect(await grep()).not.toContain('src/m10/f10.ts');
    // .gitignore edited: the ignored file comes in, and a new rule keeps another out
    fs.writeFileSync(path.join(root, '.gitignore'), 'src/m20/\n');
    const now = await grep();
    expect(now).toContain('build/out.ts\t1\tneedle in an ignored file\n');
    expect(now).not.toContain('src/m20/');
    expect(now).toBe(fromCli());
    // an edit through the server itself
    await s.call('replace_lines', { path: 'src/m30/f30.ts', start: 2, text: 'needle edited\n' });
    expect(await grep()).toContain('src/m30/f30.ts\t2\tneedle edited\r\n');
    expect(await grep()).toBe(fromCli());
  });
});
