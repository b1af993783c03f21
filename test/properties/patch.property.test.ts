// Properties of `patch` against the real `diff -u`: for random files and random edits, the diff
// applied to the old file gives the new one byte for byte, a second run writes nothing, -R gives
// the old one back; with a failing hunk among several files, no file is touched; and on files of
// a tiny alphabet (lines that repeat everywhere), a run either gives the new file or refuses
// having written nothing, and never writes on a second run. Files with a UTF-8 byte order mark (kept,
// given or taken away) are held to the same three. apply_patch envelopes and diffs with any
// context (0 to 3) of edits to lines that repeat: a second run never edits again.
// fast-check prints the seed and the shrunk counterexample of a failure; replay with { seed, path }.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { applyPatch, PatchFailedError } from '../../src/index.js';
import { esc, tempDir, tree } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

let n = 0;
const fresh = () => {
  const d = path.join(tmp.dir, `p${n++}`);
  fs.mkdirSync(d);
  return d;
};

/** `diff -u a/NAME b/NAME` of two contents (diff's own output: its positions, its markers). */
function diffU(name: string, before: Buffer, after: Buffer, context = 3): Buffer {
  const d = fresh();
  fs.mkdirSync(path.join(d, 'a'));
  fs.mkdirSync(path.join(d, 'b'));
  fs.writeFileSync(path.join(d, 'a', name), before);
  fs.writeFileSync(path.join(d, 'b', name), after);
  const r = spawnSync('diff', [`-U${context}`, `a/${name}`, `b/${name}`], { cwd: d });
  if (r.status !== 0 && r.status !== 1) throw new Error(`diff failed: ${r.stderr}`);
  return r.stdout;
}

/** Lines rendered in one style, the last maybe without a terminator. */
function render(lines: readonly string[], eol: string, open: boolean): Buffer {
  return Buffer.from(lines.map((l, i) => (i === lines.length - 1 && open ? l : l + eol)).join(''), 'latin1');
}

/** An edit of a list of lines: at `at`, `remove` lines go and `insert` come. */
const edit = fc.record({ at: fc.nat(), remove: fc.nat({ max: 3 }), insert: fc.array(fc.nat({ max: 1_000_000 }), { maxLength: 3 }) });

function applyEdits(lines: string[], edits: readonly { at: number; remove: number; insert: number[] }[], word: (k: number) => string): string[] {
  const out = [...lines];
  for (const e of edits) {
    const at = out.length === 0 ? 0 : e.at % (out.length + 1);
    out.splice(at, e.remove, ...e.insert.map(word));
  }
  return out;
}

/** Distinct lines (a counter in each), with bytes that are not UTF-8 and tabs in some. */
const distinct = fc.array(fc.constantFrom('x', 'caf\xe9', '\tindent', 'a b', ''), { minLength: 0, maxLength: 30 }).map((words) => words.map((w, i) => `${w} ${i}`));

