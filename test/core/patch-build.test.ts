// A new file's content (newFileContent, written into one buffer) as the patch's lines and endings
// say, against the plain reference: each kept or added line, its own ending, none after the last
// when the hunk says "\ No newline at end of file". A changed file's content (buildContent, in
// pieces) against the one-buffer build it replaced: the same bytes, its untouched lines views, its
// lines (NewLines, for dry runs and receipts) the lines of those bytes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Applied, buildContent, newFileContent } from '../../src/core/patch/build.js';
import { FileLines } from '../../src/core/patch/file-lines.js';
import { esc } from '../helpers.js';
import { buildOneBuffer } from './patch-build-reference.js';
import type { Hunk, HunkLine } from '../../src/core/patch/types.js';

function reference(hunks: readonly Hunk[]): Buffer {
  const pieces: Buffer[] = [];
  for (const h of hunks) {
    const added = h.lines.filter((l) => l.op !== '-');
    added.forEach((l, k) => {
      pieces.push(Buffer.from(l.text, 'latin1'));
      const last = h === hunks[hunks.length - 1] && k === added.length - 1;
      if (!(last && h.newNoNewline)) pieces.push(Buffer.from(l.crlf ? '\r\n' : '\n'));
    });
  }
  return Buffer.concat(pieces);
}

const line: fc.Arbitrary<HunkLine> = fc.record({
  op: fc.constantFrom<HunkLine['op']>(' ', '+', '+', '-'),
  text: fc.string({ unit: fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c === 10 ? 13 : c)), maxLength: 8 }),
  crlf: fc.boolean(),
});
const hunk: fc.Arbitrary<Hunk> = fc.record({
  header: fc.constant('@@ -0,0 +1 @@'),
  patchLine: fc.constant(1),
  lines: fc.array(line, { maxLength: 6 }),
  oldNoNewline: fc.constant(false),
  newNoNewline: fc.boolean(),
});

