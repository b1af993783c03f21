// Encodings through the CLI: rows are UTF-8 when a file is decoded (a UTF-16 byte order mark, or
// --encoding), terminators are kept, and what cannot be read is one clear line with exit 2.
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { esc, fixture, MARK, run, tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const UTF16_TEXT = 'hello\r\nwörld 😀\r\nlast\r\n';
const ROWS_UTF16LE = '1\\thello\\r\\n2\\tw\\xc3\\xb6rld \\xf0\\x9f\\x98\\x80\\r\\n3\\tlast\\r\\n';
const ROWS_UTF16BE = '1\\thello\\n2\\tw\\xc3\\xb6rld \\xf0\\x9f\\x98\\x80\\n3\\tlast\\n\\\\ No newline at end of file\\n';

const summary = (stdout: Buffer) => JSON.parse(stdout.toString().trim().split('\n').at(-1)!);

describe('--encoding NAME', () => {
  it('latin1: rows are UTF-8 (café), and the summary names the encoding', async () => {
    const r = await run(['readlines', fixture('latin1.txt'), '1', '--encoding', 'latin1']);
    expect(r.status).toBe(0);
    expect(esc(r.stdout)).toBe('1\\tcaf\\xc3\\xa9\\n2\\tna\\xc3\\xafve\\n');
    expect(r.stderr).toBe('');
    const j = await run(['readlines', fixture('latin1.txt'), '1', '1', '--encoding', 'ISO-8859-1', '--json']);
    expect(j.stdout.toString().split('\n')[0]).toBe(`{"type":"line","path":${JSON.stringify(fixture('latin1.txt'))},"line_number":1,"text":"café","terminator":"\\n"}`);
    expect(summary(j.stdout)).toMatchObject({ encoding: 'iso-8859-1', bom: null, invalid_at: null });
  });

  it('shift_jis reads 日本; windows-1252 reads €', async () => {
    const r = await run(['readlines', fixture('shift_jis.txt'), '1', '--encoding', 'shift_jis']);
    expect(esc(r.stdout)).toBe(esc('1\t日本\n2\t語\n'));
    const w = await run(['page', fixture('windows-1252.txt'), '--encoding', 'cp1252']);
    expect(esc(w.stdout)).toBe(esc('1\tprice: 5€\n2\t“quoted”\n'));
  });

  it('without --encoding the same files pass as their own bytes', async () => {
    const r = await run(['readlines', fixture('shift_jis.txt'), '1', '1']);
    expect(esc(r.stdout)).toBe('1\\t\\x93\\xfa\\x96{\\n');
  });

  it('an unknown name: exit 2, one line saying how to list the names, nothing on stdout', async () => {
    for (const cmd of [['readlines', fixture('latin1.txt'), '1'], ['page', fixture('latin1.txt')]]) {
      for (const name of ['klingon', 'base64']) {
        const r = await run([...cmd, '--encoding', name]);
        expect(r.status).toBe(2);
        expect(r.stdout.length).toBe(0);
        expect(r.stderr).toBe(`linewise: unknown encoding '${name}'; "linewise encodings" lists the names --encoding accepts\n`);
      }
    }
  });

  it('a name Object.prototype has (constructor, __proto__, ...): unknown, exit 2, one line', async () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf']) {
      for (const cmd of [['readlines', fixture('latin1.txt'), '1'], ['grep', 'x', fixture('latin1.txt')], ['replace', fixture('latin1.txt'), '1', '--text', 'x']]) {
        const r = await run([...cmd, '--encoding', name]);
        expect([r.status, r.stdout.length, r.stderr], name).toEqual([2, 0, `linewise: unknown encoding '${name}'; "linewise encodings" lists the names --encoding accepts\n`]);
      }
    }
  });

  it('cesu8 reads the lines there are, and no "0" after the last (iconv-lite#416)', async () => {
    for (const text of ['a\nb\n', 'a\nb', 'é😀\n']) {
      const f = tmp.file('cesu8.txt', iconv.encode(text, 'cesu8'));
      const r = await run(['readlines', f, '1', '--encoding', 'cesu8']);
      expect([r.status, esc(r.stdout), r.stderr]).toEqual([0, esc(text.split(/(?<=\n)/).map((l, i) => `${i + 1}\t${l}${l.endsWith('\n') ? '' : MARK}`).join('')), '']);
    }
  });

  it('"linewise encodings" lists each encoding with its aliases', async () => {
    const r = await run(['encodings']);
    expect(r.status).toBe(0);
    const lines = r.stdout.toString().trimEnd().split('\n');
    expect(lines).toContain('windows1252\t1252 cp1252 msansi win1252');
    expect(lines.find((l) => l.startsWith('shiftjis\t'))).toMatch(/\bsjis\b/);
    expect(lines.find((l) => l.startsWith('iso88591\t'))).toMatch(/\blatin1\b/);
    for (const l of lines) expect(l, l).toMatch(/^[a-z0-9]+\t[a-z0-9 ]*$/);
    expect(lines.map((l) => l.split('\t')[0])).not.toContain('base64');
  });

  it('page: the cap counts UTF-8 bytes, and the footer\'s command to read a cut line keeps --encoding', async () => {
    const f = tmp.file('long.latin1', Buffer.from(`${'\u00e9'.repeat(100)}\n`, 'latin1'));
    const r = await run(['page', f, '--encoding', 'latin1', '--max-bytes', '21']);
    expect(esc(r.stdout)).toBe(
      `1[cut]\\t${'\\xc3\\xa9'.repeat(9)}\\n\\n[Read 1 line (lines 1-1 of 1 total). Line 1 was cut at 18 of 201 bytes; go on inside it with: linewise page ${f} --offset 0 --max-bytes 21 --from-byte 18 --encoding latin1; or read it whole with: linewise readlines ${f} 1 1 --encoding latin1]\\n`,
    );
  });

  it('is in every reader\'s help', async () => {
    for (const cmd of ['readlines', 'page']) {
      expect((await run(['help', cmd])).stdout.toString()).toContain('--encoding <name>');
    }
  });
});

