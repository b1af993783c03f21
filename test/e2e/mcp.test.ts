// linewise mcp through the SDK's own client over stdio: the tool list, each tool's text and
// structured results against the CLI's own output, and edits of CRLF, no-final-newline, latin1
// and BOM files compared byte for byte on disk.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esc, FIXTURES, tempDir, writeTree } from '../helpers.js';
import { cli, connect, records, type Session } from './mcp-client.js';

const FILES = ['crlf.txt', 'no-final-newline.txt', 'latin1.txt', 'bom-utf8.txt'];
const READERS = ['read_lines', 'page', 'grep', 'find_files'];
const WRITERS = ['replace_lines', 'replace_rows', 'replace_text', 'apply_edits', 'apply_patch', 'create_file'];

const tmp = tempDir();
const root = tmp.dir;
let s: Session;

/** A fresh copy of the fixtures in `root/<name>/`. */
let copies = 0;
function fixtures(): string {
  const dir = `set${copies++}`;
  fs.mkdirSync(path.join(root, dir));
  for (const f of FILES) fs.copyFileSync(path.join(FIXTURES, f), path.join(root, dir, f));
  return dir;
}
const bytes = (rel: string) => fs.readFileSync(path.join(root, rel));

beforeAll(async () => {
  s = await connect(['--root', root], root);
});
afterAll(async () => {
  await s.close();
  tmp.cleanup();
});

