// Rows that cannot lie (docs/HARDENING.md, "Rows that cannot lie"): no file name, joining of row streams or lost
// decoding makes replace write a byte it was not asked to write. Every case compares the whole
// directory, names and bytes, before and after; a refusal is exit 2 (or 3) with nothing written.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliResult, esc, fixture, run, tempDir, tree } from '../helpers.js';

let t: ReturnType<typeof tempDir>;
beforeEach(() => {
  t = tempDir();
});
afterEach(() => t.cleanup());

/** Writes files named by raw bytes (a name may not be UTF-8). */
function put(name: string | Buffer, content: string | Buffer): void {
  fs.writeFileSync(Buffer.concat([Buffer.from(`${t.dir}/`), typeof name === 'string' ? Buffer.from(name) : name]), content);
}

const lw = (args: string[], stdin?: Buffer | string): Promise<CliResult> => run(args, { cwd: t.dir, ...(stdin === undefined ? {} : { stdin }) });

/** Runs `replace ...args` on `rows` and expects a refusal: `status`, one line matching `message`, no byte changed anywhere. */
async function refused(args: string[], rows: Buffer | string, status: number, message: RegExp): Promise<CliResult> {
  const before = tree(t.dir);
  const r = await lw(['replace', ...args], rows);
  expect([r.status, r.stderr]).toEqual([status, expect.stringMatching(message)]);
  expect(r.stderr.split('\n').length).toBe(2);
  expect(tree(t.dir)).toEqual(before);
  return r;
}

/** grep's rows for `args`, fed back through `edit`, applied; returns the result of replace. */
async function roundTrip(grepArgs: string[], replaceArgs: string[], edit: (rows: Buffer) => Buffer = (b) => b): Promise<CliResult> {
  const g = await lw(['grep', ...grepArgs]);
  expect(g.stderr).toBe('');
  return lw(['replace', '--rows', '-', ...replaceArgs], edit(g.stdout));
}

/** Names no shell script should trust, each a file holding "hit" and a second line. */
const HOSTILE = ['a\t3', 'n\nl', 'c\rr', 'q"b', 'back\\slash', '-dash', '\uFEFFbom', '12', '7#abcd', '3[cut]', '--', '\\ No newline at end of file', 'plain'];

