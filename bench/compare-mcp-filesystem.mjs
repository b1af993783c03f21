// What @modelcontextprotocol/server-filesystem and `linewise mcp` each do to the bytes of a CRLF,
// a latin1 and a BOM file, and to a text that occurs twice, given the same edits: the README's
// side-by-side comes from this. Not a test and not a dependency: install the reference server and
// the SDK in a scratch directory outside the repo, build linewise, and run it from there, e.g.
//   mkdir /tmp/mcpfs && cd /tmp/mcpfs && npm init -y && npm install \
//     @modelcontextprotocol/server-filesystem@2026.8.31 @modelcontextprotocol/sdk@1.32.2
//   node /path/to/linewise/bench/compare-mcp-filesystem.mjs
// Each case prints, per server, the file's bytes before and after (escaped) and its answer.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = createRequire(path.join(process.cwd(), 'index.js'));
const { Client } = await import(here.resolve('@modelcontextprotocol/sdk/client/index.js'));
const { StdioClientTransport } = await import(here.resolve('@modelcontextprotocol/sdk/client/stdio.js'));
const reference = here.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const linewise = fileURLToPath(new URL('../bin/linewise.js', import.meta.url));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpfs-'));
const esc = (b) => [...b].map((c) => (c === 10 ? '\\n' : c === 13 ? '\\r' : c >= 32 && c < 127 ? String.fromCharCode(c) : `\\x${c.toString(16).padStart(2, '0')}`)).join('');
const text = (r) => r.content.map((c) => c.text).join('\n');

async function connect(args) {
  const client = new Client({ name: 'linewise-compare', version: '0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, cwd: dir, stderr: 'ignore' }));
  return client;
}
const servers = {
  'server-filesystem': {
    client: await connect([reference, dir]),
    read: (c, p, o) => c.callTool({ name: 'read_text_file', arguments: { path: p, ...(o.head ? { head: o.head } : {}) } }),
    edit: (c, p, e) => c.callTool({ name: 'edit_file', arguments: { path: p, edits: [{ oldText: e.old, newText: e.new }] } }),
  },
  'linewise mcp': {
    client: await connect([linewise, 'mcp', '--root', dir]),
    read: (c, p, o) => c.callTool({ name: 'read_lines', arguments: { path: p, start: 1, ...(o.head ? { end: o.head } : {}), ...(o.encoding ? { encoding: o.encoding } : {}) } }),
    edit: (c, p, e, o) => c.callTool({ name: 'replace_text', arguments: { path: p, old: e.old, new: e.new, ...(o.encoding ? { encoding: o.encoding } : {}) } }),
  },
};

/**
 * Writes `bytes`, has each server read the file, then make the edit `edit` builds from what it
 * read (a function of the text, as an agent copies it). `o.encoding` is what a linewise user
 * passes for a file that is not UTF-8 (the reference server has no such argument).
 */
async function probe(name, bytes, edit, o = {}) {
  for (const [server, s] of Object.entries(servers)) {
    const p = path.join(dir, `${server.replace(/\W/g, '')}-${name}`);
    fs.writeFileSync(p, bytes);
    const read = await s.read(s.client, p, o);
    const e = edit ? edit(text(read)) : undefined;
    const r = e ? await s.edit(s.client, p, e, o) : undefined;
    const answer = r === undefined ? JSON.stringify(text(read)) : r.isError ? text(r) : 'ok';
    console.log(JSON.stringify({ case: name, server, before: esc(bytes), answer, after: esc(fs.readFileSync(p)) }));
  }
}

await probe('crlf-head-2.txt', Buffer.from('alpha\r\nbeta\r\ngamma\r\n'), undefined, { head: 2 });
// The old text written with "\n", spanning two lines, as an agent writes it.
await probe('crlf.txt', Buffer.from('alpha\r\nbeta\r\ngamma\r\n'), () => ({ old: 'alpha\nbeta', new: 'ALPHA\nBETA' }));
await probe('latin1.txt', Buffer.from('caf\xe9\nna\xefve\nend\n', 'latin1'), () => ({ old: 'café\nnaïve', new: 'CAFÉ\nNAÏVE' }), { encoding: 'latin1' });
// The latin1 file as an agent meets it without naming its encoding: the old text copied from what it read.
await probe('latin1-as-read.txt', Buffer.from('caf\xe9\nna\xefve\nend\n', 'latin1'), (read) => {
  const lines = read.split('\n').map((l) => l.replace(/^\d+\t/, ''));
  return { old: `${lines[1]}\n${lines[2]}`, new: `${lines[1]}\nEND` };
});
await probe('bom.txt', Buffer.from('\ufeffalpha\nbeta\ngamma\n'), () => ({ old: 'alpha\nbeta', new: 'ALPHA\nBETA' }));
await probe('twice.txt', Buffer.from('x = 1\ny = 2\nx = 1\n'), () => ({ old: 'x = 1', new: 'x = 9' }));
for (const s of Object.values(servers)) await s.client.close();
fs.rmSync(dir, { recursive: true, force: true });
