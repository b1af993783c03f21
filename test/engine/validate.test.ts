// The library checks its arguments: a caller's mistake is a LinewiseError with a code and one
// clear message, never a raw TypeError, and never a wrong result (a string glob iterated by letter).
import { readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { anchorOf, grep, LinewiseError, loadEncoding, page, readLines, replace, replaceRows, replaceText } from '../../src/index.js';
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

  it('checks the rest too: anchorOf, loadEncoding, grep bufferSize, and the options the CLI passes (expectRows, writeFn)', async () => {
    // each of these was a raw TypeError (or RangeError) from deep inside
    expect(await codeOf(() => anchorOf(undefined as never))).toBe('bad-option: text must be a string or bytes (Uint8Array), not undefined');
    expect(await codeOf(() => loadEncoding(5 as never))).toBe('bad-option: encoding must be a string, not 5');
    expect(await codeOf(() => grep('x', [f], { bufferSize: 5 } as never))).toBe('bad-number: bufferSize must be at least 16, not 5');
    const edit = { start: 1, text: 'x' };
    expect(await codeOf(() => replace(f, edit, { expectRows: 5 } as never))).toBe('bad-option: expectRows must be an array of rows, not 5');
    expect(await codeOf(() => replace(f, edit, { expectRows: ['a'] } as never))).toBe('bad-option: expectRows 1 must be a row { path?, line, bytes }, not "a"');
    expect(await codeOf(() => replaceText(f, { old: 'one', new: 'x' }, { expectRows: [{ line: 1, bytes: 'one', rowNumber: 1 }] } as never))).toBe('bad-option: expectRows 1: bytes must be a Buffer, not "one"');
    expect(await codeOf(() => replaceRows([{ line: 1, text: 'x', path: f }], { expectRows: [{ path: f, line: 1, bytes: Buffer.from('one'), rowNumber: 1, alts: [{}] }] } as never))).toBe(
      'bad-option: expectRows 1: alt 1: line must be a number, not undefined',
    );
    expect(await codeOf(() => replace(f, edit, { writeFn: 'x' } as never))).toBe('bad-option: writeFn must be a function, not "x"');
    expect(readFileSync(f, 'latin1')).toBe('one\r\ntwo\r\nthree\r\n');
  });

  it('never touches the process: no signal handler, no process.kill or process.exit, even while it waits and is cancelled', async () => {
    // only what the library could use to touch the process: the test runner's own bookkeeping in
    // this worker (it may listen to other events meanwhile) is none of its doing
    const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGPIPE'];
    const listeners = () => events.map((e) => process.listenerCount(e));
    const before = listeners();
    const kill = vi.spyOn(process, 'kill');
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => {
      throw new Error('process.exit called');
    }) as never);
    const on = vi.spyOn(process, 'on');
    const once = vi.spyOn(process, 'once');
    try {
      const g = tmp.file('p.txt', 'a\nb\n');
      await grep('a', [g]);
      readLines(g, 1);
      await replace(g, { start: 1, text: 'A' });
      await replaceRows([{ path: g, line: 2, text: 'B' }], { dryRun: true });
      // a long edit cancelled midway: the library's cancel is its AbortSignal, never a signal handler
      const big = tmp.file('q.txt', 'y'.repeat(99).concat('\n').repeat(100_000));
      const c = new AbortController();
      const seen = await replace(big, { start: 99_999, text: 'z' }, { signal: c.signal, writeFn: writeThenAbort(c) } as never).catch((e: unknown) => e);
      expect(seen).toBeInstanceOf(LinewiseError);
      expect(listeners()).toEqual(before);
      // process.kill(pid, 0) only probes a lock holder; it sends nothing
      expect(kill.mock.calls.filter((c) => c[1] !== 0)).toEqual([]);
      const ours = (calls: unknown[][]) => calls.filter((c) => events.includes(String(c[0])));
      expect([exit.mock.calls.length, ours(on.mock.calls).length, ours(once.mock.calls).length]).toEqual([0, 0, 0]);
    } finally {
      for (const s of [kill, exit, on, once]) s.mockRestore();
    }
  });

  it('takes null options as the defaults, and a single glob as one glob', async () => {
    expect(page(f, null as never).lines.map((l) => l.text)).toEqual(['one', 'two', 'three']);
    writeFileSync(`${tmp.dir}/g.md`, 'two\n');
    const r = await grep('two', [tmp.dir], { glob: '*.md' });
    expect(r.lines.map((l) => [l.path.slice(tmp.dir.length), l.text])).toEqual([['/g.md', 'two']]);
  });

  it('cancels a long replace midway through its AbortSignal: aborted after its first MiB is written, the file as it was', async () => {
    const big = tmp.file('mid.txt', 'x'.repeat(99).concat('\n').repeat(200_000)); // 20 MB: many checkpoints
    const before = readFileSync(big);
    const c = new AbortController();
    const r = await replace(big, { start: 199_999, text: 'edited' }, { signal: c.signal, writeFn: writeThenAbort(c) } as never).catch((e: unknown) => e);
    expect(r).toBeInstanceOf(LinewiseError);
    expect((r as LinewiseError).message).toBe('interrupted by test; nothing was written');
    expect(readFileSync(big).equals(before)).toBe(true);
    expect(readdirSync(tmp.dir).filter((n) => n.includes('.linewise'))).toEqual([]);
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

/** A writer (the test hook of the temporary file) that aborts `c` once 1 MiB has been written: a cancel midway. */
function writeThenAbort(c: AbortController): (fd: number, b: Uint8Array, off: number, len: number) => number {
  let written = 0;
  return (fd, b, off, len) => {
    const n = writeSync(fd, b, off, len);
    written += n;
    if (written >= 1 << 20 && !c.signal.aborted) c.abort('test');
    return n;
  };
}