describe('rows: hostile file names', () => {
  it('grep | replace --rows - is the identity over names holding TAB, newline, CR, ", \\, a leading dash or U+FEFF, digits', async () => {
    for (const n of HOSTILE) put(n, `hit ${esc(n)}\nsecond\n`);
    const before = tree(t.dir);
    const inodes = HOSTILE.map((n) => fs.statSync(path.join(t.dir, n)).ino);
    // walked from "." (names "./a<TAB>3") and from no path (names "a<TAB>3", a line may start with one)
    for (const mode of [[], ['-0']]) {
      for (const where of [['.'], []]) {
        const r = await roundTrip([...mode, '-H', 'hit', ...where], mode);
        expect([r.status, r.stderr]).toEqual([0, '']);
        expect(tree(t.dir)).toEqual(before);
        expect(HOSTILE.map((n) => fs.statSync(path.join(t.dir, n)).ino)).toEqual(inodes); // not even rewritten
      }
    }
  });

  it('an edited row edits its own file only, whatever the other names hold', async () => {
    for (const n of HOSTILE) put(n, `hit ${esc(n)}\nsecond\n`);
    for (const target of HOSTILE) {
      for (const mode of [[], ['-0']]) {
        const before = tree(t.dir);
        const marker = `hit ${esc(target)}\n`;
        const r = await roundTrip([...mode, 'hit'], mode, (rows) => Buffer.from(rows.toString('latin1').replace(marker, `HIT ${esc(target)}\n`), 'latin1'));
        expect([r.status, r.stderr]).toEqual([0, '']);
        const after = tree(t.dir);
        const changed = Object.keys(after).filter((k) => after[k] !== before[k]);
        expect(changed).toEqual([esc(target)]);
        expect(after[changed[0]!]).toBe(esc(`HIT ${esc(target)}\nsecond\n`));
        put(target, `hit ${esc(target)}\nsecond\n`);
      }
    }
  });

  it('a file named "a<TAB>3" next to a: the identity pipeline leaves a alone (it used to rewrite line 3 of a)', async () => {
    put('a', 'one\ntwo\nthree\nfour\n');
    put('a\t3', 'match me\n');
    const g = await lw(['grep', 'match', '.']);
    expect(esc(g.stdout)).toBe(esc('"./a\\t3"\t1\tmatch me\n'));
    const before = tree(t.dir);
    const r = await lw(['replace', '--rows', '-'], g.stdout);
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(tree(t.dir)).toEqual(before);
  });

  it('a name holding a newline and a whole row cannot set another file\'s line, nor write through a planted link', async () => {
    fs.mkdirSync(path.join(t.dir, 'outside'));
    put('outside/target', 'keep me\n');
    fs.mkdirSync(path.join(t.dir, 'tree'));
    fs.symlinkSync('../outside/target', path.join(t.dir, 'tree', 'link')); // never followed by the walk
    put('tree/victim', 'line one\n');
    put('tree/victim\t1\tPWNED\nz', 'match\n');
    put('tree/link\t1\tOWNED\nz', 'match\n');
    const before = tree(t.dir);
    for (const mode of [[], ['-0']]) {
      const r = await roundTrip([...mode, '-H', 'match', 'tree'], mode, (rows) => Buffer.from(rows.toString('latin1').replaceAll('match', 'MATCH'), 'latin1'));
      expect([r.status, r.stderr]).toEqual([0, '']);
      const after = tree(t.dir);
      expect(after['outside/target']).toBe(before['outside/target']);
      expect(after['tree/victim']).toBe(before['tree/victim']);
      expect(after[esc('tree/victim\t1\tPWNED\nz')]).toBe('MATCH\\n');
      put('tree/victim\t1\tPWNED\nz', 'match\n');
      put('tree/link\t1\tOWNED\nz', 'match\n');
    }
  });

  it('a file named 12: grep -H rows name it quoted and go back; a bare "12<TAB>3<TAB>..." with FILE 12 reads two ways: refused', async () => {
    put('12', 'a\nb\nfoo\n');
    const g = await lw(['grep', '-H', 'foo', '12']);
    expect(esc(g.stdout)).toBe(esc('"12"\t3\tfoo\n'));
    const r = await lw(['replace', '12', '--rows', '-'], g.stdout.toString().replace('foo', 'FOO'));
    expect([r.status, r.stderr, esc(fs.readFileSync(path.join(t.dir, '12')))]).toEqual([0, '', 'a\\nb\\nFOO\\n']);
    put('12', 'a\nb\nfoo\n');
    await refused(['12', '--rows', '-'], '12\t3\tfoo\n', 2, /^linewise: rows: row 1 reads two ways: it also reads as line 3 of a file named 12 .*nothing was written\n$/);
    // without FILE, a plain row cannot apply: the bare row is the path row of 12
    const bare = await lw(['replace', '--rows', '-'], '12\t3\tFOO\n');
    expect([bare.status, bare.stderr, esc(fs.readFileSync(path.join(t.dir, '12')))]).toEqual([0, '', 'a\\nb\\nFOO\\n']);
    // the same bare row for another file is a plain row of that file: line 2 becomes "3<TAB>x"
    put('other', 'o1\no2\n');
    const plain = await lw(['replace', 'other', '--rows', '-'], '2\t3\tx\n');
    expect([plain.status, esc(fs.readFileSync(path.join(t.dir, 'other')))]).toEqual([0, 'o1\\n3\\tx\\n']);
  });

  it('a name that starts with U+FEFF is a file, not the byte order mark of the rows (first row, plain and -0)', async () => {
    put('\uFEFFbom', 'hit\n');
    const g = await lw(['grep', '-H', 'hit', '\uFEFFbom']);
    expect(esc(g.stdout)).toBe(esc('"\\357\\273\\277bom"\t1\thit\n'));
    const z = await lw(['grep', '-0', '-H', 'hit', '\uFEFFbom']);
    expect(esc(z.stdout)).toBe(esc('\uFEFFbom\x001\thit\n'));
    for (const [rows, mode] of [[g.stdout, []], [z.stdout, ['-0']]] as const) {
      const r = await lw(['replace', '--rows', '-', ...mode], rows.toString().replace('hit', 'HIT'));
      expect([r.status, r.stderr, fs.readFileSync(path.join(t.dir, '\uFEFFbom'), 'utf8')]).toEqual([0, '', 'HIT\n']);
      put('\uFEFFbom', 'hit\n');
    }
    expect(Object.keys(tree(t.dir))).toEqual([esc('\uFEFFbom')]); // no file "bom" was ever made
  });

  it('names that are not UTF-8: each row names its own file (never a look-alike), and replace edits that very file', async () => {
    put(Buffer.from([0x78, 0xfe]), 'fe\n');
    put(Buffer.from([0x78, 0xff]), 'ff\n');
    put('x\uFFFD', 'fffd\n'); // what Node would have opened for both
    const g = await lw(['grep', '-H', '', '.']);
    expect(esc(g.stdout)).toBe(esc('"./x\\376"\t1\tfe\n"./x\\377"\t1\tff\n./x\uFFFD\t1\tfffd\n'));
    const z = await lw(['grep', '-0', '', '.']);
    expect(esc(z.stdout)).toBe(esc(Buffer.concat([Buffer.from('./x\xfe\x001\tfe\n./x\xff\x001\tff\n', 'latin1'), Buffer.from('./x\uFFFD\x001\tfffd\n')])));
    const l = await lw(['grep', '-l', '', '.']);
    expect(l.stdout.toString()).toBe('"./x\\376"\n"./x\\377"\n./x\uFFFD\n');
    const j = await lw(['grep', '--json', 'ff$', '.']);
    expect(j.stdout.toString()).toContain('{"type":"begin","data":{"path":{"bytes":"Li94/w=="}}}');
    const before = tree(t.dir);
    // the identity: nothing rewritten (it used to refuse the whole batch, exit 2)
    for (const [rows, mode] of [[g.stdout, []], [z.stdout, ['-0']]] as const) {
      const r = await lw(['replace', '--rows', '-', ...mode], rows);
      expect([r.status, r.stderr]).toEqual([0, '']);
      expect(tree(t.dir)).toEqual(before);
    }
    // one row edited, in text rows and under -0: that file only, by its own bytes
    for (const [rows, mode] of [[g.stdout, []], [z.stdout, ['-0']]] as const) {
      const r = await lw(['replace', '--rows', '-', ...mode], Buffer.from(rows.toString('latin1').replace('\tff\n', '\tFF\n'), 'latin1'));
      expect([r.status, r.stderr]).toEqual([0, '']);
      expect(tree(t.dir)).toEqual({ ...before, [esc(Buffer.from([0x78, 0xff]))]: 'FF\\n' });
      put(Buffer.from([0x78, 0xff]), 'ff\n');
    }
    expect(tree(t.dir)).toEqual(before);
  });

  it('a link to a name that is not UTF-8 is written through to that file, never to its look-alike', async () => {
    put(Buffer.from([0x78, 0xff]), 'real\n');
    put('x\uFFFD', 'look-alike\n');
    fs.symlinkSync(Buffer.from([0x78, 0xff]), path.join(t.dir, 'link'));
    const r = await lw(['replace', 'link', '1', '--text', 'EDITED']);
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(fs.readFileSync(Buffer.from(`${t.dir}/x\xff`, 'latin1'), 'latin1')).toBe('EDITED\n');
    expect(fs.readFileSync(path.join(t.dir, 'x\uFFFD'), 'utf8')).toBe('look-alike\n'); // it was the one written
    expect(fs.lstatSync(path.join(t.dir, 'link')).isSymbolicLink()).toBe(true);
  });

  it('-l and -c quote a path as messages do; -0 prints it as it is', async () => {
    put('a\tb', 'x\n');
    put('12', 'x\n');
    expect((await lw(['grep', '-l', 'x', '.'])).stdout.toString()).toBe('./12\n"./a\\tb"\n');
    expect((await lw(['grep', '-c', 'x', '.'])).stdout.toString()).toBe('./12\t1\n"./a\\tb"\t1\n');
    expect(esc((await lw(['grep', '-l', '-0', 'x', '.'])).stdout)).toBe(esc('./12\0./a\tb\0'));
    const missing = await lw(['readlines', 'no\tsuch', '1']);
    expect(missing.stderr).toBe('linewise: "no\\tsuch": no such file or directory\n');
    // a value a message repeats (here an --encoding with a line break) never starts a second line
    const value = await lw(['readlines', '--encoding', 'x\ny', 'no\tsuch', '1']);
    expect([value.status, value.stderr]).toEqual([2, 'linewise: unknown encoding \'x\\ny\'; "linewise encodings" lists the names --encoding accepts\n']);
  });
});

