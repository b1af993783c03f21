// grep speed against GNU grep and ripgrep on a generated log: `node bench/grep.mjs [MiB] [runs]`
// (build first: npm run build). Prints the median wall time of each tool and linewise's ratios.
// A measurement, never a test: this machine is shared and its speed drifts, so runs of the three
// tools are interleaved and medians compared within one run. `npm run bench -- --only grep` holds
// grep to issue 17's goals; NODE_EXTRA_CA_CERTS is unset here as there.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BASE_ENV } from './measure.mjs';

const MIB = Number(process.argv[2] ?? 256);
const RUNS = Number(process.argv[3] ?? 5);
const BIN = fileURLToPath(new URL('../bin/linewise.js', import.meta.url));
const file = path.join(os.tmpdir(), `linewise-bench-grep-${MIB}.log`);

/** A log of MIB MiB: timestamped lines of about 80 bytes, a rare needle every million lines. */
function generate() {
  if (fs.existsSync(file) && fs.statSync(file).size >= MIB << 20) return;
  const fd = fs.openSync(file, 'w');
  const levels = ['INFO', 'DEBUG', 'WARN', 'ERROR', 'INFO', 'INFO', 'DEBUG', 'TRACE'];
  const words = ['request', 'user', 'session', 'cache', 'db', 'query', 'timeout', 'retry', 'connect', 'handler', 'worker', 'queue'];
  let x = 88172645;
  const rnd = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
  let total = 0;
  let i = 0;
  while (total < MIB << 20) {
    let s = '';
    for (let k = 0; k < 10000; k++, i++) {
      s += `2024-03-${String(1 + ((i >> 20) % 28)).padStart(2, '0')}T12:${String(rnd() % 60).padStart(2, '0')}:${String(rnd() % 60).padStart(2, '0')}.${rnd() % 1000} ${levels[rnd() % 8]} ${words[rnd() % 12]} id=${rnd() % 1000000} ${words[rnd() % 12]} took ${rnd() % 5000}ms\n`;
      if (i % 1000000 === 999999) s += 'needle-xyzzy found here\n';
    }
    const b = Buffer.from(s);
    fs.writeSync(fd, b);
    total += b.length;
  }
  fs.closeSync(fd);
}

function have(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
}

/** Output goes to a real file: GNU grep stops at the first match when stdout is /dev/null. */
const sink = path.join(os.tmpdir(), 'linewise-bench-grep.out');

function time(cmd, args, env) {
  const out = fs.openSync(sink, 'w');
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { stdio: ['ignore', out, 'pipe'], env: { ...BASE_ENV, ...env } });
  fs.closeSync(out);
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${cmd} ${args.join(' ')}: status ${r.status} ${r.stderr}`);
  return ms;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

generate();
const rg = have('rg');
const cases = [
  ['rare literal', ['needle-xyzzy']],
  ['common literal', ['ERROR']],
  ['-i literal', ['-i', 'error']],
  ['regex with a literal', ['took [0-9]{4}ms']],
  ['regex, no literal', ['[0-9]{6}']],
  ['no match', ['zzqqzz']],
];
console.log(`grep on ${path.basename(file)} (${MIB} MiB), median of ${RUNS} runs, ms; ratio = linewise / tool`);
console.log(['case', 'linewise', 'grep', 'rg', 'lw/grep', 'lw/rg'].join('\t'));
for (const [name, args] of cases) {
  const t = { lw: [], grep: [], rg: [] };
  for (let i = 0; i < RUNS; i++) {
    t.lw.push(time(process.execPath, [BIN, 'grep', ...args, file]));
    t.grep.push(time('grep', ['-nE', ...args, file], { LC_ALL: 'C' }));
    if (rg) t.rg.push(time('rg', ['--no-config', '-n', ...args, file]));
  }
  const lw = median(t.lw);
  const g = median(t.grep);
  const r = rg ? median(t.rg) : NaN;
  console.log([name, lw.toFixed(0), g.toFixed(0), rg ? r.toFixed(0) : 'n/a', (lw / g).toFixed(1), rg ? (lw / r).toFixed(1) : 'n/a'].join('\t'));
}
if (!rg) console.log('rg is not installed (apt-get install ripgrep): its column is skipped');