describe('byte order marks', () => {
  it('UTF-16LE with a BOM and CRLF: rows are UTF-8, \\r\\n kept, no flag needed', async () => {
    const r = await run(['readlines', fixture('utf16le-bom-crlf.txt'), '1']);
    expect(r.status).toBe(0);
    expect(esc(r.stdout)).toBe(ROWS_UTF16LE);
    const two = await run(['readlines', fixture('utf16le-bom-crlf.txt'), '2', '2']);
    expect(esc(two.stdout)).toBe('2\\tw\\xc3\\xb6rld \\xf0\\x9f\\x98\\x80\\r\\n');
    const p = await run(['page', fixture('utf16le-bom-crlf.txt'), '--limit', '2']);
    expect(esc(p.stdout)).toBe(
      '1\\thello\\r\\n2\\tw\\xc3\\xb6rld \\xf0\\x9f\\x98\\x80\\r\\n\\n[Read 2 lines (lines 1-2 of 3 total). 1 line remaining from offset 2.]\\n',
    );
    const j = await run(['page', fixture('utf16le-bom-crlf.txt'), '--json']);
    expect(summary(j.stdout)).toMatchObject({ total: 3, encoding: 'utf-16le', bom: 'utf-16le', invalid_at: null });
  });

  it('UTF-16BE with a BOM: rows are UTF-8, the last line keeps having no newline', async () => {
    const r = await run(['readlines', fixture('utf16be-bom.txt'), '1']);
    expect(esc(r.stdout)).toBe(ROWS_UTF16BE);
    const p = await run(['page', fixture('utf16be-bom.txt'), '--offset', '1', '--limit', '1']);
    expect(esc(p.stdout)).toBe(
      '2\\tw\\xc3\\xb6rld \\xf0\\x9f\\x98\\x80\\n\\n[Read 1 line (lines 2-2 of 3 total). 1 line remaining from offset 2.]\\n',
    );
    const j = await run(['readlines', fixture('utf16be-bom.txt'), '3', '--json']);
    expect(j.stdout.toString().split('\n')[0]).toContain('"text":"last","terminator":""');
    expect(summary(j.stdout)).toMatchObject({ encoding: 'utf-16be', bom: 'utf-16be' });
  });

  it('--encoding naming the BOM\'s own encoding skips the BOM; utf-16 takes the byte order from it', async () => {
    for (const name of ['utf-16le', 'UTF16LE', 'ucs-2', 'utf-16']) {
      const r = await run(['readlines', fixture('utf16le-bom-crlf.txt'), '1', '--encoding', name]);
      expect(esc(r.stdout), name).toBe(ROWS_UTF16LE);
    }
    const be = await run(['readlines', fixture('utf16be-bom.txt'), '1', '--encoding', 'utf-16']);
    expect(esc(be.stdout)).toBe(ROWS_UTF16BE);
  });

  it('a UTF-8 BOM stays out of line 1, also under --encoding utf-8 (the byte path)', async () => {
    for (const extra of [[], ['--encoding', 'utf-8'], ['--encoding', 'UTF8']]) {
      const r = await run(['readlines', fixture('bom-utf8.txt'), '1', ...extra]);
      expect(esc(r.stdout)).toBe('1\\thello\\r\\n2\\tworld\\r\\n');
      const j = await run(['readlines', fixture('bom-utf8.txt'), '1', '1', '--json', ...extra]);
      expect(summary(j.stdout)).toMatchObject({ encoding: null, bom: 'utf-8' });
    }
  });

  it('a BOM that contradicts --encoding: exit 2, one line naming the file and what to do', async () => {
    const r = await run(['readlines', fixture('utf16le-bom-crlf.txt'), '1', '--encoding', 'latin1']);
    expect(r.status).toBe(2);
    expect(r.stdout.length).toBe(0);
    expect(r.stderr).toBe(
      `linewise: ${fixture('utf16le-bom-crlf.txt')}: the file starts with a UTF-16LE byte order mark, not latin1: drop --encoding, or use --encoding utf-16le\n`,
    );
    const u8 = await run(['page', fixture('utf16be-bom.txt'), '--encoding', 'utf-8']);
    expect(u8.status).toBe(2);
    expect(u8.stderr).toMatch(/UTF-16BE byte order mark, not utf-8: .*--encoding utf-16be\n$/);
    const noMark = await run(['readlines', fixture('crlf.txt'), '1', '--encoding', 'utf-16']);
    expect(noMark.status).toBe(2);
    expect(noMark.stderr).toBe(`linewise: ${fixture('crlf.txt')}: utf-16 without a byte order mark: say which byte order, e.g. --encoding utf-16le\n`);
  });
});