describe('diff -u old new | linewise patch', () => {
  it('gives new byte for byte; a second run writes nothing; -R gives old', async () => {
    await fc.assert(
      fc.asyncProperty(distinct, fc.array(edit, { minLength: 1, maxLength: 4 }), fc.constantFrom('\n', '\r\n'), fc.boolean(), async (lines, edits, eol, open) => {
        const after = applyEdits(lines, edits, (k) => `new ${k} \xff`);
        const before = render(lines, eol, open && lines.length > 0);
        const want = render(after, eol, open && after.length > 0);
        const patch = diffU('f.txt', before, want);
        fc.pre(patch.length > 0);
        const d = fresh();
        const f = path.join(d, 'f.txt');
        fs.writeFileSync(f, before);
        await applyPatch(patch, { directory: d });
        expect(esc(fs.readFileSync(f))).toBe(esc(want));
        const st = fs.statSync(f, { bigint: true });
        const again = await applyPatch(patch, { directory: d });
        expect(again.files.every((x) => !x.written)).toBe(true);
        const st2 = fs.statSync(f, { bigint: true });
        expect([st2.ino, st2.mtimeNs]).toEqual([st.ino, st.mtimeNs]);
        await applyPatch(patch, { directory: d, reverse: true });
        expect(esc(fs.readFileSync(f))).toBe(esc(before));
      }),
      { numRuns: 120 },
    );
  });

  it('files with a UTF-8 byte order mark (kept, given or taken away; lines that start with U+FEFF): gives new; a second run writes nothing; -R gives old', async () => {
    // diff sees the mark as line 1's first bytes, linewise keeps it apart (core/patch/bom.ts)
    const MARK = '\xef\xbb\xbf';
    const marked = (b: Buffer, m: boolean) => (m ? Buffer.concat([Buffer.from(MARK, 'latin1'), b]) : b);
    await fc.assert(
      fc.asyncProperty(distinct, fc.array(edit, { minLength: 1, maxLength: 4 }), fc.constantFrom('\n', '\r\n'), fc.boolean(), fc.boolean(), fc.boolean(), fc.integer({ min: 1, max: 3 }), async (lines, edits, eol, open, markBefore, markAfter, ctx) => {
        const after = applyEdits(lines, edits, (k) => (k % 3 === 0 ? `${MARK}new ${k}` : `new ${k} \xff`));
        const before = marked(render(lines, eol, open && lines.length > 0), markBefore);
        const want = marked(render(after, eol, open && after.length > 0), markAfter);
        const patch = diffU('f.txt', before, want, ctx);
        fc.pre(patch.length > 0);
        const d = fresh();
        const f = path.join(d, 'f.txt');
        fs.writeFileSync(f, before);
        await applyPatch(patch, { directory: d });
        expect(esc(fs.readFileSync(f))).toBe(esc(want));
        const again = await applyPatch(patch, { directory: d });
        expect(again.files.every((x) => !x.written)).toBe(true);
        expect(esc(fs.readFileSync(f))).toBe(esc(want));
        await applyPatch(patch, { directory: d, reverse: true });
        expect(esc(fs.readFileSync(f))).toBe(esc(before));
      }),
      { numRuns: 150 },
    );
  });

  it('--dry-run writes nothing, and its diff (made from where the hunks landed) applied to old gives new', async () => {
    // distinct lines, and lines of a tiny alphabet that repeat everywhere (where a diff can align in many ways)
    const tiny = fc.array(fc.constantFrom('a', 'b', ''), { minLength: 0, maxLength: 30 });
    // any context (0 to 3, or every line: git diff -W's kind), and a file whose last line has no
    // terminator patched by a diff made where it had one (lines added after it give it one)
    const context = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constant(2000));
    await fc.assert(
      fc.asyncProperty(fc.oneof(distinct, tiny), fc.array(edit, { minLength: 1, maxLength: 5 }), fc.constantFrom('\n', '\r\n'), fc.boolean(), context, fc.boolean(), async (lines, edits, eol, open, ctx, cut) => {
        const after = applyEdits(lines, edits, (k) => (k % 2 === 0 ? `new ${k} \xff` : ['a', 'b', ''][k % 3]!));
        const madeOn = render(lines, eol, open && lines.length > 0);
        const patch = diffU('f.txt', madeOn, render(after, eol, open && after.length > 0), ctx);
        fc.pre(patch.length > 0);
        const before = cut && madeOn.at(-1) === 10 ? madeOn.subarray(0, madeOn.length - (eol === '\r\n' ? 2 : 1)) : madeOn;
        // what a real run writes is the new file, whatever the dry run shows
        const real = fresh();
        fs.writeFileSync(path.join(real, 'f.txt'), before);
        const wrote = await applyPatch(patch, { directory: real }).catch((e: unknown) => {
          if (e instanceof PatchFailedError) return undefined;
          throw e;
        });
        if (wrote === undefined || !wrote.files[0]!.changed) return;
        const want = fs.readFileSync(path.join(real, 'f.txt'));
        const d = fresh();
        const f = path.join(d, 'f.txt');
        fs.writeFileSync(f, before);
        // lines that repeat everywhere may make a hunk's place ambiguous: refused, nothing to show
        const dry = await applyPatch(patch, { directory: d, dryRun: true }).catch((e: unknown) => {
          if (e instanceof PatchFailedError) return undefined;
          throw e;
        });
        expect(esc(fs.readFileSync(f))).toBe(esc(before));
        if (dry === undefined) return;
        const shown = dry.files[0]!.diff!;
        const again = fresh();
        fs.writeFileSync(path.join(again, 'f.txt'), before);
        const applied = await applyPatch(shown, { directory: again });
        expect(esc(fs.readFileSync(path.join(again, 'f.txt')))).toBe(esc(want));
        // its line numbers are where the lines are: every hunk lands where it says
        expect(applied.files[0]!.hunks.map((h) => h.offset)).toEqual(applied.files[0]!.hunks.map(() => 0));
        // it shows no more changed lines than diff -u of the two files does
        const changes = (p: Buffer) => p.toString('latin1').split('\n').filter((l) => /^[-+](?![-+]{2} )/.test(l)).length;
        expect(changes(shown)).toBeLessThanOrEqual(changes(diffU('f.txt', before, want)));
      }),
      { numRuns: 150 },
    );
  });

  it('an LF diff applies to the CRLF copy of the file, which stays CRLF', async () => {
    await fc.assert(
      fc.asyncProperty(distinct, fc.array(edit, { minLength: 1, maxLength: 4 }), async (lines, edits) => {
        const after = applyEdits(lines, edits, (k) => `new ${k}`);
        const patch = diffU('f.txt', render(lines, '\n', false), render(after, '\n', false));
        // (an empty file has no endings of its own: new lines then take the patch's)
        fc.pre(patch.length > 0 && lines.length > 0);
        const d = fresh();
        const f = path.join(d, 'f.txt');
        fs.writeFileSync(f, render(lines, '\r\n', false));
        await applyPatch(patch, { directory: d });
        expect(esc(fs.readFileSync(f))).toBe(esc(render(after, '\r\n', false)));
      }),
      { numRuns: 60 },
    );
  });

  it('N files with one failing hunk: none is written', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(distinct, fc.array(edit, { minLength: 1, maxLength: 3 })), { minLength: 2, maxLength: 5 }), fc.nat(), async (files, pick) => {
        const d = fresh();
        const patches: Buffer[] = [];
        const targets: number[] = [];
        files.forEach(([lines, edits], i) => {
          const after = applyEdits(lines, edits, (k) => `new ${k}`);
          const p = diffU(`f${i}.txt`, render(lines, '\n', false), render(after, '\n', false));
          fs.writeFileSync(path.join(d, `f${i}.txt`), render(lines, '\n', false));
          if (p.length > 0) {
            patches.push(p);
            targets.push(i);
          }
        });
        fc.pre(targets.length > 0);
        // the file of one patch changed since the diff: every line it removes or keeps rewritten
        const bad = targets[pick % targets.length]!;
        const [lines] = files[bad]!;
        fs.writeFileSync(path.join(d, `f${bad}.txt`), render(lines.map((l) => `${l} changed`), '\n', false));
        const snap = tree(d);
        const e = await applyPatch(Buffer.concat(patches), { directory: d }).then(
          () => undefined,
          (x: unknown) => x,
        );
        // a diff that only adds to an empty file has nothing to miss: it applies, to every file
        if (lines.length === 0) return;
        expect(e).toBeInstanceOf(PatchFailedError);
        expect((e as PatchFailedError).failures.every((x) => x.path === `f${bad}.txt`)).toBe(true);
        expect(tree(d)).toEqual(snap);
      }),
      { numRuns: 40 },
    );
  });

  it('lines that repeat everywhere: the new file, or a refusal that wrote nothing; never a write on a second run', async () => {
    const word = fc.constantFrom('a', 'b', '');
    await fc.assert(
      fc.asyncProperty(fc.array(word, { maxLength: 12 }), fc.array(edit, { minLength: 1, maxLength: 3 }), async (lines, edits) => {
        const after = applyEdits(lines, edits, (k) => ['a', 'b', ''][k % 3]!);
        const before = render(lines, '\n', false);
        const want = render(after, '\n', false);
        const patch = diffU('f.txt', before, want);
        fc.pre(patch.length > 0);
        const d = fresh();
        const f = path.join(d, 'f.txt');
        fs.writeFileSync(f, before);
        try {
          await applyPatch(patch, { directory: d });
        } catch (e) {
          expect(e).toBeInstanceOf(PatchFailedError);
          expect(esc(fs.readFileSync(f))).toBe(esc(before));
          return;
        }
        expect(esc(fs.readFileSync(f))).toBe(esc(want));
        try {
          const again = await applyPatch(patch, { directory: d });
          expect(again.files.every((x) => !x.written)).toBe(true);
        } catch (e) {
          expect(e).toBeInstanceOf(PatchFailedError);
        }
        expect(esc(fs.readFileSync(f))).toBe(esc(want));
      }),
      { numRuns: 150 },
    );
  });
});

