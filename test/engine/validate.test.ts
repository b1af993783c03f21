// The library checks its arguments: a caller's mistake is a LinewiseError with a code and one
// clear message, never a raw TypeError, and never a wrong result (a string glob iterated by letter).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { grep, LinewiseError, page, readLines, replace, replaceRows } from '../../src/index.js';
import { tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

async function codeOf(f: () => unknown): Promise<string> {
  try {
    await f();
  } catch (e) {
    if (e instanceof LinewiseError) return `${e.code}: ${e.message}`;
    throw e;
  }
  return 'no error';
}

describe('library arguments', () => {
  const f = tmp.file('f.txt', 'one\r\ntwo\r\nthree\r\n');

  it('refuses values of the wrong type with the name of the argument', async () => {
    expect(await codeOf(() => grep(/re/ as never, [f]))).toBe('bad-option: pattern must be a string or an array of strings, not an object');
    expect(await codeOf(() => readLines(f, '2' as never))).toBe('bad-option: START must be a number, not "2"');
    expect(await codeOf(() => page(f, { limit: Number.NaN }))).toBe('bad-option: limit must be a number, not NaN');
    expect(await codeOf(() => page(f, { text: 5 as never }))).toBe('bad-option: text must be true or false, not 5');
    expect(await codeOf(() => replace(f, { start: 1, text: 5 as never }))).toBe('bad-option: text must be a string or bytes (Uint8Array), not 5');
    expect(await codeOf(() => replace(f, { start: 1, text: 'x' }, { eol: 'bogus' as never }))).toBe('bad-option: eol must be one of auto, keep, lf, crlf, not "bogus"');
    expect(await codeOf(() => replaceRows('1\tx\n' as never))).toBe('bad-option: rows must be an array of { path?, line, text }');
    expect(await codeOf(() => replace(f, [{ start: 1, text: 'a' }, { start: 0, text: 'b' }]))).toBe('bad-number: edit 2: start must be at least 1, not 0');
    expect(await codeOf(() => page(f, 'x' as never))).toBe('bad-option: options must be an object, not "x"');
    expect(readFileSync(f, 'latin1')).toBe('one\r\ntwo\r\nthree\r\n');
  });

  it('takes null options as the defaults, and a single glob as one glob', async () => {
    expect(page(f, null as never).lines.map((l) => l.text)).toEqual(['one', 'two', 'three']);
    writeFileSync(`${tmp.dir}/g.md`, 'two\n');
    const r = await grep('two', [tmp.dir], { glob: '*.md' });
    expect(r.lines.map((l) => [l.path.slice(tmp.dir.length), l.text])).toEqual([['/g.md', 'two']]);
  });

  it('cancels a replace through its AbortSignal: the file as it was, no temporary file left', async () => {
    const big = tmp.file('big.txt', 'x'.repeat(80).concat('\n').repeat(200_000)); // 16 MiB: several checkpoints
    const before = readFileSync(big);
    const c = new AbortController();
    setImmediate(() => c.abort('test'));
    expect(await codeOf(() => replace(big, { start: 199_999, text: 'edited' }, { signal: c.signal }))).toBe('interrupted: interrupted by test; nothing was written');
    expect(readFileSync(big).equals(before)).toBe(true);
    expect(readdirSync(tmp.dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
