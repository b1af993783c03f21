// Arguments whose bytes are not UTF-8, given to the real process: Node decodes them lossily, so
// every command must still touch the file named by the exact bytes, never its U+FFFD look-alike.
// Raw bytes cannot pass through spawn()'s strings: bash's printf builds them from \xNN escapes.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { esc, tempDir } from '../helpers.js';

const BIN = process.env.LINEWISE_BIN ?? fileURLToPath(new URL('../../bin/linewise.js', import.meta.url));
const tmp = tempDir();
afterAll(() => tmp.cleanup());

/** `linewise ...args` in `cwd`, each argument given as its exact bytes. */
function lw(args: (string | Buffer)[], cwd: string, stdin?: Buffer) {
  const cmd = [...(BIN.endsWith('.js') ? [process.execPath, BIN] : [BIN]), ...args];
  const hex = cmd.map((a) => [...Buffer.from(a)].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')).join(' ');
  // Each word: printf of its escapes, with a dot kept past $(...)'s trimming of final newlines.
  const script = 'args=(); for h in $HEX; do a=$(printf "$h."); args+=("${a%.}"); done; exec "${args[@]}"';
  const r = spawnSync('bash', ['-c', script], { cwd, env: { ...process.env, HEX: hex, NO_COLOR: '1' }, input: stdin ?? Buffer.alloc(0) });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString() };
}

/** The name Node would have decoded `raw` to. */
const lookAlike = (raw: Buffer) => Buffer.from(raw.toString('utf8'), 'utf8');
const b = (s: string) => Buffer.from(s, 'latin1');