describe('linewise mcp: the tools', () => {
  it('lists the ten tools from the declaration: short descriptions, the shared rules once, tools/list within 8 KB', async () => {
    const { tools } = await s.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...READERS, ...WRITERS]);
    // the loop and the row format are said once, in the instructions, not in every description
    expect(s.client.getInstructions()).toContain('The loop: grep (or find_files) to find, read_lines around a hit');
    for (const t of tools) {
      expect(t.description!.length, t.name).toBeLessThan(260);
      expect(t.description, t.name).not.toContain('The loop');
      expect(t.inputSchema.type).toBe('object');
      expect(t.inputSchema.additionalProperties, t.name).toBe(false);
      for (const [name, p] of Object.entries(t.inputSchema.properties ?? {}) as [string, { type?: string }][]) expect(p.type, `${t.name}.${name}`).toBeDefined();
      expect(t.annotations?.readOnlyHint, t.name).toBe(READERS.includes(t.name));
      expect(t.annotations?.destructiveHint === true, t.name).toBe(WRITERS.includes(t.name));
    }
    // replace_lines answers with a receipt: it does not say it is silent
    expect(tools.find((t) => t.name === 'replace_lines')!.description).not.toMatch(/silent/);
    const schema = (n: string) => tools.find((t) => t.name === n)!.inputSchema;
    expect(schema('read_lines').required).toEqual(['path', 'start']);
    expect(Object.keys(schema('grep').properties!)).toEqual(expect.arrayContaining(['pattern', 'paths', 'fixed_strings', 'ignore_case', 'word', 'context', 'glob', 'max_rows', 'max_bytes', 'anchor', 'files_with_matches', 'count', 'only_matching', 'replace', 'skipped']));
    expect(Object.keys(schema('replace_rows').properties!)).toEqual(expect.arrayContaining(['rows', 'expect', 'dry_run']));
    expect(schema('apply_edits').required).toEqual(['path', 'edits']);
    expect(schema('create_file').required).toEqual(['path', 'text']);
    expect(schema('find_files').properties).not.toHaveProperty('pattern');
    // the whole answer to tools/list, as the client receives it
    const listed = await s.client.request({ method: 'tools/list' }, ListToolsResultSchema);
    expect(Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', id: 1, result: listed }))).toBeLessThanOrEqual(8192);
  });

  for (const f of FILES) {
    const enc = f === 'latin1.txt' ? ['--encoding', 'latin1'] : [];
    const encoding = enc.length ? { encoding: 'latin1' } : {};
    it(`read_lines and page on ${f}: the CLI's rows and footer; the --json summary, no line twice`, async () => {
      const dir = fixtures();
      const rel = `${dir}/${f}`;
      const r = await s.call('read_lines', { path: rel, start: 1, ...encoding });
      const c = cli(['readlines', rel, '1', '--max-bytes', '65536', ...enc], root);
      expect(r.isError).toBe(false);
      expect(esc(r.texts[0]!)).toBe(esc(c.stdout));
      expect(r.records).toEqual(records(cli(['readlines', rel, '1', '--max-bytes', '65536', '--json', ...enc], root).stdout).filter((x) => x.type === 'summary'));
      const p = await s.call('page', { path: rel, limit: 1, ...encoding });
      expect(esc(p.texts[0]!)).toBe(esc(cli(['page', rel, '--limit', '1', ...enc], root).stdout));
      expect(p.records).toEqual(records(cli(['page', rel, '--limit', '1', '--json', ...enc], root).stdout).filter((x) => x.type === 'summary'));
    });
  }

  it('read_lines of a latin1 file without its encoding: the bytes exact in structuredContent (that line only), a note in the text', async () => {
    const dir = fixtures();
    const r = await s.call('read_lines', { path: `${dir}/latin1.txt`, start: 1 });
    expect(r.records[0]).toEqual({ type: 'line', line_number: 1, bytes: Buffer.from('caf\xe9', 'latin1').toString('base64'), terminator: '\n' });
    expect(r.records.filter((x) => x.type === 'line')).toHaveLength(2); // "naïve" in latin1 is not UTF-8 either
    expect(r.texts[1]).toContain('not UTF-8, shown here as U+FFFD');
  });

  it('walks a file page by page to its end by the footers: every line once, no footer on the last page', async () => {
    const lines = Array.from({ length: 11 }, (_, i) => `line ${i + 1}${i % 2 ? '\r\n' : '\n'}`);
    writeTree(root, { 'walk.txt': lines.join('') });
    let offset: number | undefined = 0;
    let rows = '';
    let pages = 0;
    while (offset !== undefined) {
      const p = await s.call('page', { path: 'walk.txt', offset, limit: 4 });
      expect(esc(p.texts[0]!)).toBe(esc(cli(['page', 'walk.txt', '--offset', String(offset), '--limit', '4'], root).stdout));
      const footer = /\n\[Read .* from offset (\d+)\.\]\n$/.exec(p.texts[0]!);
      rows += footer ? p.texts[0]!.slice(0, footer.index) : p.texts[0]!; // the rows, without the blank line and footer
      const summary = p.records.at(-1)!;
      offset = footer ? Number(footer[1]) : undefined;
      expect(summary.next_offset ?? undefined).toBe(offset);
      pages++;
    }
    expect(pages).toBe(3);
    expect(esc(rows)).toBe(esc(lines.map((l, i) => `${i + 1}\t${l}`).join('')));
  });

  it("grep speaks rg's dialect, and JavaScript's with perl_regexp; a refusal names the construct (the same call twice: the warm cache keys on the dialect)", async () => {
    const dir = fixtures();
    const rg = await s.call('grep', { pattern: '(?i)ALPHA[[:space:]]*$', paths: [dir] });
    expect(esc(rg.texts[0]!)).toBe(esc(cli(['grep', '--max-rows', '200', '--max-bytes', '65536', '(?i)ALPHA[[:space:]]*$', dir], root).stdout));
    for (let k = 0; k < 2; k++) {
      const refused = await s.call('grep', { pattern: '(?<=al)pha', paths: [dir] });
      expect(refused.isError).toBe(true);
      expect(refused.texts.join('')).toContain("look-around (?<=...) is not in rg's dialect");
      const perl = await s.call('grep', { pattern: '(?<=al)pha', paths: [dir], perl_regexp: true });
      expect([perl.isError, perl.status]).toEqual([false, 0]);
      expect(esc(perl.texts[0]!)).toBe(esc(cli(['grep', '--max-rows', '200', '--max-bytes', '65536', '-P', '(?<=al)pha', dir], root).stdout));
    }
  });

  it('grep over a directory: the CLI\'s rows, and the positions of its --json matches; its footer and after go on', async () => {
    const dir = fixtures();
    const g = await s.call('grep', { pattern: 'a', paths: [dir] });
    expect(esc(g.texts[0]!)).toBe(esc(cli(['grep', '--max-rows', '200', '--max-bytes', '65536', 'a', dir], root).stdout));
    const json = records(cli(['grep', '--max-rows', '200', '--max-bytes', '65536', '--json', 'a', dir], root).stdout);
    type Match = { path: { text: string }; line_number: number; submatches: { start: number; end: number }[] };
    const matches = json.filter((x) => x.type === 'match').map((x) => x.data as Match);
    expect(g.records.filter((x) => x.type === 'match')).toEqual(matches.map((m) => ({ type: 'match', path: m.path.text, line: m.line_number, ranges: m.submatches.map((x) => [x.start, x.end]) })));
    expect(g.records.at(-1)).toEqual({ type: 'summary', matched_lines: matches.length, errors: 0, skipped: 0 });
    expect(JSON.stringify(g.records)).not.toContain('alpha'); // positions, not a second copy of the lines
    const cut = await s.call('grep', { pattern: 'a', paths: [dir], max_rows: 1 });
    // the footer speaks the tool's arguments, never a CLI flag; the rest is the CLI's output
    const after = JSON.parse(/Call grep again with after: ("(?:[^"\\]|\\.)*") to go on/.exec(cut.texts[0]!)![1]!) as string;
    expect(cut.texts[0]!).not.toMatch(/--[a-z]/);
    const cliCut = cli(['grep', '--max-rows', '1', '--max-bytes', '65536', 'a', dir], root).stdout.toString();
    expect(esc(cut.texts[0]!)).toBe(esc(cliCut.replace(/Run the same command with --after (\S+)/, (_, a: string) => `Call grep again with after: ${JSON.stringify(a)}`)));
    const next = await s.call('grep', { pattern: 'a', paths: [dir], max_rows: 1, after });
    const cliNext = cli(['grep', '--max-rows', '1', '--max-bytes', '65536', '--after', after, 'a', dir], root).stdout.toString();
    expect(esc(next.texts[0]!)).toBe(esc(cliNext.replace(/Run the same command with --after (\S+)/, (_, a: string) => `Call grep again with after: ${JSON.stringify(a)}`)));
    const none = await s.call('grep', { pattern: 'zzz-nothing', paths: [dir] });
    expect(none).toMatchObject({ isError: false, status: 1 });
  });

  it('replace_lines keeps each file\'s bytes: CRLF stays CRLF, no final newline stays none, latin1 and the BOM kept', async () => {
    const dir = fixtures();
    const cases: [string, Record<string, unknown>, string][] = [
      ['crlf.txt', { start: 2, text: 'BETA\n' }, 'alpha\r\nBETA\r\ngamma\r\n'],
      ['no-final-newline.txt', { start: 2, text: 'SECOND\n' }, 'first\nSECOND'],
      ['latin1.txt', { start: 1, text: 'CAFÉ', encoding: 'latin1' }, 'CAF\xc9\nna\xefve\n'],
      ['bom-utf8.txt', { start: 1, text: 'HELLO' }, '\xef\xbb\xbfHELLO\r\nworld\r\n'],
    ];
    for (const [f, edit, after] of cases) {
      const r = await s.call('replace_lines', { path: `${dir}/${f}`, ...edit });
      expect(r.isError, `${f}: ${r.texts.join(' ')}`).toBe(false);
      expect(esc(bytes(`${dir}/${f}`)), f).toBe(esc(Buffer.from(after, 'latin1')));
      expect(r.texts[0], f).toMatch(/\n\[Edited .*: line \d -> \d; no other line moved\.\]\n$/);
      expect(r.records[0]).toMatchObject({ type: 'file', written: true, changed: true });
    }
  });

  it('replace_rows applies grep\'s rows with their text edited, in several files at once; a dry run writes nothing', async () => {
    const dir = fixtures();
    const g = await s.call('grep', { pattern: '^(alpha|first)$', paths: [dir] });
    const rows = g.texts[0]!.replace('\talpha\r\n', '\tALPHA\r\n').replace('\tfirst\n', '\tFIRST\n');
    const before = { crlf: bytes(`${dir}/crlf.txt`), nfn: bytes(`${dir}/no-final-newline.txt`) };
    const dry = await s.call('replace_rows', { rows, dry_run: true });
    expect(dry.texts[0]).toContain('-alpha\r\n+ALPHA\r\n');
    expect(bytes(`${dir}/crlf.txt`)).toEqual(before.crlf);
    const r = await s.call('replace_rows', { rows });
    expect(r.isError, r.texts.join(' ')).toBe(false);
    expect(esc(bytes(`${dir}/crlf.txt`))).toBe('ALPHA\\r\\nbeta\\r\\ngamma\\r\\n');
    expect(esc(bytes(`${dir}/no-final-newline.txt`))).toBe('FIRST\\nsecond');
    // rows without paths (from read_lines) name their file with path; the BOM stays
    const one = await s.call('read_lines', { path: `${dir}/bom-utf8.txt`, start: 2, end: 2 });
    const w = await s.call('replace_rows', { path: `${dir}/bom-utf8.txt`, rows: one.texts[0]!.replace('world', 'WORLD') });
    expect(w.isError).toBe(false);
    expect(esc(bytes(`${dir}/bom-utf8.txt`))).toBe('\\xef\\xbb\\xbfhello\\r\\nWORLD\\r\\n');
    // a latin1 file: rows read with its encoding, edited, written back in it
    const l = await s.call('read_lines', { path: `${dir}/latin1.txt`, start: 1, end: 1, encoding: 'latin1' });
    expect(l.texts[0]).toBe('1\tcafé\n');
    const lw = await s.call('replace_rows', { path: `${dir}/latin1.txt`, rows: l.texts[0]!.replace('café', 'crème'), encoding: 'latin1' });
    expect(lw.isError, lw.texts.join(' ')).toBe(false);
    expect(esc(bytes(`${dir}/latin1.txt`))).toBe('cr\\xe8me\\nna\\xefve\\n');
  });

  it('replace_text matches "\\n" against CRLF and writes CRLF; latin1 by its encoding; none or several: an error, nothing written', async () => {
    const dir = fixtures();
    const r = await s.call('replace_text', { path: `${dir}/crlf.txt`, old: 'alpha\nbeta', new: 'ALPHA\nBETA' });
    expect(r.isError, r.texts.join(' ')).toBe(false);
    expect(esc(bytes(`${dir}/crlf.txt`))).toBe('ALPHA\\r\\nBETA\\r\\ngamma\\r\\n');
    await s.call('replace_text', { path: `${dir}/latin1.txt`, old: 'naïve', new: 'NAÏVE', encoding: 'latin1' });
    expect(esc(bytes(`${dir}/latin1.txt`))).toBe('caf\\xe9\\nNA\\xcfVE\\n');
    await s.call('replace_text', { path: `${dir}/no-final-newline.txt`, old: 'second', new: 'last' });
    expect(esc(bytes(`${dir}/no-final-newline.txt`))).toBe('first\\nlast');
    await s.call('replace_text', { path: `${dir}/bom-utf8.txt`, old: 'hello\nworld', new: 'HELLO\nWORLD' });
    expect(esc(bytes(`${dir}/bom-utf8.txt`))).toBe('\\xef\\xbb\\xbfHELLO\\r\\nWORLD\\r\\n');
    // text copied from a latin1 line read without its encoding (U+FFFD for the byte): the encoding is named
    const shown = (await s.call('read_lines', { path: `${dir}/latin1.txt`, start: 1, end: 1 })).texts[0]!;
    expect(shown).toBe('1\tcaf\uFFFD\n');
    const copied = await s.call('replace_text', { path: `${dir}/latin1.txt`, old: shown.slice(2, -1), new: 'cafe' });
    expect(copied).toMatchObject({ isError: true, status: 3, error: { code: 'not-found' } });
    expect(copied.texts[0]!.split('\n')[0]).toBe(
      `linewise: ${dir}/latin1.txt: the old text is not in the file, but line 1 differs from it only in bytes that are not UTF-8 (they read as U+FFFD, so text copied from them cannot match): the file is in another encoding; give it (pass it as the encoding argument, for example encoding: "latin1") (1 line shown below); nothing was written`,
    );
    expect(copied.texts[1]).toBe('1\tcaf\uFFFD\n'); // the line, as read_lines showed it
    expect(esc(bytes(`${dir}/latin1.txt`))).toBe('caf\\xe9\\nNA\\xcfVE\\n');
    const before = bytes(`${dir}/bom-utf8.txt`);
    const missing = await s.call('replace_text', { path: `${dir}/bom-utf8.txt`, old: 'hello', new: 'x' });
    expect(missing).toMatchObject({ isError: true, status: 3 });
    expect(missing.texts[0]).toMatch(/^linewise: .*bom-utf8\.txt: /);
    expect(missing.texts[1]).toBe('1\tHELLO\r\n'); // the near match, as the CLI prints it
    writeTree(root, { [`${dir}/twice.txt`]: 'x = 1\ny = 2\nx = 1\n' });
    const twice = await s.call('replace_text', { path: `${dir}/twice.txt`, old: 'x = 1', new: 'x = 9' });
    expect(twice).toMatchObject({ isError: true, status: 2 });
    expect(bytes(`${dir}/bom-utf8.txt`)).toEqual(before);
    expect(bytes(`${dir}/twice.txt`).toString()).toBe('x = 1\ny = 2\nx = 1\n');
  });

  it('a stale edit (expect no longer holds) is an error result with the current lines, and the file stays as it was', async () => {
    const dir = fixtures();
    const rel = `${dir}/crlf.txt`;
    const read = await s.call('read_lines', { path: rel, start: 2, end: 2 });
    fs.writeFileSync(path.join(root, rel), 'alpha\r\nBETA (changed by someone else)\r\ngamma\r\n');
    const before = bytes(rel);
    const r = await s.call('replace_lines', { path: rel, start: 2, text: 'mine\n', expect: read.texts[0] });
    expect(r).toMatchObject({ isError: true, status: 3, error: { code: 'stale' } });
    expect(r.texts[0]).toBe(`linewise: ${rel}: stale edit: line 2 no longer holds the text read; nothing was written; the current lines are shown below: read again and retry`);
    expect(esc(r.texts[1]!)).toBe('2\\tBETA (changed by someone else)\\r\\n');
    expect(r.records[0]).toEqual({ type: 'stale', path: rel, line_number: 2, terminator: '\r\n' });
    expect(bytes(rel)).toEqual(before);
    const rows = await s.call('replace_rows', { path: rel, rows: '2\tmine\r\n', expect: read.texts[0] });
    expect(rows).toMatchObject({ isError: true, status: 3 });
    expect(bytes(rel)).toEqual(before);
  });

  it('a bad call is an error result in one line, and the server goes on', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['read_lines', { path: 'walk.txt' }, 'linewise: read_lines needs "start": first line (1-based)'],
      ['read_lines', { path: 'walk.txt', start: 'one' }, 'linewise: start must be a whole number from 1, not "one"'],
      ['read_lines', { path: 'walk.txt', start: 99 }, 'linewise: walk.txt: line 99 is past the end: the file has 11 lines'],
      ['page', { path: 'walk.txt', colour: true }, 'linewise: page has no argument "colour"; its arguments are path, offset, limit, last, anchor, encoding, max_bytes'],
      ['grep', { pattern: '(' }, 'linewise: '],
      ['read_lines', { path: 'missing.txt', start: 1 }, 'linewise: missing.txt: no such file or directory'],
      ['read_lines', { path: '.', start: 1 }, 'linewise: .: is a directory, not a file; the server reads regular files only'],
      ['no_such_tool', {}, 'linewise: no tool "no_such_tool": the tools are read_lines, page, grep, find_files, replace_lines, replace_rows, replace_text, apply_edits, apply_patch, create_file'],
    ];
    for (const [tool, args, message] of cases) {
      const r = await s.call(tool, args);
      expect(r.isError, tool).toBe(true);
      expect(r.texts[0]!.startsWith(message), r.texts[0]).toBe(true);
      expect(r.texts[0]).not.toContain('\n');
    }
    expect((await s.call('read_lines', { path: 'walk.txt', start: 1, end: 1 })).texts[0]).toBe('1\tline 1\n');
  });
});
