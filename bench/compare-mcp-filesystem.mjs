// What @modelcontextprotocol/server-filesystem's edit_file does to the bytes of a CRLF, a latin1
// and a BOM file, and to a text that occurs twice: the README's comparison row comes from this.
// Not a test and not a dependency: install the server and the SDK in a scratch directory outside
// the repo and run it from there, e.g.
//   mkdir /tmp/mcpfs && cd /tmp/mcpfs && npm init -y && npm install \
//     @modelcontextprotocol/server-filesystem@2026.8.31 @modelcontextprotocol/sdk@1.32.2
//   node /path/to/linewise/bench/compare-mcp-filesystem.mjs
// Each case prints the file's bytes before and after (escaped), and the server's answer.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';

const here = createRequire(path.join(process.cwd(), 'index.js'));
const { Client } = await import(here.resolve('@modelcontextprotocol/sdk/client/index.js'));
const { StdioClientTransport } = await import(here.resolve('@modelcontextprotocol/sdk/client/stdio.js'));
const server = here.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpfs-'));
const esc = (b) => [...b].map((c) => (c === 10 ? '\\n' : c === 13 ? '\\r' : c >= 32 && c < 127 ? String.fromCharCode(c) : `\\x${c.toString(16).padStart(2, '0')}`)).join('');

const client = new Client({ name: 'linewise-compare', version: '0' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [server, dir], stderr: 'ignore' }));

/** Writes `bytes`, asks the server to read the file, then to make `edits` (built from what it read). */
async function probe(name, bytes, edits) {
  const p = path.join(dir, name);
  fs.writeFileSync(p, bytes);
  const read = (await client.callTool({ name: 'read_text_file', arguments: { path: p } })).content[0].text;
  const r = await client.callTool({ name: 'edit_file', arguments: { path: p, edits: edits(read) } });
  console.log(JSON.stringify({ name, before: esc(bytes), answer: r.isError ? r.content[0].text : 'ok', after: esc(fs.readFileSync(p)) }));
}

// The old text written with "\n", spanning two lines, as an agent writes it.
await probe('crlf.txt', Buffer.from('alpha\r\nbeta\r\ngamma\r\n'), () => [{ oldText: 'alpha\nbeta', newText: 'ALPHA\nBETA' }]);
await probe('latin1.txt', Buffer.from('caf\xe9\nna\xefve\nend\n', 'latin1'), () => [{ oldText: 'café\nnaïve', newText: 'CAFÉ\nNAÏVE' }]);
// The latin1 file as an agent meets it: the old text copied from what read_text_file returned.
await probe('latin1-as-read.txt', Buffer.from('caf\xe9\nna\xefve\nend\n', 'latin1'), (read) => {
  const lines = read.split('\n');
  return [{ oldText: `${lines[1]}\n${lines[2]}`, newText: `${lines[1]}\nEND` }];
});
await probe('bom.txt', Buffer.from('\ufeffalpha\nbeta\ngamma\n'), () => [{ oldText: 'alpha\nbeta', newText: 'ALPHA\nBETA' }]);
await probe('twice.txt', Buffer.from('x = 1\ny = 2\nx = 1\n'), () => [{ oldText: 'x = 1', newText: 'x = 9' }]);
await client.close();
fs.rmSync(dir, { recursive: true, force: true });
