// A file's lines as the patch locator compares them: FileLines.equals (in place, no string made)
// must say exactly what comparing the keys says, for every terminator and byte, on both of its
// paths (the file as one latin1 string, and a loop over the bytes for a file over 16 MiB).
import { describe, expect, it } from 'vitest';
import { KERNEL_FROM } from '../../src/core/line-starts.js';
import { FileLines, lineKey } from '../../src/core/patch/file-lines.js';

/** Lines with every ending (none, LF, CRLF, CR CR LF, a lone CR inside) and bytes that are not UTF-8. */
const LINES = ['alpha\n', 'alpha\r\n', 'alpha\r\r\n', 'al\rpha\n', '\n', '\r\n', 'caf\xe9 \xff\n', 'caf\xe9 \xff\r\n', '  x\t\n', 'alph\n', 'alphaa\n'];

function check(text: Buffer, count: number): void {
  const f = new FileLines(text);
  // the hunk side: each line's key as a hunk line's text gives it (latin1, one char a byte)
  const keys = Array.from({ length: count }, (_, i) => f.key(i, false));
  for (let i = 0; i < count; i++) {
    for (let j = 0; j < count; j++) expect([i, j, f.equals(i, keys[j]!)]).toEqual([i, j, keys[i] === keys[j]]);
    // a hunk line read with its own "\r" (a CRLF patch) compares as lineKey makes it
    expect(f.equals(i, lineKey(`${keys[i]}\r`))).toBe(true);
  }
}

describe('FileLines.equals', () => {
  it('says what comparing keys says, for every ending and byte (the file as one string)', () => {
    const text = Buffer.from(`${LINES.join('')}last\r`, 'latin1');
    check(text, LINES.length + 1);
  });

  it('the same for a file over 16 MiB (compared byte by byte, not copied into a string)', () => {
    const head = Buffer.from(`${LINES.join('')}last\r\n`, 'latin1');
    const text = Buffer.concat([head, Buffer.alloc((16 << 20) + 10, 0x78), Buffer.from('\nend')]);
    check(text, LINES.length + 1);
    const f = new FileLines(text);
    expect(f.equals(LINES.length + 2, 'end')).toBe(true);
    expect(f.equals(LINES.length + 2, 'en')).toBe(false);
  });
});

/** The lines of `text` as the patch sees them: split after each "\n", a last line without one kept. */
function naiveLines(text: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let s = 0; s < text.length; ) {
    const nl = text.indexOf(10, s);
    const e = nl === -1 ? text.length : nl + 1;
    out.push(text.subarray(s, e));
    s = e;
  }
  return out;
}

describe('FileLines, its starts found by the kernel or by the fallback', () => {
  const EDGES = ['', '\n', '\n\n', 'a', 'a\n', 'a\r', '\r', 'a\rb', 'a\r\nb\r\n', 'a\r\nb', 'a\r\r\n', '\xef\xbb\xbfbom\nx\n', 'caf\xe9 \xff\r\nna\xefve'];
  /** each edge alone, after other lines, and at the end of a text of 1 MiB and more (the default choice takes the kernel) */
  const texts = EDGES.flatMap((e) => [e, `${LINES.join('').repeat(60)}${e}`]).map((t) => Buffer.from(t, 'latin1'));
  const big = Buffer.from(LINES.join('').repeat(Math.ceil(KERNEL_FROM / 60)), 'latin1');
  texts.push(...EDGES.slice(0, 5).map((e) => Buffer.concat([big, Buffer.from(e, 'latin1')])));

  for (const [name, how] of [
    ['the kernel', { kernel: true }],
    ['the fallback', { kernel: false }],
    ['the default choice', {}],
  ] as const) {
    it(`start, length, terminator, key and equals are those of the naive split, with ${name}`, () => {
      for (const text of texts) {
        const f = new FileLines(text, how);
        const lines = naiveLines(text);
        expect(f.length).toBe(lines.length);
        // every line checked, the differences collected (an expect per line is slow over 1 MiB of lines)
        const wrong: unknown[] = [];
        let at = 0;
        for (let i = 0; i < lines.length; i++) {
          const line = lines[i]!;
          const t = line.toString('latin1');
          const ending = t.endsWith('\r\n') ? '\r\n' : t.endsWith('\n') ? '\n' : '';
          // as compared: without its terminator, and without a last "\r" after that
          const body = t.slice(0, t.length - ending.length);
          const key = body.endsWith('\r') ? body.slice(0, -1) : body;
          const got = [f.start(i), f.terminator(i), f.key(i, false), f.key(i, true), f.equals(i, key), f.equals(i, `${key}x`)];
          const want = [at, ending, key, key.replace(/[ \t\f\v]+/g, ' ').trim(), true, false];
          if (got.some((g, k) => g !== want[k])) wrong.push({ i, got, want });
          at += line.length;
        }
        expect(wrong.slice(0, 5)).toEqual([]);
        expect(f.start(lines.length)).toBe(text.length);
      }
    });
  }
});

describe('FileLines.key', () => {
  it('gives each line its own key in any order, lines that share a slot of its cache too (4096 apart)', () => {
    // 20,000 lines, every one different, with and without spacing to fold
    const lines = Array.from({ length: 20_000 }, (_, i) => `  line  ${i}\t of ${i % 7}  \n`);
    const f = new FileLines(Buffer.from(lines.join(''), 'latin1'));
    const want = (i: number, ws: boolean) => (ws ? `line ${i} of ${i % 7}` : lines[i]!.slice(0, -1));
    // forwards, backwards, strided by the cache's size, and a window slid as --ignore-whitespace does
    const order = [
      ...Array.from({ length: 20_000 }, (_, i) => i),
      ...Array.from({ length: 20_000 }, (_, i) => 19_999 - i),
      ...Array.from({ length: 40 }, (_, i) => (i * 4096) % 20_000),
      ...Array.from({ length: 300 }, (_, d) => Array.from({ length: 50 }, (_, k) => 9_000 + (d % 2 ? d : -d) + k)).flat(),
    ];
    const wrong: unknown[] = [];
    order.forEach((i, n) => {
      const ws = n % 3 === 0;
      if (f.key(i, ws) !== want(i, ws)) wrong.push([i, ws, f.key(i, ws)]);
      if (f.key(i, !ws) !== want(i, !ws)) wrong.push([i, !ws, f.key(i, !ws)]);
    });
    expect(wrong.slice(0, 5)).toEqual([]);
  });
});
