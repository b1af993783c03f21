// Start-up of the standalone binary against the bundle and bare node: each command run in turn,
// round after round (so a busy machine slows all alike), median and minimum of wall time.
// Usage: node scripts/startup.mjs [rounds]  (after npm run build and npm run build:binary)
import { spawnSync } from 'node:child_process';

const rounds = Number(process.argv[2] ?? 60);
const file = 'fixtures/crlf.txt';
const commands = {
  "node -e ''": [process.execPath, ['-e', '']],
  'node bin/linewise.js readlines': [process.execPath, ['bin/linewise.js', 'readlines', file, '1', '2']],
  'dist-bin/linewise readlines': ['dist-bin/linewise', ['readlines', file, '1', '2']],
};
const times = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
for (let i = 0; i < rounds + 3; i++) {
  for (const [name, [cmd, args]] of Object.entries(commands)) {
    const t = process.hrtime.bigint();
    const r = spawnSync(cmd, args, { stdio: 'ignore' });
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    if (r.status !== 0) throw new Error(`${name} exited ${r.status}`);
    if (i >= 3) times[name].push(ms); // the first rounds warm the page cache
  }
}
const median = (a) => a.toSorted((x, y) => x - y)[a.length >> 1];
const base = median(times["node -e ''"]);
for (const [name, t] of Object.entries(times)) {
  const m = median(t);
  console.log(`${m.toFixed(1).padStart(7)} ms median ${Math.min(...t).toFixed(1).padStart(7)} ms min  ${(m / base).toFixed(2)}x node -e ''  ${name}`);
}
