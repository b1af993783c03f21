// The catalogue of bad input (docs/HARDENING.md): each case checks one line on stderr, the
// documented exit status, and every file of the directory byte-identical, no temporary file left.

import { checkRefusal, type Refusal, refusedIn, snapshot } from './refusals.js';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { esc, fixture, run, tempDir } from '../helpers.js';

const BIN = fileURLToPath(new URL('../../bin/linewise.js', import.meta.url));

let t: ReturnType<typeof tempDir>;
beforeEach(() => {
  t = tempDir();
});
afterEach(() => {
  // a read-only directory of a case must not stop the cleanup
  for (const e of fs.readdirSync(t.dir, { recursive: true }) as string[]) {
    const p = path.join(t.dir, e);
    if (fs.lstatSync(p).isDirectory()) fs.chmodSync(p, 0o755);
  }
  t.cleanup();
});

/** Runs linewise in-process and checks the refusal: status, one line, nothing on stdout, disk as before. */
function refused(args: string[], want: Refusal, stdin?: string | Buffer): Promise<string> {
  return refusedIn(t.dir, args, want, stdin);
}

describe('catalogue: what is named is not a readable file', () => {
  it('a missing file: exit 2, "no such file or directory", for every subcommand', async () => {
    for (const args of [['readlines', 'nope', '1'], ['page', 'nope'], ['grep', 'x', 'nope'], ['replace', 'nope', '1', '--text', 'x']]) {
      await refused(args, { status: 2, message: 'nope: no such file or directory' });
    }
  });

  it('a directory: exit 2 for readers and replace', async () => {
    fs.mkdirSync(path.join(t.dir, 'd'));
    await refused(['readlines', 'd', '1'], { status: 2, message: 'd: is a directory, not a file' });
    await refused(['page', 'd'], { status: 2, message: 'd: is a directory, not a file' });
    await refused(['replace', 'd', '1', '--text', 'x'], { status: 2, message: 'd: is a directory, not a regular file; only regular files can be edited' });
  });

  it('a FIFO: readers read it (as <(cmd)); replace refuses it without opening it', async () => {
    const fifo = path.join(t.dir, 'p');
    execFileSync('mkfifo', [fifo]);
    await refused(['replace', 'p', '1', '--text', 'x'], { status: 2, message: 'p: is a named pipe, not a regular file; only regular files can be edited' });
    // A writer in another process; the in-process open waits for it.
    const writer = spawn('sh', ['-c', `printf 'one\\r\\ntwo' > "$0"`, fifo]);
    const r = await run(['readlines', fifo, '2']);
    await new Promise((resolve) => writer.on('exit', resolve));
    expect([r.status, esc(r.stdout), r.stderr]).toEqual([0, '2\\ttwo\\n\\\\ No newline at end of file\\n', '']);
  });

  it('a device: /dev/zero and /dev/null are refused by readers (nothing streams forever) and by replace', async () => {
    for (const dev of ['/dev/zero', '/dev/null']) {
      await refused(['readlines', dev, '1'], { status: 2, message: `${dev}: is a character device, not a file` });
      await refused(['page', dev], { status: 2, message: `${dev}: is a character device, not a file` });
      await refused(['grep', 'x', dev], { status: 2, message: `${dev}: is a character device, not a file` });
      await refused(['replace', dev, '1', '--text', 'x'], { status: 2, message: `${dev}: is a character device, not a regular file; only regular files can be edited` });
    }
  });

  it('a symbolic link to a missing file: exit 2, and replace does not create the file', async () => {
    fs.symlinkSync('missing', path.join(t.dir, 'dangling'));
    await refused(['readlines', 'dangling', '1'], { status: 2, message: 'dangling: no such file or directory' });
    await refused(['replace', 'dangling', '1', '--text', 'x'], { status: 2, message: 'dangling: no such file or directory' });
    await refused(['replace', 'dangling', '--rows', '-'], { status: 2, message: 'dangling: no such file or directory' }, '1\tx\n');
  });

  it('a symbolic link loop: exit 2, "too many levels of symbolic links"', async () => {
    fs.symlinkSync('loop2', path.join(t.dir, 'loop1'));
    fs.symlinkSync('loop1', path.join(t.dir, 'loop2'));
    await refused(['readlines', 'loop1', '1'], { status: 2, message: 'loop1: too many levels of symbolic links' });
    await refused(['replace', 'loop1', '1', '--text', 'x'], { status: 2, message: 'loop1: too many levels of symbolic links' });
  });

  it('a NUL byte in a path: exit 2 with a plain message (not Node\'s), for readers, grep and replace', async () => {
    const message = '"a\\000b": the path holds a NUL byte, which no file name can hold'; // quoted, as every path with a control character
    await refused(['readlines', 'a\0b', '1'], { status: 2, message });
    await refused(['grep', 'x', 'a\0b'], { status: 2, message });
    await refused(['replace', 'a\0b', '1', '--text', 'x'], { status: 2, message });
  });

  it('a file name too long: exit 2', async () => {
    const long = 'x'.repeat(300);
    await refused(['readlines', long, '1'], { status: 2, message: `${long}: file name too long` });
  });

  it('a binary file (NUL byte): exit 2 for readers and replace, without -a', async () => {
    t.file('bin', 'a\0b\n');
    await refused(['readlines', 'bin', '1'], { status: 2, message: 'bin: binary file (it has a NUL byte); use -a to read it as text' });
    await refused(['replace', 'bin', '1', '--text', 'x'], { status: 2, message: 'bin: binary file (it has a NUL byte); use -a to read it as text' });
  });
});

