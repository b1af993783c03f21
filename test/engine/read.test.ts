// The library's readLines and page: results as data, and the same rows and errors as the CLI.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { Exit, type Line, LinewiseError, loadEncoding, page, readLines } from '../../src/index.js';
import { esc, fixture, MARK, run, tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

/** The rows the CLI would print for these lines (plain, in a pipe). */
const rows = (lines: Line[]) =>
  Buffer.concat(lines.map((l) => Buffer.concat([Buffer.from(`${l.line}${l.cut ? '[cut]' : ''}\t`), l.bytes, Buffer.from(l.cut ? '\n' : l.terminator === '' ? MARK : '')])));

/** What the library threw, in the CLI's words: status and the stderr line. */
function failure(f: () => unknown): { status: number; stderr: string } {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(LinewiseError);
    const err = e as LinewiseError;
    return { status: err.exitCode, stderr: `linewise: ${err.path}: ${err.message}\n` };
  }
  throw new Error('expected a LinewiseError');
}

const FIXTURES = ['crlf.txt', 'mixed.txt', 'no-final-newline.txt', 'lone-cr.txt', 'bom-utf8.txt', 'latin1.txt', 'content-separators.txt', 'blank.txt'];

describe('readLines', () => {
  it('returns number, bytes with terminator, text without, and the terminator', () => {
    expect(readLines(fixture('mixed.txt'), 1)).toEqual([
      { path: fixture('mixed.txt'), line: 1, bytes: Buffer.from('one\r\n'), text: 'one', terminator: '\r\n' },
      { path: fixture('mixed.txt'), line: 2, bytes: Buffer.from('two\n'), text: 'two', terminator: '\n' },
      { path: fixture('mixed.txt'), line: 3, bytes: Buffer.from('three\r\n'), text: 'three', terminator: '\r\n' },
      { path: fixture('mixed.txt'), line: 4, bytes: Buffer.from('four'), text: 'four', terminator: '' },
    ]);
  });

  it('gives text undefined where a line is not UTF-8, and its bytes verbatim', () => {
    const [l] = readLines(fixture('latin1.txt'), 1, 1);
    expect(l!.text).toBeUndefined();
    expect(esc(l!.bytes)).toBe('caf\\xe9\\n');
  });

  it('prints the same rows as `linewise readlines` for every fixture and range', async () => {
    for (const name of FIXTURES) {
      const count = readLines(fixture(name), 1).length;
      for (let start = 1; start <= count; start++) {
        for (const end of [undefined, start, count + 2]) {
          const cli = await run(['readlines', fixture(name), String(start), ...(end === undefined ? [] : [String(end)])]);
          expect(esc(rows(readLines(fixture(name), start, end))), `${name} ${start} ${end}`).toBe(esc(cli.stdout));
        }
      }
    }
  });

  it('concatenated bytes give back the file, without its byte order mark', () => {
    for (const name of FIXTURES) {
      const file = readFileSync(fixture(name));
      const body = name === 'bom-utf8.txt' ? file.subarray(3) : file;
      expect(esc(Buffer.concat(readLines(fixture(name), 1).map((l) => l.bytes))), name).toBe(esc(body));
    }
  });

  it('throws LinewiseError with the exit status and message the CLI gives', async () => {
    const cases: [string, number, number | undefined][] = [
      [fixture('crlf.txt'), 9, undefined],
      [fixture('crlf.txt'), 0, undefined],
      [fixture('crlf.txt'), 3, 2],
      [fixture('empty.txt'), 1, undefined],
      [fixture('nul.bin'), 1, undefined],
      [tmp.file('missing.txt'), 1, undefined],
      [tmp.dir, 1, undefined],
    ];
    for (const [path, start, end] of cases) {
      const cli = await run(['readlines', path, String(start), ...(end === undefined ? [] : [String(end)])]);
      expect(cli.status).toBe(Exit.usage);
      expect(failure(() => readLines(path, start, end)), `${path} ${start} ${end}`).toEqual({ status: cli.status, stderr: cli.stderr });
    }
    expect(failure(() => readLines(fixture('crlf.txt'), 1.5)).stderr).toMatch(/START must be a whole number, not "1.5"/);
    expect(failure(() => readLines(fixture('crlf.txt'), -1)).stderr).toMatch(/START must be a whole number, not "-1"/);
  });

  it('reads a file with NUL bytes when asked, as -a does', () => {
    expect(esc(readLines(fixture('nul.bin'), 1, 1, { text: true })[0]!.bytes)).toBe('abc\\x00def\\n');
  });

  it('joins a line longer than the read buffer into one Line', () => {
    const long = `${'x'.repeat(3 << 20)}\r\n`;
    const f = tmp.file('long.txt', `a\n${long}b`);
    const [l] = readLines(f, 2, 2);
    expect(l!.bytes.length).toBe(long.length);
    expect(l!.terminator).toBe('\r\n');
    expect(l!.text!.length).toBe(3 << 20);
  });
});