describe('UTF-32 byte order marks', () => {
  it('UTF-32LE (FF FE 00 00, not UTF-16LE\'s FF FE then U+0000): rows are UTF-8, CRLF kept, no flag needed', async () => {
    const r = await run(['readlines', fixture('utf32le-bom-crlf.txt'), '1']);
    expect([r.status, esc(r.stdout), r.stderr]).toEqual([0, ROWS_UTF16LE, '']);
    const j = await run(['page', fixture('utf32le-bom-crlf.txt'), '--json']);
    expect(summary(j.stdout)).toMatchObject({ total: 3, encoding: 'utf-32le', bom: 'utf-32le', invalid_at: null });
  });

  it('UTF-32BE: rows are UTF-8, the last line keeps having no newline', async () => {
    const r = await run(['readlines', fixture('utf32be-bom.txt'), '1']);
    expect([r.status, esc(r.stdout), r.stderr]).toEqual([0, ROWS_UTF16BE, '']);
    const j = await run(['readlines', fixture('utf32be-bom.txt'), '3', '--json']);
    expect(j.stdout.toString().split('\n')[0]).toContain('"text":"last","terminator":""');
    expect(summary(j.stdout)).toMatchObject({ encoding: 'utf-32be', bom: 'utf-32be' });
  });

  it('--encoding utf-32 takes the byte order from the mark; utf-16le reads FF FE 00 00 as UTF-16LE starting with U+0000', async () => {
    for (const name of ['utf-32', 'UTF-32LE', 'ucs-4']) {
      const r = await run(['readlines', fixture('utf32le-bom-crlf.txt'), '1', '--encoding', name]);
      expect(esc(r.stdout), name).toBe(ROWS_UTF16LE);
    }
    // The rule of bom.ts: without --encoding the UTF-32 mark wins; naming UTF-16LE reads the other way.
    const f = tmp.file('nul-first16.txt', Buffer.of(0xff, 0xfe, 0x00, 0x00, 0x41, 0x00, 0x0a, 0x00));
    const as16 = await run(['readlines', f, '1', '--encoding', 'utf-16le', '-a']);
    expect([as16.status, esc(as16.stdout)]).toEqual([0, '1\\t\\x00A\\n']);
    const as32 = await run(['readlines', f, '1', '--json']);
    expect(summary(as32.stdout)).toMatchObject({ lines: 1, encoding: 'utf-32le' });
  });

  it('a UTF-32 mark under another --encoding: exit 2, one line', async () => {
    for (const name of ['utf-16be', 'latin1', 'utf-8']) {
      const r = await run(['readlines', fixture('utf32le-bom-crlf.txt'), '1', '--encoding', name]);
      expect([r.status, r.stdout.length, r.stderr]).toEqual([
        2,
        0,
        `linewise: ${fixture('utf32le-bom-crlf.txt')}: the file starts with a UTF-32LE byte order mark, not ${name}: drop --encoding, or use --encoding utf-32le\n`,
      ]);
    }
  });
});