describe('rows: streams that end unambiguously', () => {
  it('concatenated streams of several runs, each ending on a line without newline, give exactly the rows of each', async () => {
    put('a', 'a1\na2');
    put('b', 'b1\r\nb2');
    put('c', 'c1\nc2\r');
    const parts = [await lw(['readlines', 'a', '1']), await lw(['grep', '-H', '2', 'b']), await lw(['page', 'c', '--offset', '1'])];
    for (const p of parts) expect(p.stdout.toString().endsWith('\n\\ No newline at end of file\n')).toBe(true);
    // a and its rows (plain) need FILE; b's carry a path: two calls, each on the joined streams of its kind
    const ab = Buffer.concat([(await lw(['grep', '-H', '', 'a'])).stdout, parts[1]!.stdout]);
    expect(esc(ab)).toBe(esc('a\t1\ta1\na\t2\ta2\n\\ No newline at end of file\nb\t2\tb2\n\\ No newline at end of file\n'));
    const before = tree(t.dir);
    const same = await lw(['replace', '--rows', '-'], ab);
    expect([same.status, same.stderr]).toEqual([0, '']);
    expect(tree(t.dir)).toEqual(before);
    const edited = await lw(['replace', '--rows', '-'], ab.toString().replace('a2', 'A2').replace('b2', 'B2'));
    expect([edited.status, esc(fs.readFileSync(path.join(t.dir, 'a'))), esc(fs.readFileSync(path.join(t.dir, 'b')))]).toEqual([0, 'a1\\nA2', 'b1\\r\\nB2']);
    // the plain stream of one file twice over: two rows for one line, refused
    const twice = Buffer.concat([parts[0]!.stdout, parts[0]!.stdout]);
    await refused(['a', '--rows', '-'], twice, 2, /row 1 \(line 1\) and row 4 \(line 1\) both edit the same lines/);
    // a lone "\r" ending a last line survives the round trip
    const c = await lw(['replace', 'c', '--rows', '-'], parts[2]!.stdout);
    expect([c.status, esc(fs.readFileSync(path.join(t.dir, 'c')))]).toEqual([0, 'c1\\nc2\\r']);
  });

  it('readlines F 1 | replace F --rows - stays the identity under every --eol, the marker read as "no terminator"', async () => {
    put('f', 'x\r\ny');
    const rows = (await lw(['readlines', 'f', '1'])).stdout;
    for (const eol of ['auto', 'keep', 'lf', 'crlf']) {
      const r = await lw(['replace', 'f', '--rows', '-', '--eol', eol], rows);
      expect([eol, r.status, esc(fs.readFileSync(path.join(t.dir, 'f')))]).toEqual([eol, 0, eol === 'lf' ? 'x\\ny' : 'x\\r\\ny']);
      put('f', 'x\r\ny');
    }
  });
});

