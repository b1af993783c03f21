// The benchmark: linewise beside wc, sed, tail, cat, GNU grep, rg and sed -i on generated data and
// real trees, as medians of whole-process runs, ratios measured in the same rounds, peak memory,
// and each ratio's goal with whether it is met; with --baseline, beside another linewise checkout.
//
//   npm run bench                                  256 MiB logs, 5 runs per command, every group
//   npm run bench -- --size 1g --runs 7 --only grep,tree
//   npm run bench -- --baseline ../linewise-main   every linewise command also run from there
//
// Never part of the test suite: this machine is shared, so only ratios measured side by side mean
// anything. Needs /usr/bin/time and rg (bench/setup.sh installs them). See bench/README.md.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GROUPS, MEMORY_GOAL_MIB, makeCases } from './cases.mjs';
import { makeLog, makeLongLine, makeRows, makeTree } from './generate.mjs';
import { mcpGroup } from './mcp.mjs';
import { measure, median, UNSET_CA_CERTS } from './measure.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DATA = path.join(ROOT, 'bench', 'data');
/** new ÷ old above this is marked slower: about the run-to-run noise of a shared 2-core machine. */
const SLOWER = 1.1;
/** new peak above old by more than this is marked as more memory. */
const MORE_MIB = 4;

const USAGE = `usage: node bench/run.mjs [--size 256m|1g|...] [--runs N] [--only GROUP,...] [--baseline DIR]
  --size      size of the generated logs (default 256m)
  --runs      timed rounds per case, after one warm-up round (default 5)
  --only      groups to run, comma-separated: ${Object.keys(GROUPS).join(', ')}
  --baseline  another linewise checkout, built (npm ci && npm run build there): every linewise
              command is also run from it, in the same rounds, and the table shows new ÷ old
groups:
${Object.entries(GROUPS).map(([g, what]) => `  ${g.padEnd(9)} ${what}`).join('\n')}`;

function parseArgs(argv) {
  const o = { size: '256m', runs: 5, only: undefined, baseline: undefined };
  const value = (i) => {
    if (argv[i + 1] === undefined) fail(`${argv[i]} needs a value`);
    return argv[i + 1];
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else if (a === '--size') o.size = value(i++);
    else if (a === '--runs') o.runs = Number(value(i++));
    else if (a === '--only') o.only = value(i++);
    else if (a === '--baseline') o.baseline = value(i++);
    else fail(`unknown argument ${a}`);
  }
  const m = /^(\d+)([kmg])?$/i.exec(o.size);
  if (!m) fail(`--size: ${o.size}`);
  o.bytes = Number(m[1]) * { k: 1024, m: 1 << 20, g: 1 << 30 }[(m[2] ?? 'm').toLowerCase()];
  if (!Number.isInteger(o.runs) || o.runs < 1) fail(`--runs: ${o.runs}`);
  const names = o.only ? o.only.split(',').filter(Boolean) : Object.keys(GROUPS);
  const unknown = names.filter((g) => !(g in GROUPS));
  if (unknown.length) fail(`--only: no group ${unknown.join(', ')} (groups: ${Object.keys(GROUPS).join(', ')})`);
  o.groups = new Set(names);
  if (o.baseline !== undefined) {
    o.baseline = path.resolve(o.baseline);
    // the bundle is dist/cli.cjs since the code cache (issue 17), dist/cli.js before
    for (const names of [['bin/linewise.js'], ['dist/cli.cjs', 'dist/cli.js']]) {
      if (!names.some((n) => fs.existsSync(path.join(o.baseline, n)))) fail(`--baseline: ${path.join(o.baseline, names[0])} is missing (run npm ci && npm run build there)`);
    }
  }
  return o;
}

function fail(message) {
  console.error(`bench: ${message} (--help for usage)`);
  process.exit(2);
}

const have = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

/** The data, generated into bench/data on first use and kept between runs. */
function data(o) {
  const tag = o.size.toLowerCase();
  const once = (make) => {
    let v;
    return () => (v ??= make());
  };
  const file = (name, make) =>
    once(() => {
      fs.mkdirSync(DATA, { recursive: true });
      const f = path.join(DATA, name);
      console.error(`bench: data ${path.relative(ROOT, f)} (made once, kept)`);
      make(f);
      return f;
    });
  const d = {
    root: ROOT,
    tag,
    log: file(`log-${tag}.txt`, (f) => makeLog(f, o.bytes)),
    crlf: file(`log-crlf-${tag}.txt`, (f) => makeLog(f, o.bytes, '\r\n')),
    mib1: file('log-1m.txt', (f) => makeLog(f, 1 << 20)),
    small: file('small.txt', (f) => makeLog(f, 2000)),
    longLine: file('one-100mib-line.txt', (f) => makeLongLine(f, 100 << 20)),
    tree: once(() => path.relative(ROOT, file('tree', makeTree)())),
    /** a file of a million lines and the rows that replace each (and of 10,000, to compare) */
    rows: (count) => {
      const tag = count >= 1e6 ? `${count / 1e6}m` : `${count / 1e3}k`;
      const target = path.join(DATA, `rows-target-${tag}.txt`);
      file(`rows-${tag}.txt`, (f) => makeRows(target, f, count))();
      return { target, rows: path.join(DATA, `rows-${tag}.txt`) };
    },
  };
  d.lines = once(() => Number(execFileSync('wc', ['-l', d.log()]).toString().trim().split(/\s+/)[0]));
  return d;
}