describe('newFileContent', () => {
  it('property: the bytes the reference gives (latin1 bytes, CRLF, no newline at the end, removed lines left out)', () => {
    fc.assert(
      fc.property(fc.array(hunk, { maxLength: 4 }), (hunks) => {
        expect(newFileContent(hunks).equals(reference(hunks))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

/** A file line: latin1 bytes (a "\r" inside some) and its terminator; only the last may have none. */
const fileLine = fc.record({
  text: fc.string({ unit: fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c === 10 ? 0x78 : c)), maxLength: 6 }),
  eol: fc.constantFrom('\n', '\r\n', '\n'),
});
const fileOf = fc.record({ lines: fc.array(fileLine, { maxLength: 12 }), open: fc.boolean() });
/** A hunk before it is placed: lines after the last one's end (`gap`), its kinds, its added lines' text and endings. */
const hunkSpec = fc.record({
  gap: fc.nat({ max: 3 }),
  ops: fc.array(fc.constantFrom<HunkLine['op']>(' ', '-', '+'), { minLength: 1, maxLength: 6 }),
  added: fc.array(line.map((l) => ({ text: l.text, crlf: l.crlf })), { minLength: 6, maxLength: 6 }),
  oldNoNewline: fc.boolean(),
  newNoNewline: fc.boolean(),
});

/** The file's bytes, in a buffer of their own (not Node's pool, so a view of them is told by its ArrayBuffer). */
function fileBytes(f: { lines: { text: string; eol: string }[]; open: boolean }): Buffer {
  const s = f.lines.map((l, i) => l.text + (i === f.lines.length - 1 && f.open ? '' : l.eol)).join('');
  const b = Buffer.alloc(Buffer.byteLength(s, 'latin1'));
  b.write(s, 'latin1');
  return b;
}

type Spec = typeof hunkSpec extends fc.Arbitrary<infer T> ? T : never;

/** The specs placed in order on the file, as the locator gives them: sorted, apart, inside it. */
function place(file: FileLines, specs: readonly Spec[]): Applied[] {
  const out: Applied[] = [];
  let next = 0;
  for (const s of specs) {
    const at = next + s.gap;
    const length = s.ops.filter((op) => op !== '+').length;
    if (at + length > file.length) break;
    let old = at;
    let add = 0;
    const lines: HunkLine[] = s.ops.map((op) => {
      if (op === '+') return { op, ...s.added[add++]! };
      return { op, text: file.key(old++, false), crlf: false };
    });
    out.push({ hunk: { header: '@@', patchLine: 1, lines, oldNoNewline: s.oldNoNewline, newNoNewline: s.newNoNewline }, at, length });
    next = at + length;
  }
  return out;
}

/** Bytes of the pieces that are views of `b`'s own memory. */
function viewed(parts: readonly Buffer[], b: Buffer): number {
  let n = 0;
  for (const p of parts) if (p.buffer === b.buffer && p.byteOffset >= b.byteOffset && p.byteOffset + p.length <= b.byteOffset + b.length) n += p.length;
  return n;
}

describe('buildContent (pieces)', () => {
  it('property: the pieces joined are the bytes the one-buffer build gave, the untouched lines views of the file (CRLF, mixed, no final newline, hunks at the start and the end)', () => {
    fc.assert(
      fc.property(fileOf, fc.array(hunkSpec, { maxLength: 4 }), (f, specs) => {
        const file = new FileLines(fileBytes(f));
        const applied = place(file, specs);
        const got = buildContent(file, applied);
        const want = buildOneBuffer(file, applied);
        expect(esc(got.content.join())).toBe(esc(want.content));
        expect(got.content.length).toBe(want.content.length);
        expect(got.landed).toEqual(want.landed);
        expect(got.linesAfter).toBe(want.linesAfter);
        expect(got.content.parts.every((p) => p.length > 0)).toBe(true);
        // every line the patch keeps is a view of the file, never a copy
        let kept = file.text.length;
        for (const a of applied) {
          let i = a.at;
          for (const l of a.hunk.lines) {
            if (l.op === '+') continue;
            if (l.op === '-') kept -= file.start(i + 1) - file.start(i);
            i++;
          }
        }
        expect(viewed(got.content.parts, file.text)).toBe(kept);
        expect(got.content.equals(file.text)).toBe(want.content.equals(file.text));
        // its lines as the build placed them are the lines of the bytes
        const split = new FileLines(want.content);
        expect(got.lines.length).toBe(split.length);
        for (let i = 0; i < split.length; i++) expect(esc(got.lines.line(i))).toBe(esc(split.line(i)));
      }),
      { numRuns: 2000 },
    );
  });

  it('every line removed: no piece at all, an empty content', () => {
    const file = new FileLines(Buffer.from('a\r\nb\r\nc'));
    const hunk = { header: '@@', patchLine: 1, lines: ['a', 'b', 'c'].map((text) => ({ op: '-' as const, text, crlf: true })), oldNoNewline: true, newNoNewline: false };
    const got = buildContent(file, [{ hunk, at: 0, length: 3 }]);
    expect(got.content.parts).toEqual([]);
    expect(got.content.length).toBe(0);
    expect(got.content.join().length).toBe(0);
    expect(got.linesAfter).toBe(0);
    expect(got.lines.length).toBe(0);
    expect(got.lines.line(0).length).toBe(0);
  });

  it('a line added after a last line without a terminator: that line is given one, in its own lines too', () => {
    const file = new FileLines(Buffer.from('a\r\nb'));
    const hunk = { header: '@@', patchLine: 1, lines: [{ op: ' ' as const, text: 'b', crlf: false }, { op: '+' as const, text: 'c', crlf: false }], oldNoNewline: true, newNoNewline: true };
    const got = buildContent(file, [{ hunk, at: 1, length: 1 }]);
    expect(esc(got.content.join())).toBe(esc('a\r\nb\r\nc'));
    expect([0, 1, 2, 3].map((i) => esc(got.lines.line(i)))).toEqual(['a\\r\\n', 'b\\r\\n', 'c', '']);
  });

  it('a line changed in the middle: three pieces, the two stretches around it views of the file', () => {
    const text = Buffer.alloc(12);
    text.write('one\ntwo\nsix\n');
    const file = new FileLines(text);
    const hunk = { header: '@@', patchLine: 1, lines: [{ op: '-' as const, text: 'two', crlf: false }, { op: '+' as const, text: 'TWO', crlf: false }], oldNoNewline: false, newNoNewline: false };
    const got = buildContent(file, [{ hunk, at: 1, length: 1 }]);
    expect(got.content.parts.map((p) => p.toString())).toEqual(['one\n', 'TWO\n', 'six\n']);
    expect(viewed(got.content.parts, text)).toBe(8);
    expect(got.content.equals(Buffer.from('one\nTWO\nsix\n'))).toBe(true);
    expect(got.content.equals(text)).toBe(false);
  });
});
