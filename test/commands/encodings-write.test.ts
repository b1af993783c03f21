// Encodings across the write side and grep: what the read side decodes, replace encodes back.
import * as fs from 'node:fs';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { esc, fixture, run, tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
const copy = (name: string) => tmp.file(`${Math.random().toString(36).slice(2)}-${name}`, fs.readFileSync(fixture(name)));

describe('replace with encodings', () => {
  it('writes CAFÉ back as latin1 bytes', async () => {
    const f = copy('latin1.txt');
    const r = await run(['replace', f, '1', '--text', 'CAFÉ', '--encoding', 'latin1']);
    expect(r.status).toBe(0);
    expect(esc(fs.readFileSync(f))).toBe('CAF\\xc9\\nna\\xefve\\n');
  });

  it('refuses 日本 into a latin1 file and leaves it untouched', async () => {
    const f = copy('latin1.txt');
    const before = fs.readFileSync(f);
    const r = await run(['replace', f, '1', '--text', '日本', '--encoding', 'latin1']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/latin1 cannot represent/);
    expect(r.stderr.trim().split('\n').length).toBe(1);
    expect(fs.readFileSync(f).equals(before)).toBe(true);
    expect(fs.readdirSync(tmp.dir).filter((n) => n.includes('.tmp'))).toEqual([]);
  });

  for (const name of ['utf16le-bom-crlf.txt', 'utf16be-bom.txt', 'utf32le-bom-crlf.txt', 'utf32be-bom.txt']) {
    it(`round-trips ${name} byte for byte, and a replaced line keeps the encoding and its mark`, async () => {
      const f = copy(name);
      const before = fs.readFileSync(f);
      const rows = await run(['readlines', f, '1']);
      expect(rows.status).toBe(0);
      const back = await run(['replace', f, '--rows', '-'], { stdin: rows.stdout });
      expect(back.status).toBe(0);
      expect(esc(fs.readFileSync(f))).toBe(esc(before));
      const edit = await run(['replace', f, '1', '--text', 'ÉDITÉ']);
      expect(edit.status).toBe(0);
      const after = fs.readFileSync(f);
      const mark = name.startsWith('utf32') ? 4 : 2;
      expect(esc(after.subarray(0, mark))).toBe(esc(before.subarray(0, mark))); // the same byte order mark
      const again = await run(['readlines', f, '1', '1']);
      expect(again.stdout.toString('utf8')).toMatch(/^1\tÉDITÉ\r?\n$/);
      // every other line is as it was
      const orig = (await run(['readlines', fixture(name), '2'])).stdout;
      expect(esc((await run(['readlines', f, '2'])).stdout)).toBe(esc(orig));
    });
  }

  it('writes UTF-32 into a UTF-32LE file (never UTF-16, also under -a), the mark and CRLF kept', async () => {
    for (const extra of [[], ['-a']]) {
      const f = copy('utf32le-bom-crlf.txt');
      const r = await run(['replace', f, '2', '--text', 'wörld 😀 ✓', ...extra]);
      expect([r.status, r.stderr]).toEqual([0, '']);
      const want = Buffer.concat([Buffer.of(0xff, 0xfe, 0, 0), iconv.encode('hello\r\nwörld 😀 ✓\r\nlast\r\n', 'utf32le')]);
      expect(esc(fs.readFileSync(f))).toBe(esc(want));
    }
  });

  it('refuses to rewrite a UTF-32 file whose bytes are not valid UTF-32', async () => {
    const f = tmp.file('bad32.txt', Buffer.concat([Buffer.of(0, 0, 0xfe, 0xff), iconv.encode('a\nb\n', 'utf32be'), Buffer.of(0, 0, 0xd8, 0)]));
    const before = fs.readFileSync(f);
    const r = await run(['replace', f, '1', '--text', 'x']);
    expect([r.status, r.stderr]).toEqual([
      2,
      `linewise: ${f}: bytes at offset 22 are not valid utf-32be, so writing the file back would change them; nothing was written (check --encoding)\n`,
    ]);
    expect(fs.readFileSync(f).equals(before)).toBe(true);
  });

  it('refuses to rewrite a file whose bytes are not valid in its encoding', async () => {
    const f = tmp.file('bad16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a\nb\n', 'utf16le'), Buffer.from([0x00, 0xd8, 0x41, 0x00, 0x0a, 0x00])]));
    const before = fs.readFileSync(f);
    const r = await run(['replace', f, '1', '--text', 'x']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/not valid utf-16le.*nothing was written/);
    expect(fs.readFileSync(f).equals(before)).toBe(true);
  });
});

describe('grep with encodings', () => {
  it('finds café in a latin1 file with --encoding, printing UTF-8 rows', async () => {
    const r = await run(['grep', 'café', fixture('latin1.txt'), '--encoding', 'latin1']);
    expect(r.status).toBe(0);
    expect(esc(r.stdout)).toBe(esc('1\tcafé\n'));
  });

  it('searches a UTF-16LE file by its byte order mark, CRLF kept in the rows', async () => {
    const lines = (await run(['readlines', fixture('utf16le-bom-crlf.txt'), '1'])).stdout.toString('utf8').split(/(?<=\n)/);
    const second = lines[1]!.replace(/^2\t/, '');
    const word = second.replace(/\r?\n$/, '').slice(0, 3);
    const r = await run(['grep', '-F', word, fixture('utf16le-bom-crlf.txt')]);
    expect(r.status).toBe(0);
    expect(esc(r.stdout)).toContain(esc(`\t${second}`));
  });
});
