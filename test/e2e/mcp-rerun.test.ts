// Issue 24 through the MCP server: replace_text run twice (and an old text inside its new text)
// answers "already applied" the second time, without error, and leaves the file byte for byte.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.js';
import { connect, type Session } from './mcp-client.js';

const tmp = tempDir();
let s: Session;
beforeAll(async () => {
  s = await connect(['--root', tmp.dir], tmp.dir);
});
afterAll(async () => {
  await s.close();
  tmp.cleanup();
});

describe('replace_text run twice', () => {
  it('the second call is already applied: no error, a note and already_applied, the file as the first left it', async () => {
    const f = path.join(tmp.dir, 'app.ts');
    fs.writeFileSync(f, 'init();\r\nfoo();\r\n');
    const args = { path: 'app.ts', old: 'foo();', new: 'foo();\nbar();' };
    const first = await s.call('replace_text', args);
    expect(first.isError, first.texts.join(' ')).toBe(false);
    expect(fs.readFileSync(f)).toEqual(Buffer.from('init();\r\nfoo();\r\nbar();\r\n'));
    const st = fs.statSync(f);
    const again = await s.call('replace_text', args);
    expect([again.isError, again.status]).toEqual([false, 0]);
    expect(again.texts.join('\n')).toContain('already applied');
    expect(again.records[0]).toMatchObject({ type: 'file', changed: false, already_applied: true });
    expect(fs.readFileSync(f)).toEqual(Buffer.from('init();\r\nfoo();\r\nbar();\r\n'));
    expect([fs.statSync(f).ino, fs.statSync(f).mtimeMs]).toEqual([st.ino, st.mtimeMs]);
  });
});
