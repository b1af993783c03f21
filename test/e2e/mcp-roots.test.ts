// linewise mcp's confinement and concurrency through the SDK's client: every way out of the roots
// refused with the file outside untouched, --read-only, the client's roots, two writes to one file
// in turn, and a cancelled search stopped.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esc, tempDir, tree, writeTree } from '../helpers.js';
import { connect, type Session } from './mcp-client.js';

const tmp = tempDir();
const root = path.join(tmp.dir, 'root');
const outside = path.join(tmp.dir, 'outside');
let s: Session;

beforeAll(async () => {
  writeTree(root, { 'in.txt': 'inside\r\n', 'sub/deep.txt': 'deep\n' });
  writeTree(outside, { 'secret.txt': 'secret line\r\n' });
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
  fs.symlinkSync(outside, path.join(root, 'linkdir'));
  s = await connect(['--root', root], root);
});
afterAll(async () => {
  await s.close();
  tmp.cleanup();
});

describe('linewise mcp: confinement', () => {
  it('refuses every way out of the roots, reading or writing, and leaves the files outside as they were', async () => {
    const before = tree(outside);
    const secret = path.join(outside, 'secret.txt');
    const calls: [string, Record<string, unknown>][] = [
      ['read_lines', { path: '../outside/secret.txt', start: 1 }],
      ['read_lines', { path: secret, start: 1 }],
      ['read_lines', { path: 'link.txt', start: 1 }],
      ['read_lines', { path: 'linkdir/secret.txt', start: 1 }],
      ['read_lines', { path: 'sub/../../outside/secret.txt', start: 1 }],
      ['page', { path: 'link.txt' }],
      ['grep', { pattern: 'secret', paths: ['..'] }],
      ['grep', { pattern: 'secret', paths: ['linkdir'] }],
      ['grep', { pattern: 'secret', paths: [outside] }],
      ['replace_lines', { path: '../outside/secret.txt', start: 1, text: 'pwned\n' }],
      ['replace_lines', { path: secret, start: 1, text: 'pwned\n' }],
      ['replace_lines', { path: 'link.txt', start: 1, text: 'pwned\n' }],
      ['replace_text', { path: 'linkdir/secret.txt', old: 'secret', new: 'pwned' }],
      ['replace_rows', { rows: '../outside/secret.txt\t1\tpwned\r\n' }],
      ['replace_rows', { rows: `${secret}\t1\tpwned\r\n` }],
      ['replace_rows', { rows: 'link.txt\t1\tpwned\r\n' }],
      ['replace_rows', { rows: 'in.txt\t1\tfine\r\n../outside/secret.txt\t1\tpwned\r\n' }],
      ['replace_rows', { path: '../outside/secret.txt', rows: '1\tpwned\r\n' }],
      ['replace_lines', { path: 'in.txt', start: 1, text: 'x\n', expect: '../outside/secret.txt\t1\tsecret line\r\n' }],
      ['read_lines', { path: '-', start: 1 }],
    ];
    for (const [tool, args] of calls) {
      const r = await s.call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}: ${r.texts.join(' ')}`).toBe(true);
      expect(r.texts.join('\n'), `${tool} ${JSON.stringify(args)}`).not.toContain('secret line');
      if (args.path !== '-') expect(r.error?.code, `${tool} ${JSON.stringify(args)}`).toBe('outside-roots');
    }
    expect(tree(outside)).toEqual(before);
    expect(esc(fs.readFileSync(path.join(root, 'in.txt')))).toBe('inside\\r\\n'); // the batch with an outside row wrote nothing
    // a walk of the root does not follow the links out of it
    const g = await s.call('grep', { pattern: 'secret|inside|deep' });
    expect(g.texts[0]).toBe('in.txt\t1\tinside\r\nsub/deep.txt\t1\tdeep\n');
  });

  it('--read-only lists no writer and refuses a write by name', async () => {
    const ro = await connect(['--root', root, '--read-only'], root);
    try {
      expect((await ro.client.listTools()).tools.map((t) => t.name)).toEqual(['read_lines', 'page', 'grep', 'find_files']);
      const r = await ro.call('replace_lines', { path: 'in.txt', start: 1, text: 'x\n' });
      expect(r.isError).toBe(true);
      expect(r.texts[0]).toBe('linewise: no tool "replace_lines": the server was started read-only: it offers no tool that writes');
      expect(esc(fs.readFileSync(path.join(root, 'in.txt')))).toBe('inside\\r\\n');
    } finally {
      await ro.close();
    }
  });

  it("serves the client's roots when it offers them and --root is not given", async () => {
    const c = await connect([], tmp.dir, { capabilities: { roots: {} } });
    c.client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: `file://${path.join(root, 'sub')}`, name: 'sub' }] }));
    try {
      const r = await c.call('read_lines', { path: 'deep.txt', start: 1 });
      expect(r.texts[0]).toBe('1\tdeep\n');
      const out = await c.call('read_lines', { path: path.join(root, 'in.txt'), start: 1 });
      expect(out.error?.code).toBe('outside-roots');
    } finally {
      await c.close();
    }
  });
});