describe('catalogue: arguments', () => {
  beforeEach(() => {
    t.file('f', 'a\r\nb\n');
  });

  it('huge numbers as line arguments: exit 2, "too large"', async () => {
    const huge = '99999999999999999999';
    await refused(['readlines', 'f', huge], { status: 2, message: `START ${huge} is too large` });
    await refused(['readlines', 'f', '1', huge], { status: 2, message: `END ${huge} is too large` });
    await refused(['replace', 'f', huge, '--text', 'x'], { status: 2, message: `START ${huge} is too large` });
    await refused(['page', 'f', '--offset', huge], { status: 2, message: `option '--offset <k>' argument '${huge}' is invalid. --offset ${huge} is too large` });
    await refused(['replace', 'f', '--rows', '-'], { status: 2, message: `<stdin>: row 1: line number ${huge} is out of range` }, `${huge}\tx\n`);
  });

  it('a line past the end (but a safe number): exit 2 naming the line count', async () => {
    await refused(['readlines', 'f', '9007199254740991'], { status: 2, message: 'f: line 9007199254740991 is past the end: the file has 2 lines' });
    await refused(['replace', 'f', '9', '--text', 'x'], { status: 2, message: /^f: .*the file has 2 lines/ });
  });

  it('negative numbers, fractions, hex and empty strings as line arguments: exit 2', async () => {
    await refused(['readlines', 'f', '-1'], { status: 2, message: 'START must be a whole number, not "-1"' });
    await refused(['readlines', 'f', '1', '-5'], { status: 2, message: 'END must be a whole number, not "-5"' });
    await refused(['readlines', 'f', '1.5'], { status: 2, message: 'START must be a whole number, not "1.5"' });
    await refused(['readlines', 'f', '0x10'], { status: 2, message: 'START must be a whole number, not "0x10"' });
    await refused(['readlines', 'f', ''], { status: 2, message: 'START must be a whole number, not ""' });
    await refused(['replace', 'f', '-1', '--text', 'x'], { status: 2, message: 'line numbers and counts are never negative: -1' });
    await refused(['page', 'f', '--limit', '-1'], { status: 2, message: `option '--limit <n>' argument '-1' is invalid. --limit must be a whole number from 1, not "-1"` });
    await refused(['replace', 'f', '--rows', '-'], { status: 2, message: /^<stdin>: row 1: not a row/ }, '-1\tx\n');
    await refused(['replace', 'f', '--rows', '-'], { status: 2, message: '<stdin>: row 1: line number 0 is out of range' }, '0\tx\n');
  });

  it('an unknown option: exit 2, one line', async () => {
    for (const sub of ['readlines', 'page', 'grep', 'replace']) {
      await refused([sub, '--bogus', 'f'], { status: 2, message: "unknown option '--bogus'" });
    }
  });

  it('a pattern that does not compile: exit 2', async () => {
    await refused(['grep', '(', 'f'], { status: 2, message: 'invalid pattern "(": unclosed group: a "(" without its ")" (escape it as \\( for a literal parenthesis)' });
    await refused(['grep', '-e', 'a', '-e', '[', 'f'], { status: 2, message: /^invalid pattern "\[": / });
  });

  it('an empty rows input: exit 0, a note, nothing written', async () => {
    const before = snapshot(t.dir);
    const mtime = fs.statSync(path.join(t.dir, 'f')).mtimeMs;
    for (const rows of ['', '\n']) {
      const r = await run(['replace', 'f', '--rows', '-'], { cwd: t.dir, stdin: rows });
      if (rows === '') {
        expect([r.status, r.stderr]).toEqual([0, 'linewise: no rows to apply; nothing written\n']);
      } else {
        // A blank line alone is not a row (it only precedes a page footer).
        expect(r.status).toBe(2);
        expect(r.stderr.split('\n')).toHaveLength(2);
      }
    }
    expect(snapshot(t.dir)).toEqual(before);
    expect(fs.statSync(path.join(t.dir, 'f')).mtimeMs).toBe(mtime);
  });

  it('rows with Windows line endings themselves: each line keeps the ending of the line it replaces', async () => {
    // f is "a\r\nb\n": CRLF rows fed back change nothing; edited CRLF rows keep f's own endings.
    const same = await run(['replace', 'f', '--rows', '-'], { cwd: t.dir, stdin: '1\ta\r\n2\tb\r\n' });
    expect([same.status, same.stderr, esc(fs.readFileSync(path.join(t.dir, 'f')))]).toEqual([0, '', 'a\\r\\nb\\n']);
    const edited = await run(['replace', 'f', '--rows', '-'], { cwd: t.dir, stdin: '1\tA\r\n2\tB\r\n' });
    expect([edited.status, edited.stderr, esc(fs.readFileSync(path.join(t.dir, 'f')))]).toEqual([0, '', 'A\\r\\nB\\n']);
    expect(fs.readdirSync(t.dir)).toEqual(['f']);
  });

  it('rows naming the same file twice through different paths (./f, a link): exit 2 when they clash', async () => {
    fs.symlinkSync('f', path.join(t.dir, 'link'));
    await refused(['replace', '--rows', '-'], { status: 2, message: /^(\.\/)?f: .*line 1/ }, 'f\t1\tX\n./f\t1\tY\n');
    await refused(['replace', '--rows', '-'], { status: 2, message: /line 2/ }, 'f\t2\tX\nlink\t2\tY\n');
  });

  it('rows for a missing file next to a good one: exit 2, nothing written in either', async () => {
    await refused(['replace', '--rows', '-'], { status: 2, message: 'missing: no such file or directory' }, 'f\t1\tX\nmissing\t1\tY\n');
  });

  it('--from a missing file, and stdin as the target: exit 2', async () => {
    await refused(['replace', 'f', '1', '--from', 'nope'], { status: 2, message: 'nope: no such file or directory' });
    await refused(['replace', '-', '1', '--text', 'x'], { status: 2, message: '-: standard input cannot be edited in place; name a file' });
  });
});