/** "abc1234" or "abc1234 + uncommitted changes": which code a column measured. */
function describe(dir) {
  const head = spawnSync('git', ['-C', dir, 'rev-parse', '--short=12', 'HEAD']);
  if (head.status !== 0) return 'not a git checkout';
  const dirty = spawnSync('git', ['-C', dir, 'status', '--porcelain', '--untracked-files=no']).stdout.toString().trim() !== '';
  return `${head.stdout.toString().trim()}${dirty ? ' + uncommitted changes' : ''}`;
}

const fmt = (s) => (Number.isNaN(s) ? '—' : s < 1 ? `${(s * 1000).toFixed(0)} ms` : `${s.toFixed(2)} s`);
const x = (r) => `${r.toFixed(2)} ×`;
const goalText = (g) => `≤ ${g.max} × (${g.source})`;

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (!have('/usr/bin/time')) fail('/usr/bin/time (GNU time) is missing: bench/setup.sh installs it');
  if (!have('rg')) fail('rg is missing: bench/setup.sh installs it');
  const lwArgv = (...args) => [process.execPath, path.join(ROOT, 'bin', 'linewise.js'), ...args];
  const oldArgv = o.baseline && ((...args) => [process.execPath, path.join(o.baseline, 'bin', 'linewise.js'), ...args]);
  const notes = [];
  const d = data(o);
  const cases = makeCases(o.groups, d, lwArgv, notes);

  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const load = () => os.loadavg().map((l) => l.toFixed(2)).join(', ');
  const size = o.groups.has('read') || o.groups.has('page') || o.groups.has('grep') || o.groups.has('replace') ? `, logs of ${o.size} (${d.lines()} lines)` : '';
  console.log(`linewise benchmark: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, median of ${o.runs} runs after a warm-up${size}; load average at start ${load()}`);
  console.log(`new = this checkout (${describe(ROOT)})${oldArgv ? `; old = --baseline ${o.baseline} (${describe(o.baseline)})` : ''}\n`);
  const head = ['case', 'command', 'median', 'peak MiB', 'linewise ÷ this', ...(oldArgv ? ['baseline ÷ this'] : []), 'goal', 'met'];
  console.log(`| ${head.join(' | ')} |`);
  console.log(`| ${head.map((h, i) => (i >= 2 && i <= (oldArgv ? 5 : 4) ? '---:' : '---')).join(' | ')} |`);

  const verdicts = [];
  const changes = [];
  for (const c of cases) {
    const subject = { label: c.subject.label, argv: lwArgv(...c.subject.args), setup: c.subject.setup, output: c.subject.output };
    const twin = oldArgv && { label: `${c.subject.label} (baseline)`, argv: oldArgv(...c.subject.args), setup: c.subject.setup, output: c.subject.output, optional: true };
    const [lw, ...rest] = measure([subject, ...(twin ? [twin] : []), ...c.refs], o.runs, ROOT, Boolean(twin));
    const old = twin ? rest.shift() : undefined;
    printCase(c, lw, old, rest, verdicts, changes, notes);
  }
  // The mcp group times calls to one long-lived server, not processes: bench/mcp.mjs runs it.
  if (o.groups.has('mcp')) {
    const m = await mcpGroup(ROOT, d.tree(), o.runs, notes);
    for (const cells of m.rows) console.log(`| ${cells.slice(0, 5).concat(oldArgv ? [''] : [], cells.slice(5)).join(' | ')} |`);
    verdicts.push(...m.verdicts);
  }

  console.log(`\nload average at the end ${load()}.`);
  summary(verdicts, changes);
  for (const n of notes) console.log(`- ${n}`);
  if (UNSET_CA_CERTS) console.log('- NODE_EXTRA_CA_CERTS is set here: it was unset for every command measured (it adds a certificate load, about 40 ms, to every Node start).');
  console.log(
    `\n"linewise ÷ this" = the new linewise's median ÷ that command's, from the same rounds (below 1: linewise is faster). ` +
      `Goals: (#27) issue 27's, (#17) issue 17's, (earlier) the targets docs/PERFORMANCE.md set before issue 17; "met" judges the new linewise. ` +
      `Every linewise command is held to a peak of ≤ ${MEMORY_GOAL_MIB} MiB (#17), unless its row names another goal.` +
      (oldArgv ? ` A baseline row's ratio is new ÷ old, the median of the ratios of the rounds (in each, new and old ran one right after the other; their range follows): above ${SLOWER} it is marked slower, a peak over old + ${MORE_MIB} MiB as more memory.` : ''),
  );
}

