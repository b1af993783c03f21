// The catalogue's rows for replace under faults (docs/HARDENING.md, issue 12): no implicit empty
// text, a stale guard that tells a shrunk file and an edit already applied, bounded option
// inputs, clear lines for a huge --timeout and a huge pattern, walked names that are not UTF-8.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { ReadFn } from '../../src/core/lines.js';
import { grep } from '../../src/engine/search.js';
import { esc, errorOf, run, tempDir } from '../helpers.js';
import { refusedIn, snapshot } from './refusals.js';

let t: ReturnType<typeof tempDir>;
beforeEach(() => {
  t = tempDir();
});
afterEach(() => t.cleanup());

const refused = (args: string[], want: { status: number; message: string | RegExp }, stdin?: string | Buffer) => refusedIn(t.dir, args, want, stdin);

describe('faults: new text is never implicit-empty', () => {
  const EMPTY = 'standard input is empty, so there is no new text; nothing was written (give --text TEXT or --from FILE; to delete the lines, --delete)';

  it('empty standard input (</dev/null, a command that printed nothing): exit 2, nothing written', async () => {
    t.file('f', 'a\nb\nc\n');
    await refused(['replace', 'f', '2'], { status: 2, message: EMPTY }, '');
    await refused(['replace', 'f', '2', '3'], { status: 2, message: EMPTY }, '');
    await refused(['replace', 'f', '2', '--from', '-'], { status: 2, message: EMPTY }, '');
  });

  it("--new-from - on empty standard input: exit 2, nothing written (it used to delete the old text); --new '' deletes", async () => {
    const f = t.file('f', 'a\nb\nc\n');
    const message = "standard input is empty, so there is no new text; nothing was written (give --text TEXT or --from FILE; to delete the old text, --new '')";
    await refused(['replace', 'f', '--old', 'b', '--new-from', '-'], { status: 2, message }, '');
    await refused(['replace', 'f', '--old', 'b\n', '--new-from', '-'], { status: 2, message });
    expect((await run(['replace', 'f', '--old', 'b\n', '--new', ''], { cwd: t.dir })).status).toBe(0);
    expect(esc(fs.readFileSync(f))).toBe('a\\nc\\n');
  });

  it('deleting is said: --delete, or --text \'\'', async () => {
    const f = t.file('f', 'a\r\nb\r\nc\r\n');
    expect((await run(['replace', 'f', '2', '--delete'], { cwd: t.dir })).status).toBe(0);
    expect(esc(fs.readFileSync(f))).toBe('a\\r\\nc\\r\\n');
    expect((await run(['replace', 'f', '1', '--text', ''], { cwd: t.dir })).status).toBe(0);
    expect(esc(fs.readFileSync(f))).toBe('c\\r\\n');
  });

  it('--delete with other new text, or with --rows: exit 2', async () => {
    t.file('f', 'a\n');
    await refused(['replace', 'f', '1', '--delete', '--text', 'x'], { status: 2, message: 'give the new text once: --text, --from or --delete' });
    await refused(['replace', 'f', '--rows', '-', '--delete'], { status: 2, message: '--rows brings its own text; --text, --from and --delete apply to a range' }, '1\tx\n');
  });

  it('standard input that holds text is the new text', async () => {
    const f = t.file('f', 'a\nb\n');
    const r = await run(['replace', 'f', '2'], { cwd: t.dir, stdin: 'B\n' });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(fs.readFileSync(f, 'utf8')).toBe('a\nB\n');
  });
});

