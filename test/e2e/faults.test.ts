// End-to-end faults of the real process: a closed stdout never hides a refusal, the stdin CI jobs
// give (/dev/null) is no new text, and a working directory the kernel cannot name is one clear line.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.js';

const BIN = process.env.LINEWISE_BIN ?? fileURLToPath(new URL('../../bin/linewise.js', import.meta.url));
const LW = BIN.endsWith('.js') ? `"${process.execPath}" "${BIN}"` : `"${BIN}"`;
const tmp = tempDir();
afterAll(() => tmp.cleanup());

/** Runs a bash script in `cwd` with $LW the CLI; returns status, stdout, stderr. */
function sh(script: string, cwd = tmp.dir) {
  const r = spawnSync('bash', ['-c', script], { cwd, env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

describe('a closed stdout (| head) never turns a failure into 0', () => {
  it('a refused edit piped into head -c 0: exit 3, the message on stderr, the file as it was', () => {
    fs.writeFileSync(path.join(tmp.dir, 'f'), 'a\nbefore\nc\n');
    fs.writeFileSync(path.join(tmp.dir, 'exp'), '2\tother\n');
    const r = sh(`${LW} replace f 2 --text X --expect exp | head -c 0; echo "status=\${PIPESTATUS[0]}"`);
    expect(r.stdout).toBe('status=3\n');
    expect(r.stderr).toMatch(/^linewise: f: stale edit: line 2 no longer holds the text read; .*\n$/);
    expect(fs.readFileSync(path.join(tmp.dir, 'f'), 'utf8')).toBe('a\nbefore\nc\n');
  });

  it('grep with a failed file, piped into head -n 1: exit 2; a read cut short by head: exit 0', () => {
    fs.writeFileSync(path.join(tmp.dir, 'seq'), Array.from({ length: 100_000 }, (_, i) => `line ${i}\n`).join(''));
    const r = sh(`${LW} grep line missing seq | head -n 1; echo "status=\${PIPESTATUS[0]}"`);
    expect(r.stdout).toBe('seq\t1\tline 0\nstatus=2\n');
    expect(r.stderr).toBe('linewise: missing: no such file or directory\n');
    const ok = sh(`${LW} grep line seq | head -n 1; echo "status=\${PIPESTATUS[0]}"`);
    expect([ok.stdout, ok.stderr]).toEqual(['1\tline 0\nstatus=0\n', '']);
  });

  it('a FIFO read live into a closed stdout: a read cut short, exit 0, nothing on stderr', () => {
    const r = sh(`rm -f fifo; mkfifo fifo; (seq 1 300000 > fifo &); ${LW} grep 0 fifo | head -n 1; echo "status=\${PIPESTATUS[0]}"`);
    expect([r.stdout, r.stderr]).toEqual(['10\t10\nstatus=0\n', '']);
  });
});

describe('standard input that is /dev/null', () => {
  it('replace f 2 </dev/null: exit 2, nothing written (it deleted line 2 and exited 0)', () => {
    fs.writeFileSync(path.join(tmp.dir, 'g'), 'a\nb\nc\n');
    const r = sh(`${LW} replace g 2 </dev/null`);
    expect([r.status, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toBe('linewise: standard input is empty, so there is no new text; nothing was written (give --text TEXT or --from FILE; to delete the lines, --delete)\n');
    expect(fs.readFileSync(path.join(tmp.dir, 'g'), 'utf8')).toBe('a\nb\nc\n');
  });
});

describe('standard input that is a directory (< .)', () => {
  it('readlines -, page -, replace (new text or rows): one clear line, exit 2, nothing written (was an internal error)', () => {
    fs.writeFileSync(path.join(tmp.dir, 'g'), 'a\nb\n');
    const line = 'standard input is a directory, which holds no text to read; give a file, or pipe the text in\n';
    for (const [args, shown] of [['readlines - 1', '-: '], ['page -', '-: '], ['replace g 2', ''], ['replace g --rows -', '']] as const) {
      const r = sh(`${LW} ${args} < .`);
      expect([r.status, r.stdout, r.stderr]).toEqual([2, '', `linewise: ${shown}${line}`]);
    }
    expect(fs.readFileSync(path.join(tmp.dir, 'g'), 'utf8')).toBe('a\nb\n');
  });
});

describe('a working directory the kernel cannot name', () => {
  it('deeper than PATH_MAX (ERANGE): one clear line, exit 2, no stack trace; --version still works', () => {
    const deep = path.join(tmp.dir, 'deep');
    fs.mkdirSync(deep);
    // 22 levels of 200 bytes: 4400 bytes below the temporary directory, made one cd at a time
    const into = `for i in $(seq 22); do mkdir -p ${'d'.repeat(200)} && cd ${'d'.repeat(200)} || exit 9; done; printf 'a\\n' > f`;
    const message = 'linewise: cannot tell the current directory: its path is longer than the system can name; run linewise from another directory\n';
    for (const args of ['readlines f 1', 'grep a', 'replace f 1 --text x']) {
      const r = sh(`${into}; ${LW} ${args}`, deep);
      expect([r.status, r.stdout, r.stderr]).toEqual([2, '', message]);
    }
    expect(sh(`${into}; ${LW} --version`, deep).status).toBe(0);
    spawnSync('rm', ['-rf', deep]); // rm walks the tree by descriptor: no path too long for it
  });

  it('a name that is not UTF-8 (Node says U+FFFD for its byte): the files read and written are its own, never a look-alike directory\'s', () => {
    const d = path.join(tmp.dir, 'raw');
    fs.mkdirSync(Buffer.from(`${d}/d\xff`, 'latin1'), { recursive: true });
    fs.mkdirSync(path.join(d, 'd\uFFFD'));
    fs.writeFileSync(Buffer.from(`${d}/d\xff/f`, 'latin1'), 'own\n');
    fs.writeFileSync(path.join(d, 'd\uFFFD', 'f'), 'look-alike\n');
    const r = sh(`cd "$(printf 'd\\377')" && ${LW} readlines f 1 && ${LW} replace f 1 --text EDITED && ${LW} grep -H E f`, d);
    expect([r.status, r.stdout, r.stderr]).toEqual([0, '1\town\nf\t1\tEDITED\n', '']);
    expect(fs.readFileSync(Buffer.from(`${d}/d\xff/f`, 'latin1'), 'utf8')).toBe('EDITED\n');
    expect(fs.readFileSync(path.join(d, 'd\uFFFD', 'f'), 'utf8')).toBe('look-alike\n'); // it was the one read and written
  });
});
