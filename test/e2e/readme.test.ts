// The README's "For agent builders" transcript: every command in it is run with the built CLI (or
// the binary named by LINEWISE_BIN) and the whole block must be exactly what they print, so the
// footer and error strings an agent is told about are the ones it will see. And the README's links
// into docs/ (and theirs), which lead to files and headings that exist, so nothing moved is lost.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { esc, tempDir } from '../helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = process.env.LINEWISE_BIN ?? `${ROOT}bin/linewise.js`;
const tmp = tempDir();
afterAll(() => tmp.cleanup());

function block(readme: string, marker: string): string {
  const m = new RegExp(`<!-- ${marker} -->\\n\`\`\`\\w*\\n([\\s\\S]*?)\`\`\`\\n`).exec(readme);
  if (!m) throw new Error(`README has no block after <!-- ${marker} -->`);
  return m[1]!;
}

/** Runs `linewise ARGS [> FILE]` in `cwd`; a redirect writes stdout to FILE instead of showing it. */
function transcriptOf(command: string, cwd: string): string {
  const words = [...command.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
  expect(words[0]).toBe('linewise');
  let redirect: string | undefined;
  if (words.at(-2) === '>') redirect = words.splice(-2)[1];
  const isJs = BIN.endsWith('.js');
  const args = words.slice(1);
  // the guard trailer's default, as a user has it (the test run turns it off: vitest.config.ts)
  const { LINEWISE_GUARD: _off, ...env } = process.env;
  const r = spawnSync(isJs ? process.execPath : BIN, isJs ? [BIN, ...args] : args, { cwd, env: { ...env, NO_COLOR: '1' } });
  if (redirect !== undefined) writeFileSync(`${cwd}/${redirect}`, r.stdout);
  return `$ ${command}\n${redirect === undefined ? r.stdout.toString() : ''}${r.stderr.toString()}${r.status === 0 ? '' : `[exit ${r.status}]\n`}`;
}

describe('README, for agent builders', () => {
  it('the transcript is what linewise prints, byte for byte', () => {
    const shown = block(readFileSync(`${ROOT}README.md`, 'utf8'), 'agent transcript');
    const cwd = tmp.dir;
    tmp.file('app.ts', 'one\ntwo\nthree\nfour\nfive\n');
    tmp.file('data.bin', 'abc\0def\n');
    tmp.file('wide.txt', `${'x'.repeat(100)}\nend\n`);
    tmp.file('notes.txt', 'todo\ndone');
    const commands = shown.split('\n').filter((l) => l.startsWith('$ ')).map((l) => l.slice(2));
    expect(commands.length).toBeGreaterThanOrEqual(10);
    const actual = commands.map((c) => transcriptOf(c, cwd)).join('');
    expect(esc(actual)).toBe(esc(shown));
    // the error kinds the section promises are all in it
    for (const s of ['is past the end: the file has', 'binary file (it has a NUL byte)', 'stale edit:', 'was cut by page --max-bytes', 'lines remaining from offset', 'occurs 4 times, starting on lines', 'differs from it only in whitespace', '[Edited app.ts: ', '\\ No newline at end of file', '--anchor']) {
      expect(shown).toContain(s);
    }
  });

  it('the prompt paragraph names the commands and statuses the transcript shows', () => {
    const prompt = block(readFileSync(`${ROOT}README.md`, 'utf8'), 'agent prompt');
    for (const s of ['linewise grep', 'linewise readlines', 'linewise page', '--expect', 'Exit 3', 'Exit 2', 'exit 1', '[cut]', '--old', '--new', '--receipt', '--anchor', 'No newline at end of file']) expect(prompt).toContain(s);
  });
});

describe('README, grep as grep and rg users type it', () => {
  it('shows every flag issue 13 added in an example command line', () => {
    const lines = readFileSync(`${ROOT}README.md`, 'utf8').split('\n').filter((l) => l.startsWith('$ linewise grep') || l.includes('| linewise grep'));
    const flags = ['-q', '-o', '-x', '-s', '-f', '-E', '-r', '-R', '-h', '-H', '--include', '--exclude', '--files-without-match', '--colour', '-c', '-l', '--replace', '--max-rows', '--max-bytes', '--after'];
    for (const flag of flags) expect(lines.some((l) => new RegExp(`\\s${flag}(\\s|$)`).test(l)), flag).toBe(true);
  });
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/ /g, '-');
}

/** The anchors of a Markdown file's headings (outside code blocks). */
function anchors(file: string): string[] {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
  return [...text.matchAll(/^#+ (.*)$/gm)].map((m) => anchor(m[1]!));
}

describe('README and docs/, links', () => {
  const docs = readdirSync(`${ROOT}docs`).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);

  it('every file in docs/ is linked from the README', () => {
    const readme = readFileSync(`${ROOT}README.md`, 'utf8');
    for (const doc of docs) expect(readme, doc).toContain(`](${doc}`);
  });

  it('every relative link leads to a file, and every #anchor to a heading in it', () => {
    for (const from of ['README.md', 'CHANGELOG.md', ...docs]) {
      const text = readFileSync(`${ROOT}${from}`, 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [path, hash] = target!.split('#') as [string, string | undefined];
        const file = path === '' ? `${ROOT}${from}` : join(ROOT, dirname(from), path);
        const where = `${from} -> ${target}`;
        expect(existsSync(file), where).toBe(true);
        if (hash !== undefined) expect(anchors(file), where).toContain(hash);
        expect(relative(ROOT, file).startsWith('..'), where).toBe(false);
      }
    }
  });
});
