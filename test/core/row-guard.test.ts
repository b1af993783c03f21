// The guard trailer (core/row-guard.ts): written by the readers, read back with the rows; which rows
// it guards, and what replace refuses of a trailer that was damaged.
import { describe, expect, it } from 'vitest';
import { parseRowTable } from '../../src/core/parse-rows.js';
import { grouped } from '../../src/core/errors.js';
import { fnv1a, GUARD_MAX_ROWS, GuardLog, parseGuardLine } from '../../src/core/row-guard.js';

const hex = (s: string) => fnv1a(Buffer.from(s)).toString(16).padStart(8, '0');

describe('the guard trailer', () => {
  it('is FNV-1a (32 bits) of the text without terminator, runs of lines, one hash a row', () => {
    expect(fnv1a(Buffer.from(''))).toBe(0x811c9dc5);
    expect(fnv1a(Buffer.from('a'))).toBe(0xe40c292c); // the published FNV-1a test vector
    // piece by piece is the same as whole
    expect(fnv1a(Buffer.from('bc'), 0, 2, fnv1a(Buffer.from('a')))).toBe(fnv1a(Buffer.from('abc')));
    const log = new GuardLog();
    for (const [n, t] of [[1, 'a'], [2, 'b'], [3, 'c'], [7, 'g']] as const) log.add('f.txt', n, fnv1a(Buffer.from(t)));
    log.add('other\tname', 2, fnv1a(Buffer.from('x')));
    expect(log.lines()).toEqual([
      `\\ read {"path":"f.txt","lines":"1-3,7","hash":"${hex('a')}${hex('b')}${hex('c')}${hex('g')}"}\n`,
      `\\ read {"path":"other\\tname","lines":"2","hash":"${hex('x')}"}\n`,
    ]);
  });

  it('holds lines far apart and hundreds of thousands of rows as JSON.stringify would write them, given out in pieces', () => {
    // gaps of 1 byte and of several (7 bits a byte), runs and single lines, past many chunk ends
    const lines: number[] = [];
    for (let n = 1; lines.length < 300_000; ) {
      lines.push(n);
      n += lines.length % 7 === 0 ? 1 : lines.length % 1000 === 0 ? 2 ** 40 + 3 : lines.length % 3 === 0 ? 200 : 2;
    }
    const hashes = lines.map((n) => (n * 2654435761) >>> 0);
    const log = new GuardLog();
    lines.forEach((n, k) => log.add('big file', n, hashes[k]!));
    log.add('big file', lines[5]!, 0); // a line again: guarded once
    const runs: string[] = [];
    for (let k = 0; k < lines.length; ) {
      let e = k;
      while (e + 1 < lines.length && lines[e + 1] === lines[e]! + 1) e++;
      runs.push(e === k ? String(lines[k]) : `${lines[k]}-${lines[e]}`);
      k = e + 1;
    }
    const expected = `\\ read ${JSON.stringify({ path: 'big file', lines: runs.join(','), hash: hashes.map((h) => h.toString(16).padStart(8, '0')).join('') })}\n`;
    const pieces: string[] = [];
    log.write((p) => pieces.push(p));
    expect(pieces.join('') === expected).toBe(true);
    expect(log.lines()).toEqual([expected]);
    // never one string of the whole trailer (2.4 MB of hash digits alone)
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(9000);
  });

  it('names its bound with the thousands set apart, as toLocaleString would, without loading ICU', () => {
    expect([0, 7, 999, 1000, 65536, 1_000_000, 12_345_678, GUARD_MAX_ROWS].map(grouped)).toEqual(
      [0, 7, 999, 1000, 65536, 1_000_000, 12_345_678, GUARD_MAX_ROWS].map((n) => n.toLocaleString('en-US')),
    );
  });

  it('past its bound it holds nothing and says so', () => {
    const log = new GuardLog(2);
    for (let n = 1; n <= 3; n++) log.add('f', n, 0);
    expect([log.overflowed, log.lines()]).toEqual([true, []]);
  });

  it('marks the rows before it as guarded, and as left as read when their text hashes the same', () => {
    const rows = Buffer.from(`1\tA\n2\tb\n\\ read {"path":"f","lines":"1-2","hash":"${hex('a')}${hex('b')}"}\n3\tc\n`);
    const t = parseRowTable(rows, 'rows');
    t.resolveGuards('rows');
    expect([0, 1, 2].map((i) => [t.guard(i), t.untouched(i)])).toEqual([
      [fnv1a(Buffer.from('a')), false],
      [fnv1a(Buffer.from('b')), true],
      [undefined, false], // after the trailer: a row typed by hand
    ]);
  });

  it('matches path rows by path, and a CRLF row or one before the no-newline marker by its text', () => {
    const rows = Buffer.from(`a\t1\tx\r\nb\t1\ty\n\\ No newline at end of file\n\\ read {"path":"a","lines":"1","hash":"${hex('x')}"}\n\\ read {"path":"b","lines":"1","hash":"${hex('y')}"}\n`);
    const t = parseRowTable(rows, 'rows');
    t.resolveGuards('rows');
    expect([t.untouched(0), t.untouched(1)]).toEqual([true, true]);
  });

  it('refuses a damaged trailer (2) rather than guess, and plain rows after trailers of several files', () => {
    expect(parseGuardLine('\\ read {"path":"f","lines":"1-2","hash":"00000000"}')).toEqual({ bad: expect.stringContaining('2 lines but 1 hashes') });
    expect(parseGuardLine('\\ read {"path":"f","lines":"3,2","hash":"0000000000000000"}')).toEqual({ bad: expect.stringContaining('not rising') });
    expect(parseGuardLine('\\ read {nope')).toEqual({ bad: expect.stringContaining('not JSON') });
    expect(parseGuardLine('\\ No newline at end of file')).toBeUndefined();
    expect(() => parseRowTable(Buffer.from('1\tx\n\\ read {"path":1}\n'), 'rows')).toThrow(/row 2: a guard trailer line needs "path", "lines" and "hash" strings/);
    const mixed = parseRowTable(Buffer.from(`1\tx\n\\ read {"path":"a","lines":"1","hash":"${hex('x')}"}\n\\ read {"path":"b","lines":"1","hash":"${hex('x')}"}\n`), 'rows');
    expect(() => mixed.resolveGuards('rows')).toThrow(/names several files but the row names none/);
  });
});
