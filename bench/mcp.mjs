// The mcp group: one `linewise mcp` server, kept running, asked for the same tree search again and
// again (its warm engine: walks, contents and the files a search found nothing in, revalidated on
// every call), beside rg run as a new process each time; then a new literal each round (contents
// from memory, every file searched). Times are the client's, from request to answer; each round
// runs the call and rg one right after the other, so ratios are taken under the same load.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BASE_ENV, median } from './measure.mjs';
import { RG_AS_LINEWISE, trees } from './trees.mjs';

const OUT = path.join(os.tmpdir(), `linewise-bench-mcp-${process.pid}`);

/** rg's wall time for `argv` (a new process, output to a file as measure.mjs does) and its rows. */
function rg(argv, cwd) {
  const out = fs.openSync(OUT, 'w');
  const t0 = process.hrtime.bigint();
  const r = spawnSync('rg', argv, { cwd, env: BASE_ENV, stdio: ['ignore', out, 'pipe'] });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  fs.closeSync(out);
  if (r.status !== 0 && r.status !== 1) throw new Error(`rg ${argv.join(' ')}: exit ${r.status}: ${r.stderr}`);
  const rows = fs.readFileSync(OUT, 'utf8').split('\n').filter(Boolean).length;
  fs.rmSync(OUT, { force: true });
  return { seconds, rows };
}

/** The server's peak resident memory, MiB (Linux). */
function peakMiB(pid) {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return kb ? Number(kb[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/**
 * Runs the group: returns the table's rows (cells) and the verdicts (warm search ≤ 1 × rg, issue
 * 16's goal). `root` is the project root; `generated` the generated tree's path relative to it.
 */
export async function mcpGroup(root, generated, runs, notes) {
  const rows = [];
  const verdicts = [];
  const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(root, 'bin', 'linewise.js'), 'mcp', '--root', root], cwd: root, env: BASE_ENV, stderr: 'inherit' });
  const client = new Client({ name: 'linewise-bench', version: '0' });
  await client.connect(transport);
  const call = async (args) => {
    const t0 = process.hrtime.bigint();
    const r = await client.callTool({ name: 'grep', arguments: { fixed_strings: true, max_rows: 1_000_000, max_bytes: 0, ...args } });
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    if (r.isError) throw new Error(`grep ${JSON.stringify(args)}: ${r.content.map((c) => c.text).join(' ')}`);
    const text = r.content[0].text;
    return { seconds, rows: text === '' ? 0 : text.split('\n').filter(Boolean).length };
  };
  for (const t of trees(root, generated)) {
    if (t.absent) {
      notes.push("mcp: git's source tree is absent, its case skipped (see bench/README.md)");
      continue;
    }
    // The server searches what the CLI does with default rules; the trees have no ignore files above them that rg would read.
    const rgArgv = (literal) => [...RG_AS_LINEWISE, '-n', '-F', literal, t.rel];
    const cold = await call({ pattern: t.literal, paths: [t.rel] });
    const same = { mcp: [], rg: [] };
    const fresh = { mcp: [], rg: [] };
    let rgRows = 0;
    for (let i = 0; i < runs; i++) {
      // alternate which goes first, so neither always meets the other's page-cache traffic
      const pair = async (args, literal, into) => {
        let r;
        if (i % 2) r = rg(rgArgv(literal), root);
        const m = await call(args);
        if (!(i % 2)) r = rg(rgArgv(literal), root);
        into.mcp.push(m.seconds);
        into.rg.push(r.seconds);
        return { m, r };
      };
      const { m, r } = await pair({ pattern: t.literal, paths: [t.rel] }, t.literal, same);
      rgRows = r.rows;
      if (m.rows !== cold.rows) throw new Error(`mcp: ${t.id}: the warm search printed ${m.rows} rows, the first ${cold.rows}`);
      const literal = `${t.literal}_${i}x`; // a literal new to the server: no file is known to lack it
      await pair({ pattern: literal, paths: [t.rel] }, literal, fresh);
    }
    if (rgRows !== cold.rows) notes.push(`mcp: ${t.id}: ROWS DIFFER (linewise ${cold.rows}, rg ${rgRows})`);
    const fmt = (s) => (s < 1 ? `${(s * 1000).toFixed(1)} ms` : `${s.toFixed(2)} s`);
    const ratio = (a) => median(a.mcp.map((x, k) => x / a.rg[k]));
    const r1 = ratio(same);
    const met = r1 <= 1;
    verdicts.push({ what: `mcp: warm grep -F ${t.literal} in ${t.id}: linewise ÷ rg = ${r1.toFixed(2)} ×`, goal: '≤ 1 × (#16)', met, source: '#16' });
    rows.push([`mcp: the same grep -F ${t.literal} in ${t.what.replace(', --no-ignore', '')}, repeated (warm server; first call ${fmt(cold.seconds)})`, 'linewise mcp (call)', fmt(median(same.mcp)), '', '', '', '']);
    rows.push(['', 'rg (a process per search)', fmt(median(same.rg)), '', `${r1.toFixed(2)} ×`, '≤ 1 × (#16)', met ? 'met' : 'NOT MET']);
    rows.push([`mcp: a new literal each call in ${t.id} (contents from memory)`, 'linewise mcp (call)', fmt(median(fresh.mcp)), '', '', '', '']);
    rows.push(['', 'rg (a process per search)', fmt(median(fresh.rg)), '', `${ratio(fresh).toFixed(2)} ×`, '', '']);
  }
  const peak = peakMiB(transport.pid);
  notes.push(`mcp: the server's peak memory over the group: ${peak.toFixed(0)} MiB (what it keeps between calls is capped by --cache-mib, 48 MiB by default; docs/MCP.md says where the rest goes); ratios are medians of the per-round ratios`);
  await client.close();
  return { rows, verdicts };
}
