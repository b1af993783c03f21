// End-to-end: spawn the built CLI (or the binary named by LINEWISE_BIN) on fixtures, compare bytes.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { esc, fixture } from '../helpers.js';

const BIN = process.env.LINEWISE_BIN ?? fileURLToPath(new URL('../../bin/linewise.js', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

function linewise(args: string[], input?: string | Buffer) {
  const isJs = BIN.endsWith('.js');
  const r = spawnSync(isJs ? process.execPath : BIN, isJs ? [BIN, ...args] : args, { input, env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString() };
}

function sh(script: string) {
  const r = spawnSync('bash', ['-c', script], { env: { ...process.env, LW: BIN.endsWith('.js') ? `${process.execPath} ${BIN}` : BIN } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString() };
}

describe('the built CLI', () => {
  it('prints CRLF and unterminated rows byte for byte', () => {
    expect(esc(linewise(['readlines', fixture('mixed.txt'), '1']).stdout)).toBe('1\\tone\\r\\n2\\ttwo\\n3\\tthree\\r\\n4\\tfour\\n\\\\ No newline at end of file\\n');
  });

  it('reads standard input through a pipe', () => {
    const r = linewise(['page', '-', '--limit', '1'], 'a\r\nb\r\n');
    expect(esc(r.stdout)).toBe('1\\ta\\r\\n\\n[Read 1 line (lines 1-1 of 2 total). 1 line remaining from offset 1.]\\n');
  });

  it('exits 2 with one line on stderr and nothing on stdout for a bad range', () => {
    const r = linewise(['readlines', fixture('crlf.txt'), '9']);
    expect(r.status).toBe(2);
    expect(r.stdout.length).toBe(0);
    expect(r.stderr).toBe(`linewise: ${fixture('crlf.txt')}: line 9 is past the end: the file has 3 lines\n`);
  });

  it('ends quietly with 0 when stdout is closed early (| head)', () => {
    const r = sh(`seq 1 200000 > "\${TMPDIR:-/tmp}/lw-e2e-seq.txt"; $LW page "\${TMPDIR:-/tmp}/lw-e2e-seq.txt" --limit 200000 --max-bytes 0 | head -n 2; echo "status=\${PIPESTATUS[0]}"`);
    expect(r.stdout.toString()).toBe('1\t1\n2\t2\nstatus=0\n');
    expect(r.stderr).toBe('');
  });

  it('--version matches package.json; --help names every subcommand', () => {
    expect(linewise(['--version']).stdout.toString()).toBe(`${pkg.version}\n`);
    const help = linewise(['--help']).stdout.toString();
    for (const cmd of ['readlines', 'page']) expect(help).toContain(cmd);
    expect(linewise(['help', 'page']).stdout.toString()).toContain('--offset 100');
  });

  it('colours rows on a terminal (a pseudo-terminal made by script(1)), and not in a pipe', () => {
    const cmd = `${BIN.endsWith('.js') ? `${process.execPath} ${BIN}` : BIN} grep alpha ${fixture('crlf.txt')}`;
    const env = { ...process.env, NO_COLOR: '', FORCE_COLOR: undefined, TERM: 'xterm' };
    const onTerminal = spawnSync('script', ['-qec', cmd, '/dev/null'], { env });
    expect(onTerminal.status).toBe(0);
    // the terminal turns "\n" into "\r\n": the row's own "\r\n" comes out as "\r\r\n"
    expect(esc(onTerminal.stdout)).toBe('\\x1b[32m1\\x1b[39m\\t\\x1b[1m\\x1b[31malpha\\x1b[39m\\x1b[22m\\r\\r\\n');
    expect(esc(spawnSync('bash', ['-c', `${cmd} | cat`], { env }).stdout)).toBe('1\\talpha\\r\\n');
  });
});