describe('faults: the stale guard', () => {
  it('a file that shrank under --expect: exit 3 (stale), not exit 2 (past the end)', async () => {
    const f = t.file('f', 'a\nb\nc\nd\n');
    t.file('before', (await run(['readlines', f, '4'])).stdout);
    fs.writeFileSync(f, 'a\nb\nc\n');
    await refused(['replace', 'f', '4', '--text', 'D', '--expect', 'before'], {
      status: 3,
      message: 'f: stale edit: line 4 no longer holds the text read (past the end now: 4); nothing was written; the current lines are on stdout: read again and retry',
    });
  });

  it('an edit already applied: exit 0, nothing written (the file not even rewritten), said on stderr and in --json', async () => {
    const f = t.file('f', 'a\nold1\r\nold2\r\nz\n');
    t.file('before', (await run(['readlines', f, '2', '3'])).stdout);
    const edit = ['replace', 'f', '2', '3', '--text', 'new1\nnew2\nnew3\n', '--expect', 'before'];
    expect(await run(edit, { cwd: t.dir })).toMatchObject({ status: 0, stderr: '' });
    expect(esc(fs.readFileSync(f))).toBe('a\\nnew1\\r\\nnew2\\r\\nnew3\\r\\nz\\n');
    const before = snapshot(t.dir);
    const ino = fs.statSync(f).ino;
    const again = await run(edit, { cwd: t.dir });
    expect([again.status, again.stderr, esc(again.stdout)]).toEqual([0, 'linewise: f: already applied: the lines already hold the new text; nothing was written\n', '']);
    const json = await run([...edit, '--json'], { cwd: t.dir });
    expect(json.status).toBe(0);
    expect(JSON.parse(json.stdout.toString().split('\n')[0]!)).toMatchObject({ type: 'file', path: 'f', changed: false, written: false, already_applied: true });
    expect(snapshot(t.dir)).toEqual(before);
    expect(fs.statSync(f).ino).toBe(ino);
  });

  it('a batch cut short and run again: the file already written is "already applied", the other is written, exit 0', async () => {
    const a = t.file('a', 'x\ny\n');
    const b = t.file('b', 'p\nq\n');
    t.file('hits', 'a\t1\tx\nb\t2\tq\n');
    t.file('edits', 'a\t1\tX\nb\t2\tQ\n');
    // the first run wrote a, then the machine went down before b
    expect((await run(['replace', '--rows', '-'], { cwd: t.dir, stdin: 'a\t1\tX\n' })).status).toBe(0);
    const r = await run(['replace', '--rows', 'edits', '--expect', 'hits'], { cwd: t.dir });
    expect([r.status, r.stderr]).toEqual([0, 'linewise: a: already applied: the lines already hold the new text; nothing was written\n']);
    expect([fs.readFileSync(a, 'utf8'), fs.readFileSync(b, 'utf8')]).toEqual(['X\ny\n', 'p\nQ\n']);
  });

  it('a batch cut short between keeping an original and its rename (simulated: the .orig linked): the re-run names the leftover; once removed, it runs', async () => {
    const a = t.file('a', 'x\ny\n');
    t.file('b', 'p\nq\n');
    fs.linkSync(a, path.join(t.dir, '.a.linewise-0123456789abcdef.orig')); // what a crash at that instant leaves
    const message = `a: has 2 hard links: ${fs.realpathSync(t.dir)}/.a.linewise-0123456789abcdef.orig is its original, kept by a linewise batch that was cut short (a crash or SIGKILL between two renames) and never removed; remove it and run the edit again`;
    await refused(['replace', '--rows', '-'], { status: 2, message }, 'a\t1\tX\nb\t2\tQ\n');
    fs.rmSync(path.join(t.dir, '.a.linewise-0123456789abcdef.orig'));
    expect((await run(['replace', '--rows', '-'], { cwd: t.dir, stdin: 'a\t1\tX\nb\t2\tQ\n' })).status).toBe(0);
    expect(fs.readFileSync(a, 'utf8')).toBe('X\ny\n');
  });

  it('a line changed by someone else is still stale (exit 3, the current row on stdout), and so is a deletion run again', async () => {
    const f = t.file('f', 'a\nb\nc\n');
    t.file('before', (await run(['readlines', f, '2', '2'])).stdout);
    fs.writeFileSync(f, 'a\nSOMEONE\nc\n');
    const stale = 'linewise: f: stale edit: line 2 no longer holds the text read; nothing was written; the current lines are on stdout: read again and retry\n';
    const r = await run(['replace', 'f', '2', '--text', 'B', '--expect', 'before'], { cwd: t.dir });
    expect([r.status, r.stderr, esc(r.stdout)]).toEqual([3, stale, '2\\tSOMEONE\\n']);
    expect(fs.readFileSync(f, 'utf8')).toBe('a\nSOMEONE\nc\n');
    // a deletion leaves nothing to recognise: run again, it cannot tell itself from a change
    fs.writeFileSync(f, 'a\nb\nc\n');
    expect((await run(['replace', 'f', '2', '--delete', '--expect', 'before'], { cwd: t.dir })).status).toBe(0);
    const d = await run(['replace', 'f', '2', '--delete', '--expect', 'before'], { cwd: t.dir });
    expect([d.status, d.stderr, esc(d.stdout)]).toEqual([3, stale, '2\\tc\\n']);
    expect(fs.readFileSync(f, 'utf8')).toBe('a\nc\n');
  });
});

