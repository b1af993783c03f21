// Issue 24.4-24.6 end to end, each reproduction as the issue typed it, outputs and files compared
// byte for byte: a budget that cuts inside a line goes on inside it, failures under --json are
// records, --create --receipt, the append form named past the end, and the README's rerun-safe
// CI recipe run twice under pipefail. Run with the guard trailer's default (LINEWISE_GUARD unset).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { esc, tempDir } from '../helpers.js';

const BIN = process.env.LINEWISE_BIN ?? fileURLToPath(new URL('../../bin/linewise.js', import.meta.url));
const LW = BIN.endsWith('.js') ? `${process.execPath} ${BIN}` : BIN;
const tmp = tempDir();
afterAll(() => tmp.cleanup());

const { LINEWISE_GUARD: _off, ...ENV } = process.env;

function sh(script: string, cwd: string) {
  const r = spawnSync('bash', ['-c', `set -o pipefail; ${script}`], { cwd, env: { ...ENV, LW, NO_COLOR: '1' } });
  return { status: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

let n = 0;
function dirWith(files: Record<string, string>): string {
  const dir = path.join(tmp.dir, `s${n++}`);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

describe('a budget never loses bytes (issue 24.4)', () => {
  it('grep x wide.txt --max-bytes 50 on a 500-byte line: the cursor points inside it, and following it prints the rest', () => {
    const line = `${'a'.repeat(200)}x${'b'.repeat(299)}`;
    const dir = dirWith({ 'wide.txt': `${line}\n` });
    const first = sh('$LW grep x wide.txt --max-bytes 50', dir);
    expect([first.status, first.stderr]).toEqual([0, '']);
    expect(first.stdout).toBe(
      `1[cut]\t${'a'.repeat(42)}\n\n[Read 1 of 1 matching line (in 1 of 1 file). Run the same command with --after wide.txt:1@42 to go on. Line 1 of wide.txt was cut at 42 of 501 bytes; read it whole with: linewise readlines wide.txt 1 1]\n`,
    );
    // follow the footers: the parts joined are the line, every byte once
    let text = first.stdout.split('\n')[0]!.split('\t')[1]!;
    let cursor = /--after (\S+) to go on/.exec(first.stdout)?.[1];
    for (let calls = 0; cursor !== undefined; calls++) {
      expect(calls).toBeLessThan(20);
      const r = sh(`$LW grep x wide.txt --max-bytes 50 --after ${cursor}`, dir);
      expect(r.status).toBe(0);
      const row = /^1\[@(\d+)(,cut)?\]\t(.*)$/m.exec(r.stdout)!;
      expect(Number(row[1])).toBe(text.length);
      text += row[3];
      cursor = /--after (\S+) to go on/.exec(r.stdout)?.[1];
    }
    expect(text).toBe(line);
    // a part is refused by replace, as a cut row is
    const part = sh('$LW grep x wide.txt --max-bytes 50 --after wide.txt:1@42 | $LW replace wide.txt --rows -', dir);
    expect([part.status, part.stderr]).toEqual([2, 'linewise: <stdin>: row 1: line 1 was read in parts (this row holds it from byte 42) and cannot be written back; read it whole with readlines\n']);
  });

  it('readlines and page --max-bytes go on inside a cut line with --from-byte', () => {
    const dir = dirWith({ 'wide.txt': `${'x'.repeat(100)}\nend\n` });
    const r = sh('$LW readlines wide.txt 1 --max-bytes 50 --guard never', dir);
    expect(r.stdout).toBe(
      `1[cut]\t${'x'.repeat(48)}\n\n[Read 1 line (lines 1-1). Line 1 was cut at 48 of 101 bytes; go on inside it with: linewise readlines wide.txt 1 --max-bytes 50 --from-byte 48; or read it whole with: linewise readlines wide.txt 1 1]\n`,
    );
    const rest = sh('$LW readlines wide.txt 1 --max-bytes 60 --from-byte 48', dir);
    // a part row is never guarded (replace refuses it): no trailer for it
    expect(rest.stdout).toBe(`1[@48]\t${'x'.repeat(52)}\n\n[Read 1 line (lines 1-1); 1 more line did not fit --max-bytes 60. Go on with: linewise readlines wide.txt 2 --max-bytes 60]\n`);
    const page = sh('$LW page wide.txt --offset 0 --from-byte 90 --max-bytes 40', dir);
    expect(page.stdout).toBe(`1[@90]\t${'x'.repeat(10)}\n2\tend\n\\ read {"path":"wide.txt","lines":"2","hash":"6a8e75aa"}\n`);
    const past = sh('$LW page wide.txt --offset 0 --from-byte 101', dir);
    expect([past.status, past.stderr]).toEqual([2, 'linewise: wide.txt: byte 101 is at or past the end of line 1 (101 bytes): a cursor inside a line is one a footer printed\n']);
  });
});

describe('errors as records (issue 24.5)', () => {
  it('replace f --old nothere --new x --json: the failure is a JSON record on stdout, the status unchanged', () => {
    const dir = dirWith({ f: 'alpha\nbeta\n' });
    const r = sh('$LW replace f --old nothere --new x --json', dir);
    expect(r.status).toBe(3);
    expect(r.stdout).toBe('{"type":"error","code":"not-found","message":"the old text is not in the file; nothing was written: read the lines again and copy the text exactly","path":"f","status":3}\n');
    expect(r.stderr).toBe('linewise: f: the old text is not in the file; nothing was written: read the lines again and copy the text exactly\n');
    const range = sh('$LW readlines f 0 --json', dir);
    expect([range.status, range.stdout]).toEqual([2, '{"type":"error","code":"bad-range","message":"START must be at least 1, not 0 (the file has 2 lines)","path":"f","status":2}\n']);
    const usage = sh('$LW readlines f 1 --bogus --json', dir);
    expect([usage.status, usage.stdout]).toEqual([2, '{"type":"error","code":"usage","message":"unknown option \'--bogus\'","path":null,"status":2}\n']);
    expect(fs.readFileSync(path.join(dir, 'f'), 'utf8')).toBe('alpha\nbeta\n');
  });
});

describe('the small ones (issue 24.6)', () => {
  it('--create --receipt writes the file and prints its rows', () => {
    const dir = dirWith({ 'old.txt': '' });
    const r = sh(`$LW replace new.txt --create --text $'one\\ntwo\\n' --receipt`, dir);
    expect([r.status, r.stderr, r.stdout]).toEqual([0, '', '1\tone\n2\ttwo\n\n[Edited new.txt: insert before 1 -> 1-2; no other line moved.]\n']);
    expect(esc(fs.readFileSync(path.join(dir, 'new.txt')))).toBe(esc('one\ntwo\n'));
  });

  it('replace x.txt 3 --text three on a 2-line file names the append form, and 3 2 appends', () => {
    const dir = dirWith({ 'x.txt': 'one\ntwo\n' });
    const r = sh('$LW replace x.txt 3 --text three', dir);
    expect([r.status, r.stderr]).toEqual([2, 'linewise: x.txt: line 3 is past the end: the file has 2 lines (START 3 END 2 appends after the last line: END = START - 1 inserts)\n']);
    expect(sh('$LW replace x.txt 3 2 --text three', dir).status).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'x.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
  });

  it("the README's rerun-safe CI step passes twice under pipefail; the second run writes nothing", () => {
    const pkg = (name: string) => `{\n  "name": "${name}",\n  "version": "1.2.4"\n}\n`;
    const dir = dirWith({ 'package.json': pkg('root'), 'packages/a/package.json': pkg('a'), 'packages/a/README.md': '"version": "1.2.4"\n' });
    const readme = fs.readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
    const step = /```sh\n(set -euo pipefail\n[\s\S]*?)```/.exec(readme)![1]!.replace(/linewise /g, '$LW ');
    const once = sh(step, dir);
    expect([once.status, once.stderr]).toEqual([0, '']);
    const done = pkg('root').replace('1.2.4', '1.2.5');
    expect(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).toBe(done);
    expect(fs.readFileSync(path.join(dir, 'packages/a/package.json'), 'utf8')).toBe(pkg('a').replace('1.2.4', '1.2.5'));
    expect(fs.readFileSync(path.join(dir, 'packages/a/README.md'), 'utf8')).toBe('"version": "1.2.4"\n'); // -g package.json
    const mtime = fs.statSync(path.join(dir, 'package.json')).mtimeMs;
    const twice = sh(step, dir);
    expect([twice.status, twice.stderr]).toEqual([0, 'linewise: no rows to apply; nothing written\n']);
    expect(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).toBe(done);
    expect(fs.statSync(path.join(dir, 'package.json')).mtimeMs).toBe(mtime);
    // an error in the step still fails it
    const broken = sh(step.replace('-F', '-F --bogus'), dir);
    expect(broken.status).not.toBe(0);
    expect(broken.stderr).toContain("unknown option '--bogus'");
  });
});
