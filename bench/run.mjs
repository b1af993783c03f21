// The benchmark: linewise against wc, sed, grep, rg, tail and sed -i on generated data, as
// medians of whole-process runs and ratios within the same run, with peak memory.
//
//   npm run bench                    256 MiB logs, 5 runs per command
//   npm run bench -- --size 1g --runs 7 --only grep
//
// Never part of the test suite: this machine is shared, so only ratios measured side by side mean
// anything. Needs /usr/bin/time for memory; rg and hyperfine are optional (bench/setup.sh).
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeLog, makeLongLine, makeTree } from './generate.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DATA = path.join(ROOT, 'bench', 'data');
const LW = path.join(ROOT, 'bin', 'linewise.js');
const OUT = path.join(os.tmpdir(), `linewise-bench-out-${process.pid}`);
process.on('exit', () => fs.rmSync(OUT, { force: true }));

function parseArgs(argv) {
  const o = { size: '256m', runs: 5, only: undefined };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--size') o.size = argv[++i];
    else if (argv[i] === '--runs') o.runs = Number(argv[++i]);
    else if (argv[i] === '--only') o.only = argv[++i];
    else throw new Error(`unknown argument ${argv[i]} (use --size 256m|1g, --runs N, --only NAME)`);
  }
  const m = /^(\d+)([kmg])?$/i.exec(o.size);
  if (!m) throw new Error(`--size: ${o.size}`);
  o.bytes = Number(m[1]) * { k: 1024, m: 1 << 20, g: 1 << 30 }[(m[2] ?? 'm').toLowerCase()];
  return o;
}

const have = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const lwHas = (sub) => new RegExp(`^  ${sub} `, 'm').test(spawnSync(process.execPath, [LW, '--help']).stdout.toString());

