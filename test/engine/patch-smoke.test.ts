import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, expect, it } from 'vitest';
import { applyPatch } from '../../src/index.js';
import { tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

it('smoke', async () => {
  const d = path.join(tmp.dir, 's');
  fs.mkdirSync(d);
  fs.writeFileSync(path.join(d, 'old'), 'a\r\nb\r\nc\r\nd\r\ne\r\n');
  fs.writeFileSync(path.join(d, 'f.txt'), 'a\r\nb\r\nc\r\nd\r\ne\r\n');
  const p = Buffer.from('--- a/f.txt\n+++ b/f.txt\n@@ -2,3 +2,3 @@\n b\n-c\n+C\n d\n');
  const r = await applyPatch(p, { directory: d });
  console.log(JSON.stringify(r, null, 1));
  expect(fs.readFileSync(path.join(d, 'f.txt'), 'latin1')).toBe('a\r\nb\r\nC\r\nd\r\ne\r\n');
  const r2 = await applyPatch(p, { directory: d });
  console.log(JSON.stringify(r2.files[0]));
  const r3 = await applyPatch(p, { directory: d, reverse: true });
  expect(fs.readFileSync(path.join(d, 'f.txt'), 'latin1')).toBe('a\r\nb\r\nc\r\nd\r\ne\r\n');
  try { await applyPatch(Buffer.from('--- a/f.txt\n+++ b/f.txt\n@@ -2,3 +2,3 @@\n b\n-x\n+C\n d\n'), { directory: d }); } catch (e) { console.log(e, (e as any).failures); }
});
