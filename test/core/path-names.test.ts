import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fsPath, hasRawBytes, pathFromBytes, pathToBytes, quotePath, quoteRowPath, unquotePath } from '../../src/core/path-names.js';
import { esc, tempDir } from '../helpers.js';

const unquote = (s: string | Buffer) => {
  const r = unquotePath(typeof s === 'string' ? Buffer.from(s, 'utf8') : s, 0);
  return 'bad' in r ? `bad: ${r.bad}` : esc(r.bytes);
};

describe('quotePath', () => {
  it('leaves plain names as they are, UTF-8 beyond ASCII included', () => {
    for (const name of ['a.txt', 'src/app.ts', 'sub dir/b c.txt', 'café/naïve.txt', '-rf', "it's", 'a#1', '日本語.txt']) expect(quotePath(name)).toBe(name);
  });

  it('quotes what git quotes, with its escapes: tab, newline, CR, other controls, DEL, quote, backslash', () => {
    expect(quotePath('a\t3')).toBe('"a\\t3"');
    expect(quotePath('a\nb')).toBe('"a\\nb"');
    expect(quotePath('a\rb')).toBe('"a\\rb"');
    expect(quotePath('q"b')).toBe('"q\\"b"');
    expect(quotePath('back\\slash')).toBe('"back\\\\slash"');
    expect(quotePath('\x07\x08\x0b\x0c\x01\x1b\x7f')).toBe('"\\a\\b\\v\\f\\001\\033\\177"');
    expect(quotePath('a\0b')).toBe('"a\\000b"');
  });

  it('quotes a leading U+FEFF (it would read as the byte order mark of the output) and bytes that are not UTF-8, in octal', () => {
    expect(quotePath('\uFEFFbom')).toBe('"\\357\\273\\277bom"');
    expect(quotePath('x\uFEFF')).toBe('x\uFEFF');
    expect(quotePath(pathFromBytes(Buffer.from([0x78, 0xff, 0xc3])))).toBe('"x\\377\\303"');
  });

  it('quotes as git ls-files does (core.quotePath=false) every name git quotes', () => {
    const t = tempDir();
    try {
      const names = ['a\t3', 'a\nb', 'c\rd', 'q"b', 'back\\slash', '\x01x', 'x\x7f', 'plain', 'café', '-dash', '12'];
      execFileSync('git', ['init', '-q', t.dir]);
      for (const n of names) t.file(n, 'x\n');
      execFileSync('git', ['add', '--', ...names], { cwd: t.dir });
      const listed = execFileSync('git', ['-c', 'core.quotePath=false', 'ls-files'], { cwd: t.dir }).toString().split('\n').slice(0, -1);
      expect(listed.sort()).toEqual(names.map(quotePath).sort());
    } finally {
      t.cleanup();
    }
  });

  it('quotes, in rows, names that would read as a line field: digits, N#..., N[cut]', () => {
    for (const name of ['12', '007', '12#abcd', '12#', '3[cut]']) expect(quoteRowPath(name)).toBe(`"${name}"`);
    for (const name of ['12a', 'a12', '12.txt', '12 ', '[cut]', '#12']) expect(quoteRowPath(name)).toBe(name);
    expect(quotePath('12')).toBe('12'); // -l, -c and messages print it plain
  });
});

describe('unquotePath', () => {
  it('reads back every escape quotePath writes', () => {
    expect(unquote('"a\\t3"\t1\tx')).toBe('a\\t3');
    expect(unquote('"\\a\\b\\t\\n\\v\\f\\r\\"\\\\\\001\\377"')).toBe('\\x07\\x08\\t\\n\\x0b\\x0c\\r"\\\\\\x01\\xff');
  });

  it('refuses what quotePath never writes: an open quote, an unknown escape, a raw control character, octal past 377', () => {
    expect(unquote('"abc')).toMatch(/^bad: a quoted path has no closing quote/);
    expect(unquote('"a\\qb"')).toMatch(/^bad: .*unknown escape/);
    expect(unquote('"a\tb"')).toMatch(/^bad: .*raw control character/);
    expect(unquote('"\\400"')).toMatch(/^bad: .*unknown escape/);
    expect(unquote('"\\37"')).toMatch(/^bad: .*unknown escape/);
  });

  it('property: any name, quoted, reads back as its exact bytes, on one line without a tab', () => {
    const bytes = fc.uint8Array({ minLength: 1, maxLength: 24 }).filter((b) => !b.includes(0x2f) && !b.includes(0)); // a file name
    fc.assert(
      fc.property(bytes, (b) => {
        const name = pathFromBytes(b);
        expect(esc(pathToBytes(name))).toBe(esc(b));
        expect(hasRawBytes(name)).toBe(!Buffer.from(b).equals(Buffer.from(name, 'utf8')));
        for (const q of [quotePath(name), quoteRowPath(name)]) {
          expect(q).not.toMatch(/[\t\n\r]/);
          const field = Buffer.from(q, 'utf8');
          if (q === name) {
            expect(esc(field)).toBe(esc(b));
            continue;
          }
          const r = unquotePath(field, 0);
          expect('bad' in r ? r.bad : esc(r.bytes)).toBe(esc(b));
          if (!('bad' in r)) expect(r.end).toBe(field.length);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('names that are not UTF-8', () => {
  it('keep each such byte as U+DC80 + byte, which fsPath turns back into the bytes for a system call', () => {
    const b = Buffer.from([0x61, 0xff, 0xc3, 0xa9, 0xe2, 0x82]);
    const name = pathFromBytes(b);
    expect(name).toBe('a\uDCFFé\uDCE2\uDC82');
    expect(hasRawBytes(name)).toBe(true);
    expect(esc(fsPath(name) as Buffer)).toBe(esc(b));
    expect(fsPath('plain é')).toBe('plain é');
    // two names that Node would both show as "x\uFFFD" stay apart
    expect(pathFromBytes(Buffer.from([0x78, 0xfe]))).not.toBe(pathFromBytes(Buffer.from([0x78, 0xff])));
    expect(pathFromBytes(Buffer.from('x\uFFFD', 'utf8'))).toBe('x\uFFFD');
  });

  it('leave an astral character (a surrogate pair) alone', () => {
    expect(hasRawBytes('😀')).toBe(false);
    expect(esc(pathToBytes('a😀'))).toBe(esc(Buffer.from('a😀', 'utf8')));
  });
});
