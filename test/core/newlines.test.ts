import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NEWLINES_WASM } from '../../src/core/newlines-wasm.js';
import { asciiFolder, byteCount, countByIndexOf, countLF, pairSearch, simdNewlineCounter, startWriter } from '../../src/core/newlines.js';
import { compileWat, render } from '../../scripts/build-wasm.mjs';

describe('the SIMD newline counter', () => {
  it('counts exactly what indexOf counts, for every range of random bytes', () => {
    const c = simdNewlineCounter(1 << 16)!;
    expect(c).toBeDefined();
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 9000 }),
        fc.nat({ max: 9000 }),
        fc.nat({ max: 9000 }),
        fc.constantFrom(0, 0.1, 0.5, 1),
        (raw, a, b, density) => {
          // mix in "\n" bytes at the chosen density, so runs of 255+ newlines per lane occur too
          const bytes = raw.map((x, i) => ((i * 7919) % 100 < density * 100 ? 10 : x));
          c.buffer.set(bytes, 0);
          const start = Math.min(a, b, bytes.length);
          const end = Math.min(Math.max(a, b), bytes.length);
          expect(c.count(start, end)).toBe(countByIndexOf(c.buffer, start, end));
        },
      ),
    );
  });

  it('counts any byte as a loop does (byteCount), in place and through a view at an offset, none outside a kernel', () => {
    const c = simdNewlineCounter(1 << 16)!;
    const view = c.buffer.subarray(100);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 9000 }), fc.nat({ max: 9000 }), fc.nat({ max: 9000 }), fc.integer({ min: 0, max: 255 }), (raw, a, b, byte) => {
        // few byte values, so every byte counted is frequent, runs of 255+ included
        const bytes = raw.map((x) => byte ^ (x & 3));
        view.set(bytes, 0);
        const start = Math.min(a, b, bytes.length);
        const end = Math.min(Math.max(a, b), bytes.length);
        let want = 0;
        for (let i = start; i < end; i++) if (bytes[i] === byte) want++;
        expect(byteCount(view)!(start, end, byte)).toBe(want);
        expect(byteCount(c.buffer)!(start + 100, end + 100, byte)).toBe(want);
      }),
    );
    c.buffer.fill(0xab);
    expect(byteCount(c.buffer)!(0, 1 << 16, 0xab)).toBe(1 << 16);
    expect(byteCount(Buffer.alloc(10))).toBeUndefined();
  });

  it('counts a buffer made only of newlines (lane overflow guard)', () => {
    const c = simdNewlineCounter(1 << 16)!;
    c.buffer.fill(10);
    expect(c.count(0, 1 << 16)).toBe(1 << 16);
    expect(c.count(3, 5000)).toBe(4997);
  });

  it('property: fold lower-cases ASCII letters and nothing else, at any offset and length', () => {
    const folder = asciiFolder()!;
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), fc.nat(20), (bytes, at) => {
        folder.buffer.set(bytes, at);
        folder.fold(at, at + bytes.length);
        const want = Buffer.from(bytes).map((b) => (b >= 65 && b <= 90 ? b + 32 : b));
        expect([...folder.buffer.subarray(at, at + bytes.length)]).toEqual([...want]);
      }),
    );
  });

  it('property: pair finds the first position where both bytes sit at their offsets, or -1', () => {
    const c = simdNewlineCounter(1 << 16)!;
    const pair = pairSearch(c.buffer)!;
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300, size: 'max' }), fc.nat(300), fc.nat(7), fc.nat(7), fc.nat(3), fc.nat(3), (raw, from, d1, d2, x, y) => {
        // a small alphabet, so both bytes are often in place
        const bytes = raw.map((b) => 97 + (b % 4));
        c.buffer.set(bytes, 0);
        const [o1, o2] = [Math.min(d1, d2), Math.max(d1, d2)];
        const end = Math.max(0, bytes.length - o2);
        const start = Math.min(from, end);
        let want = -1;
        for (let q = start; q < end && want === -1; q++) if (bytes[q + o1] === 97 + x && bytes[q + o2] === 97 + y) want = q;
        expect(pair(start, end, o1, 97 + x, 0, o2, 97 + y, 0)).toBe(want);
      }),
    );
  });

  it('property: pair with masks finds either case of a letter and nothing else: "@" is not "`", "[" is not "{"', () => {
    const c = simdNewlineCounter(1 << 16)!;
    const pair = pairSearch(c.buffer)!;
    // bytes one 0x20 apart, letters and not: only a letter's mask is 0x20
    const ALPHABET = [...Buffer.from('aAbB@`[{kK', 'latin1'), 0xc1, 0xe1];
    const lowerLetter = (b: number) => b >= 0x61 && b <= 0x7a;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...ALPHABET), { maxLength: 300, size: 'max' }), fc.nat(300), fc.nat(7), fc.nat(7), fc.constantFrom(...ALPHABET), fc.constantFrom(...ALPHABET), fc.boolean(), (bytes, from, d1, d2, x, y, fold) => {
        c.buffer.set(bytes, 0);
        const [o1, o2] = [Math.min(d1, d2), Math.max(d1, d2)];
        const m1 = fold && lowerLetter(x) ? 0x20 : 0;
        const m2 = fold && lowerLetter(y) ? 0x20 : 0;
        const end = Math.max(0, bytes.length - o2);
        const start = Math.min(from, end);
        const either = (b: number, want: number, m: number) => b === want || (m !== 0 && b === want - 0x20);
        let want = -1;
        for (let q = start; q < end && want === -1; q++) if (either(bytes[q + o1]!, x, m1) && either(bytes[q + o2]!, y, m2)) want = q;
        expect(pair(start, end, o1, x, m1, o2, y, m2)).toBe(want);
      }),
    );
  });

  it('pair finds a hit at every place of a 16-byte vector, across two vectors and in the tail past the last', () => {
    const c = simdNewlineCounter(1 << 16)!;
    const pair = pairSearch(c.buffer)!;
    for (let at = 0; at < 50; at++) {
      c.buffer.fill(0x78, 0, 64); // "x"
      c.buffer[at] = 0x51; // "Q": o1 = 0, found as "q" with the mask
      c.buffer[at + 9] = 0x5a; // "Z": o2 = 9, so the two bytes often lie in two vectors
      expect(pair(0, 50, 0, 0x71, 0x20, 9, 0x7a, 0x20)).toBe(at);
      expect(pair(0, 50, 0, 0x71, 0, 9, 0x7a, 0)).toBe(-1); // neither is "q" or "z" without the mask
      expect(pair(0, at, 0, 0x71, 0x20, 9, 0x7a, 0x20)).toBe(-1); // end is exclusive
    }
  });

  it('starts: the position after each "\\n" plus delta, as u32, at most cap of them, resumable', () => {
    const c = simdNewlineCounter(1 << 16)!;
    const write = startWriter(c.buffer)!;
    const out = new Uint32Array(c.buffer.buffer, 1 << 15, 64);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.integer({ min: 1, max: 64 }), fc.constantFrom(0, 7, 2 ** 31 + 5, 2 ** 32 - 100), (raw, cap, delta) => {
        const bytes = raw.map((x, i) => (i % 5 === 0 || x % 3 === 0 ? 10 : x));
        c.buffer.set(bytes, 0);
        const want: number[] = [];
        for (let q = 0; q < bytes.length; q++) if (bytes[q] === 10) want.push((q + 1 + delta) % 2 ** 32);
        const got: number[] = [];
        for (let p = 0; ; ) {
          const n = write(p, bytes.length, 1 << 15, cap, delta);
          expect(n).toBeLessThanOrEqual(cap);
          got.push(...out.subarray(0, n));
          if (n < cap) break;
          // the position after the last one written, back in memory's terms
          p = (out[n - 1]! - delta + 2 ** 32) % 2 ** 32;
        }
        expect(got).toEqual(want);
      }),
    );
  });

  it('is built from newlines.wat as committed', async () => {
    expect(render(await compileWat())).toContain(NEWLINES_WASM);
  });
});

describe('countLF', () => {
  it('counts newlines in a range, short (indexOf) and long (WebAssembly SIMD, in 256 KiB steps)', () => {
    expect(countLF(Buffer.from('a\nb\n\nc'), 1, 5)).toBe(3);
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 2048, maxLength: 70000 }), fc.nat(40), fc.nat(40), (bytes, cutA, cutB) => {
        const b = Buffer.from(bytes.map((x) => (x % 7 === 0 ? 10 : x)));
        const start = Math.min(cutA, b.length);
        const end = Math.max(start, b.length - cutB);
        let want = 0;
        for (let i = start; i < end; i++) if (b[i] === 10) want++;
        expect(countLF(b, start, end)).toBe(want);
      }),
      { numRuns: 50 },
    );
    const big = Buffer.alloc((1 << 20) + 37, 'ab\n');
    expect(countLF(big, 5, big.length)).toBe(big.subarray(5).toString('latin1').split('\n').length - 1);
  });
});
