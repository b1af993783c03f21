// Bounded work: a runaway pattern ends within --timeout on every grep path, and a small request
// on a huge stream reads a bounded number of bytes (counted at the ReadFn, not timed).

import * as fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { chunkedReader, type ReadFn } from '../../src/core/lines.js';
import type { Io } from '../../src/io/streams.js';
import { esc, run, tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe('runaway patterns: (a+)+$ on a long run of a', () => {
  const body = `ok\n${'a'.repeat(40)}!\nok\n`;
  const f = tmp.file('redos.txt', body);
  // "at or after": a pattern that runs over a whole block at once knows only where the block began.
  const message = (where: string, line: boolean) =>
    new RegExp(`^linewise: ${where.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')}: the search ran longer than 1 s${line ? ' at or after line [12]' : ''}: the pattern backtracks too much; simplify it or raise --timeout\n$`);

  // Each case costs about a second (the bound), so the paths are sampled, not multiplied out.
  const cases: [string, string[], boolean][] = [
    ['rows', [], true],
    ['-v', ['-v'], true],
    ['-c (no line numbers: none in the message)', ['-c'], false],
    ['-l', ['-l'], false],
    ['-C 1 context', ['-C', '1'], true],
    ['--json', ['--json'], true],
  ];
  for (const [name, flags, line] of cases) {
    it(`a file, ${name}: exit 2 within the bound, one clear line`, async () => {
      const r = await run(['grep', '--timeout', '1', ...flags, '(a+)+$', f]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(message(f, line));
    });
  }

  it('standard input with --timeout (rows, and --json): exit 2, one line', async () => {
    for (const flags of [[], ['--json']]) {
      const r = await run(['grep', '--timeout', '1', ...flags, '(a+)+$', '-'], { stdin: body, stdinChunks: [7] });
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(message('-', true));
    }
  });
});

/** A stream of `total` bytes of short lines, made up as it is read; `read` counts what was handed out. */
function hugeStream(total: number, line = 'a line of a huge stream\n'): { read: ReadFn; bytes(): number } {
  const pattern = Buffer.from(line.repeat(Math.ceil(65536 / line.length) + 1));
  let at = 0;
  return {
    read: (buf, offset, length) => {
      const n = Math.min(length, total - at);
      if (n <= 0) return 0;
      const start = at % line.length;
      let done = 0;
      while (done < n) {
        const k = Math.min(n - done, pattern.length - start);
        buf.set(pattern.subarray(start, start + k), offset + done);
        done += k;
      }
      at += n;
      return n;
    },
    bytes: () => at,
  };
}

async function runOn(args: string[], stdin: ReadFn): Promise<{ status: number; stdout: Buffer; stderr: string }> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const io: Io = {
    stdout: { isTTY: false, write: (b) => void out.push(Buffer.from(b)) },
    stderr: { isTTY: false, write: (b) => void err.push(Buffer.from(b)) },
    stdin,
    stdinIsTTY: false,
    env: { LINEWISE_GUARD: process.env.LINEWISE_GUARD }, // the test run's default for the guard trailer (vitest.config.ts)
    cwd: process.cwd(),
  };
  const status = await main(args, io);
  return { status, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString() };
}

const GiB = 2 ** 30;
const MiB = 2 ** 20;

describe('bounded reads on a 4 GiB stream (bytes counted at the reader)', () => {
  it('page --limit 1 reads at most the page plus --count-bytes (8 MiB) plus a buffer', async () => {
    const s = hugeStream(4 * GiB);
    const r = await runOn(['page', '-', '--limit', '1'], s.read);
    expect(r.status).toBe(0);
    expect(r.stdout.toString()).toBe('1\ta line of a huge stream\n\n[Read 1 line (lines 1-1). More lines remain from offset 1.]\n');
    expect(s.bytes()).toBeLessThanOrEqual(8 * MiB + 2 * 65536);
  });

  it('page --limit 1 --count-bytes 0 reads one buffer', async () => {
    const s = hugeStream(4 * GiB);
    const r = await runOn(['page', '-', '--limit', '1', '--count-bytes', '0'], s.read);
    expect(r.status).toBe(0);
    expect(s.bytes()).toBeLessThanOrEqual(2 * 65536);
  });

  it('page on a single 4 GiB line (no newline at all): cut at --max-bytes, measuring stops at --count-bytes', async () => {
    const s = hugeStream(4 * GiB, 'x'.repeat(1000));
    const r = await runOn(['page', '-', '--max-bytes', '100'], s.read);
    expect(r.status).toBe(0);
    expect(r.stdout.toString().startsWith('1[cut]\txxxx')).toBe(true);
    expect(s.bytes()).toBeLessThanOrEqual(8 * MiB + 2 * 65536);
  });

  it('readlines - 1 3 stops at END: one buffer read', async () => {
    const s = hugeStream(4 * GiB);
    const r = await runOn(['readlines', '-', '1', '3'], s.read);
    expect(r.status).toBe(0);
    expect(r.stdout.toString().split('\n')).toHaveLength(4);
    expect(s.bytes()).toBeLessThanOrEqual(2 * 65536);
  });

  it('grep -m 1 stops after its first match: a few buffers read', async () => {
    const s = hugeStream(4 * GiB);
    const r = await runOn(['grep', '-m', '1', 'huge', '-'], s.read);
    expect(r.status).toBe(0);
    expect(r.stdout.toString()).toBe('1\ta line of a huge stream\n');
    expect(s.bytes()).toBeLessThanOrEqual(MiB);
  });

  it('grep past a 40 MB line (over the 32 MiB line bound): the line skipped with a note, a match three lines further found, exit 0', async () => {
    const long = Buffer.alloc(40 * MiB, 'y');
    const input = Buffer.concat([Buffer.from('z first\n'), long, Buffer.from('\na\nb\nz here\r\n')]);
    for (const extra of [[], ['-C', '1'], ['-c']]) {
      const r = await runOn(['grep', ...extra, 'z', '-'], chunkedReader(input, [65536]));
      expect(r.status).toBe(0);
      expect(r.stderr).toBe(`linewise: -: ${extra[0] === '-c' ? 'a line' : 'line 2'} is longer than 32 MiB: not searched (the search goes on after it)\n`);
      const want = extra[0] === '-c' ? '2\n' : extra[0] === '-C' ? '1\tz first\n--\n4\tb\n5\tz here\r\n' : '1\tz first\n5\tz here\r\n';
      expect(esc(r.stdout)).toBe(esc(want));
    }
  });

  it('grep --max-rows 1 counts what it left out within --count-bytes (8 MiB), then says "more remain"', async () => {
    const s = hugeStream(4 * GiB);
    const r = await runOn(['grep', '--max-rows', '1', 'huge', '-'], s.read);
    expect(r.status).toBe(0);
    expect(r.stdout.toString()).toBe('1\ta line of a huge stream\n\n[Read 1 matching line (in 1 file); more remain. Run the same command with --after -:1 to go on.]\n');
    expect(s.bytes()).toBeLessThanOrEqual(8 * MiB + 2 * 131072);
  });

  it('grep -q stops at the first match: a few buffers read', async () => {
    const s = hugeStream(4 * GiB);
    const r = await runOn(['grep', '-q', 'huge', '-'], s.read);
    expect([r.status, r.stdout.length]).toEqual([0, 0]);
    expect(s.bytes()).toBeLessThanOrEqual(MiB);
  });

  it('readlines --max-bytes counts the lines left within --count-bytes, never past END', async () => {
    const s = hugeStream(4 * GiB);
    const r = await runOn(['readlines', '-', '1', '--max-bytes', '60'], s.read);
    expect(r.status).toBe(0);
    expect(r.stdout.toString()).toBe('1\ta line of a huge stream\n2\ta line of a huge stream\n\n[Read 2 lines (lines 1-2); more lines did not fit --max-bytes 60. Go on with: linewise readlines - 3 --max-bytes 60]\n');
    expect(s.bytes()).toBeLessThanOrEqual(8 * MiB + 2 * 65536);
    const t = hugeStream(4 * GiB);
    await runOn(['readlines', '-', '1', '1000', '--max-bytes', '60'], t.read);
    expect(t.bytes()).toBeLessThanOrEqual(2 * 65536); // line 1000 is in the first buffers
  });
});

describe('output caps', () => {
  it('grep --max-bytes: the rows printed stay within the cap (a first row cut: its mark beyond), for many caps', async () => {
    const lines = Array.from({ length: 300 }, (_, i) => `${i % 3 === 0 ? 'hit ' : ''}${'z'.repeat((i * 37) % 500)}\r\n`);
    const f = tmp.file('grep-caps.txt', lines.join(''));
    for (const cap of [1, 10, 64, 100, 999, 4096]) {
      for (const flags of [[], ['-C', '1'], ['-o'], ['-H']]) {
        const r = await run(['grep', ...flags, 'hit z*', f, '--max-bytes', String(cap)]);
        expect(r.status).toBe(0);
        const body = r.stdout.toString('latin1');
        const footer = body.lastIndexOf('\n\n[Read ');
        const rows = footer === -1 ? body : body.slice(0, footer + 1);
        // a first row cut: the text that fits after its prefix, one character when even the prefix
        // does not (a cut always advances: the cursor inside the line must move, issue 24.4)
        if (/^(?:[^\t]*\t)?\d+(?::\d+)?\[cut\]\t/.test(rows)) expect(rows.length).toBeLessThanOrEqual(Math.max(cap, rows.indexOf('\t', rows.indexOf('[cut]')) + 3));
        else expect(rows.length).toBeLessThanOrEqual(cap);
      }
    }
  });

  it('page --max-bytes: the rows printed stay within the cap (a cut row: its number and mark beyond), for many caps', async () => {
    const lines = Array.from({ length: 300 }, (_, i) => `${'z'.repeat((i * 37) % 500)}\r\n`);
    const f = tmp.file('caps.txt', lines.join(''));
    for (const cap of [1, 10, 64, 100, 999, 4096]) {
      for (const offset of [0, 13, 200]) {
        const r = await run(['page', f, '--max-bytes', String(cap), '--limit', '1000', '--offset', String(offset)]);
        expect(r.status).toBe(0);
        const body = r.stdout.toString('latin1');
        const footer = body.lastIndexOf('\n\n[Read ');
        const rows = footer === -1 ? body : body.slice(0, footer + 1);
        const cut = /^\d+\[cut\]\t/.exec(rows);
        if (cut) {
          // one row, cut: its text fits in the room left after "N<TAB>"; the "[cut]" mark and the
          // newline that separates it from the footer are decoration beyond the cap; one character
          // at least, so the cursor inside the line advances (issue 24.4)
          expect(rows.length - cut[0].length - 1).toBeLessThanOrEqual(Math.max(1, cap - (cut[0].length - 5)));
        } else if (!/^\d+\t\r?\n$/.test(rows)) {
          // (an empty line, its terminator alone, is shown whatever the cap: no part can hold less)
          expect(rows.length).toBeLessThanOrEqual(cap);
        }
      }
    }
  });
});