describe('catalogue: encodings', () => {
  const copy = (name: string) => t.file(name, fs.readFileSync(fixture(name)));

  it('a UTF-32 file with its byte order mark: read as UTF-8 rows; replace writes UTF-32 after the same mark, also under -a', async () => {
    for (const [name, le] of [['utf32le-bom-crlf.txt', true], ['utf32be-bom.txt', false]] as const) {
      const f = copy(name);
      const r = await run(['readlines', f, '1', '1']);
      expect([r.status, esc(r.stdout), r.stderr]).toEqual([0, le ? '1\\thello\\r\\n' : '1\\thello\\n', '']);
      for (const extra of [[], ['-a']]) {
        const w = await run(['replace', f, '1', '--text', 'héllo', ...extra]);
        expect([w.status, w.stderr]).toEqual([0, '']);
        const want = Buffer.concat([fs.readFileSync(fixture(name)).subarray(0, 4), iconv.encode('h\u00e9llo', le ? 'utf32le' : 'utf32be')]);
        expect(esc(fs.readFileSync(f).subarray(0, want.length))).toBe(esc(want));
        expect(esc(fs.readFileSync(f).subarray(want.length))).toBe(esc(fs.readFileSync(fixture(name)).subarray(4 + 5 * 4)));
      }
    }
    expect(fs.readdirSync(t.dir).sort()).toEqual(['utf32be-bom.txt', 'utf32le-bom-crlf.txt']);
  });

  it('a UTF-32 byte order mark under another --encoding: exit 2, nothing written', async () => {
    copy('utf32le-bom-crlf.txt');
    const message = 'utf32le-bom-crlf.txt: the file starts with a UTF-32LE byte order mark, not latin1: drop --encoding, or use --encoding utf-32le';
    await refused(['readlines', 'utf32le-bom-crlf.txt', '1', '--encoding', 'latin1'], { status: 2, message });
    await refused(['replace', 'utf32le-bom-crlf.txt', '1', '--text', 'x', '--encoding', 'latin1'], { status: 2, message });
  });

  it('--encoding constructor (a name Object.prototype has): unknown encoding, exit 2', async () => {
    t.file('f', 'a\n');
    for (const name of ['constructor', '__proto__', 'hasOwnProperty']) {
      const message = `unknown encoding '${name}'; "linewise encodings" lists the names --encoding accepts`;
      await refused(['readlines', 'f', '1', '--encoding', name], { status: 2, message });
      await refused(['replace', 'f', '1', '--text', 'x', '--encoding', name], { status: 2, message });
    }
  });

  it('--encoding cesu8: the lines there are, no invented last line; replace writes CESU-8 back', async () => {
    const f = t.file('f', iconv.encode('a\n😀\n', 'cesu8'));
    const r = await run(['readlines', f, '1', '--encoding', 'cesu8']);
    expect([r.status, esc(r.stdout), r.stderr]).toEqual([0, esc('1\ta\n2\t😀\n'), '']);
    const w = await run(['replace', f, '1', '--text', 'é', '--encoding', 'cesu8']);
    expect([w.status, w.stderr]).toEqual([0, '']);
    expect(esc(fs.readFileSync(f))).toBe(esc(iconv.encode('é\n😀\n', 'cesu8')));
  });

  it('UTF-16 without a byte order mark: exit 2, suggesting the --encoding its NUL positions say', async () => {
    for (const [name, enc] of [['utf16le-no-bom.txt', 'utf-16le'], ['utf16be-no-bom.txt', 'utf-16be']] as const) {
      copy(name);
      const message = `${name}: looks like ${enc.toUpperCase()} text without a byte order mark (a NUL byte in every other position); read it with --encoding ${enc}`;
      await refused(['readlines', name, '1'], { status: 2, message });
      await refused(['replace', name, '1', '--text', 'x'], { status: 2, message });
    }
  });
});