describe('linewise mcp: concurrency', () => {
  it('applies two concurrent replace_lines on one file, one after the other', async () => {
    writeTree(root, { 'two.txt': 'one\r\ntwo\r\nthree\r\n' });
    const [a, b] = await Promise.all([s.call('replace_lines', { path: 'two.txt', start: 1, text: 'ONE\n' }), s.call('replace_lines', { path: 'two.txt', start: 3, text: 'THREE\n' })]);
    expect(a.isError, a.texts.join(' ')).toBe(false);
    expect(b.isError, b.texts.join(' ')).toBe(false);
    expect(esc(fs.readFileSync(path.join(root, 'two.txt')))).toBe('ONE\\r\\ntwo\\r\\nTHREE\\r\\n');
  });

  it('stops a search the client cancels (notifications/cancelled) and answers the next call', async () => {
    // Each line costs the pattern some backtracking: the whole file takes seconds, one block of it little.
    // (Each line holds a "b", the literal the pattern needs, or grep would rule every line out unseen.)
    writeTree(root, { 'slow/slow.txt': `${'a'.repeat(18)}c b\n`.repeat(300_000) });
    const controller = new AbortController();
    const long = s.call('grep', { pattern: '^(a|aa)*b', paths: ['slow'] }, { signal: controller.signal });
    setTimeout(() => controller.abort('enough'), 200);
    await expect(long).rejects.toThrow();
    while (!s.stderr().includes('linewise: mcp: grep: cancelled by the client; stopped')) await new Promise((r) => setTimeout(r, 20));
    expect((await s.call('read_lines', { path: 'in.txt', start: 1 })).texts[0]).toBe('1\tinside\r\n');
  }, 60_000);

  it('stops a search the client cancels while the pattern is inside one long block of lines, before its own timeout fires', async () => {
    // Each line costs this pattern milliseconds of backtracking: 128 KiB of such lines (the CLI's
    // block) take longer than the 10 s timeout, the server's 8 KiB block a fraction of it. A
    // cancel heard only after the block would be beaten by the timeout, which ends the search
    // without the cancel's message.
    writeTree(root, { 'slower/slow.txt': `${'a'.repeat(27)}\n`.repeat(5000) });
    const before = s.stderr().split('cancelled by the client').length;
    const controller = new AbortController();
    const long = s.call('grep', { pattern: '^(a|aa)*b', paths: ['slower'] }, { signal: controller.signal });
    controller.abort('enough');
    await expect(long).rejects.toThrow();
    while (s.stderr().split('cancelled by the client').length === before) await new Promise((r) => setTimeout(r, 20));
    expect(s.stderr()).toContain('linewise: mcp: grep: cancelled by the client; stopped');
    expect((await s.call('read_lines', { path: 'in.txt', start: 1 })).texts[0]).toBe('1\tinside\r\n');
  }, 60_000);
});
