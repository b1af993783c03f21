// End-to-end grep: the built CLI on fixtures and a temporary tree (the walk loads its lazy chunks).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { esc, fixture, tempDir } from '../helpers.js';

const BIN = process.env.LINEWISE_BIN ?? fileURLToPath(new URL('../../bin/linewise.js', import.meta.url));
const tmp = tempDir();
afterAll(() => tmp.cleanup());

/** Runs the built CLI. Standard input: `input` through a pipe, else /dev/null (as `</dev/null`). */
function linewise(args: string[], o: { input?: string; cwd?: string; stdin?: 'pipe' | number } = {}) {
  const isJs = BIN.endsWith('.js');
  const r = spawnSync(isJs ? process.execPath : BIN, isJs ? [BIN, ...args] : args, {
    input: o.input,
    cwd: o.cwd,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: [o.stdin ?? (o.input === undefined ? 'ignore' : 'pipe'), 'pipe', 'pipe'],
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString() };
}

describe('the built CLI: grep', () => {
  it('prints a CRLF match verbatim, exits 1 on no match and 2 on a bad pattern', () => {
    const hit = linewise(['grep', 'ta$', fixture('crlf.txt')]);
    expect([hit.status, esc(hit.stdout), hit.stderr]).toEqual([0, '2\\tbeta\\r\\n', '']);
    const none = linewise(['grep', 'nope', fixture('crlf.txt')]);
    expect([none.status, none.stdout.length]).toEqual([1, 0]);
    const bad = linewise(['grep', '(', fixture('crlf.txt')]);
    expect([bad.status, bad.stderr]).toEqual([2, 'linewise: invalid pattern "(": unclosed group: a "(" without its ")" (escape it as \\( for a literal parenthesis)\n']);
  });

  it("speaks rg's dialect: the issue's patterns on a C file, with -o, --replace ${name}, -w and --json", () => {
    const c = path.join(fileURLToPath(new URL('../../fixtures/dialect/', import.meta.url)), 'wrapper.c');
    const count = (args: string[]) => linewise(['grep', '-c', ...args, c]).stdout.toString();
    expect(['^}$', '[[:space:]]*return', '(?i)STRBUF_ADDF', '[^]]+\\]', '(?P<n>strbuf)', '(?m)^int', '\\Astrbuf', '\\z', '\\d\\b'].map((p) => count(['-e', p]))).toEqual(
      ['7\n', '8\n', '2\n', '1\n', '5\n', '4\n', '0\n', '76\n', '12\n'],
    );
    const o = linewise(['grep', '-o', '(?i:x)(?P<fn>[[:lower:]]+)\\(', c]).stdout.toString();
    expect(o.split('\n').slice(0, 2)).toEqual(['24:7\txmalloc(', '38:7\txstrndup(']);
    const r = linewise(['grep', '--replace', '${fn}_x', '\\bx(?P<fn>read|write)\\b', c]).stdout.toString();
    expect(r.split('\n')[0]).toBe('44\tint read_x(int fd, void *buf, size_t len)');
    const json = linewise(['grep', '--json', '-w', '\\p{Greek}+', c]).stdout.toString();
    const match = json.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((m) => m.type === 'match');
    expect(match.data.submatches.map((s: { match: { text: string } }) => s.match.text)).toEqual(['αβγ', 'λόγος']);
  });

  it('-P takes lookaround and back references; the default dialect refuses them naming -P, with exit 2', () => {
    const c = path.join(fileURLToPath(new URL('../../fixtures/dialect/', import.meta.url)), 'wrapper.c');
    const look = linewise(['grep', '-P', '-c', '(?<=\\bx)read\\(', c]);
    expect([look.status, look.stdout.toString()]).toEqual([0, '2\n']);
    const back = linewise(['grep', '-P', '-o', 'st(r)buf_\\1ead', c]);
    expect([back.status, back.stdout.toString()]).toEqual([0, '66:5\tstrbuf_read\n']);
    const refused = linewise(['grep', '(?<=x)read', c]);
    expect([refused.status, refused.stdout.length, refused.stderr]).toEqual([2, 0, 'linewise: invalid pattern "(?<=x)read": look-around (?<=...) is not in rg\'s dialect: use -P for the JavaScript (PCRE-like) dialect\n']);
    const both = linewise(['grep', '-P', '-F', 'x', c]);
    expect(both.status).toBe(2);
  });

  it('walks the current directory: .gitignore, hidden and binary files skipped, paths sorted', () => {
    const root = tmp.dir;
    fs.writeFileSync(path.join(root, '.gitignore'), 'skip.txt\n');
    fs.writeFileSync(path.join(root, 'skip.txt'), 'TODO skip\n');
    fs.writeFileSync(path.join(root, 'z.txt'), 'TODO z\r\n');
    fs.mkdirSync(path.join(root, 'a'));
    fs.writeFileSync(path.join(root, 'a', 'one.txt'), 'x\nTODO one');
    fs.writeFileSync(path.join(root, '.hidden'), 'TODO hidden\n');
    fs.writeFileSync(path.join(root, 'bin.dat'), 'TODO\0\n');
    const r = linewise(['grep', 'TODO'], { cwd: root });
    expect(r.status).toBe(0);
    expect(esc(r.stdout)).toBe('a/one.txt\\t2\\tTODO one\\n\\\\ No newline at end of file\\nz.txt\\t1\\tTODO z\\r\\n');
    expect(r.stderr).toBe('');
  });

  it('reads standard input', () => {
    const r = linewise(['grep', '-i', 'B', '-'], { input: 'a\r\nb\r\n' });
    expect(esc(r.stdout)).toBe('2\\tb\\r\\n');
  });
});
