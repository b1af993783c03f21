import { afterAll, describe, expect, it } from 'vitest';
import { esc, fixture, run, tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe('readlines', () => {
  it('prints CRLF rows verbatim', async () => {
    const r = await run(['readlines', fixture('crlf.txt'), '1', '2']);
    expect(r.status).toBe(0);
    expect(esc(r.stdout)).toBe('1\\talpha\\r\\n2\\tbeta\\r\\n');
  });

  it('ends the row of a last line without a newline with "\\n" and the no-newline marker, and clamps END', async () => {
    const r = await run(['readlines', fixture('no-final-newline.txt'), '1', '99']);
    expect(esc(r.stdout)).toBe('1\\tfirst\\n2\\tsecond\\n\\\\ No newline at end of file\\n');
  });

  it('marks the missing newline alike on a terminal and in a pipe', async () => {
    const tty = await run(['readlines', fixture('no-final-newline.txt'), '2'], { tty: true, env: { NO_COLOR: '1' } });
    const pipe = await run(['readlines', fixture('no-final-newline.txt'), '2']);
    expect(esc(tty.stdout)).toBe('2\\tsecond\\n\\\\ No newline at end of file\\n');
    expect(esc(pipe.stdout)).toBe(esc(tty.stdout));
  });

  it('keeps a lone \\r, a form feed, U+2028, \\v and non-UTF-8 bytes as content', async () => {
    const r = await run(['readlines', fixture('content-separators.txt'), '1']);
    expect(esc(r.stdout)).toBe('1\\tform\\x0cfeed\\n2\\tsep\\xe2\\x80\\xa8aration\\n3\\tvertical\\x0btab\\n4\\tnext\\x85line\\n');
    const cr = await run(['readlines', fixture('lone-cr.txt'), '1']);
    expect(esc(cr.stdout)).toBe('1\\tx\\ra\\n2\\talpha\\r\\n\\\\ No newline at end of file\\n');
  });

  it('has no phantom line after a final newline, and none in an empty file', async () => {
    const r = await run(['readlines', fixture('blank.txt'), '4']);
    expect(r.status).toBe(2);
    expect(r.stdout.length).toBe(0);
    expect(r.stderr).toBe(`linewise: ${fixture('blank.txt')}: line 4 is past the end: the file has 3 lines\n`);
    const e = await run(['readlines', fixture('empty.txt'), '1']);
    expect(e.stderr).toMatch(/line 1 is past the end: the file has 0 lines\n$/);
  });

  it('refuses START 0 and END < START naming the line count, exit 2, nothing on stdout', async () => {
    for (const args of [['0'], ['3', '2']]) {
      const r = await run(['readlines', fixture('crlf.txt'), ...args]);
      expect(r.status).toBe(2);
      expect(r.stdout.length).toBe(0);
      expect(r.stderr).toMatch(/\(the file has 3 lines\)\n$/);
      expect(r.stderr.split('\n').length).toBe(2); // one line
    }
  });

  it('refuses numbers that are not whole, negative or too large', async () => {
    for (const bad of ['x', '1.5', '-3', '99999999999999999999']) {
      const r = await run(['readlines', fixture('crlf.txt'), bad]);
      expect(r.status, bad).toBe(2);
      expect(r.stderr, bad).toMatch(/^linewise: /);
      expect(r.stderr.trim().split('\n').length).toBe(1);
    }
  });

  it('keeps a UTF-8 BOM out of line 1', async () => {
    const r = await run(['readlines', fixture('bom-utf8.txt'), '1', '1']);
    expect(esc(r.stdout)).toBe('1\\thello\\r\\n');
  });

  it('passes bytes that are not UTF-8 through verbatim', async () => {
    const r = await run(['readlines', fixture('latin1.txt'), '1']);
    expect(esc(r.stdout)).toBe('1\\tcaf\\xe9\\n2\\tna\\xefve\\n');
  });

  it('reads standard input for "-", a CRLF cut between reads included', async () => {
    const r = await run(['readlines', '-', '2', '3'], { stdin: 'a\r\nb\r\nc\r\nd\r\n', stdinChunks: [1, 2, 1] });
    expect(esc(r.stdout)).toBe('2\\tb\\r\\n3\\tc\\r\\n');
  });

  it('prints a 3 MiB line whole', async () => {
    const long = 'x'.repeat(3 << 20);
    const f = tmp.file('long.txt', `short\n${long}\r\nafter\n`);
    const r = await run(['readlines', f, '2', '2']);
    expect(r.stdout.length).toBe(2 + (3 << 20) + 2);
    expect(esc(r.stdout.subarray(0, 4))).toBe('2\\txx');
    expect(esc(r.stdout.subarray(-3))).toBe('x\\r\\n');
  });

  it('refuses a binary file unless -a, and a directory', async () => {
    const r = await run(['readlines', fixture('nul.bin'), '1']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/binary file \(it has a NUL byte\); use -a to read it as text\n$/);
    const a = await run(['readlines', fixture('nul.bin'), '1', '-a']);
    expect(esc(a.stdout)).toBe('1\\tabc\\x00def\\n');
    const d = await run(['readlines', tmp.dir, '1']);
    expect(d.stderr).toBe(`linewise: ${tmp.dir}: is a directory, not a file\n`);
  });

  it('--json gives records with text or base64 bytes, the terminator, and a summary', async () => {
    const r = await run(['readlines', fixture('latin1.txt'), '1', '--json']);
    const recs = r.stdout.toString('utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(recs).toEqual([
      { type: 'line', path: fixture('latin1.txt'), line_number: 1, bytes: Buffer.from('caf\xe9', 'latin1').toString('base64'), terminator: '\n' },
      { type: 'line', path: fixture('latin1.txt'), line_number: 2, bytes: Buffer.from('na\xefve', 'latin1').toString('base64'), terminator: '\n' },
      { type: 'summary', path: fixture('latin1.txt'), start: 1, end: 2, lines: 2, cut: null, encoding: null, bom: null, invalid_at: null },
    ]);
    const c = await run(['readlines', fixture('crlf.txt'), '3', '--json']);
    expect(JSON.parse(c.stdout.toString().split('\n')[0]!)).toMatchObject({ text: 'gamma', terminator: '\r\n' });
  });

  it('colors line numbers on a terminal only, and never in a pipe', async () => {
    const tty = await run(['readlines', fixture('crlf.txt'), '1', '1', '--color', 'always'], { tty: true });
    expect(esc(tty.stdout)).toBe('\\x1b[32m1\\x1b[39m\\talpha\\r\\n');
    const pipe = await run(['readlines', fixture('crlf.txt'), '1', '1', '--color', 'always']);
    expect(esc(pipe.stdout)).toBe('1\\talpha\\r\\n');
    const noColor = await run(['readlines', fixture('crlf.txt'), '1', '1'], { tty: true, env: { NO_COLOR: '1' } });
    expect(esc(noColor.stdout)).toBe('1\\talpha\\r\\n');
    const forced = await run(['readlines', fixture('crlf.txt'), '1', '1'], { tty: true, env: { FORCE_COLOR: '1' } });
    expect(esc(forced.stdout)).toContain('\\x1b[32m1');
  });

  it('reports an unknown option and a missing argument as one line, exit 2', async () => {
    const r = await run(['readlines', fixture('crlf.txt'), '1', '--frobnicate']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe("linewise: unknown option '--frobnicate'\n");
    const m = await run(['readlines', fixture('crlf.txt')]);
    expect(m.status).toBe(2);
    expect(m.stderr).toBe("linewise: missing required argument 'start'\n");
  });
});
