// Timing for the benchmark: whole-process runs under GNU time (wall time, peak memory), taken
// round after round so that a shared machine's drift hits every command of a case alike.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const OUT = path.join(os.tmpdir(), `linewise-bench-out-${process.pid}`);
process.on('exit', () => fs.rmSync(OUT, { force: true }));

/**
 * The environment every measured command runs in: this one without NODE_EXTRA_CA_CERTS, which
 * makes each Node start load a certificate file (about 40 ms here) and so hides linewise's own
 * start-up cost behind a cost no user without that variable pays.
 */
export const BASE_ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_EXTRA_CA_CERTS'));
export const UNSET_CA_CERTS = process.env.NODE_EXTRA_CA_CERTS !== undefined;

/**
 * Runs one command under /usr/bin/time; returns wall seconds, peak RSS in MiB and the exit status.
 * Output goes to a real file (GNU grep stops at the first match when stdout is /dev/null), unless
 * the command says `output: 'pipe'` (through `cat`, whose peak is not linewise's: GNU time reports
 * the largest of the processes it waited for) or `output: 'null'` (/dev/null).
 */
export function once(c, cwd) {
  const out = fs.openSync(c.output === 'null' ? '/dev/null' : OUT, 'w');
  const argv = c.output === 'pipe' ? ['sh', '-c', '"$@" | cat >&3', 'sh', ...c.argv] : c.argv;
  const t0 = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', ...argv], { cwd, env: { ...BASE_ENV, ...c.env }, stdio: ['ignore', c.output === 'pipe' ? 'ignore' : out, 'pipe', out] });
  fs.closeSync(out);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const err = r.stderr.toString().trim().split('\n');
  const kb = Number(err.at(-1));
  if (!Number.isFinite(kb)) throw new Error(`${c.argv.join(' ')}: ${r.stderr}`);
  return { seconds, mib: kb / 1024, status: r.status, stderr: err.slice(0, -1).join('\n') };
}

/** Lines of the last command's output (counted in the warm-up round, to check equal work). */
function outputLines() {
  const fd = fs.openSync(OUT, 'r');
  const buf = Buffer.allocUnsafe(1 << 20);
  // Rows, not the guard's trailers (`\ read {...}` after a file's rows when stdout is no
  // terminal): rg and grep print none, and the rows are what must be equal.
  const mark = Buffer.from('\n\\ read {');
  let n = 0;
  let trailers = 0;
  let tail = Buffer.from('\n'); // the last bytes of the chunk before (a trailer may start the output)
  for (let got; (got = fs.readSync(fd, buf, 0, buf.length, null)) > 0; ) {
    for (let i = buf.indexOf(10, 0); i !== -1 && i < got; i = buf.indexOf(10, i + 1)) n++;
    const seam = Buffer.concat([tail, buf.subarray(0, Math.min(got, mark.length))]);
    for (let i = seam.indexOf(mark); i !== -1; i = seam.indexOf(mark, i + 1)) if (i < tail.length) trailers++;
    for (let i = buf.indexOf(mark, 0); i !== -1 && i + mark.length <= got; i = buf.indexOf(mark, i + 1)) trailers++;
    tail = Buffer.from(buf.subarray(Math.max(0, got - mark.length + 1), got));
  }
  fs.closeSync(fd);
  return n - trailers;
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const ok = (status) => status === 0 || status === 1; // 1: grep found nothing

/**
 * Measures the commands of one case: round 0 warms the page cache (and drops a command marked
 * `optional` that fails there, such as a baseline without a newer option), then `runs` timed
 * rounds, each running every command once, starting one further along each round so that no
 * command always runs just after the same neighbour. With `paired`, the first two commands (new
 * and old linewise) always run one right after the other, which first alternating, so each round
 * gives a ratio of the two taken under the same load. `setup` runs untimed before its command.
 * Returns per command: median seconds, the largest peak MiB, the lines it printed in the warm-up,
 * and `failed` (an exit status), or `dropped` (the warm-up's message) for an optional command
 * that could not run; with `paired`, also `ratios`: the first's time ÷ the second's, per round.
 */
export function measure(commands, runs, cwd, paired = false) {
  const results = commands.map((c) => ({ ...c, times: [], mib: 0, failed: 0, dropped: undefined }));
  const units = paired ? [[0, 1], ...results.slice(2).map((_, i) => [i + 2])] : results.map((_, i) => [i]);
  for (let round = 0; round <= runs; round++) {
    for (let k = 0; k < units.length; k++) {
      const unit = units[(k + round) % units.length];
      for (const i of round % 2 ? [...unit].reverse() : unit) run(results[i], round, cwd);
    }
  }
  const out = results.map((r) => ({ ...r, median: r.dropped === undefined ? median(r.times) : NaN }));
  if (paired && out[1].dropped === undefined) out[0].ratios = out[0].times.map((t, i) => t / out[1].times[i]);
  return out;
}

function run(r, round, cwd) {
  if (r.dropped !== undefined) return;
  r.setup?.();
  const t = once(r, cwd);
  if (round === 0 && !ok(t.status) && r.optional) {
    r.dropped = t.stderr.split('\n')[0] || `exit status ${t.status}`;
    return;
  }
  if (round === 0) r.lines = r.output === 'null' ? undefined : outputLines();
  else r.times.push(t.seconds);
  r.mib = Math.max(r.mib, t.mib);
  if (!ok(t.status)) r.failed = t.status ?? -1;
}