describe('UTF-16 without a byte order mark', () => {
  it('is refused, suggesting the --encoding its NUL positions say (not -a); that --encoding reads it', async () => {
    for (const [name, enc] of [['utf16le-no-bom.txt', 'utf-16le'], ['utf16be-no-bom.txt', 'utf-16be']] as const) {
      for (const cmd of [['readlines', fixture(name), '1'], ['page', fixture(name)]]) {
        const r = await run(cmd);
        expect([r.status, r.stdout.length, r.stderr]).toEqual([
          2,
          0,
          `linewise: ${fixture(name)}: looks like ${enc.toUpperCase()} text without a byte order mark (a NUL byte in every other position); read it with --encoding ${enc}\n`,
        ]);
      }
      const ok = await run(['readlines', fixture(name), '1', '--encoding', enc]);
      expect([ok.status, esc(ok.stdout), ok.stderr]).toEqual([0, esc('1\thello\n2\twörld\n'), '']);
    }
  });

  it('UTF-32 without a mark gets its --encoding too; NULs in no such pattern keep the -a advice', async () => {
    const f = tmp.file('u32.txt', iconv.encode('hi\nthere\n', 'utf32be'));
    expect((await run(['readlines', f, '1'])).stderr).toBe(
      `linewise: ${f}: looks like UTF-32BE text without a byte order mark (NUL bytes in 3 of every 4 positions); read it with --encoding utf-32be\n`,
    );
    for (const bytes of ['abc\0def\n', '\0\0\0\0', 'a\0b\0c\0\0d\n']) {
      const b = tmp.file('bin', bytes);
      expect((await run(['readlines', b, '1'])).stderr, esc(bytes)).toBe(`linewise: ${b}: binary file (it has a NUL byte); use -a to read it as text\n`);
    }
  });
});

