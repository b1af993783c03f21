import { afterAll, describe, expect, it } from 'vitest';
import { parseRows } from '../../src/core/parse-rows.js';
import { esc, fixture, run, tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
const numbered = (n: number, eol = '\n') => Array.from({ length: n }, (_, i) => `line ${i + 1}${eol}`).join('');

describe('page', () => {
  it('shows 100 lines by default with the footer after a blank line', async () => {
    const f = tmp.file('250.txt', numbered(250));
    const r = await run(['page', f]);
    expect(r.status).toBe(0);
    const text = r.stdout.toString();
    expect(text.startsWith('1\tline 1\n2\tline 2\n')).toBe(true);
    expect(text.endsWith('100\tline 100\n\n[Read 100 lines (lines 1-100 of 250 total). 150 lines remaining from offset 100.]\n')).toBe(true);
  });

  it('uses the singular, windows by offset, and prints no footer at the end', async () => {
    const f = tmp.file('5.txt', numbered(5, '\r\n'));
    const one = await run(['page', f, '--limit', '1']);
    expect(esc(one.stdout)).toBe('1\\tline 1\\r\\n\\n[Read 1 line (lines 1-1 of 5 total). 4 lines remaining from offset 1.]\\n');
    const last = await run(['page', f, '--offset', '3']);
    expect(esc(last.stdout)).toBe('4\\tline 4\\r\\n5\\tline 5\\r\\n');
  });

  it('says the total was not counted past --count-bytes', async () => {
    const f = tmp.file('many.txt', numbered(100_000));
    const r = await run(['page', f, '--limit', '2', '--count-bytes', '1000']);
    expect(r.stdout.toString()).toBe('1\tline 1\n2\tline 2\n\n[Read 2 lines (lines 1-2). More lines remain from offset 2.]\n');
  });

  it('errors at or past the end with the line count; an empty file is a note and exit 0', async () => {
    const f = tmp.file('3.txt', numbered(3));
    const r = await run(['page', f, '--offset', '3']);
    expect(r.status).toBe(2);
    expect(r.stdout.length).toBe(0);
    expect(r.stderr).toBe(`linewise: ${f}: offset 3 is at or past the end: the file has 3 lines (an offset is the number of lines skipped: --offset 2 shows the last line)\n`);
    const e = await run(['page', fixture('empty.txt')]);
    expect(e.status).toBe(0);
    expect(e.stdout.length).toBe(0);
    expect(e.stderr).toBe(`linewise: ${fixture('empty.txt')}: the file is empty\n`);
  });

  it('puts the footer on its own line after a last row without a terminator that was cut', async () => {
    const f = tmp.file('cut.txt', `${'w'.repeat(500)}`);
    const r = await run(['page', f, '--max-bytes', '100']);
    expect(esc(r.stdout)).toBe(
      `1[cut]\\t${'w'.repeat(98)}\\n\\n[Read 1 line (lines 1-1 of 1 total). Line 1 was cut at 98 of 500 bytes; go on inside it with: linewise page ${f} --offset 0 --max-bytes 100 --from-byte 98; or read it whole with: linewise readlines ${f} 1 1]\\n`,
    );
  });

  it('walks a whole file through the footers with a small --max-bytes: every line once, then stops', async () => {
    const lines = ['short\r\n', `${'long '.repeat(40)}\n`, '\n', 'é'.repeat(30), ''];
    const content = `${lines.join('')}${numbered(7, '\r\n')}tail`;
    const f = tmp.file('walk.txt', content);
    const seen: Buffer[] = [];
    let offset = 0;
    for (let guard = 0; guard < 100; guard++) {
      const r = await run(['page', f, '--offset', String(offset), '--limit', '3', '--max-bytes', '60']);
      expect(r.status).toBe(0);
      const out = r.stdout.toString('latin1');
      const rows = out.replace(/\n\n\[Read .*\]\n$/, '\n');
      for (const row of rows.split(/(?<=\n)/)) if (row && !row.startsWith('\\ No newline')) seen.push(Buffer.from(row, 'latin1'));
      const m = /from offset (\d+)\.\]\n$/.exec(out) ?? /from offset (\d+)\. Line/.exec(out);
      if (!m) break;
      expect(Number(m[1])).toBeGreaterThan(offset);
      offset = Number(m[1]);
    }
    const numbers = seen.map((row) => Number(/^(\d+)/.exec(row.toString())![1]));
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
    expect(numbers.at(-1)).toBe(11); // short, long, blank, é…line 1, line 2-7, tail
    // The cut row is marked, and the rows input refuses it.
    expect(seen.some((row) => row.toString().startsWith('2[cut]\t'))).toBe(true);
  });

  it('page output (footer and all) parses back as rows', async () => {
    const f = tmp.file('rows.txt', numbered(5, '\r\n'));
    const r = await run(['page', f, '--limit', '2']);
    const rows = parseRows(r.stdout, 'page');
    expect(rows.map((x) => `${x.line}:${esc(x.bytes)}`)).toEqual(['1:line 1\\r\\n', '2:line 2\\r\\n']);
  });

  it('--json ends with a summary carrying the total and the next offset', async () => {
    const f = tmp.file('j.txt', numbered(5));
    const r = await run(['page', f, '--limit', '2', '--offset', '1', '--json']);
    const recs = r.stdout.toString().trim().split('\n').map((l) => JSON.parse(l));
    expect(recs.map((x) => x.type)).toEqual(['line', 'line', 'summary']);
    expect(recs[2]).toMatchObject({ type: 'summary', lines: 2, first: 2, last: 3, total: 5, remaining: 2, next_offset: 3 });
    const end = await run(['page', f, '--offset', '4', '--json']);
    expect(JSON.parse(end.stdout.toString().trim().split('\n').at(-1)!)).toMatchObject({ total: 5, remaining: 0, next_offset: null });
  });

  it('--last N prints the last N lines, numbered, with no footer', async () => {
    const f = tmp.file('last.txt', `${numbered(5, '\r\n')}tail`);
    const r = await run(['page', f, '--last', '2']);
    expect(r.status).toBe(0);
    expect(esc(r.stdout)).toBe('5\\tline 5\\r\\n6\\ttail\\n\\\\ No newline at end of file\\n');
    const all = await run(['page', f, '--last', '10', '--json']);
    const recs = all.stdout.toString().trim().split('\n').map((l) => JSON.parse(l));
    expect(recs.at(-1)).toMatchObject({ type: 'summary', offset: 0, lines: 6, total: 6, next_offset: null });
    const empty = await run(['page', fixture('empty.txt'), '--last', '3']);
    expect(empty.status).toBe(0);
    expect(empty.stdout.length).toBe(0);
  });

  it('--last refuses standard input (it cannot be read twice) and --offset beside it', async () => {
    const r = await run(['page', '-', '--last', '2'], { stdin: 'a\nb\nc\n' });
    expect(r.status).toBe(2);
    expect(r.stdout.length).toBe(0);
    expect(r.stderr).toMatch(/^linewise: -: --last reads the file twice .*\n$/);
    expect(r.stderr.split('\n').length).toBe(2);
    const both = await run(['page', fixture('crlf.txt'), '--last', '1', '--offset', '1']);
    expect(both.status).toBe(2);
    expect(both.stderr).toMatch(/^linewise: option '--last <n>' cannot be used with option '--offset <k>'\n$/);
  });

  it('reads standard input', async () => {
    const r = await run(['page', '-', '--limit', '1'], { stdin: 'x\ny\n' });
    expect(r.stdout.toString()).toBe('1\tx\n\n[Read 1 line (lines 1-1 of 2 total). 1 line remaining from offset 1.]\n');
  });

  it('refuses --limit 0 and a negative offset', async () => {
    const z = await run(['page', fixture('crlf.txt'), '--limit', '0']);
    expect(z.status).toBe(2);
    expect(z.stderr).toMatch(/^linewise: .*--limit must be at least 1/);
    const n = await run(['page', fixture('crlf.txt'), '--offset', '-1']);
    expect(n.status).toBe(2);
  });
});