describe('faults: option inputs are files, and bounded', () => {
  it('--from, --rows, --expect naming a device: refused before a byte is read', async () => {
    t.file('f', 'a\n');
    await refused(['replace', 'f', '1', '--from', '/dev/zero'], { status: 2, message: '/dev/zero: is a character device, not a file: --from reads a regular file (or - for standard input)' });
    await refused(['replace', 'f', '--rows', '/dev/zero'], { status: 2, message: '/dev/zero: is a character device, not a file: --rows reads a regular file (or - for standard input)' });
    await refused(['replace', 'f', '1', '--text', 'x', '--expect', '/dev/urandom'], { status: 2, message: '/dev/urandom: is a character device, not a file: --expect reads a regular file (or - for standard input)' });
  });

  it('a FIFO named where a file was meant: refused without waiting for a writer', async () => {
    t.file('f', 'a\n');
    spawnSync('mkfifo', [path.join(t.dir, 'p')]);
    await refused(['replace', 'f', '1', '--from', 'p'], { status: 2, message: 'p: is a named pipe, not a file: --from reads a regular file (or - for standard input)' });
    await refused(['replace', 'f', '1', '--text', 'x', '--expect', 'p'], { status: 2, message: 'p: is a named pipe, not a file: --expect reads a regular file (or - for standard input)' });
  });

  it('an endless standard input: --from - and --rows - stop at 64 MiB, one clear line', async () => {
    t.file('f', 'a\n');
    for (const [args, cap, message] of [
      [['replace', 'f', '1', '--from', '-'], 64, '<stdin>: --from holds more than 64 MiB, more than one edit may bring; edit the file in several calls'],
      [['replace', 'f', '--rows', '-'], 64, '<stdin>: --rows holds more than 64 MiB, more than one edit may bring; split the rows into several calls (each call is all or nothing)'],
    ] as const) {
      let read = 0;
      const endless: ReadFn = (buf, offset, length) => {
        buf.fill(0x31, offset, offset + length); // "1111..." never ends
        read += length;
        return length;
      };
      const err: Buffer[] = [];
      const status = await main([...args], { stdout: { isTTY: false, write() {} }, stderr: { isTTY: false, write: (b) => void err.push(Buffer.from(b)) }, stdin: endless, stdinIsTTY: false, env: {}, cwd: t.dir });
      expect([status, Buffer.concat(err).toString()]).toEqual([2, `linewise: ${message}\n`]);
      expect(read).toBeLessThanOrEqual(2 * cap * 2 ** 20);
      expect(fs.readFileSync(path.join(t.dir, 'f'), 'utf8')).toBe('a\n');
    }
  });

  it('more than a million rows (once capped there: they took 0.8 GB, now a few bytes each, see bench group replace): refused whole, or applied whole', async () => {
    const n = 1_000_001;
    const lines = (f: (i: number) => string) => Buffer.from(Array.from({ length: n }, (_, i) => f(i + 1)).join(''));
    // as many rows for one line clash: refused before the file is read
    t.file('f', 'a\n');
    await refused(['replace', 'f', '--rows', '-'], { status: 2, message: 'f: row 1 (line 1) and row 2 (line 1) both edit the same lines; every line may be edited once per call' }, Buffer.from('1\tx\n'.repeat(n)));
    // as many rows to apply (a file) and as many rows read, the guard (standard input)
    const f = t.file('f', lines((i) => `l${i}\n`));
    t.file('rows', lines((i) => `${i}\tL${i}\n`));
    const r = await run(['replace', 'f', '--rows', 'rows', '--expect', '-'], { cwd: t.dir, stdin: lines((i) => `${i}\tl${i}\n`) });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(fs.readFileSync(f).equals(lines((i) => `L${i}\n`))).toBe(true);
    // 10 s alone on 2 cores, past 120 s at a load average of 15: a million rows, three times over
  }, 300_000);
});

