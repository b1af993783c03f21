// Done-when of issue 25: `git diff A B` of this repository's own history, applied by the built CLI to
// a checkout of A (made with `git archive`), reproduces B byte for byte, on the LF checkout and on
// a CRLF-converted copy of it, twice in a row (the second run writes nothing). Binary files in the
// range would be refused, so the diffs cover text trees only (src, docs, test).
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir, tree } from '../helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = process.env.LINEWISE_BIN ?? path.join(ROOT, 'bin', 'linewise.js');
const tmp = tempDir();
afterAll(() => tmp.cleanup());

const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, maxBuffer: 1 << 28 });

/** How far back the range reaches: up to `want` commits, as many as the clone has. */
function depth(want: number): number {
  const count = Number(git('rev-list', '--count', 'HEAD').toString().trim());
  return Math.max(1, Math.min(want, count - 1));
}

/** The tree `paths` of `rev`, extracted into a new directory. */
function checkout(rev: string, paths: readonly string[], name: string): string {
  const d = path.join(tmp.dir, name);
  fs.mkdirSync(d);
  const archive = git('archive', '--format=tar', rev, '--', ...paths);
  execFileSync('tar', ['-x', '-C', d], { input: archive });
  return d;
}

/** Every text file's LF made CRLF (a Windows checkout); entries of `keep` (new files the patch makes) stay. */
function toCrlf(dir: string, keep: ReadonlySet<string> = new Set(), rel = ''): void {
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = path.join(rel, e.name);
    if (e.isDirectory()) toCrlf(dir, keep, r);
    else if (e.isFile() && !keep.has(r)) {
      const p = path.join(dir, r);
      fs.writeFileSync(p, Buffer.from(fs.readFileSync(p).toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1'));
    }
  }
}

function linewise(args: string[], input: Buffer): { status: number | null; stdout: string; stderr: string } {
  // the bundle runs under this Node; the standalone binary (LINEWISE_BIN) runs alone
  const isJs = BIN.endsWith('.js');
  const r = spawnSync(isJs ? process.execPath : BIN, isJs ? [BIN, ...args] : args, { input, maxBuffer: 1 << 28 });
  return { status: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

describe('git diff A B of this repository, applied to a checkout of A', () => {
  const n = depth(12);
  const A = `HEAD~${n}`;
  const paths = ['src', 'docs', 'test'];

  it(`reproduces B (${A}..HEAD, renames found) byte for byte, twice; -R brings A back`, () => {
    const patch = git('diff', '-M', A, 'HEAD', '--', ...paths);
    expect(patch.length).toBeGreaterThan(0);
    const d = checkout(A, paths, 'lf');
    const want = tree(checkout('HEAD', paths, 'lf-want'));
    const first = linewise(['patch', '-d', d, '--json'], patch);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(tree(d)).toEqual(want);
    const second = linewise(['patch', '-d', d, '--json'], patch);
    expect(second.status).toBe(0);
    const summary = JSON.parse(second.stdout.trim().split('\n').at(-1)!);
    expect(summary).toMatchObject({ type: 'summary', written: 0, changed: 0 });
    expect(tree(d)).toEqual(want);
    const back = linewise(['patch', '-d', d, '-R'], patch);
    expect(back.status).toBe(0);
    const a = tree(checkout(A, paths, 'lf-a'));
    const got = tree(d);
    // directories the patch made stay (as git apply -R leaves them when not empty... and here they are empty)
    for (const k of Object.keys(got)) if (got[k] === 'dir' && a[k] === undefined) delete got[k];
    expect(got).toEqual(a);
  });

  it(`reproduces B on a CRLF checkout of A: the files stay CRLF (new files as the patch writes them), twice`, () => {
    const patch = git('diff', '--no-renames', A, 'HEAD', '--', ...paths);
    const added = new Set(
      git('diff', '--no-renames', '--name-only', '--diff-filter=A', A, 'HEAD', '--', ...paths)
        .toString()
        .split('\n')
        .filter(Boolean),
    );
    const d = checkout(A, paths, 'crlf');
    toCrlf(d);
    const wantDir = checkout('HEAD', paths, 'crlf-want');
    toCrlf(wantDir, added);
    const want = tree(wantDir);
    const first = linewise(['patch', '-d', d], patch);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(tree(d)).toEqual(want);
    const second = linewise(['patch', '-d', d, '--check'], patch);
    expect(second.status).toBe(0);
    const third = linewise(['patch', '-d', d], patch);
    expect(third.status).toBe(0);
    expect(tree(d)).toEqual(want);
  });

  it('a failing hunk in the middle of that history leaves every file untouched and names the nearest match', () => {
    const patch = git('diff', '--no-renames', A, 'HEAD', '--', ...paths);
    const d = checkout(A, paths, 'stale');
    // change one line that some hunk keeps or removes: the first `-` line of the patch
    const text = patch.toString('latin1');
    const file = /^\+\+\+ b\/(.+)$/m.exec(text.slice(0, text.search(/^-[^-]/m)).split(/^diff --git /m).at(-1)!)![1]!;
    const removed = /^-(?!--)(.*)$/m.exec(text)![1]!;
    const p = path.join(d, file);
    fs.writeFileSync(p, Buffer.from(fs.readFileSync(p).toString('latin1').replace(removed, `${removed} // changed since`), 'latin1'));
    const before = tree(d);
    const r = linewise(['patch', '-d', d], patch);
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(new RegExp(`linewise: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: hunk @@ .* does not apply: .*nearest: line \\d+, where \\d+ of its \\d+ old lines match`));
    expect(r.stderr).toMatch(/a hunk does not apply; nothing was written\n$/);
    expect(tree(d)).toEqual(before);
  });
});
