// Start-up of bin/linewise.js (and the standalone binary, when built) against bare node: each
// command run in turn, round after round (so a busy machine slows all alike), median and minimum.
// Usage: node scripts/startup.mjs [rounds]  (after npm run build; npm run build:binary adds the binary)
// NODE_EXTRA_CA_CERTS is unset for every command: it adds a certificate load (about 40 ms) to every
// Node start and so hides linewise's own cost. `npm run bench -- --only startup` gives the goal.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';

const rounds = Number(process.argv[2] ?? 60);
const file = 'fixtures/crlf.txt';
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_EXTRA_CA_CERTS'));
const commands = {
  "node -e ''": [process.execPath, ['-e', '']],
  'node bin/linewise.js readlines': [process.execPath, ['bin/linewise.js', 'readlines', file, '1', '2']],
  'node bin/linewise.js page': [process.execPath, ['bin/linewise.js', 'page', file, '--limit', '20']],
};
if (fs.existsSync('dist-bin/linewise')) commands['dist-bin/linewise readlines'] = ['dist-bin/linewise', ['readlines', file, '1', '2']];
else console.log('dist-bin/linewise is not built (npm run build:binary): its row is skipped');
const times = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
for (let i = 0; i < rounds + 3; i++) {
  for (const [name, [cmd, args]] of Object.entries(commands)) {
    const t = process.hrtime.bigint();
    const r = spawnSync(cmd, args, { stdio: 'ignore', env });
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