describe('run twice on lines that repeat: never a second edit', () => {
  it('an envelope (any context, a @@ line or not, *** End of File or not) or a diff -U0..3 of one edit (-U0 allowed by line numbers or not): the second run writes nothing, or is refused having written nothing; a diff placed by its context gives the new file', async () => {
    const tiny = fc.array(fc.constantFrom('a', 'b', 'c', 'x', 'y'), { minLength: 1, maxLength: 8 });
    await fc.assert(
      fc.asyncProperty(tiny, fc.nat(), fc.nat({ max: 2 }), fc.array(fc.constantFrom('a', 'b', 'x'), { maxLength: 2 }), fc.nat({ max: 3 }), fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean(), async (lines, at0, remove, insert, ctx, envelope, anchored, eof, zero) => {
        const at = at0 % (lines.length + 1);
        const k = Math.min(remove, lines.length - at);
        const after = [...lines.slice(0, at), ...insert, ...lines.slice(at + k)];
        if (after.join() === lines.join()) return;
        const before = render(lines, '\n', false);
        let patch: Buffer;
        if (envelope) {
          const lo = Math.max(0, at - ctx);
          const hi = Math.min(lines.length, at + k + ctx);
          const anchor = anchored && lo > 0 ? `@@ ${lines[lo - 1]}\n` : '@@\n';
          const body = [...lines.slice(lo, at).map((l) => ` ${l}`), ...lines.slice(at, at + k).map((l) => `-${l}`), ...insert.map((l) => `+${l}`), ...lines.slice(at + k, hi).map((l) => ` ${l}`)];
          patch = Buffer.from(`*** Begin Patch\n*** Update File: f.txt\n${anchor}${body.join('\n')}\n${eof && hi === lines.length ? '*** End of File\n' : ''}*** End Patch\n`);
        } else patch = diffU('f.txt', before, render(after, '\n', false), ctx);
        const d = fresh();
        const f = path.join(d, 'f.txt');
        fs.writeFileSync(f, before);
        try {
          await applyPatch(patch, { directory: d, unidiffZero: zero });
        } catch (e) {
          if (!(e instanceof PatchFailedError)) throw e;
          expect(esc(fs.readFileSync(f))).toBe(esc(before));
          return;
        }
        const once = fs.readFileSync(f);
        // not told to go by line numbers alone, a diff that applies gives the new file: a hunk
        // without context is refused, not taken for applied where its added lines stand already
        if (!envelope && !zero) expect(esc(once)).toBe(esc(render(after, '\n', false)));
        try {
          await applyPatch(patch, { directory: d, unidiffZero: zero });
        } catch (e) {
          if (!(e instanceof PatchFailedError)) throw e;
        }
        expect(esc(fs.readFileSync(f))).toBe(esc(once));
      }),
      { numRuns: 400 },
    );
  });

  it('a diff -U0..3 of several edits, LF or CRLF: the new file (unless -U0 goes by line numbers alone), a second run writes nothing, -R gives the old (with context), and a refusal writes nothing', async () => {
    const tiny = fc.array(fc.constantFrom('a', 'b', 'c', 'x', 'y', 'z'), { minLength: 1, maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(tiny, fc.array(edit, { minLength: 2, maxLength: 3 }), fc.constantFrom('\n', '\r\n'), fc.nat({ max: 3 }), fc.boolean(), async (lines, edits, eol, ctx, zero) => {
        const after = applyEdits(lines, edits, (k) => ['a', 'b', 'x', 'w'][k % 4]!);
        if (after.join() === lines.join()) return;
        const before = render(lines, eol, false);
        const want = render(after, eol, false);
        const patch = diffU('f.txt', before, want, ctx);
        const d = fresh();
        const f = path.join(d, 'f.txt');
        fs.writeFileSync(f, before);
        const quiet = async (o: { reverse?: boolean }) => {
          try {
            await applyPatch(patch, { directory: d, unidiffZero: zero, ...o });
            return true;
          } catch (e) {
            if (!(e instanceof PatchFailedError)) throw e;
            return false;
          }
        };
        if (!(await quiet({}))) {
          expect(esc(fs.readFileSync(f))).toBe(esc(before));
          return;
        }
        const once = esc(fs.readFileSync(f));
        if (ctx > 0 || !zero) expect(once).toBe(esc(want));
        await quiet({});
        expect(esc(fs.readFileSync(f))).toBe(once);
        // undone: the old file, or refused having written nothing (with context; without, lines
        // added equal to those at their place are taken as in place, docs/COMMANDS.md, so -R is
        // held to the rerun rule only: it never edits twice)
        if (ctx === 0 && zero) return;
        if (await quiet({ reverse: true })) expect(esc(fs.readFileSync(f))).toBe(esc(before));
        else expect(esc(fs.readFileSync(f))).toBe(once);
      }),
      { numRuns: 300 },
    );
  });
});
