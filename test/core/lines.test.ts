import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkedReader, joinPieces, lineCount, LineScanner, safeCut, splitLines } from '../../src/core/lines.js';
import { terminatorLength } from '../../src/core/terminators.js';
import { esc, referenceLines } from '../helpers.js';

/** Scans `data` read in chunks of `sizes`, with a scanner buffer of `bufferSize`; lines joined from pieces. */
function scanAll(data: Uint8Array, sizes: number[], bufferSize = 16) {
  const scanner = new LineScanner(chunkedReader(data, sizes), bufferSize);
  const lines: Buffer[] = [];
  const pieces: { bytes: Buffer; ends: boolean }[] = [];
  let current: Buffer[] = [];
  scanner.scan((buf, start, end, ends) => {
    const bytes = Buffer.from(buf.subarray(start, end));
    pieces.push({ bytes, ends });
    current.push(bytes);
    if (ends) {
      lines.push(Buffer.concat(current));
      current = [];
    }
  });
  return { lines, pieces };
}

/**
 * A piece that does not end its line never splits a "\r\n" (the completing piece holds the
 * whole terminator) and never ends inside a UTF-8 sequence. A "\r" followed by another "\r" is
 * content and may end a piece.
 */
function expectSafePieces(pieces: { bytes: Buffer; ends: boolean }[]): void {
  pieces.forEach((p, i) => {
    if (p.ends) return;
    const next = pieces[i + 1]!;
    expect(p.bytes[p.bytes.length - 1] === 13 && next.bytes[0] === 10, `piece ${i} splits \\r\\n`).toBe(false);
    // What comes before the "\r"s at its end ends no UTF-8 sequence midway. Every such "\r" goes,
    // not one: in "\r\r" the first is content (a piece may end so when the byte after is known),
    // and safeCut would hold it back.
    let k = p.bytes.length;
    while (k > 0 && p.bytes[k - 1] === 13) k--;
    expect(safeCut(p.bytes, 0, k)).toBe(k);
  });
}

/** Every way of cutting n bytes into consecutive chunks, as chunk-size lists. */
function* cuttings(n: number): Generator<number[]> {
  if (n === 0) {
    yield [];
    return;
  }
  for (let mask = 0; mask < 1 << (n - 1); mask++) {
    const sizes: number[] = [];
    let size = 1;
    for (let i = 0; i < n - 1; i++) {
      if (mask & (1 << i)) {
        sizes.push(size);
        size = 1;
      } else size++;
    }
    sizes.push(size);
    yield sizes;
  }
}

const ATOMS = ['a', '\r', '\n', 'é', '\uFEFF'];
const atom = fc.constantFrom(...ATOMS.map((s) => Buffer.from(s, 'utf8')));
const text = fc.array(atom, { maxLength: 40 }).map((parts) => Buffer.concat(parts));