describe('catalogue: the file changes under replace (writeFn injects the change mid-write)', () => {
  // replace streams: its first write to the temporary file happens while the target is being read.
  const big = Array.from({ length: 20000 }, (_, i) => `line ${i + 1}\r\n`).join('');

  async function changedDuring(change: (target: string) => void): Promise<{ stderr: string; status: number }> {
    const target = t.file('f', big);
    let once = false;
    const { replace } = await import('../../src/commands/replace.js');
    const { Output } = await import('../../src/io/output.js');
    const errs: string[] = [];
    const sink = { isTTY: false, write: (b: Uint8Array) => errs.push(Buffer.from(b).toString()) };
    const io = { stdout: sink, stderr: sink, stdin: () => 0, stdinIsTTY: false, env: {}, cwd: t.dir };
    const ctx = { io, out: new Output(sink), rowStyle: (await import('../../src/format/style.js')).plain, noteStyle: (await import('../../src/format/style.js')).plain, warn: () => {}, failed: () => {} };
    try {
      await replace(ctx as never, 'f', '5', undefined, {
        text: 'FIVE',
        eol: 'auto',
        writeFn: (fd, buf, off, len) => {
          if (!once) {
            once = true;
            change(target);
          }
          return fs.writeSync(fd, buf, off, len);
        },
      });
      return { status: 0, stderr: '' };
    } catch (e) {
      const err = e as { exitCode: number; message: string; path?: string };
      return { status: err.exitCode, stderr: `linewise: ${err.path}: ${err.message}\n` };
    }
  }

  const want = { status: 3, message: 'f: the file changed while the edit was prepared; nothing was written (read it again and retry)' };

  it('a file that grows while replace reads it: exit 3, the other writer\'s bytes kept', async () => {
    const r = await changedDuring((p) => fs.appendFileSync(p, 'appended\n'));
    checkRefusal(r.status, Buffer.alloc(0), r.stderr, want);
    expect(fs.readFileSync(path.join(t.dir, 'f'), 'latin1')).toBe(`${big}appended\n`);
    expect(fs.readdirSync(t.dir)).toEqual(['f']);
  });

  it('a file that shrinks while replace reads it: exit 3, the truncated file kept as the other writer left it', async () => {
    const r = await changedDuring((p) => fs.truncateSync(p, 7));
    checkRefusal(r.status, Buffer.alloc(0), r.stderr, want);
    expect(fs.readFileSync(path.join(t.dir, 'f'), 'latin1')).toBe(big.slice(0, 7));
    expect(fs.readdirSync(t.dir)).toEqual(['f']);
  });

  it('a file replaced (renamed over) during replace: exit 3, the new file kept, nothing lost', async () => {
    const r = await changedDuring((p) => {
      fs.writeFileSync(`${p}.new`, 'theirs\n');
      fs.renameSync(`${p}.new`, p);
    });
    checkRefusal(r.status, Buffer.alloc(0), r.stderr, want);
    expect(fs.readFileSync(path.join(t.dir, 'f'), 'latin1')).toBe('theirs\n');
    expect(fs.readdirSync(t.dir)).toEqual(['f']);
  });

  it('a full disk (ENOSPC) while writing: exit 2, the file as it was, no temporary file', async () => {
    const r = await changedDuring(() => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    });
    checkRefusal(r.status, Buffer.alloc(0), r.stderr, { status: 2, message: 'f: cannot write the new content (no space left on device); the file was left as it was' });
    expect(fs.readFileSync(path.join(t.dir, 'f'), 'latin1')).toBe(big);
    expect(fs.readdirSync(t.dir)).toEqual(['f']);
  });
});

