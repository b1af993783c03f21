// Content edits that know they are done (issue 24.2) and content edits across files (24.3), run
// through the CLI as the reproductions: every file compared as bytes, before and after.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Exit } from '../../src/core/errors.js';
import { caseFiles, run, tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
const file = caseFiles(tmp.dir);
const bytes = (f: string) => fs.readFileSync(f);
/** What says a file was not written: its bytes, inode and modification time. */
const stamp = (f: string) => {
  const st = fs.statSync(f);
  return [bytes(f).toString('latin1'), st.ino, st.mtimeMs];
};

describe('a content edit run twice', () => {
  it('--old "version 1.2.4" --new "1.2.5": the second run says already applied, exit 0, writes nothing', async () => {
    const { f } = file('{\n  "name": "x",\n  "version": "1.2.4"\n}\n', 'package.json');
    const args = ['replace', f, '--old', '"version": "1.2.4"', '--new', '"version": "1.2.5"'];
    expect((await run(args)).status).toBe(0);
    const after = stamp(f);
    expect(bytes(f)).toEqual(Buffer.from('{\n  "name": "x",\n  "version": "1.2.5"\n}\n'));
    const again = await run(args);
    expect([again.status, again.stdout.length]).toEqual([0, 0]);
    expect(again.stderr).toBe(`linewise: ${f}: already applied: the lines already hold the new text; nothing was written\n`);
    expect(stamp(f)).toEqual(after);
    const json = await run([...args, '--json']);
    expect([json.status, JSON.parse(json.stdout.toString().split('\n')[0]!).already_applied]).toEqual([0, true]);
    expect(stamp(f)).toEqual(after);
  });

  it("--old 'foo()' --new 'foo(); bar()' twice gives one bar(): an old text inside its new text is applied", async () => {
    const { f } = file('a\r\nfoo()\r\nb\r\n');
    const args = ['replace', f, '--old', 'foo()', '--new', 'foo(); bar()'];
    expect((await run(args)).status).toBe(0);
    expect(bytes(f)).toEqual(Buffer.from('a\r\nfoo(); bar()\r\nb\r\n'));
    const after = stamp(f);
    const again = await run(args);
    expect([again.status, again.stderr]).toEqual([0, `linewise: ${f}: already applied: the lines already hold the new text; nothing was written\n`]);
    expect(stamp(f)).toEqual(after);
  });

  it('--all is decided per occurrence: those inside the new text stay, the others are edited, once', async () => {
    const { f } = file('foo()\nfoo(); bar()\nx foo() y\n');
    const args = ['replace', f, '--old', 'foo()', '--new', 'foo(); bar()', '--all'];
    expect((await run(args)).status).toBe(0);
    expect(bytes(f)).toEqual(Buffer.from('foo(); bar()\nfoo(); bar()\nx foo(); bar() y\n'));
    const after = stamp(f);
    expect((await run(args)).status).toBe(0);
    expect(stamp(f)).toEqual(after);
    // without --all, one old text outside the new text and one inside it: the one outside is edited
    const { f: g } = file('foo()\nfoo(); bar()\n');
    expect((await run(['replace', g, '--old', 'foo()', '--new', 'foo(); bar()'])).status).toBe(0);
    expect(bytes(g)).toEqual(Buffer.from('foo(); bar()\nfoo(); bar()\n'));
  });

  it('--edits content edits (and a multi-line one across CRLF lines) run twice: the second writes nothing', async () => {
    const { f, dir } = file('one\r\ntwo\r\nthree\r\nfour\r\n');
    const e = path.join(dir, 'edits.jsonl');
    fs.writeFileSync(e, '{"old":"two\\nthree","new":"2\\n3"}\n{"old":"four","new":"four and more"}\n{"old":"one","new":"one"}\n');
    expect((await run(['replace', f, '--edits', e])).status).toBe(0);
    expect(bytes(f)).toEqual(Buffer.from('one\r\n2\r\n3\r\nfour and more\r\n'));
    const after = stamp(f);
    const again = await run(['replace', f, '--edits', e, '--json']);
    expect([again.status, JSON.parse(again.stdout.toString().split('\n')[0]!).already_applied]).toEqual([0, true]);
    expect(stamp(f)).toEqual(after);
  });

  it('old text absent and new text there more than once: it cannot tell, so refused as not found (exit 3), nothing written', async () => {
    const { f } = file('color: red;\nborder: 1px;\ncolor: red;\n');
    const before = stamp(f);
    const r = await run(['replace', f, '--old', 'color: blue;', '--new', 'color: red;']);
    expect(r.status).toBe(Exit.stale);
    expect(r.stderr).toBe(
      `linewise: ${f}: the old text is not in the file, and its new text occurs 2 times (starting on lines 1, 3), so whether this edit was already applied cannot be told; nothing was written: give more of the text around it, in the old and the new text, so the new text occurs once\n`,
    );
    expect(stamp(f)).toEqual(before);
    // the same when the old text stands only inside the new text, twice
    const { f: g } = file('foo(); bar()\nfoo(); bar()\n');
    const inside = await run(['replace', g, '--old', 'foo()', '--new', 'foo(); bar()']);
    expect([inside.status, inside.stderr]).toEqual([
      Exit.stale,
      `linewise: ${g}: the old text occurs only inside its new text, which occurs 2 times (starting on lines 1, 2), so whether this edit was already applied cannot be told; nothing was written: give more of the text around it, in the old and the new text, so the new text occurs once\n`,
    ]);
    expect(bytes(g)).toEqual(Buffer.from('foo(); bar()\nfoo(); bar()\n'));
    // with --all, every occurrence was asked for: all of them there is applied
    expect((await run(['replace', f, '--old', 'color: blue;', '--new', 'color: red;', '--all'])).status).toBe(0);
    expect(stamp(f)).toEqual(before);
  });

  it('a new text there once does not hide an old text that nearly stands elsewhere (a typo): not found, with the near lines', async () => {
    const { f } = file('let x = 1;\nlet  y = 2;\n');
    const before = stamp(f);
    const r = await run(['replace', f, '--old', 'let y = 2;', '--new', 'let x = 1;']);
    expect([r.status, r.stdout.toString()]).toEqual([Exit.stale, '2\tlet  y = 2;\n']);
    expect(r.stderr).toMatch(/differs from it only in whitespace/);
    expect(stamp(f)).toEqual(before);
  });
});

describe('replace FILE... --old X --new Y', () => {
  it('edits each named file in one batch; run again, each is already applied', async () => {
    const { dir } = file('');
    const a = path.join(dir, 'a.json');
    const b = path.join(dir, 'b.json');
    fs.writeFileSync(a, '{"v": "X"}\n');
    fs.writeFileSync(b, '{\r\n  "v": "X"\r\n}\r\n');
    const r = await run(['replace', a, b, '--old', '"X"', '--new', '"Y"', '--json']);
    expect(r.status).toBe(0);
    expect(r.stdout.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l).changed)).toEqual([true, true, 2]);
    expect([bytes(a), bytes(b)]).toEqual([Buffer.from('{"v": "Y"}\n'), Buffer.from('{\r\n  "v": "Y"\r\n}\r\n')]);
    const after = [stamp(a), stamp(b)];
    const again = await run(['replace', a, b, '--old', '"X"', '--new', '"Y"']);
    expect([again.status, again.stderr.split('\n').filter(Boolean).length]).toEqual([0, 2]);
    expect([stamp(a), stamp(b)]).toEqual(after);
  });

  it('all or nothing: an old text twice in one file (exit 2) or missing in one (exit 3) writes no file', async () => {
    const { dir } = file('');
    const [a, b, c] = ['a.txt', 'b.txt', 'c.txt'].map((n) => path.join(dir, n)) as [string, string, string];
    fs.writeFileSync(a, 'X\n');
    fs.writeFileSync(b, 'X and X\n');
    fs.writeFileSync(c, 'nothing\n');
    const before = [stamp(a), stamp(b), stamp(c)];
    const twice = await run(['replace', a, b, '--old', 'X', '--new', 'Y']);
    expect(twice.status).toBe(Exit.usage);
    expect(twice.stderr).toBe(`linewise: ${b}: the old text occurs 2 times, starting on lines 1, 1; nothing was written: give more of the text around it so it occurs once, or replace every occurrence (--all)\n`);
    const missing = await run(['replace', a, c, '--old', 'X', '--new', 'Y']);
    expect(missing.status).toBe(Exit.stale);
    expect(missing.stderr).toContain(`${c}: the old text is not in the file`);
    expect([stamp(a), stamp(b), stamp(c)]).toEqual(before);
    // --all: every occurrence in every file
    expect((await run(['replace', a, b, '--old', 'X', '--new', 'Y', '--all'])).status).toBe(0);
    expect([bytes(a), bytes(b)]).toEqual([Buffer.from('Y\n'), Buffer.from('Y and Y\n')]);
  });

  it('a quoted glob names the files it matches; the same file twice is refused', async () => {
    const { dir } = file('');
    fs.mkdirSync(path.join(dir, 'conf'));
    for (const n of ['one.json', 'two.json']) fs.writeFileSync(path.join(dir, 'conf', n), '"port": 80\n');
    fs.writeFileSync(path.join(dir, 'conf', 'keep.txt'), '"port": 80\n');
    const r = await run(['replace', 'conf/*.json', '--old', '"port": 80', '--new', '"port": 8080'], { cwd: dir });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(['one.json', 'two.json', 'keep.txt'].map((n) => bytes(path.join(dir, 'conf', n)).toString())).toEqual(['"port": 8080\n', '"port": 8080\n', '"port": 80\n']);
    const none = await run(['replace', 'conf/*.yaml', '--old', 'a', '--new', 'b'], { cwd: dir });
    expect([none.status, none.stderr]).toEqual([Exit.usage, 'linewise: conf/*.yaml: no file matches this glob; nothing was written\n']);
    const same = await run(['replace', 'conf/one.json', './conf/one.json', '--old', '8080', '--new', '9090'], { cwd: dir });
    expect([same.status, same.stderr]).toEqual([Exit.usage, 'linewise: ./conf/one.json: conf/one.json and ./conf/one.json are the same file: name each file once\n']);
  });

  it('the old mistake now works, and a range edit with extra arguments says how to edit several files', async () => {
    const { dir } = file('');
    const a = path.join(dir, 'a.json');
    fs.writeFileSync(a, 'X\n');
    const r = await run(['replace', a, '1', '2', '3', '--text', 'x']);
    expect([r.status, r.stderr]).toEqual([Exit.usage, 'linewise: too many arguments: a range edit is FILE START [END]; to edit several files by content: linewise replace FILE... --old TEXT --new TEXT\n']);
    const create = await run(['replace', a, path.join(dir, 'b'), '--create', '--text', 'x']);
    expect([create.status, create.stderr]).toEqual([Exit.usage, 'linewise: --create takes no START or END: the text is the whole file\n']);
    expect(bytes(a)).toEqual(Buffer.from('X\n'));
  });
});