describe('page', () => {
  const numbered = (n: number, eol = '\n') => Array.from({ length: n }, (_, i) => `line ${i + 1}${eol}`).join('');

  it('returns the footer as data: total and the next offset, undefined at the end', () => {
    const f = tmp.file('5.txt', numbered(5, '\r\n'));
    const p = page(f, { limit: 2 });
    expect(p.lines.map((l) => [l.line, l.text, l.terminator])).toEqual([
      [1, 'line 1', '\r\n'],
      [2, 'line 2', '\r\n'],
    ]);
    expect([p.total, p.nextOffset, p.cut]).toEqual([5, 2, undefined]);
    const last = page(f, { offset: 3 });
    expect([last.lines.length, last.total, last.nextOffset]).toEqual([2, 5, undefined]);
  });

  it('following nextOffset reads every line exactly once, as the CLI footers do', async () => {
    const f = tmp.file('23.txt', numbered(23));
    const seen: number[] = [];
    for (let offset: number | undefined = 0; offset !== undefined; ) {
      const p = page(f, { offset, limit: 5 });
      const cli = await run(['page', f, '--offset', String(offset), '--limit', '5']);
      expect(cli.stdout.toString().startsWith(rows(p.lines).toString())).toBe(true);
      seen.push(...p.lines.map((l) => l.line));
      offset = p.nextOffset;
    }
    expect(seen).toEqual(Array.from({ length: 23 }, (_, i) => i + 1));
  });

  it('says when the total was not counted, and cuts a line longer than the cap', () => {
    const many = tmp.file('many.txt', numbered(100_000));
    expect(page(many, { limit: 2, countBytes: 1000 })).toMatchObject({ total: undefined, nextOffset: 2 });
    const wide = tmp.file('wide.txt', `${'y'.repeat(100)}\nz\n`);
    const p = page(wide, { maxBytes: 20 });
    expect(p.cut).toEqual({ line: 1, shown: 18, length: 101, from: 0 });
    expect(p.lines).toEqual([{ path: wide, line: 1, bytes: Buffer.from('y'.repeat(18)), text: 'y'.repeat(18), terminator: '', cut: true }]);
    expect(p.nextOffset).toBe(1);
  });

  it('gives an empty page for an empty file and throws past the end, as the CLI does', async () => {
    expect(page(fixture('empty.txt'))).toEqual({ path: fixture('empty.txt'), lines: [], total: 0, nextOffset: undefined, bom: undefined });
    const cli = await run(['page', fixture('crlf.txt'), '--offset', '3']);
    expect(failure(() => page(fixture('crlf.txt'), { offset: 3 }))).toEqual({ status: cli.status, stderr: cli.stderr });
    expect(failure(() => page(fixture('crlf.txt'), { limit: 0 })).stderr).toMatch(/limit must be at least 1, not 0/);
  });

  it('reports the byte order mark apart from line 1', () => {
    const p = page(fixture('bom-utf8.txt'));
    expect(p.bom).toBe('utf-8');
    expect(p.lines[0]!.text).toBe('hello');
  });
});

describe('encodings', () => {
  it('readLines and page decode as the CLI does: UTF-16 by its mark, --encoding NAME, rows in UTF-8', async () => {
    const cases: [string, string | undefined][] = [
      ['utf16le-bom-crlf.txt', undefined],
      ['utf16be-bom.txt', undefined],
      ['latin1.txt', 'latin1'],
      ['windows-1252.txt', 'windows-1252'],
      ['shift_jis.txt', 'shift_jis'],
    ];
    for (const [name, encoding] of cases) {
      if (encoding !== undefined) await loadEncoding(encoding);
      const flag = encoding === undefined ? [] : ['--encoding', encoding];
      const cli = await run(['readlines', fixture(name), '1', ...flag]);
      const lines = readLines(fixture(name), 1, undefined, { encoding });
      expect(esc(rows(lines)), name).toBe(esc(cli.stdout));
      expect(lines.every((l) => l.text !== undefined)).toBe(true);
      const p = page(fixture(name), { limit: 1, encoding });
      const cliPage = await run(['page', fixture(name), '--limit', '1', ...flag]);
      expect(cliPage.stdout.toString().startsWith(rows(p.lines).toString())).toBe(true);
      expect(p.bom).toBe(name.startsWith('utf16') ? name.slice(0, 7).replace('utf16', 'utf-16') : undefined);
    }
  });
});
