// The MCP tools at parity with the CLI (issue 23) through the SDK's own client: find_files,
// grep's counts, names, parts and replacements, apply_edits and create_file compared byte for
// byte with the CLI and the disk; files passed over in one line; numbers sent as strings; and
// every error a result with isError in the tool's own words (the test client refuses any text
// holding a CLI flag).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esc, tempDir, writeTree } from '../helpers.js';
import { cli, connect, type Session } from './mcp-client.js';

const tmp = tempDir();
const root = path.join(tmp.dir, 'root');
const outside = path.join(tmp.dir, 'outside');
let s: Session;

const BINARIES = 20;
const bytes = (rel: string) => fs.readFileSync(path.join(root, rel));
/** The CLI's stdout with the server's bounds, for the rows a tool should give. */
const rows = (args: string[]) => cli(['grep', '--max-rows', '200', '--max-bytes', '65536', ...args], root).stdout;

beforeAll(async () => {
  fs.mkdirSync(root);
  writeTree(root, {
    '.gitignore': 'build/\n',
    'src/a.ts': 'const alpha = 1;\nconst beta = alpha + alpha;\n',
    'src/b.test.ts': 'alpha test\n',
    'docs/c.md': 'nothing here\n',
    'build/out.ts': 'alpha\n',
    '.hidden/h.ts': 'alpha\n',
  });
  for (let i = 0; i < BINARIES; i++) writeTree(root, { [`bin/blob${String(i).padStart(2, '0')}.dat`]: Buffer.from(`alpha\0${i}\n`, 'latin1') });
  writeTree(outside, { 'secret.ts': 'alpha secret\n' });
  fs.symlinkSync(path.join(outside, 'secret.ts'), path.join(root, 'src', 'link.ts'));
  fs.symlinkSync(outside, path.join(root, 'out'));
  s = await connect(['--root', root], root);
});
afterAll(async () => {
  await s.close();
  tmp.cleanup();
});