describe('catalogue: a file that changes while a reader reads it', () => {
  it('shrinks or grows under readlines: rows are the bytes read, every row a real line, exit 0', async () => {
    // The built CLI writes into a pipe nobody reads yet, so it blocks mid-file; then the file changes.
    const lines = Array.from({ length: 60000 }, (_, i) => `row ${i + 1}\n`); // 650 KiB: well past a pipe and a stream buffer
    for (const change of ['shrink', 'grow'] as const) {
      const f = t.file(`f-${change}`, lines.join(''));
      const child = spawn(process.execPath, [BIN, 'readlines', f, '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.pause();
      // Wait for the first rows, then a little more: the pipe fills and the child blocks mid-file.
      while (child.stdout.readableLength === 0) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 100));
      if (change === 'shrink') fs.truncateSync(f, 1000);
      else fs.appendFileSync(f, 'extra 1\nextra 2\n');
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (b: Buffer) => out.push(b));
      child.stderr.on('data', (b: Buffer) => err.push(b));
      child.stdout.resume();
      const code = await new Promise((r) => child.on('close', r));
      expect([code, Buffer.concat(err).toString()]).toEqual([0, '']);
      // A cut mid-line leaves a last line without terminator: its row ends with the no-newline marker.
      const rows = Buffer.concat(out).toString().replace(/\n\\ No newline at end of file\n$/, '').split(/(?<=\n)/);
      const all = change === 'grow' ? [...lines, 'extra 1\n', 'extra 2\n'] : lines;
      // Every row is the line of that number; after a shrink the last may be the part read before the cut.
      rows.forEach((row, i) => {
        if (change === 'shrink' && i === rows.length - 1) expect(`${i + 1}\t${all[i]}`.startsWith(row)).toBe(true);
        else expect(row).toBe(`${i + 1}\t${all[i]}`);
      });
      if (change === 'grow') expect(rows.length).toBe(all.length); // read to the end as it is then
      else expect(rows.length).toBeLessThan(lines.length);
    }
  });
});