describe('binary detection with a codec', () => {
  it('looks for NUL in the decoded text: UTF-16 is text, a decoded U+0000 is binary unless -a', async () => {
    const f = tmp.file('nul16.txt', Buffer.concat([Buffer.of(0xff, 0xfe), Buffer.from('a\u0000b\n', 'utf16le')]));
    const r = await run(['readlines', f, '1']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`linewise: ${f}: binary file (it has a NUL byte); use -a to read it as text\n`);
    const a = await run(['readlines', f, '1', '-a']);
    expect(esc(a.stdout)).toBe('1\\ta\\x00b\\n');
    const l = await run(['readlines', fixture('nul.bin'), '1', '--encoding', 'latin1']);
    expect(l.status).toBe(2);
  });

  it('a NUL past the first 64 KiB of the file but within the decoded sniff is found', async () => {
    // 40000 UTF-16 code units: 80000 bytes, so the NUL's bytes lie past the first 64 KiB read raw.
    const body = Buffer.from(`${'x'.repeat(30000)}\u0000\n`, 'utf16le');
    const f = tmp.file('late-nul16.txt', Buffer.concat([Buffer.of(0xff, 0xfe), body]));
    expect((await run(['readlines', f, '1'])).status).toBe(2);
  });
});

describe('bytes not valid in the encoding', () => {
  it('read as U+FFFD, with one note on stderr naming the offset; exit 0', async () => {
    const f = tmp.file('bad.sjis', Buffer.from([0x93, 0xfa, 0x0a, 0x61, 0xff, 0x62, 0x0a]));
    const r = await run(['readlines', f, '1', '--encoding', 'shift_jis']);
    expect(r.status).toBe(0);
    expect(esc(r.stdout)).toBe(esc('1\t日\n2\ta\uFFFDb\n'));
    expect(r.stderr).toBe(
      `linewise: ${f}: bytes at offset 4 are not valid shift_jis; they read as U+FFFD, so these rows would not write back the same bytes\n`,
    );
    const j = await run(['page', f, '--encoding', 'shift_jis', '--json']);
    expect(summary(j.stdout)).toMatchObject({ encoding: 'shift_jis', invalid_at: 4 });
  });

  it('an odd last byte of UTF-16 is reported, counted from the start of the file', async () => {
    const f = tmp.file('odd16.txt', Buffer.of(0xff, 0xfe, 0x61, 0x00, 0x0a, 0x00, 0x62));
    const r = await run(['readlines', f, '1']);
    expect(esc(r.stdout)).toBe('1\\ta\\n2\\t\\xef\\xbf\\xbd\\n\\\\ No newline at end of file\\n');
    expect(r.stderr).toMatch(/: bytes at offset 6 are not valid utf-16le;/);
  });
});

describe('a character cut between reads', () => {
  const text = 'a日本\r\nü€😀x\n語';
  /** The text without the characters `name` lacks (ü, € or 😀 in some), encoded. */
  const encoded = (name: string): [string, Buffer] => {
    const t = text.replace(/[ü€😀]/g, (c) => (iconv.decode(iconv.encode(c, name), name) === c ? c : ''));
    return [t, iconv.encode(t, name)];
  };
  const cases: [string | undefined, string, Buffer][] = [
    ...['shift_jis', 'euc-jp', 'gbk', 'gb18030', 'big5', 'euc-kr', 'utf-16le', 'utf-16be', 'utf-32le'].map(
      (name) => [name, ...encoded(name)] as [string, string, Buffer],
    ),
    [undefined, text, Buffer.concat([Buffer.of(0xfe, 0xff), iconv.encode(text, 'utf-16be')])], // found by its BOM
  ];

  it('never breaks it, at every read boundary, in every multi-byte encoding (stdin)', async () => {
    for (const [name, decoded, bytes] of cases) {
      const want = esc(decoded.split(/(?<=\n)/).map((line, i) => `${i + 1}\t${line}${line.endsWith('\n') ? '' : MARK}`).join(''));
      const flag = name === undefined ? [] : ['--encoding', name];
      const cuttings = [[1], [2], [3]];
      for (let k = 1; k < bytes.length; k++) cuttings.push([k, bytes.length]);
      for (const stdinChunks of cuttings) {
        const r = await run(['readlines', '-', '1', ...flag], { stdin: bytes, stdinChunks });
        expect(esc(r.stdout), `${name} ${stdinChunks}`).toBe(want);
        expect(r.stderr, `${name} ${stdinChunks}`).toBe('');
      }
    }
  });
});