describe('faults: clear lines', () => {
  it('--timeout past what node:vm can bound: exit 2, one line (CLI and library)', async () => {
    t.file('f', 'x\n');
    await refused(['grep', 'x', 'f', '--timeout', '4294968'], { status: 2, message: "option '--timeout <seconds>' argument '4294968' is invalid. --timeout must be at most 4294967, not 4294968" });
    expect((await run(['grep', 'x', 'f', '--timeout', '4294967'], { cwd: t.dir })).status).toBe(0);
    await expect(grep('x', [path.join(t.dir, 'f')], { timeout: 4294968 })).rejects.toThrow('timeout must be at most 4294967 seconds (about 49 days), not 4294968; 0 means no bound');
  });

  it('an invalid 80 KB pattern, or a huge line number: the message is cut, not an echo of the input', async () => {
    t.file('f', 'x\n');
    const stderr = await refused(['grep', '('.repeat(80_000), 'f'], { status: 2, message: /^invalid pattern "\(+"\.\.\. \(80000 characters\): .{1,120}$/ });
    expect(stderr.length).toBeLessThan(300);
    await refused(['readlines', 'f', '1'.repeat(50_000)], { status: 2, message: `START ${'1'.repeat(40)}... (50000 digits) is too large` });
    await refused(['readlines', 'f', 'x'.repeat(50_000)], { status: 2, message: `START must be a whole number, not "${'x'.repeat(40)}"... (50000 characters)` });
  });

  it('raw system messages become one plain line: "description (CODE)"', async () => {
    const { fileError } = await import('../../src/io/input.js');
    expect(errorOf(() => {
      throw fileError(Object.assign(new Error("EBADF: bad file descriptor, read"), { code: 'EBADF' }), 'f');
    })).toBe('ebadf: bad file descriptor (EBADF)');
    expect(errorOf(() => {
      throw fileError(Object.assign(new Error("EBUSY: resource busy or locked, rename 'a' -> 'b'"), { code: 'EBUSY' }), 'f');
    })).toBe('ebusy: resource busy (a mount point?)');
  });
});

describe('faults: walked names that are not UTF-8', () => {
  it('two names differing only in invalid bytes: each searched once', async () => {
    const dir = Buffer.from(t.dir);
    fs.writeFileSync(Buffer.concat([dir, Buffer.from('/a\xff.txt', 'latin1')]), 'hello one\n');
    fs.writeFileSync(Buffer.concat([dir, Buffer.from('/a\xfe.txt', 'latin1')]), 'hello two\n');
    fs.mkdirSync(Buffer.concat([dir, Buffer.from('/d\xff', 'latin1')]));
    fs.writeFileSync(Buffer.concat([dir, Buffer.from('/d\xff/x', 'latin1')]), 'hello three\n');
    const r = await run(['grep', 'hello'], { cwd: t.dir });
    expect([r.status, r.stderr]).toEqual([0, '']);
    const rows = r.stdout.toString().split('\n').filter(Boolean).map((l) => l.split('\t').at(-1));
    expect(rows.sort()).toEqual(['hello one', 'hello three', 'hello two']);
  });
});