describe('a path argument that is not UTF-8 names that file, not its look-alike', () => {
  const dir = path.join(tmp.dir, 'names');
  fs.mkdirSync(dir);
  const raw = Buffer.concat([b('x'), Buffer.of(0xff)]);
  const alike = lookAlike(raw); // x U+FFFD
  const put = (name: Buffer, bytes: string) => fs.writeFileSync(Buffer.concat([Buffer.from(`${dir}/`), name]), bytes);
  const get = (name: Buffer) => fs.readFileSync(Buffer.concat([Buffer.from(`${dir}/`), name]));

  it('readlines, replace (range, --old, --from, --rows, --expect, --create) each touch the named file', () => {
    put(raw, 'ff\n');
    put(alike, 'fffd\n');
    expect(esc(lw(['readlines', raw, '1'], dir).stdout)).toBe(esc('1\tff\n'));

    let r = lw(['replace', raw, '1', '--text', 'EDITED'], dir);
    expect(r.status).toBe(0);
    expect(esc(get(raw))).toBe('EDITED\\n');
    expect(esc(get(alike))).toBe('fffd\\n');

    r = lw(['replace', raw, '--old', 'EDITED', '--new', 'again'], dir);
    expect(r.status).toBe(0);
    expect(esc(get(raw))).toBe('again\\n');

    // --from, --rows and --expect name files of raw bytes too (and the look-alikes hold other text).
    const from = Buffer.concat([b('new'), Buffer.of(0xe9)]);
    put(from, 'from the raw file\n');
    put(lookAlike(from), 'from the look-alike\n');
    r = lw(['replace', raw, '1', '--from', from], dir);
    expect(r.status).toBe(0);
    expect(esc(get(raw))).toBe('from the raw file\\n');

    const rows = Buffer.concat([b('rows'), Buffer.of(0xe9)]);
    put(rows, '1\tfrom the rows\n');
    put(lookAlike(rows), '1\tfrom the look-alike rows\n');
    r = lw(['replace', raw, '--rows', rows], dir);
    expect(r.status).toBe(0);
    expect(esc(get(raw))).toBe('from the rows\\n');

    const before = Buffer.concat([b('before'), Buffer.of(0xe9)]);
    put(before, '1\tfrom the rows\n');
    put(lookAlike(before), '1\tsomething else\n');
    r = lw(['replace', raw, '1', '--text', 'guarded', '--expect', before], dir);
    expect(r.status).toBe(0);
    expect(esc(get(raw))).toBe('guarded\\n');

    const created = Buffer.concat([b('new-'), Buffer.of(0xfe)]);
    r = lw(['replace', created, '--create', '--text', 'made'], dir);
    expect(r.status).toBe(0);
    expect(esc(get(created))).toBe('made'); // --create writes the text as given
    expect(fs.existsSync(Buffer.concat([Buffer.from(`${dir}/`), lookAlike(created)]))).toBe(false);
    expect(esc(get(alike))).toBe('fffd\\n');
  });

  it('a text argument keeps its bytes: --text of latin1 bytes writes those bytes, not U+FFFD', () => {
    put(raw, 'one\n');
    const r = lw(['replace', raw, '1', '--text', Buffer.concat([b('caf'), Buffer.of(0xe9)])], dir);
    expect(r.status).toBe(0);
    expect(esc(get(raw))).toBe('caf\\xe9\\n');
  });

  it('a directory argument of raw bytes is walked, not its look-alike; a pattern of raw bytes is refused', () => {
    const sub = Buffer.concat([b('d'), Buffer.of(0xfc)]);
    fs.mkdirSync(Buffer.concat([Buffer.from(`${dir}/`), sub]));
    fs.mkdirSync(Buffer.concat([Buffer.from(`${dir}/`), lookAlike(sub)]));
    put(Buffer.concat([sub, b('/a.txt')]), 'needle in the raw directory\n');
    put(Buffer.concat([lookAlike(sub), b('/a.txt')]), 'needle in the look-alike\n');
    const r = lw(['grep', '-h', 'needle', sub], dir);
    expect(r.status).toBe(0);
    expect(esc(r.stdout)).toBe(esc('1\tneedle in the raw directory\n'));
    const p = lw(['grep', Buffer.concat([b('caf'), Buffer.of(0xe9)]), sub], dir);
    expect(p.status).toBe(2);
    expect(p.stderr).toMatch(/pattern holds bytes that are not UTF-8/);
  });

  it('mcp --root of raw bytes serves that directory', () => {
    const root = Buffer.concat([b('root'), Buffer.of(0xfd)]);
    fs.mkdirSync(Buffer.concat([Buffer.from(`${dir}/`), root]));
    fs.mkdirSync(Buffer.concat([Buffer.from(`${dir}/`), lookAlike(root)]));
    put(Buffer.concat([root, b('/f.txt')]), 'raw root\n');
    put(Buffer.concat([lookAlike(root), b('/f.txt')]), 'look-alike root\n');
    const requests = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_lines', arguments: { path: 'f.txt', start: 1 } } },
    ];
    const r = lw(['mcp', '--root', root], dir, Buffer.from(requests.map((q) => JSON.stringify(q)).join('\n') + '\n'));
    const answer = r.stdout
      .toString()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id?: number; result?: { content: { text: string }[] } })
      .find((m) => m.id === 2);
    expect(answer?.result?.content[0]?.text).toBe('1\traw root\n');
  });

  it('property: for random bytes in a name, readlines and replace open exactly that name', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 12 }).map((a) => Buffer.from(a.map((c) => (c === 0 || c === 0x2f ? 0x41 : c)))), (name) => {
        if (name.equals(b('.')) || name.equals(b('..'))) return;
        const own = path.join(tmp.dir, `p${Math.random().toString(36).slice(2)}`);
        fs.mkdirSync(own);
        const file = Buffer.concat([Buffer.from(`${own}/`), name]);
        const alike = Buffer.concat([Buffer.from(`${own}/`), lookAlike(name)]);
        fs.writeFileSync(file, 'mine\n');
        const distinct = !lookAlike(name).equals(name);
        if (distinct) fs.writeFileSync(alike, 'other\n');
        // A name starting with "-" would be an option: ./ makes it a path, as a user would write it.
        const arg = Buffer.concat([b('./'), name]);
        const read = lw(['readlines', arg, '1'], own);
        expect(esc(read.stdout)).toBe(esc('1\tmine\n'));
        const r = lw(['replace', arg, '1', '--text', 'EDITED'], own);
        expect(r.status).toBe(0);
        expect(esc(fs.readFileSync(file))).toBe('EDITED\\n');
        if (distinct) expect(esc(fs.readFileSync(alike))).toBe('other\\n');
      }),
      { numRuns: 15 },
    );
  });
});