/** Prints one case's rows and collects its verdicts (goals), changes (new ÷ old) and notes. */
function printCase(c, lw, old, refs, verdicts, changes, notes) {
  const row = (cells) => console.log(`| ${cells.join(' | ')} |`);
  const failed = (r) => (r.failed ? `FAILED (exit ${r.failed})` : undefined);
  // a case may hold its own memory goal (the rows of replace --rows are held until the write)
  const mem = c.memory ?? { mib: MEMORY_GOAL_MIB, source: '#17' };
  const memMet = lw.mib <= mem.mib;
  verdicts.push({ what: `${c.name}: peak ${lw.mib.toFixed(0)} MiB`, goal: `≤ ${mem.mib} MiB`, met: memMet && !lw.failed, source: mem.source });
  row([c.name, lw.label, fmt(lw.median), lw.mib.toFixed(0), '', ...(old ? [''] : []), `peak ≤ ${mem.mib} MiB (${mem.source})`, failed(lw) ?? (memMet ? 'met' : 'NOT MET')]);
  if (old) {
    if (old.dropped !== undefined) {
      row(['', old.label, '—', '—', '', '', '', `not run: ${old.dropped.replaceAll('|', '/')}`]);
    } else {
      // The median of the per-round ratios: each round ran new and old one right after the other.
      const ratio = median(lw.ratios);
      const spread = `${Math.min(...lw.ratios).toFixed(2)}-${Math.max(...lw.ratios).toFixed(2)}`;
      const marks = [ratio > SLOWER ? 'SLOWER' : '', lw.mib > old.mib + MORE_MIB ? 'MORE MEMORY' : ''].filter(Boolean);
      changes.push({ name: c.name, group: c.group, ratio, mib: lw.mib - old.mib, marks });
      if (old.lines !== lw.lines) marks.push(`ROWS DIFFER (new ${lw.lines}, old ${old.lines})`);
      row(['', old.label, fmt(old.median), old.mib.toFixed(0), `new ÷ old ${x(ratio)} (rounds ${spread})`, '', `new ÷ old ≤ ${SLOWER}`, failed(old) ?? (marks.join(', ') || 'ok')]);
    }
  }
  for (const r of refs) {
    const ratio = lw.median / r.median;
    const differ = r.sameRows && r.lines !== lw.lines ? `ROWS DIFFER (linewise ${lw.lines}, this ${r.lines})` : '';
    if (differ) notes.push(`${c.name}: ${r.label} ${differ}: the ratio compares unequal work`);
    const met = r.goal ? ratio <= r.goal.max && !lw.failed && !r.failed : undefined;
    if (r.goal) verdicts.push({ what: `${c.name}: linewise ÷ ${r.label} = ${x(ratio)}`, goal: goalText(r.goal), met, source: r.goal.source });
    const oldRatio = old && old.dropped === undefined ? x(old.median / r.median) : '';
    const mark = failed(r) ?? (met === undefined ? '' : met ? 'met' : 'NOT MET');
    row(['', r.label, fmt(r.median), r.mib.toFixed(0), x(ratio), ...(old ? [oldRatio] : []), r.goal ? goalText(r.goal) : '', [mark, differ].filter(Boolean).join('; ')]);
  }
}

function summary(verdicts, changes) {
  const of17 = verdicts.filter((v) => v.source === '#17');
  console.log(`\nGoals met: ${verdicts.filter((v) => v.met).length} of ${verdicts.length}; of issue 17's: ${of17.filter((v) => v.met).length} of ${of17.length}.`);
  for (const v of verdicts.filter((v) => !v.met)) console.log(`- not met: ${v.what}, goal ${v.goal}`);
  if (changes.length) {
    const rs = changes.map((c) => c.ratio);
    const lo = changes.reduce((a, b) => (b.ratio < a.ratio ? b : a));
    const hi = changes.reduce((a, b) => (b.ratio > a.ratio ? b : a));
    console.log(`\nnew ÷ old over ${changes.length} cases: median ${x(median(rs))}, lowest ${x(lo.ratio)} (${lo.name}), highest ${x(hi.ratio)} (${hi.name}).`);
    const marked = changes.filter((c) => c.marks.length);
    for (const c of marked) console.log(`- ${c.marks.join(', ')}: ${c.name} (new ÷ old ${x(c.ratio)}, peak ${c.mib >= 0 ? '+' : ''}${c.mib.toFixed(0)} MiB)`);
    if (marked.length === 0) console.log(`- none slower than new ÷ old ${SLOWER}, none with more memory.`);
    // On a busy machine identical code has come out 1.24 × in 7 rounds: a mark asks for a re-run.
    else console.log(`- to tell a change from noise, run the marked group alone with more rounds: --only ${[...new Set(marked.map((c) => c.group))].join(',')} --runs 11`);
  }
  console.log('');
}

await main();