describe('find_files', () => {
  it('lists what grep --files lists (ignore files, hidden files, globs), and pages on by its footer', async () => {
    const all = await s.call('find_files', {});
    expect(all.isError).toBe(false);
    expect(all.texts[0]).toBe(cli(['grep', '--files'], root).stdout);
    expect(all.texts[0]).not.toContain('build/');
    expect(all.records.at(0)).toEqual({ type: 'file', path: 'bin/blob00.dat' });
    const ts = await s.call('find_files', { glob: ['*.ts', '!*.test.ts'] });
    expect(ts.texts[0]).toBe('src/a.ts\n'); // a walk follows no symbolic link
    expect((await s.call('find_files', { paths: ['src/*.test.ts'] })).texts[0]).toBe('src/b.test.ts\n');
    expect((await s.call('find_files', { hidden: true, no_ignore: true, glob: ['*.ts'] })).texts[0]).toBe('.hidden/h.ts\nbuild/out.ts\nsrc/a.ts\nsrc/b.test.ts\n');
    // cut: the footer names find_files and its argument; following it lists the rest, once each
    const first = await s.call('find_files', { glob: ['*.ts'], max_rows: '1' });
    const after = JSON.parse(/Call find_files again with after: ("[^"]*") to go on/.exec(first.texts[0]!)![1]!) as string;
    const rest = await s.call('find_files', { glob: ['*.ts'], after });
    expect(first.texts[0]!.split('\n')[0]! + '\n' + rest.texts[0]).toBe('src/a.ts\nsrc/b.test.ts\n');
  });
});

describe('grep at parity', () => {
  it('files_with_matches, count, only_matching and replace give the CLI\'s rows (-l, -c as rg, -o, --replace)', async () => {
    const paths = ['src', 'docs'];
    const l = await s.call('grep', { pattern: 'alpha', paths, files_with_matches: true });
    expect(l.texts[0]).toBe(rows(['-l', 'alpha', ...paths]));
    expect(l.records.filter((r) => r.type === 'file')).toEqual([{ type: 'file', path: 'src/a.ts' }, { type: 'file', path: 'src/b.test.ts' }]);
    const c = await s.call('grep', { pattern: 'alpha', paths, count: true });
    expect(c.texts[0]).toBe(rows(['-c', '-l', 'alpha', ...paths]));
    expect(c.records.find((r) => r.path === 'src/a.ts')).toEqual({ type: 'file', path: 'src/a.ts', count: 2 });
    const o = await s.call('grep', { pattern: 'al\\w+', paths: ['src/a.ts'], only_matching: true });
    expect(o.texts[0]).toBe(rows(['-o', 'al\\w+', 'src/a.ts']));
    expect(o.records.filter((r) => r.type === 'part')).toEqual([
      { type: 'part', path: 'src/a.ts', line: 1, column: 7, length: 5 },
      { type: 'part', path: 'src/a.ts', line: 2, column: 14, length: 5 },
      { type: 'part', path: 'src/a.ts', line: 2, column: 22, length: 5 },
    ]);
    const r = await s.call('grep', { pattern: 'alpha', paths: ['src/a.ts'], replace: 'ALPHA' });
    expect(r.texts[0]).toBe(rows(['--replace', 'ALPHA', 'alpha', 'src/a.ts']));
    // the replaced rows feed replace_rows as they are
    const w = await s.call('replace_rows', { path: 'src/a.ts', rows: r.texts[0] });
    expect(w.isError, w.texts.join(' ')).toBe(false);
    expect(bytes('src/a.ts').toString()).toBe('const ALPHA = 1;\nconst beta = ALPHA + ALPHA;\n');
    fs.writeFileSync(path.join(root, 'src/a.ts'), 'const alpha = 1;\nconst beta = alpha + alpha;\n');
  });

  it('a tree with binary files: one line counts the files passed over, however many; skipped lists them', async () => {
    const g = await s.call('grep', { pattern: 'alpha', paths: ['bin', 'src/a.ts'] });
    expect(g.isError).toBe(false);
    expect(g.texts).toEqual([rows(['alpha', 'bin', 'src/a.ts']), `linewise: ${BINARIES} files not searched (${BINARIES} binary); call grep again with skipped: true to list them`]);
    // everything beside the rows: that one line, under 100 bytes, for 20 binary files
    expect(Buffer.byteLength(g.texts.slice(1).join(''))).toBeLessThan(100);
    expect(g.records.at(-1)).toEqual({ type: 'summary', matched_lines: 2, errors: 0, skipped: BINARIES });
    expect((await s.call('find_files', { paths: ['bin'] })).records.at(-1)).toEqual({ type: 'summary', files: BINARIES, errors: 0, skipped: 0 });
    const none = await s.call('grep', { pattern: 'zzz-none', paths: ['bin'] });
    expect(none.texts).toEqual([`linewise: ${BINARIES} files not searched (${BINARIES} binary); call grep again with skipped: true to list them\nlinewise: no line matches (the CLI's exit status 1)`]);
    const listed = await s.call('grep', { pattern: 'alpha', paths: ['bin'], skipped: true });
    const lines = listed.texts[0]!.split('\n');
    expect(lines).toHaveLength(BINARIES + 1);
    expect(lines[0]).toBe('linewise: bin/blob00.dat: binary file (it has a NUL byte), not searched');
    expect(lines.at(-1)).toBe("linewise: no line matches (the CLI's exit status 1)");
  });

  it('structuredContent holds positions within the same budget as the rows, never the lines', async () => {
    const many = Array.from({ length: 3000 }, (_, i) => `alpha ${i}\n`).join('');
    writeTree(root, { 'big/many.txt': many });
    const g = await s.call('grep', { pattern: 'a', paths: ['big/many.txt'], max_rows: 3000, max_bytes: 4096 });
    const text = Buffer.byteLength(g.texts.join(''));
    const structured = Buffer.byteLength(JSON.stringify(g.records));
    expect(text).toBeLessThanOrEqual(4096 + 300);
    expect(structured).toBeLessThanOrEqual(4096 + 400);
    expect(JSON.stringify(g.records)).not.toContain('alpha');
    expect(g.records.at(-1)).toMatchObject({ type: 'summary', cut_off: { after: expect.stringMatching(/^big\/many\.txt:\d+$/) } });
    const read = await s.call('read_lines', { path: 'big/many.txt', start: 1 });
    expect(Buffer.byteLength(JSON.stringify(read.records))).toBeLessThan(400); // the summary: range, next start
    // lines that are not UTF-8 are the one copy structuredContent keeps (base64): held to max_bytes too
    writeTree(root, { 'big/latin1.txt': Buffer.from(Array.from({ length: 500 }, (_, i) => `caf\xe9 ${i}\n`).join(''), 'latin1') });
    const l1 = await s.call('read_lines', { path: 'big/latin1.txt', start: 1, max_bytes: 2048 });
    expect(Buffer.byteLength(JSON.stringify(l1.records))).toBeLessThanOrEqual(2048 + 400);
    expect(l1.records.at(-1)).toEqual({ type: 'records_cut', budget: 2048 });
    fs.rmSync(path.join(root, 'big'), { recursive: true });
  });

  it('globs are expanded under the roots: one that starts or climbs out of them is refused, nothing outside read', async () => {
    const up = await s.call('grep', { pattern: 'alpha', paths: ['../*'] });
    expect(up).toMatchObject({ isError: true, error: { code: 'outside-roots' } });
    const linked = await s.call('grep', { pattern: 'alpha', paths: ['out/*.ts'] }); // out: a link to a directory outside
    expect(linked).toMatchObject({ isError: true, error: { code: 'outside-roots' } });
    const climb = await s.call('grep', { pattern: 'alpha', paths: ['src/*/../../*'] });
    expect(climb.texts.join('\n')).toContain('a glob may not climb with ".." after its first wildcard');
    const g = await s.call('grep', { pattern: 'alpha', paths: ['src/*.ts'] });
    expect(g.texts).toEqual(['src/a.ts\t1\tconst alpha = 1;\nsrc/a.ts\t2\tconst beta = alpha + alpha;\nsrc/b.test.ts\t1\talpha test\n']);
    for (const r of [up, linked, climb, g]) expect(r.texts.join('')).not.toContain('secret');
  });
});

describe('apply_edits and create_file', () => {
  it('apply_edits: ranges, an insert and a content edit in one call on a CRLF file, bytes kept; a receipt back', async () => {
    writeTree(root, { 'e/crlf.txt': 'one\r\ntwo\r\nthree\r\nfour\r\n' });
    const r = await s.call('apply_edits', {
      path: 'e/crlf.txt',
      edits: [
        { start: '1', text: 'ONE' },
        { start: 3, end: 2, text: 'inserted' },
        { old: 'four', new: '4' },
      ],
    });
    expect(r.isError, r.texts.join(' ')).toBe(false);
    expect(esc(bytes('e/crlf.txt'))).toBe('ONE\\r\\ntwo\\r\\ninserted\\r\\nthree\\r\\n4\\r\\n');
    expect(r.texts[0]).toMatch(/^1\tONE\r\n/);
    expect(r.records[0]).toMatchObject({ type: 'file', path: 'e/crlf.txt', written: true, lines_before: 4, lines_after: 5 });
    expect(JSON.stringify(r.records)).not.toContain('inserted');
  });

  it('apply_edits is all or nothing: an overlap, a bad edit, an old text not found write nothing', async () => {
    writeTree(root, { 'e/plain.txt': 'a\nb\nc\n' });
    const before = bytes('e/plain.txt');
    const overlap = await s.call('apply_edits', { path: 'e/plain.txt', edits: [{ start: 1, end: 2, text: 'x' }, { old: 'b', new: 'B' }] });
    expect(overlap).toMatchObject({ isError: true, status: 2 });
    const shape = await s.call('apply_edits', { path: 'e/plain.txt', edits: [{ start: 1, text: 'x' }, { line: 2 }] });
    expect(shape).toMatchObject({ isError: true, error: { code: 'bad-edit' } });
    expect(shape.texts[0]).toBe('linewise: edits[1] has line: a range edit takes start, end, text');
    const missing = await s.call('apply_edits', { path: 'e/plain.txt', edits: [{ start: 1, text: 'x' }, { old: 'zzz', new: 'y' }] });
    expect(missing).toMatchObject({ isError: true, status: 3 });
    const empty = await s.call('apply_edits', { path: 'e/plain.txt', edits: [] });
    expect(empty).toMatchObject({ isError: true });
    expect(bytes('e/plain.txt')).toEqual(before);
    // a content edit run again on its own result writes nothing: already applied, status 0, as the CLI's
    const edit = { path: 'e/plain.txt', edits: [{ old: 'b\nc', new: 'B\nc' }] };
    expect((await s.call('apply_edits', edit)).isError).toBe(false);
    const done = bytes('e/plain.txt');
    expect(done.toString()).toBe('a\nB\nc\n');
    const again = await s.call('apply_edits', edit);
    expect(again).toMatchObject({ isError: false, status: 0 });
    expect(again.texts.join('')).toContain('already applied');
    expect(bytes('e/plain.txt')).toEqual(done);
  });

  it('create_file: a new file as given (eol forces endings); again: already applied; another text: refused unless force', async () => {
    const c = await s.call('create_file', { path: 'new/n.txt', text: 'x' });
    expect(c).toMatchObject({ isError: true, error: { code: 'enoent' } }); // no parent directory
    fs.mkdirSync(path.join(root, 'new'));
    const r = await s.call('create_file', { path: 'new/n.txt', text: 'one\ntwo\n', eol: 'crlf' });
    expect(r.isError, r.texts.join(' ')).toBe(false);
    expect(r.texts[0]).toBe('created: new/n.txt (2 lines)\n');
    expect(esc(bytes('new/n.txt'))).toBe('one\\r\\ntwo\\r\\n');
    const again = await s.call('create_file', { path: 'new/n.txt', text: 'one\ntwo\n', eol: 'crlf' });
    expect(again.isError).toBe(false);
    expect(again.texts.join('')).toContain('already applied');
    const other = await s.call('create_file', { path: 'new/n.txt', text: 'other\n' });
    expect(other).toMatchObject({ isError: true, status: 3, error: { code: 'exists' } });
    expect(other.texts[0]).toBe('linewise: new/n.txt: already exists; nothing was written (edit it, or give force: true to replace it whole)');
    const dry = await s.call('create_file', { path: 'new/n.txt', text: 'other\n', force: true, dry_run: true });
    expect(dry.texts[0]).toContain('+other');
    expect(esc(bytes('new/n.txt'))).toBe('one\\r\\ntwo\\r\\n');
    const forced = await s.call('create_file', { path: 'new/n.txt', text: 'other\n', force: true });
    expect([forced.isError, forced.texts[0]]).toEqual([false, 'replaced whole: new/n.txt (1 line)\n']);
    expect(bytes('new/n.txt').toString()).toBe('other\n');
    const out = await s.call('create_file', { path: '../escape.txt', text: 'x' });
    expect(out).toMatchObject({ isError: true, error: { code: 'outside-roots' } });
    expect(fs.existsSync(path.join(tmp.dir, 'escape.txt'))).toBe(false);
  });
});

describe('apply_patch', () => {
  it('applies an LF diff to a CRLF file byte for byte; again: already applied, nothing written; a stale hunk or a path out of the root writes nothing', async () => {
    writeTree(root, { 'p/one.txt': 'a\r\nb\r\nc\r\n', 'p/two.txt': 'x\ny\n' });
    const patch = [
      '--- a/p/one.txt', '+++ b/p/one.txt', '@@ -1,3 +1,3 @@', ' a', '-b', '+B', ' c',
      '--- a/p/two.txt', '+++ b/p/two.txt', '@@ -1,2 +1,3 @@', ' x', ' y', '+z', '',
    ].join('\n');
    const done = await s.call('apply_patch', { patch });
    expect(done.isError).toBe(false);
    expect(esc(bytes('p/one.txt'))).toBe('a\\r\\nB\\r\\nc\\r\\n');
    expect(esc(bytes('p/two.txt'))).toBe('x\\ny\\nz\\n');
    const [one, two] = [bytes('p/one.txt'), bytes('p/two.txt')];
    const again = await s.call('apply_patch', { patch });
    expect(again).toMatchObject({ isError: false, status: 0 });
    expect(again.texts.join('')).toContain('already applied');
    expect([bytes('p/one.txt'), bytes('p/two.txt')]).toEqual([one, two]);
    // one hunk that fits nowhere: neither file is written, the hunk is named
    const stale = patch.replace(' y\n', ' q\n').replace('-b\n+B', '-B\n+BB');
    const refused = await s.call('apply_patch', { patch: stale });
    expect(refused).toMatchObject({ isError: true, status: 3 });
    expect(refused.texts.join('')).toContain('does not apply');
    expect([bytes('p/one.txt'), bytes('p/two.txt')]).toEqual([one, two]);
    const out = await s.call('apply_patch', { patch: '--- a/../outside/secret.ts\n+++ b/../outside/secret.ts\n@@ -1 +1 @@\n-alpha secret\n+gone\n' });
    expect(out).toMatchObject({ isError: true, status: 2 });
    expect(fs.readFileSync(path.join(outside, 'secret.ts'), 'utf8')).toBe('alpha secret\n');
    const dry = await s.call('apply_patch', { patch: patch.replace('+z', '+w').replace('@@ -1,2 +1,3 @@', '@@ -1,3 +1,4 @@').replace(' y\n', ' y\n z\n'), dry_run: true });
    expect(dry.isError).toBe(false);
    expect(dry.texts.join('')).toContain('+w');
    expect(bytes('p/two.txt')).toEqual(two);
  });

  it('a hunk without context: refused naming unidiff_zero (no CLI flag), nothing written; with unidiff_zero: true it applies; the schema has it', async () => {
    writeTree(root, { 'p/z.txt': 'a\n\nb\nc\n' });
    const patch = '--- a/p/z.txt\n+++ b/p/z.txt\n@@ -3 +3 @@\n-b\n+B\n';
    const refused = await s.call('apply_patch', { patch });
    expect(refused).toMatchObject({ isError: true, status: 3 });
    expect(refused.texts.join('')).toContain('no context lines');
    expect(refused.texts.join('')).toContain('(unidiff_zero: true)');
    expect(bytes('p/z.txt')).toEqual(Buffer.from('a\n\nb\nc\n'));
    const done = await s.call('apply_patch', { patch, unidiff_zero: true });
    expect(done).toMatchObject({ isError: false, status: 0 });
    expect(bytes('p/z.txt')).toEqual(Buffer.from('a\n\nB\nc\n'));
    const tools = await s.client.listTools();
    const tool = tools.tools.find((t) => t.name === 'apply_patch')!;
    expect((tool.inputSchema.properties as Record<string, { type?: string }>).unidiff_zero).toMatchObject({ type: 'boolean' });
    expect(JSON.stringify(tool)).not.toMatch(/(^|[^-\w])--[a-z]/);
  });
});

describe('writers\' receipts held to the server\'s bound', () => {
  /** The receipt rows of an answer's text (`N<TAB>...`), and the bytes they take. */
  const receiptRows = (text: string) => text.split('\n').filter((l) => /^\d+\t/.test(l));
  const rowBytes = (rows: string[]) => rows.reduce((n, l) => n + Buffer.byteLength(l), 0);

  it('apply_patch of 60 files: every file written, rows stop at 65536 bytes, and a last line counts what was left out', async () => {
    const files = 60;
    const lines = (f: number, name: string) => Array.from({ length: 200 }, (_, i) => (i % 20 === 10 ? `  call ${name}(${i}); // file ${f}, padded to make the receipt long\n` : `  line ${i} of file ${f}, padded to make the receipt long;\n`));
    const patch: string[] = [];
    for (let f = 0; f < files; f++) {
      const before = lines(f, 'oldName');
      writeTree(root, { [`many/f${f}.ts`]: before.join('') });
      patch.push(`--- a/many/f${f}.ts\n+++ b/many/f${f}.ts\n`);
      for (let h = 10; h < 200; h += 20) {
        patch.push(`@@ -${h - 2},7 +${h - 2},7 @@\n`);
        for (let i = h - 3; i < h + 4; i++) patch.push(i === h ? `-${before[i]}+${lines(f, 'newName')[i]}` : ` ${before[i]}`);
      }
    }
    const done = await s.call('apply_patch', { patch: patch.join('') });
    expect(done.isError).toBe(false);
    for (let f = 0; f < files; f++) expect(bytes(`many/f${f}.ts`).toString()).toBe(lines(f, 'newName').join(''));
    const text = done.texts[0]!;
    const shown = receiptRows(text);
    expect(rowBytes(shown)).toBeLessThanOrEqual(65536);
    expect(rowBytes(shown)).toBeGreaterThan(60000);
    const last = /\[Edited 60 files; the receipts stop at 65536 bytes: (\d+) more rows are not shown \(all those of (\d+) files\)\. Call read_lines to see them\.\]\n$/.exec(text);
    expect(last, text.slice(-300)).not.toBeNull();
    // every region's 11 rows (its hunk's 7 and two more each side) are either shown or counted;
    // files past the bound show no footer
    expect(shown.length + Number(last![1])).toBe(files * 10 * 11);
    const footers = text.split('\n').filter((l) => l.startsWith('[Edited many/'));
    expect(footers.length + Number(last![2])).toBe(files);
    // the records still name every file (a program's account of the call)
    expect(done.records.filter((r) => (r as { type?: string }).type === 'file').length).toBe(files);
  });

  it('apply_edits of 3,000 lines in one file: its rows stop at 65536 bytes, its footer is kept, and the last line counts the rest', async () => {
    writeTree(root, { 'big-edit.txt': 'first\nlast\n' });
    const text = Array.from({ length: 3000 }, (_, i) => `new line ${i} of the edit, long enough to pass the bound`).join('\n');
    const done = await s.call('apply_edits', { path: 'big-edit.txt', edits: [{ start: 2, end: 1, text }] });
    expect(done.isError).toBe(false);
    expect(bytes('big-edit.txt').toString()).toBe(`first\n${text}\nlast\n`);
    const out = done.texts[0]!;
    const shown = receiptRows(out);
    expect(rowBytes(shown)).toBeLessThanOrEqual(65536);
    expect(out).toContain('[Edited big-edit.txt: insert before 2 -> 2-3001; lines after 1 shifted by +3000.]');
    const last = /\[Edited 1 file; the receipts stop at 65536 bytes: (\d+) more rows are not shown\. Call read_lines to see them\.\]\n$/.exec(out);
    expect(last, out.slice(-300)).not.toBeNull();
    // the 3,000 new lines and one line each side of them
    expect(shown.length + Number(last![1])).toBe(3002);
    // the record gives the whole region, its rows shown or not
    expect(done.records.find((r) => (r as { type?: string }).type === 'file')).toMatchObject({
      receipt: { regions: [[1, 3002]], footer: '[Edited big-edit.txt: insert before 2 -> 2-3001; lines after 1 shifted by +3000.]' },
    });
  });

  it('replace_rows over three files: the rows stop at 65536 bytes, and each file\'s record still gives its region', async () => {
    const names = ['a', 'b', 'c'];
    const line = (f: string, i: number, v: string) => `line ${i} of ${f}, ${v}, long enough to pass the bound quickly`;
    for (const f of names) writeTree(root, { [`rr/${f}.txt`]: Array.from({ length: 1000 }, (_, i) => `${line(f, i + 1, 'old')}\n`).join('') });
    const rows = names.flatMap((f) => Array.from({ length: 1000 }, (_, i) => `rr/${f}.txt\t${i + 1}\t${line(f, i + 1, 'new')}\n`)).join('');
    const done = await s.call('replace_rows', { rows });
    expect(done.isError, done.texts.join(' ')).toBe(false);
    for (const f of names) expect(bytes(`rr/${f}.txt`).toString()).toBe(Array.from({ length: 1000 }, (_, i) => `${line(f, i + 1, 'new')}\n`).join(''));
    const out = done.texts[0]!;
    // rows with their paths, as the rows sent had them
    const shown = out.split('\n').filter((l) => /^rr\/[abc]\.txt\t\d+\t/.test(l));
    expect(shown.length).toBeGreaterThan(500);
    expect(rowBytes(shown)).toBeLessThanOrEqual(65536);
    const last = /\[Edited 3 files; the receipts stop at 65536 bytes: (\d+) more rows are not shown \(all those of (\d+) files?\)\. Call read_lines to see them\.\]\n$/.exec(out);
    expect(last, out.slice(-300)).not.toBeNull();
    expect(shown.length + Number(last![1])).toBe(3000);
    // a file's footer lists its 1,000 edits: the files past the bound show none
    expect(out.split('\n').filter((l) => l.startsWith('[Edited rr/')).length + Number(last![2])).toBe(3);
    const files = done.records.filter((r) => (r as { type?: string }).type === 'file') as { path: string; receipt: { regions: unknown } }[];
    expect(files.map((f) => [f.path, f.receipt.regions])).toEqual(names.map((f) => [`rr/${f}.txt`, [[1, 1000]]]));
  });
});

describe('arguments and errors in the tool\'s words', () => {
  it('accepts numbers sent as strings where the schema says integer', async () => {
    writeTree(root, { 'n.txt': 'l1\nl2\nl3\n' });
    expect((await s.call('read_lines', { path: 'n.txt', start: '2', end: '2' })).texts[0]).toBe('2\tl2\n');
    expect((await s.call('page', { path: 'n.txt', offset: '2', limit: '1' })).texts[0]).toBe('3\tl3\n');
    expect((await s.call('replace_lines', { path: 'n.txt', start: '3', text: 'L3' })).isError).toBe(false);
    expect(bytes('n.txt').toString()).toBe('l1\nl2\nL3\n');
  });

  it('refuses bad calls as isError results naming the tool\'s arguments', async () => {
    writeTree(root, { 'w.txt': 'one\ntwo\n' });
    const cases: [string, Record<string, unknown>, string][] = [
      ['grep', { pattern: 'x', only_matching: true, invert: true }, 'linewise: give only_matching or invert, not both'],
      ['page', { path: 'w.txt', last: 1, offset: 1 }, 'linewise: give last or offset, not both'],
      ['grep', { pattern: 'x', max_rows: 0 }, 'linewise: max_rows must be at least 1, not 0'],
      ['grep', { pattern: 'x', max_rows: 'many' }, 'linewise: max_rows must be a whole number from 1, not "many"'],
      ['grep', { pattern: 'x', after: 'nocolon' }, 'linewise: after takes PATH:LINE, PATH:LINE@BYTE or PATH:end, as a footer prints it, not "nocolon"'],
      ['grep', { pattern: 'x', replace: 'a\nb' }, 'linewise: replace TEXT must not hold a line break: a row holds one line; to add lines, use replace_lines'],
      ['page', { path: 'w.txt', offset: 5 }, 'linewise: w.txt: offset 5 is at or past the end: the file has 2 lines (an offset is the number of lines skipped: offset: 1 shows the last line)'],
      ['read_lines', { path: 'w.txt', start: 1, encoding: 'nope' }, "linewise: unknown encoding 'nope'; encoding takes names such as latin1, windows-1252, shift_jis, utf-16le"],
      ['replace_text', { path: 'w.txt', old: 'o', new: '0' }, 'linewise: w.txt: the old text occurs 2 times, starting on lines 1, 2; nothing was written: give more of the text around it so it occurs once, or replace every occurrence (all: true)'],
      ['replace_rows', { rows: '1\tx\n' }, 'linewise: rows: row 1 has no path: name the file, as in replace_rows with path'],
      ['find_files', { pattern: 'x' }, 'linewise: find_files has no argument "pattern"; its arguments are paths, glob, hidden, no_ignore, max_rows, max_bytes, after'],
      ['create_file', { path: 'w.txt' }, 'linewise: create_file needs "text": "" deletes'],
      ['replace_lines', { path: 'w.txt', start: 1, text: 'x', relocate: true }, 'linewise: relocate follows the lines read: give expect (the rows as read), or anchored rows'],
    ];
    for (const [tool, args, message] of cases) {
      const r = await s.call(tool, args);
      expect([tool, r.isError], r.texts.join(' | ')).toEqual([tool, true]);
      expect(r.texts[0], tool).toBe(message);
      expect(r.error?.message, tool).toBe(message.replace(/^linewise: (w\.txt: |rows: )?/, ''));
    }
  });
});