// Tests run as root, which no permission bit stops: these run the built CLI as the unprivileged
// user "nobody" with setpriv(1), in a directory made for the case.
const setpriv = spawnSync('setpriv', ['--version']).status === 0 && process.getuid?.() === 0;

describe.runIf(setpriv)('catalogue: permissions (the built CLI as user nobody, through setpriv)', () => {
  function asNobody(args: string[]): { status: number | null; stdout: Buffer; stderr: string } {
    const r = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, BIN, ...args], { cwd: t.dir });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString() };
  }
  beforeEach(() => {
    fs.chmodSync(t.dir, 0o755);
  });

  it('permission denied for reading: exit 2, "permission denied"', () => {
    t.file('secret', 'a\n');
    fs.chmodSync(path.join(t.dir, 'secret'), 0o600);
    const before = snapshot(t.dir);
    for (const args of [['readlines', 'secret', '1'], ['page', 'secret'], ['grep', 'a', 'secret'], ['replace', 'secret', '1', '--text', 'x']]) {
      const r = asNobody(args);
      checkRefusal(r.status, r.stdout, r.stderr, { status: 2, message: /^secret: permission denied/ });
    }
    expect(snapshot(t.dir)).toEqual(before);
  });

  it('permission denied for writing the file: exit 2, nothing written', () => {
    t.file('ro', 'a\n');
    fs.chmodSync(path.join(t.dir, 'ro'), 0o644); // root's, readable by all
    const before = snapshot(t.dir);
    const r = asNobody(['replace', 'ro', '1', '--text', 'x']);
    checkRefusal(r.status, r.stdout, r.stderr, { status: 2, message: 'ro: permission denied: the file is not writable' });
    expect(snapshot(t.dir)).toEqual(before);
  });

  it('a read-only directory (no room for the temporary file): exit 2, the file as it was', () => {
    const sub = path.join(t.dir, 'sub');
    fs.mkdirSync(sub);
    fs.writeFileSync(path.join(sub, 'mine'), 'a\n');
    fs.chownSync(path.join(sub, 'mine'), 65534, 65534); // nobody may write the file, not the directory
    fs.chmodSync(sub, 0o555);
    const before = snapshot(t.dir);
    const r = asNobody(['replace', 'sub/mine', '1', '--text', 'x']);
    checkRefusal(r.status, r.stdout, r.stderr, { status: 2, message: /^sub\/mine: cannot create a temporary file beside it in .*\/sub: permission denied$/ });
    expect(snapshot(t.dir)).toEqual(before);
  });
});

describe('catalogue: leftovers of a linewise killed by SIGKILL', () => {
  it('a lock whose process is gone is taken over at once: the edit is written, the lock removed', async () => {
    const f = t.file('f', 'a\nb\n');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    fs.mkdirSync(path.join(t.dir, '.linewise.lock'));
    t.file(`.linewise.lock/pid-${dead}-0123456789abcdef`, '');
    const r = await run(['replace', f, '2', '--text', 'B']);
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(fs.readFileSync(f, 'utf8')).toBe('a\nB\n');
    expect(fs.readdirSync(t.dir)).toEqual(['f']);
  });
});