describe('LineScanner', () => {
  it('splits on \\n only and keeps terminators: a\\nb\\n has 2 lines, \\n has 1, empty has 0', () => {
    const lines = (s: string) => scanAll(Buffer.from(s), [64], 64).lines.map((b) => esc(b));
    expect(lines('a\nb\n')).toEqual(['a\\n', 'b\\n']);
    expect(lines('a\nb')).toEqual(['a\\n', 'b']);
    expect(lines('\n')).toEqual(['\\n']);
    expect(lines('')).toEqual([]);
    expect(lines('a\r\nb\rc\n\r')).toEqual(['a\\r\\n', 'b\\rc\\n', '\\r']);
    expect(lines('f\fv\vu\u2028w\u2029\n')).toEqual([esc('f\fv\vu\u2028w\u2029\n')]);
  });

  it('gives the same lines for every way of cutting short inputs into reads (exhaustive)', () => {
    // Every string of up to 5 atoms (each 1-3 bytes) and every cutting of its bytes into reads.
    const inputs: Buffer[] = [Buffer.alloc(0)];
    let frontier: Buffer[] = [Buffer.alloc(0)];
    for (let len = 1; len <= 4; len++) {
      frontier = frontier.flatMap((p) => ATOMS.map((a) => Buffer.concat([p, Buffer.from(a)])));
      inputs.push(...frontier);
    }
    let checked = 0;
    for (const input of inputs) {
      const want = referenceLines(input).map(esc);
      if (input.length > 9) continue; // 2^(n-1) cuttings: keep it exhaustive but quick
      for (const sizes of cuttings(input.length)) {
        const got = scanAll(input, sizes.length ? sizes : [1]).lines.map(esc);
        expect(got, `input ${esc(input)} cut ${sizes}`).toEqual(want);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('a piece may end in "\\r\\r" when the byte after it is known (fast-check seed 859065161 once failed the property below on that)', () => {
    const input = Buffer.from([239, 187, 191, 195, 169, 97, 195, 169, 239, 187, 191, 97, 13, 13, 239, 187, 191]);
    const { lines, pieces } = scanAll(input, [1], 16);
    expect(lines.map(esc)).toEqual(referenceLines(input).map(esc));
    expectSafePieces(pieces);
  });

  it('property: lines and their concatenation do not depend on read sizes or buffer size', () => {
    fc.assert(
      fc.property(text, fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 8 }), fc.integer({ min: 16, max: 40 }), (input, sizes, bufferSize) => {
        const { lines, pieces } = scanAll(input, sizes, bufferSize);
        expect(lines.map(esc)).toEqual(referenceLines(input).map(esc));
        expect(esc(Buffer.concat(lines))).toBe(esc(input));
        expectSafePieces(pieces);
      }),
    );
  });

  it('hands a line longer than the buffer on in pieces, memory bounded by the buffer', () => {
    const long = Buffer.concat([Buffer.alloc(3 << 20, 'x'), Buffer.from('\r\nend\n')]);
    const { lines, pieces } = scanAll(long, [65536], 1 << 16);
    expect(lines.length).toBe(2);
    expect(lines[0]!.length).toBe((3 << 20) + 2);
    expect(esc(lines[0]!.subarray(-3))).toBe('x\\r\\n');
    expect(pieces.length).toBeGreaterThan(40);
    expect(Math.max(...pieces.map((p) => p.bytes.length))).toBeLessThanOrEqual(1 << 16);
  });

  it('closes a line that ended exactly when the buffer filled, at end of input', () => {
    const input = Buffer.alloc(16, 'y');
    const { lines, pieces } = scanAll(input, [16], 16);
    expect(lines.map(esc)).toEqual([esc(input)]);
    expect(pieces.at(-1)!.ends).toBe(true);
  });

  it('skip counts lines, including a final unterminated one and long lines, within a byte bound', () => {
    const input = Buffer.from(`${'z'.repeat(100)}\nb\nc`);
    const s = new LineScanner(chunkedReader(input, [7]), 16);
    expect(s.skip(1)).toEqual({ lines: 1, eof: false });
    expect(s.skip(Infinity)).toEqual({ lines: 2, eof: true });
    const bounded = new LineScanner(chunkedReader(Buffer.from('a\n'.repeat(1000)), [16]), 16);
    const r = bounded.skip(Infinity, 100);
    expect(r.eof).toBe(false);
    expect(bounded.offset).toBeLessThanOrEqual(100 + 16);
  });

  it('property: skip lands on the same line whether it counts line by line or in the SIMD kernel', () => {
    const line = fc.array(fc.constantFrom('a', '\r', 'é', ' '), { maxLength: 12 }).map((p) => `${p.join('')}\n`);
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 3000 }),
        fc.boolean(),
        fc.nat({ max: 3100 }),
        fc.integer({ min: 16, max: 300 }),
        fc.integer({ min: 1, max: 500 }),
        (lines, cutLast, k, bufferSize, readSize) => {
          let input = Buffer.from(lines.join(''));
          if (cutLast) input = input.subarray(0, input.length - 1);
          const want = referenceLines(input);
          const s = new LineScanner(chunkedReader(input, [readSize]), bufferSize);
          const r = s.skip(k); // k > 1000 moves the buffer into the kernel
          expect(r.lines).toBe(Math.min(k, want.length));
          const rest: Buffer[] = [];
          let cur: Buffer[] = [];
          s.scan((b, st, en, ends) => {
            cur.push(Buffer.from(b.subarray(st, en)));
            if (ends) {
              rest.push(Buffer.concat(cur));
              cur = [];
            }
          });
          expect(rest.map(esc)).toEqual(want.slice(Math.min(k, want.length)).map(esc));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('peek does not consume; a restart on bytes already in its buffer starts past a BOM, offsets staying the input\'s', () => {
    const s = new LineScanner(chunkedReader(Buffer.from('\uFEFFhi\n'), [1]), 16);
    expect(esc(s.peek(3))).toBe('\\xef\\xbb\\xbf');
    // what openText does: the first read into the scanner's own buffer, then a start past the mark
    const input = chunkedReader(Buffer.from('\uFEFFhi\nyo'), [5]);
    const filled = input(s.buffer, 0, s.buffer.length);
    s.restart(input, { filled, start: 3, ended: false });
    expect(s.offset).toBe(3);
    const got: string[] = [];
    s.scan((b, st, en) => void got.push(esc(b.subarray(st, en))));
    expect(got).toEqual(['hi\\n', 'yo']);
    expect(s.offset).toBe(8);
    // ended: the input is not read again (a terminal is not asked for more after its end)
    let reads = 0;
    const once = chunkedReader(Buffer.from('\uFEFFa\n'));
    s.restart((b, o, l) => (reads++, once(b, o, l)), { filled: once(s.buffer, 0, s.buffer.length), start: 3, ended: true });
    const rows: string[] = [];
    s.scan((b, st, en) => void rows.push(esc(b.subarray(st, en))));
    expect([rows, reads]).toEqual([['a\\n'], 0]);
  });
});

describe('terminatorLength and safeCut', () => {
  it('measures the terminator', () => {
    const t = (s: string) => terminatorLength(Buffer.from(s), 0, Buffer.byteLength(s));
    expect([t('a\r\n'), t('a\n'), t('a'), t('\r'), t('\n'), t('\r\n'), t('')]).toEqual([2, 1, 0, 0, 1, 2, 0]);
  });
  it('never cuts inside a UTF-8 sequence or after a \\r', () => {
    const b = Buffer.from('aé€😀\r');
    expect(safeCut(b, 0, b.length)).toBe(b.length - 1);
    expect(safeCut(b, 0, 2)).toBe(1); // inside é
    expect(safeCut(b, 0, 5)).toBe(3); // inside €
    expect(safeCut(b, 0, 8)).toBe(6); // inside 😀
    expect(safeCut(b, 0, 10)).toBe(10);
  });
});

describe('joinPieces', () => {
  it('joins pieces into whole lines and refuses lines past the bound', () => {
    const got: string[] = [];
    const visit = joinPieces((b, s, e) => void got.push(b.toString('utf8', s, e)), 100, (n) => new Error(`too long ${n}`));
    new LineScanner(chunkedReader(Buffer.from(`${'q'.repeat(40)}\nshort\n`), [5]), 16).scan(visit);
    expect(got).toEqual([`${'q'.repeat(40)}\n`, 'short\n']);
    const refuse = joinPieces(() => {}, 20, (n) => new Error(`too long ${n}`));
    expect(() => new LineScanner(chunkedReader(Buffer.from('w'.repeat(50))), 16).scan(refuse)).toThrow(/too long/);
  });
});

describe('scanBlocks', () => {
  // grep's inputs: CRLF, lone CR, UTF-8 and invalid bytes
  const BLOCK_ATOMS = ['a', 'b', 'ab', 'x', '\r', '\n', '\r\n', 'é', '\xff', '1', ' '];
  const content = fc
    .array(fc.constantFrom(...BLOCK_ATOMS.map((s) => (s === '\xff' ? Buffer.from([0xff]) : Buffer.from(s, 'utf8')))), { maxLength: 60 })
    .map((parts) => Buffer.concat(parts));

  it('property: blocks hold whole lines, pieces come only for lines longer than the buffer, bytes are all there', () => {
    fc.assert(
      fc.property(content, fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 6 }), fc.integer({ min: 16, max: 40 }), (input, sizes, size) => {
        const calls: { piece: Buffer; ends: boolean }[] = [];
        new LineScanner(chunkedReader(input, sizes), size).scanBlocks((b, s, e, ends) => void calls.push({ piece: Buffer.from(b.subarray(s, e)), ends }));
        expect(esc(Buffer.concat(calls.map((c) => c.piece)))).toBe(esc(input));
        calls.forEach(({ piece, ends }, i) => {
          const last = i === calls.length - 1;
          if (!ends) expect(piece.indexOf(10)).toBe(-1); // a piece of a long line
          else if (!last) expect(piece.at(-1)).toBe(10); // whole lines only
          if (ends && i > 0 && !calls[i - 1]!.ends) expect(piece.indexOf(10)).toBe(last && piece.at(-1) !== 10 ? -1 : piece.length - 1);
        });
        expect(calls.filter((c) => c.ends).length).toBeLessThanOrEqual(referenceLines(input).length + 1);
      }),
    );
  });
});

describe('lineCount', () => {
  it('is the number of lines splitLines gives, for short texts and ones the kernel counts (2 KiB on)', () => {
    for (const t of ['', '\n', 'a', 'a\n', 'a\r\nb', '\n\n\r', 'x'.repeat(5000), `${'ab\n'.repeat(2000)}tail`, '\n'.repeat(4096)]) {
      expect(lineCount(Buffer.from(t, 'latin1')), JSON.stringify(t.slice(0, 20))).toBe(splitLines(Buffer.from(t, 'latin1')).length);
    }
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 6000 }), (bytes) => {
        expect(lineCount(bytes)).toBe(splitLines(bytes).length);
      }),
    );
  });
});