describe('rows: anchors', () => {
  it('anchored rows apply; then, the line changed, are refused (exit 3) with the current rows anchored; then one of two files changed: neither written', async () => {
    put('a', 'one\ntwo\n');
    put('b', 'uno\ndos');
    const rows = (await lw(['grep', '--anchor', '-H', 'o', 'a', 'b'])).stdout.toString();
    expect(rows).toMatch(/^a\t1#[0-9a-f]{8}\tone\na\t2#[0-9a-f]{8}\ttwo\nb\t1#[0-9a-f]{8}\tuno\nb\t2#[0-9a-f]{8}\tdos\n\\ No newline at end of file\n$/);
    const ok = await lw(['replace', '--rows', '-'], rows.replace('two', 'TWO'));
    expect([ok.status, ok.stderr, fs.readFileSync(path.join(t.dir, 'a'), 'latin1')]).toEqual([0, '', 'one\nTWO\n']);
    // the same rows again: line 2 of a is no longer the line read
    const stale = await refused(['--rows', '-'], rows.replace('two', 'deux'), 3, /^linewise: a: stale edit: line 2 no longer holds the text read; nothing was written/);
    expect(esc(stale.stdout)).toMatch(/^a\\t2#[0-9a-f]{8}\\tTWO\\n$/);
    // fresh rows of both files; then b changes: neither a nor b is written
    const fresh = (await lw(['grep', '--anchor', '-H', '', 'a', 'b'])).stdout.toString();
    put('b', 'uno\nDOS');
    const both = await refused(['--rows', '-'], fresh.replace('one', 'ONE').replace('uno', 'UNO'), 3, /^linewise: b: stale edit: line 2 no longer holds the text read/);
    expect(both.stdout.toString()).toMatch(/^b\t2#[0-9a-f]{8}\tDOS\n\\ No newline at end of file\n$/);
  });

  it('the anchor is the first 8 hex digits of the SHA-256 of the line\'s text; replace takes 4 to 16 of them', async () => {
    put('f', 'hello\r\nworld');
    const rows = (await lw(['readlines', 'f', '1', '--anchor'])).stdout.toString();
    // printf %s hello | sha256sum: 2cf24dba5fb0a30e...; printf %s world | sha256sum: 486ea46224d1bb4f...
    expect(rows).toBe('1#2cf24dba\thello\r\n2#486ea462\tworld\n\\ No newline at end of file\n');
    const r = await lw(['replace', 'f', '--rows', '-'], '1#2cf2\tHELLO\n2#486ea46224d1bb4f\tWORLD\n');
    expect([r.status, esc(fs.readFileSync(path.join(t.dir, 'f')))]).toEqual([0, 'HELLO\\r\\nWORLD']);
    await refused(['f', '--rows', '-'], '1#2cf2\tx\n', 3, /stale edit: line 1/);
  });

  it('page --anchor counts the anchors in --max-bytes; a cut row carries none and is refused as before', async () => {
    put('f', `${'x'.repeat(30)}\nshort\n`);
    const p = await lw(['page', 'f', '--anchor', '--max-bytes', '20']);
    expect(p.stdout.toString()).toMatch(/^1\[cut\]\tx{9}\n\n\[Read 1 line/);
    // "2#xxxxxxxx<TAB>short\n" is 17 bytes: it fits in 17, and is cut in 16 (where "2<TAB>short\n" would fit)
    const q = await lw(['page', 'f', '--anchor', '--offset', '1', '--max-bytes', '17']);
    expect(q.stdout.toString()).toMatch(/^2#[0-9a-f]{8}\tshort\n$/);
    const r = await lw(['page', 'f', '--anchor', '--offset', '1', '--max-bytes', '16']);
    expect(r.stdout.toString()).toMatch(/^2\[cut\]\tshort\n\n\[Read 1 line/);
  });
});

describe('rows: decodings replace was not given', () => {
  it('rows read with --encoding fed back without it: exit 2 naming the encoding, nothing written; with it: applied', async () => {
    put('l1', Buffer.from('caf\xe9\nna\xefve\n', 'latin1'));
    put('sj', Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x0a])); // 日本 in Shift_JIS
    const l1 = (await lw(['readlines', 'l1', '1', '--encoding', 'latin1'])).stdout;
    const sj = (await lw(['readlines', 'sj', '1', '--encoding', 'shift_jis'])).stdout;
    expect(sj.toString()).toBe('1\t日本\n');
    await refused(['l1', '--rows', '-'], l1, 2, /^linewise: l1: row 1: line 1 is not valid UTF-8 but the row is: .*; run replace with --encoding latin1; nothing was written\n$/);
    await refused(['sj', '--rows', '-'], sj, 2, /run replace with --encoding shift_jis; nothing was written/);
    // an edited row is the same mistake (no encoding explains it exactly: the hint stays general)
    await refused(['l1', '--rows', '-'], '1\tcafé!\n', 2, /not valid UTF-8 but the row is: .*for example --encoding latin1/);
    const ok = await lw(['replace', 'l1', '--rows', '-', '--encoding', 'latin1'], l1.toString().replace('café', 'CAFÉ'));
    expect([ok.status, esc(fs.readFileSync(path.join(t.dir, 'l1')))]).toEqual([0, 'CAF\\xc9\\nna\\xefve\\n']);
  });

  it('rows of a UTF-16 file without a mark, read with --encoding and fed back with -a instead: refused, ASCII rows too, the hint naming its decoding', async () => {
    for (const [name, enc] of [
      ['utf16le-no-bom.txt', 'utf-16le'],
      ['utf16be-no-bom.txt', 'utf-16be'],
    ] as const) {
      const raw = fs.readFileSync(fixture(name));
      put('w', raw);
      const rows = (await lw(['readlines', 'w', '1', '--encoding', enc])).stdout.toString();
      expect(rows).toBe('1\thello\n2\twörld\n');
      // Every row read decoded lacks the NULs of the file's raw lines, ASCII ones too (an ASCII row
      // used to be written, exit 0: "h\0e\0" + "HELLO\n" + "\0w\0"; a line beyond ASCII said
      // "for example --encoding latin1" before that)
      const narrow = (row: number) => new RegExp(`^linewise: w: row ${row}: the file looks like ${enc.toUpperCase()} text without a byte order mark, and the row holds none of its NUL bytes: the rows were read with --encoding ${enc}; run replace with --encoding ${enc} instead of -a; nothing was written\n$`);
      await refused(['w', '-a', '--rows', '-'], rows.replace('wörld', 'WÖRLD'), 2, narrow(1));
      await refused(['w', '-a', '--rows', '-'], '2\tWÖRLD\n', 2, narrow(1));
      await refused(['w', '-a', '--rows', '-'], '1\tHELLO\n', 2, narrow(1));
      await refused(['w', '-a', '--rows', '-'], '1\théllo\n', 2, narrow(1));
      expect(fs.readFileSync(path.join(t.dir, 'w'))).toEqual(raw);
      // the file's own raw rows (read with -a) go back with -a: the identity writes nothing
      const rawRows = (await lw(['readlines', 'w', '1', '-a'])).stdout;
      const same = await lw(['replace', 'w', '-a', '--rows', '-'], rawRows);
      expect([same.status, same.stderr]).toEqual([0, '']);
      expect(fs.readFileSync(path.join(t.dir, 'w'))).toEqual(raw);
      const ok = await lw(['replace', 'w', '--rows', '-', '--encoding', enc], rows.replace('wörld', 'WÖRLD'));
      expect(ok.status).toBe(0);
      expect((await lw(['readlines', 'w', '1', '--encoding', enc])).stdout.toString()).toBe('1\thello\n2\tWÖRLD\n');
    }
  });

  it('a row bringing UTF-8 into an ASCII line of a file that is not UTF-8 (read with --encoding, the line cannot tell): exit 2, nothing written', async () => {
    put('l1', Buffer.from('abc\ncaf\xe9\n', 'latin1'));
    put('sj', Buffer.from([0x61, 0x62, 0x63, 0x0a, 0x93, 0xfa, 0x96, 0x7b, 0x0a])); // abc, 日本 in Shift_JIS
    const message = (at: number) =>
      new RegExp(`^linewise: (l1|sj): row 1: the row brings UTF-8 text into line 1, but the file is not valid UTF-8 \\(at byte ${at}\\): .*--encoding latin1\\), or, to write UTF-8 there on purpose, replace the line as a range .*; nothing was written\n$`);
    for (const anchor of [[], ['--anchor']]) {
      const l1 = (await lw(['readlines', 'l1', '1', '1', '--encoding', 'latin1', ...anchor])).stdout.toString();
      await refused(['l1', '--rows', '-'], l1.replace('abc', 'été'), 2, message(7)); // it used to write "été" in UTF-8
      const sj = (await lw(['readlines', 'sj', '1', '1', '--encoding', 'shift_jis', ...anchor])).stdout.toString();
      await refused(['sj', '--rows', '-'], sj.replace('abc', '日'), 2, message(4));
    }
    // with the encoding: written in it
    const ok = await lw(['replace', 'l1', '--rows', '-', '--encoding', 'latin1'], '1\tété\n');
    expect([ok.status, esc(fs.readFileSync(path.join(t.dir, 'l1')))]).toEqual([0, '\\xe9t\\xe9\\ncaf\\xe9\\n']);
    // a UTF-8 file takes it; so does a line already beyond ASCII (it tells); a range edit is UTF-8 on purpose
    put('u', 'abc\ncafé\n');
    expect((await lw(['replace', 'u', '--rows', '-'], '1\tété\n')).status).toBe(0);
    expect(fs.readFileSync(path.join(t.dir, 'u'), 'utf8')).toBe('été\ncafé\n');
    put('mixed', Buffer.concat([Buffer.from('café\nabc\n'), Buffer.from([0xff, 0x0a])]));
    expect((await lw(['replace', 'mixed', '--rows', '-'], '1\tcafés\n')).status).toBe(0);
    await refused(['mixed', '--rows', '-'], '2\tabé\n', 2, /the row brings UTF-8 text into line 2, but the file is not valid UTF-8 \(at byte 11\)/);
    expect((await lw(['replace', 'mixed', '2', '--text', 'abé'])).status).toBe(0);
    expect(esc(fs.readFileSync(path.join(t.dir, 'mixed')))).toBe(esc(Buffer.concat([Buffer.from('cafés\nabé\n'), Buffer.from([0xff, 0x0a])])));
  });

  it('under --expect and anchors, a mismatch the missing encoding explains is exit 2, not a stale edit', async () => {
    put('l1', Buffer.from('caf\xe9\nplain\n', 'latin1'));
    fs.writeFileSync(path.join(t.dir, '..', `${path.basename(t.dir)}-before`), (await lw(['readlines', 'l1', '1', '1', '--encoding', 'latin1'])).stdout);
    const before = path.join(t.dir, '..', `${path.basename(t.dir)}-before`);
    try {
      await refused(['l1', '1', '--text', 'cafe', '--expect', before], '', 2, /^linewise: l1: expected row 1: line 1 is not valid UTF-8 and matches the row read only once decoded: .*--encoding latin1/);
    } finally {
      fs.rmSync(before);
    }
    // an anchored row edited to ASCII: only the anchor can tell, and it does
    const anchored = (await lw(['readlines', 'l1', '1', '1', '--encoding', 'latin1', '--anchor'])).stdout.toString();
    await refused(['l1', '--rows', '-'], anchored.replace('café', 'cafe'), 2, /^linewise: l1: row 1: line 1 is not valid UTF-8 and matches the row read only once decoded: .*--encoding latin1/);
    // a line really changed is still stale (exit 3)
    await refused(['l1', '--rows', '-'], anchored.replace(/^1#[0-9a-f]+/, '1#00000000').replace('café', 'cafe'), 3, /stale edit/);
  });

  it('raw rows fed to replace --encoding: refused, not written through the codec', async () => {
    put('l1', Buffer.from('caf\xe9\n', 'latin1'));
    const raw = (await lw(['readlines', 'l1', '1'])).stdout;
    await refused(['l1', '--rows', '-', '--encoding', 'latin1'], raw, 2, /not valid UTF-8, so it cannot be encoded as latin1/);
    const exp = path.join(t.dir, '..', `${path.basename(t.dir)}-raw`);
    fs.writeFileSync(exp, raw);
    try {
      await refused(['l1', '1', '--text', 'x', '--encoding', 'latin1', '--expect', exp], '', 2, /expected row 1: the row is not UTF-8, so it was read without --encoding/);
    } finally {
      fs.rmSync(exp);
    }
  });

  it('rows of a UTF-16 file (decoded by its byte order mark) go back through the same decoding', async () => {
    put('u16', Buffer.concat([Buffer.of(0xff, 0xfe), Buffer.from('héllo\r\nwörld', 'utf16le')]));
    const before = tree(t.dir);
    const rows = (await lw(['readlines', 'u16', '1'])).stdout;
    const r = await lw(['replace', 'u16', '--rows', '-'], rows);
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(tree(t.dir)).toEqual(before);
  });
});

describe('rows: everything else a rows input can hold', () => {
  it('rows ended by lone CRs: refused; a tab in the text and rows that start with digits: applied', async () => {
    put('f', 'a\nb\nc\n');
    await refused(['f', '--rows', '-'], '1\tA\r2\tB\r', 2, /rows end in lone carriage returns/);
    const r = await lw(['replace', 'f', '--rows', '-'], '1\tx\ty\n2\t3\t4\n');
    expect([r.status, esc(fs.readFileSync(path.join(t.dir, 'f')))]).toEqual([0, 'x\\ty\\n3\\t4\\nc\\n']);
  });

  it('N[cut] refused; page footers and grep separators skipped (the page and -C output go back as the identity)', async () => {
    put('f', `${'w'.repeat(50)}\nm\nx\ny\nz\nm\n`);
    const cut = (await lw(['page', 'f', '--max-bytes', '20'])).stdout;
    await refused(['f', '--rows', '-'], cut, 2, /line 1 was cut by page --max-bytes/);
    const before = tree(t.dir);
    for (const args of [['page', 'f', '--offset', '1', '--limit', '2'], ['grep', '-C', '1', '^m$', 'f'], ['grep', '--anchor', '-C', '1', '^m$', 'f']]) {
      const rows = (await lw(args)).stdout;
      expect(rows.toString()).toMatch(/\n\n\[Read |\n--\n/);
      const r = await lw(['replace', 'f', '--rows', '-'], rows);
      expect([args.join(' '), r.status, r.stderr]).toEqual([args.join(' '), 0, '']);
      expect(tree(t.dir)).toEqual(before);
    }
  });

  it('one file through two spellings (a, ./a, dir/../a, a link): two rows for one line, refused', async () => {
    put('a', 'one\ntwo\n');
    fs.mkdirSync(path.join(t.dir, 'dir'));
    fs.symlinkSync('a', path.join(t.dir, 'ln'));
    for (const other of ['./a', 'dir/../a', 'ln', `${t.dir}/a`]) {
      await refused(['--rows', '-'], `a\t1\tONE\n${other}\t1\tUNO\n`, 2, /both edit the same lines; every line may be edited once per call/);
    }
    // different lines through two spellings are one plan: both applied, in one write
    const r = await lw(['replace', '--rows', '-'], 'a\t1\tONE\nln\t2\tTWO\n');
    expect([r.status, fs.readFileSync(path.join(t.dir, 'a'), 'latin1'), fs.lstatSync(path.join(t.dir, 'ln')).isSymbolicLink()]).toEqual([0, 'ONE\nTWO\n', true]);
  });

  it('under --null, a name that is all decoration ("\\ No newline at end of file<LF>") leaves an empty path after it: its own row, never refused as empty', async () => {
    // the counterexample fast-check found: the row of that file reads as a marker, then a row whose path is ""
    put('--', '\n');
    put('\\ No newline at end of file\n', '\n');
    const g = await lw(['grep', '-0', '-H', '']);
    expect(esc(g.stdout)).toBe(esc('--\x001\t\n\\ No newline at end of file\n\x001\t\n'));
    const before = tree(t.dir);
    const r = await lw(['replace', '--rows', '-', '-0'], g.stdout);
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(tree(t.dir)).toEqual(before);
    // with no such file, the empty path is refused as one
    fs.rmSync(path.join(t.dir, '\\ No newline at end of file\n'));
    await refused(['--rows', '-', '-0'], g.stdout, 2, /^linewise: rows: row 3: the path is empty: a row names a file before its line number\n$/);
  });

  it('under --null, that name with several lines, one CRLF: grep | replace --rows -0 is the identity (it wrote "\\r\\r\\n")', async () => {
    // a later counterexample: the second row, taken as that file's, lost its "\n" to the marker
    const name = '\\ No newline at end of file\n';
    put(name, 'one\ntwo\r\nthree\n');
    const g = await lw(['grep', '-0', '-H', '']);
    const before = tree(t.dir);
    const r = await lw(['replace', '--rows', '-', '-0'], g.stdout);
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(tree(t.dir)).toEqual(before);
  });

  it('under --null, a decoration line that could begin the next path is refused when that file exists', async () => {
    put('q', 'k\n');
    put('r', 'k\nj\n');
    put('--\nq', 'k\n');
    await refused(['--rows', '-', '--null'], 'r\x002\tJ\n--\nq\x001\tK\n', 2, /row 3 reads two ways: the lines before it, taken as decorations, may be the start of its path/);
    // only the file "--<LF>q" exists: the row is its own
    fs.renameSync(path.join(t.dir, 'q'), path.join(t.dir, 'q.bak'));
    const own = await lw(['replace', '--rows', '-', '--null'], 'r\x002\tJ\n--\nq\x001\tK\n');
    expect([own.status, fs.readFileSync(path.join(t.dir, '--\nq'), 'latin1'), fs.readFileSync(path.join(t.dir, 'r'), 'latin1')]).toEqual([0, 'K\n', 'k\nJ\n']);
    put('r', 'k\nj\n');
    // a marker that was the start of a name: the row before it keeps its "\n"
    put('\\ No newline at end of file\nq', 'k\n');
    const marked = await lw(['replace', '--rows', '-', '--null', '--eol', 'keep'], 'r\x002\tJ\n\\ No newline at end of file\nq\x001\tK\n');
    expect([marked.status, marked.stderr, fs.readFileSync(path.join(t.dir, 'r'), 'latin1'), fs.readFileSync(path.join(t.dir, '\\ No newline at end of file\nq'), 'latin1')]).toEqual([0, '', 'k\nJ\n', 'K\n']);
    fs.renameSync(path.join(t.dir, 'q.bak'), path.join(t.dir, 'q'));
    fs.rmSync(path.join(t.dir, '--\nq'));
    const r = await lw(['replace', '--rows', '-', '--null'], 'r\x002\tJ\n--\nq\x001\tK\n');
    expect([r.status, fs.readFileSync(path.join(t.dir, 'q'), 'latin1'), fs.readFileSync(path.join(t.dir, 'r'), 'latin1')]).toEqual([0, 'K\n', 'k\nJ\n']);
  });
});

describe('rows: receipts and --relocate', () => {
  it('a receipt quotes its paths (footer too) and marks a line without newline; fed back, it is the identity', async () => {
    put('a\tb', 'one\ntwo');
    const r = await lw(['replace', '--rows', '-', '--receipt'], '"a\\tb"\t2\tTWO\n\\ No newline at end of file\n');
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(r.stdout.toString()).toBe('"a\\tb"\t1\tone\n"a\\tb"\t2\tTWO\n\\ No newline at end of file\n\n[Edited "a\\tb": line 2 -> 2; no other line moved.]\n');
    const before = tree(t.dir);
    const back = await lw(['replace', '--rows', '-'], r.stdout);
    expect([back.status, back.stderr]).toEqual([0, '']);
    expect(tree(t.dir)).toEqual(before);
  });

  it('--relocate follows anchored rows whose lines moved as one block', async () => {
    put('f', 'a\nb\nc\n');
    const rows = (await lw(['readlines', 'f', '2', '3', '--anchor'])).stdout.toString();
    put('f', 'new\na\nb\nc\n');
    await refused(['f', '--rows', '-'], rows.replace('b', 'B'), 3, /stale edit/);
    const r = await lw(['replace', 'f', '--rows', '-', '--relocate'], rows.replace('b', 'B'));
    expect([r.status, r.stderr, fs.readFileSync(path.join(t.dir, 'f'), 'latin1')]).toEqual([0, 'linewise: f: relocated lines 2-3 to 3-4\n', 'new\na\nB\nc\n']);
  });
});