/** Runs argv once under /usr/bin/time; returns wall seconds and peak RSS in MiB. */
function once(argv, env) {
  // Output goes to a real file: GNU grep stops at the first match when stdout is /dev/null.
  const out = fs.openSync(OUT, 'w');
  const t0 = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', ...argv], { env: { ...process.env, ...env }, stdio: ['ignore', out, 'pipe'] });
  fs.closeSync(out);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const lines = r.stderr.toString().trim().split('\n');
  const kb = Number(lines.at(-1));
  if (!Number.isFinite(kb)) throw new Error(`${argv.join(' ')}: ${r.stderr}`);
  return { seconds, mib: kb / 1024, status: r.status };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Measures commands side by side: each round runs every command once, in turn, so drift in the
 * machine's speed hits all of them alike. `setup` runs untimed before each command.
 */
function measure(commands, runs) {
  const times = commands.map(() => []);
  const mem = commands.map(() => 0);
  const status = commands.map(() => 0);
  for (let round = 0; round < runs + 1; round++) {
    commands.forEach((c, i) => {
      c.setup?.();
      const r = once(c.argv, c.env);
      if (round > 0) times[i].push(r.seconds); // round 0 warms the page cache and compile cache
      mem[i] = Math.max(mem[i], r.mib);
      if (r.status !== 0 && r.status !== 1) status[i] = r.status;
    });
  }
  return commands.map((c, i) => ({ ...c, median: median(times[i]), mib: mem[i], failed: status[i] }));
}

const lw = (...args) => [process.execPath, LW, ...args];
const fmt = (s) => (s < 1 ? `${(s * 1000).toFixed(0)} ms` : `${s.toFixed(2)} s`);

function main() {
  const o = parseArgs(process.argv.slice(2));
  fs.mkdirSync(DATA, { recursive: true });
  const tag = o.size.toLowerCase();
  const log = path.join(DATA, `log-${tag}.txt`);
  const crlf = path.join(DATA, `log-crlf-${tag}.txt`);
  const small = path.join(DATA, 'small.txt');
  const mib1 = path.join(DATA, 'log-1m.txt');
  const longLine = path.join(DATA, 'one-100mib-line.txt');
  const tree = path.join(DATA, 'tree');
  console.error(`generating data in ${path.relative(ROOT, DATA)} (once; kept between runs)...`);
  makeLog(log, o.bytes);
  makeLog(crlf, o.bytes, '\r\n');
  makeLog(mib1, 1 << 20);
  makeLog(small, 2000);
  makeLongLine(longLine, 100 << 20);
  makeTree(tree);
  const lines = Number(execFileSync('wc', ['-l', log]).toString().trim().split(/\s+/)[0]);
  const at = Math.floor(lines * 0.8);
  const rg = have('rg');
  const notes = [];
  if (!rg) notes.push('rg not installed: its columns are skipped (bench/setup.sh installs it)');
  const cases = [];
  const add = (name, target, commands, limit) => {
    if (o.only && !name.includes(o.only)) return;
    cases.push({ name, target, commands, limit });
  };

  add('start-up: readlines 1-5 of a small file', '≤ 1.5 × node -e', [
    { label: 'linewise', argv: lw('readlines', small, '1', '5') },
    { label: "node -e ''", argv: [process.execPath, '-e', ''] },
  ], 1.5);
  add(`readlines 10 lines at 80% (line ${at}) of ${tag}`, '≤ 0.8 × sed, ≤ 1.5 × wc -l', [
    { label: 'linewise', argv: lw('readlines', log, String(at), String(at + 9)) },
    { label: 'sed -n', argv: ['sed', '-n', `${at},${at + 9}p;${at + 9}q`, log] },
    { label: 'wc -l', argv: ['wc', '-l', log] },
  ], [0.8, 1.5]);
  add(`readlines 10 lines at 80% of the CRLF ${tag}`, '≤ 0.8 × sed', [
    { label: 'linewise', argv: lw('readlines', crlf, String(at), String(at + 9)) },
    { label: 'sed -n', argv: ['sed', '-n', `${at},${at + 9}p;${at + 9}q`, crlf] },
  ], 0.8);
  add(`last 20 lines of ${tag} (page --offset count-20)`, '≤ 2 × tail + start-up', [
    { label: 'linewise', argv: lw('page', log, '--offset', String(lines - 20), '--limit', '20') },
    { label: 'tail -n 20', argv: ['tail', '-n', '20', log] },
    { label: "node -e ''", argv: [process.execPath, '-e', ''] },
  ], 'tail');
  add(`page --limit 100: ${tag} vs 1 MiB`, '≤ 1.2 × the 1 MiB page', [
    { label: `linewise ${tag}`, argv: lw('page', log, '--limit', '100') },
    { label: 'linewise 1 MiB', argv: lw('page', mib1, '--limit', '100') },
  ], 1.2);
  add('readlines of one 100 MiB line (memory)', 'peak ≤ 80 MiB', [
    { label: 'linewise', argv: lw('readlines', longLine, '1') },
    { label: 'page', argv: lw('page', longLine) },
    { label: 'cat', argv: ['cat', longLine] },
  ], 'memory');

  if (lwHas('grep')) {
    // The same flags for all three; GNU grep gets -E for extended syntax unless -F.
    const grepCase = (name, target, pattern, flags, limits) =>
      add(`grep ${name} in ${tag}`, target, [
        { label: 'linewise', argv: lw('grep', ...flags, pattern, log) },
        { label: 'grep (C)', argv: ['grep', ...flags, ...(flags.includes('-F') ? [] : ['-E']), pattern, log], env: { LC_ALL: 'C' } },
        ...(rg ? [{ label: 'rg', argv: ['rg', '--no-config', ...flags, pattern, log] }] : []),
      ], limits);
    grepCase('a literal', '≤ 2.5 × grep, ≤ 1 × rg', 'req=deadbeef', ['-F'], [2.5, 1]);
    grepCase('a regex with a literal', '≤ 2.5 × grep, ≤ 1 × rg', 'ERROR svc=api-1[0-9] req=ff', [], [2.5, 1]);
    grepCase('case-insensitive', '≤ 2.5 × grep, ≤ 1 × rg', 'timeout retry cache', ['-i'], [2.5, 1]);
    grepCase('a regex with no literal', '≤ 6 × grep', '[0-9]{6}', ['-c'], [6]);
    grepCase('a pattern with no match', '≤ 2.5 × grep, ≤ 1 × rg', 'zzzzqqqq', ['-F'], [2.5, 1]);
    if (!o.only || 'grep tree'.includes(o.only)) {
      cases.push({
        name: 'grep a tree of 3,000 files (+ an ignored build/)',
        target: '≤ 2 × rg',
        limit: [2],
        commands: [
          { label: 'linewise', argv: lw('grep', '-c', 'TODO timeout', tree) },
          ...(rg ? [{ label: 'rg', argv: ['rg', '--no-config', '-c', 'TODO timeout', tree] }] : []),
        ],
      });
    }
  } else notes.push('grep is not built yet: its cases are skipped');

  if (lwHas('replace')) {
    const target = path.join(os.tmpdir(), `linewise-bench-replace-${process.pid}.txt`);
    const src = log;
    const mid = Math.floor(lines / 2);
    add(`replace one line in the middle of ${tag}`, '≤ 1 × sed -i', [
      { label: 'linewise', argv: lw('replace', target, String(mid), '--text', 'REPLACED'), setup: () => fs.copyFileSync(src, target) },
      { label: 'sed -i', argv: ['sed', '-i', `${mid}s/.*/REPLACED/`, target], setup: () => fs.copyFileSync(src, target) },
    ], 1);
    process.on('exit', () => fs.rmSync(target, { force: true }));
  } else notes.push('replace is not built yet: its case is skipped');

  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  console.log(`linewise benchmark: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${o.runs} runs, logs of ${tag} (${lines} lines)\n`);
  console.log('| case | command | median | ratio to linewise | peak MiB | target | holds |');
  console.log('| --- | --- | ---: | ---: | ---: | --- | --- |');
  for (const c of cases) {
    const results = measure(c.commands, o.runs);
    const base = results[0];
    const verdict = judge(c, results);
    results.forEach((r, i) => {
      const ratio = i === 0 ? '' : `${(base.median / r.median).toFixed(2)} ×`;
      console.log(`| ${i === 0 ? c.name : ''} | ${r.label} | ${fmt(r.median)} | ${ratio} | ${r.mib.toFixed(0)} | ${i === 0 ? c.target : ''} | ${i === 0 ? verdict : ''} |`);
    });
  }
  for (const n of notes) console.log(`\nnote: ${n}`);
  console.log('\n"ratio to linewise" = linewise median / that command\'s median, measured in the same rounds.');
}

/** Whether the case's target holds: ratios of linewise to each reference, or memory. */
function judge(c, results) {
  const [lwr, ...refs] = results;
  const failed = results.filter((r) => r.failed);
  if (failed.length) return `FAILED: ${failed.map((r) => `${r.label} exited ${r.failed}`).join(', ')}`;
  if (c.limit === 'memory') return results.filter((r) => r.label !== 'cat').every((r) => r.mib <= 80) ? 'yes' : 'no';
  if (c.limit === 'tail') {
    const tail = refs.find((r) => r.label.startsWith('tail'));
    const node = refs.find((r) => r.label.startsWith('node'));
    return lwr.median <= 2 * tail.median + node.median ? 'yes' : `no (${fmt(lwr.median)} > ${fmt(2 * tail.median + node.median)})`;
  }
  const limits = Array.isArray(c.limit) ? c.limit : [c.limit];
  const parts = refs.slice(0, limits.length).map((r, i) => (lwr.median / r.median <= limits[i] ? 'yes' : `no vs ${r.label}`));
  return parts.every((p) => p === 'yes') ? 'yes' : parts.filter((p) => p !== 'yes').join(', ');
}

main();
