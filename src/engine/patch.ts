// applyPatch: a unified diff or an apply_patch envelope applied to a directory, all or nothing.
// Every path is checked first; then every hunk of every file is located (each changed file
// patched into a sealed temporary file beside it, one file in memory at a time); only when all
// fit is anything written: new files linked in, changed files renamed over theirs through the
// lock and commit `replace` uses, removed files unlinked under their lock.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { Exit, LinewiseError, withPath } from '../core/errors.js';
import { lineCount } from '../core/lines.js';
import { MARK_BYTES, markMovedDown, withoutMark } from '../core/patch/bom.js';
import { buildContent, newFileContent, type Applied, type Landed } from '../core/patch/build.js';
import type { LineSource, NewLines, Pieces } from '../core/patch/content.js';
import { FileLines, lineKey } from '../core/patch/file-lines.js';
import { locateHunks, type Placement } from '../core/patch/locate.js';
import { type FilePatch, type Hunk, parsePatch, withLines } from '../core/patch/parse.js';
import { sideOf } from '../core/patch/types.js';
import { fsPath, quotePath } from '../core/path-names.js';
import { RECEIPT_CONTEXT, type ReceiptEdit, type Shift } from '../core/receipt-regions.js';
import { checkpoint } from '../io/checkpoint.js';
import { commitAll } from '../io/commit.js';
import type { Confinement } from '../io/confine.js';
import { type EditTarget, examineTarget, pinTarget, sameFile, targetPath, unpinTarget } from '../io/edit-target.js';
import { discardPrepared, lock, prepareLock, type PreparedLock, unlock } from '../io/lock.js';
import { makeDirIn, taken, writeNewFileIn } from '../io/new-file.js';
import { realPath } from '../io/real-path.js';
import { syncDir, TempFile, type WriteFn } from '../io/temp-file.js';
import type { FileReceipt } from './apply.js';
import { receiptRegions, RowAllowance } from './receipt-rows.js';
import { codecFor } from '../io/encodings/decoding.js';
import { loadEncoding } from './encodings.js';
import type { Marks } from './diff.js';
import { landedDiff, wholeFileDiff } from './patch-diff.js';
import { OnceOnly, type PatchRoot, safePath, type SafePath } from './patch-paths.js';
import { bytesToWrite, piecesToWrite, readForPatch, type ReadFile } from './patch-read.js';
import { toLine } from './results.js';
import * as v from './validate.js';

/** How {@link applyPatch} applies a patch; every field has the CLI's default. */
export interface PatchOptions {
  /** the directory the patch's paths start from (`--directory`); default `cwd`, else the process's */
  directory?: string;
  /** where a relative `directory` starts; default the process's working directory */
  cwd?: string;
  /** `-p N`: leading path components cut from a unified diff's names (default: git's a/ and b/) */
  strip?: number;
  /** undo the patch (`-R`) */
  reverse?: boolean;
  /** find every hunk, write nothing, return no diff (`--check`) */
  check?: boolean;
  /** find every hunk, write nothing; each changed file gets its unified `diff` (`--dry-run`) */
  dryRun?: boolean;
  /** after the write, each changed file's `receipt` (`--receipt`) */
  receipt?: boolean;
  /**
   * With `receipt`: the most bytes of rows the receipts make, shared by the files in order, a row
   * counted as its number, a tab and its bytes; past it no row is made and each receipt's `spans`
   * still say where every region is (the MCP server's answers). Default: no bound, every row.
   */
  receiptBytes?: number;
  /** when a hunk's lines are not there exactly, match them with runs of whitespace ignored (reported per hunk) */
  ignoreWhitespace?: boolean;
  /**
   * Let a unified diff's hunks without context (diff -U0) go by their line numbers alone. Without
   * it such a hunk applies only where it covers the whole file, as git apply without
   * --unidiff-zero: where lines repeat, a line number cannot tell one place from another, nor a
   * hunk applied before from one not yet (its added lines may stand there already).
   */
  unidiffZero?: boolean;
  /** the files' encoding (`--encoding`); the patch is read as UTF-8 then */
  encoding?: string;
  /**
   * A confinement on top of the directory's own (a server's roots): every path is checked
   * against it after symbolic links are followed, and each changed file's directory is held
   * open through the write (io/confine.ts).
   */
  confine?: Confinement;
  /** cancels before anything is written */
  signal?: AbortSignal;
  /** for tests: how temporary files are written */
  writeFn?: WriteFn;
}

/** What became of one hunk. */
export interface HunkResult {
  /** as the patch wrote it (`@@ -3,4 +3,5 @@`, or an envelope's `@@` line) */
  header: string;
  /** the patch line it starts on */
  patchLine: number;
  /** `applied` at its line, at an `offset`, or with `whitespace` ignored; `already` there (skipped) */
  status: 'applied' | 'already';
  /** lines from where the patch said (0: there) */
  offset: number;
  /** matched only with whitespace ignored (`ignoreWhitespace`) */
  whitespace: boolean;
  /** where its lines are in the file before (`oldStart`, 1-based; `oldLines` of them) and after */
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
}

/** What the patch did to one file. */
export interface PatchedFile {
  /** the file written (the new name of a rename); the removed one for a deletion */
  path: string;
  /** renames and copies: where from */
  from?: string;
  action: FilePatch['action'];
  /** `already`: every hunk (or the creation, deletion, rename) was in place; nothing to write */
  status: 'applied' | 'already';
  /** some byte of the tree differs (or would, in a dry run or check) */
  changed: boolean;
  /** it was written (never in a dry run or check) */
  written: boolean;
  linesBefore: number;
  linesAfter: number;
  hunks: HunkResult[];
  /** dry runs: the unified diff of the change */
  diff?: Buffer;
  /** with `receipt`: the changed regions as they now are */
  receipt?: FileReceipt;
}

/** Flushes of temporary files to disk that may run at once (libuv's pool has 4 threads). */
const SEALS_AT_ONCE = 8;

/** What a patch did, all files or none. */
export interface PatchResult {
  format: 'unified' | 'envelope';
  files: PatchedFile[];
  dryRun: boolean;
  check: boolean;
}

/** One hunk that does not apply. */
export interface HunkFailure {
  path: string;
  header: string;
  patchLine: number;
  why: string;
  /** the place where most of its old lines match, and the first line there that differs */
  near?: { line: number; matching: number; of: number; differs?: { line: number; file: string; hunk: string } };
  /** a hunk without context (diff -U0), refused because `unidiffZero` was not given */
  contextFree?: true;
}

/** Some hunk does not apply: nothing was written (exit 3); `failures` says which and why. */
export class PatchFailedError extends LinewiseError {
  constructor(readonly failures: HunkFailure[]) {
    super('patch-failed', `${failures.length === 1 ? 'a hunk does' : `${failures.length} hunks do`} not apply; nothing was written`, undefined, Exit.stale);
    this.name = 'PatchFailedError';
  }
}

/** One file's plan: what to read, check and write (not its hunks: they are dropped once it is planned). */
interface FileWork {
  report: PatchedFile;
  /** the changed file's temporary file */
  temp?: TempFile;
  /** its creation, write and flush to disk, under way */
  sealing?: Promise<void>;
  target?: EditTarget;
  /** a file to create, its bytes (a rename's: the pieces of the file patched) and mode */
  create?: { real: string; given: string; bytes: Buffer | readonly Buffer[]; mode?: number };
  /** a file to remove, as it was read: `real` is checked unchanged, `name` unlinked (a link, not what it points to) */
  remove?: { real: string; name: string; given: string; stat: fs.BigIntStats; target: EditTarget };
  /** a mode to set after the write */
  chmod?: { real: string; given: string; mode: number };
}

/**
 * Applies a unified diff (`git diff`, `diff -u`, `diff -ruN`) or an apply_patch envelope
 * (`*** Begin Patch`) to the files under `options.directory`, as `linewise patch` does: lines
 * match whatever their terminators, added lines take the terminators around them, a hunk whose
 * result is already there is skipped, and the files are written all together or not at all.
 *
 * @throws {@link PatchFailedError} (exit code 3) when a hunk fits nowhere, or two places equally;
 * {@link LinewiseError} with exit code 2 for a malformed, empty or binary patch and for an unsafe
 * path (absolute, `..`, a symbolic link out of the directory, one file named twice); exit code 3
 * when a file changed while the patch was prepared. Nothing is written in any of these cases.
 *
 * @example
 * ```ts
 * const result = await applyPatch(fs.readFileSync('fix.patch'), { directory: 'repo' });
 * for (const f of result.files) console.log(f.path, f.status);
 * ```
 */
export async function applyPatch(patch: string | Uint8Array, options: PatchOptions = {}): Promise<PatchResult> {
  const o = v.options<PatchOptions>(options, 'options');
  const text = v.textBytes(patch, 'patch');
  const encoding = v.optionalString(o.encoding, 'encoding');
  if (encoding !== undefined) await loadEncoding(encoding);
  const dryRun = v.optionalBoolean(o.dryRun, 'dryRun') === true;
  const check = v.optionalBoolean(o.check, 'check') === true;
  const receiptBytes = v.optionalCount(o.receiptBytes, 'receiptBytes');
  const receipt = v.optionalBoolean(o.receipt, 'receipt') === true && !dryRun && !check ? new RowAllowance(receiptBytes) : undefined;
  const ignoreWhitespace = v.optionalBoolean(o.ignoreWhitespace, 'ignoreWhitespace') === true;
  const unidiffZero = v.optionalBoolean(o.unidiffZero, 'unidiffZero') === true;
  const signal = v.optionalSignal(o.signal);
  const strip = v.optionalCount(o.strip, 'strip');
  const parsed = parsePatch(text, { ...(strip !== undefined ? { strip } : {}), reverse: v.optionalBoolean(o.reverse, 'reverse') === true });
  const dir = path.resolve(v.optionalString(o.cwd, 'cwd') ?? '.', v.optionalString(o.directory, 'directory') ?? '.');
  let rootDir: string;
  try {
    rootDir = realPath(dir);
    if (!fs.statSync(fsPath(rootDir)).isDirectory()) throw new LinewiseError('enotdir', 'is not a directory', dir);
  } catch (e) {
    throw e instanceof LinewiseError ? e : new LinewiseError('enoent', 'the directory to patch in does not exist', dir);
  }
  const root: PatchRoot = { dir: rootDir, ...(o.confine ? { confine: o.confine } : {}) };
  // Every path checked (and no file named twice) before any file is read.
  const once = new OnceOnly();
  const paths = parsed.files.map((fp) => {
    const oldP = fp.oldPath === undefined ? undefined : safePath(root, fp.oldPath);
    const newP = fp.newPath === undefined || fp.newPath === fp.oldPath ? undefined : safePath(root, fp.newPath);
    // a copy undone reads its source, as the copy read it
    const srcP = fp.copyOf === undefined ? undefined : safePath(root, fp.copyOf);
    if (oldP) once.claim(oldP);
    if (newP) once.claim(newP);
    if (srcP) once.claim(srcP);
    return { oldP, newP, srcP };
  });
  const numbered = parsed.format === 'unified';
  const lo = { numbered, ignoreWhitespace, unidiffZero };
  const works: FileWork[] = [];
  const failures: HunkFailure[] = [];
  const writing = !dryRun && !check;
  // Temporary files being flushed to disk, oldest first: a few overlap, so a patch of thousands
  // of files neither waits for each flush in turn nor holds thousands of descriptors.
  const sealing: Promise<void>[] = [];
  // The locks of the directories the commit will rename in, prepared while the next files are
  // planned (io/lock.ts, prepareLock); not under a confinement, where nothing is made in a
  // directory before the commit checks it is still inside.
  const locks = writing && o.confine === undefined ? new Map<string, Promise<PreparedLock>>() : undefined;
  try {
    for (let i = 0; i < parsed.files.length; i++) {
      await checkpoint(signal);
      const w = planFile(parsed.files[i]!, paths[i]!.oldP, paths[i]!.newP ?? paths[i]!.srcP, { ...lo, encoding, writing, dryRun, receipt, confine: o.confine, writeFn: o.writeFn, locks }, failures);
      if (w !== undefined) works.push(w);
      if (w?.sealing) sealing.push(w.sealing);
      if (sealing.length >= SEALS_AT_ONCE) {
        await sealing[0];
        sealing.shift();
      }
    }
    await Promise.all(sealing);
    sealing.length = 0;
    if (failures.length > 0) throw new PatchFailedError(failures);
    if (writing) await commit(works, o.confine, signal, locks);
  } catch (e) {
    // no descriptor is closed under a flush still running, no lock left half made
    await Promise.allSettled(sealing);
    for (const w of works) w.temp?.discard();
    for (const p of locks?.values() ?? []) {
      const made = await p.catch(() => undefined);
      if (made) discardPrepared(made);
    }
    throw e;
  } finally {
    for (const w of works) if (w.target) unpinTarget(w.target);
  }
  return { format: parsed.format, files: works.map((w) => w.report), dryRun, check };
}

interface PlanOptions {
  numbered: boolean;
  ignoreWhitespace: boolean;
  unidiffZero: boolean;
  encoding: string | undefined;
  writing: boolean;
  dryRun: boolean;
  /** each changed file's receipt is made, with rows while the call's budget lasts */
  receipt: RowAllowance | undefined;
  confine: Confinement | undefined;
  writeFn: WriteFn | undefined;
  /** the commit's locks prepared so far, by directory (undefined: none are) */
  locks: Map<string, Promise<PreparedLock>> | undefined;
}

/** Plans one file: located, its new content in a temporary file (when writing); failures collected. */
function planFile(shell: FilePatch, oldP: SafePath | undefined, newP: SafePath | undefined, o: PlanOptions, failures: HunkFailure[]): FileWork | undefined {
  const shown = shell.newPath ?? shell.oldPath!;
  // this file's hunk lines, read from the patch now and garbage once it is planned
  const fp = withLines(shell);
  try {
    switch (fp.action) {
      case 'create':
        return planCreate(fp, newP ?? oldP!, o, failures);
      case 'delete':
        return planDelete(fp, oldP!, o, failures, fp.copyOf !== undefined ? newP : undefined);
      case 'rename':
      case 'copy':
        return planMove(fp, oldP!, newP ?? oldP!, o, failures);
      default:
        return planModify(fp, oldP!, newP, o, failures);
    }
  } catch (e) {
    // a target pinned before the throw is not in the works the caller unpins
    for (const p of pinnedNow.splice(0)) unpinTarget(p);
    throw withPath(e, shown);
  } finally {
    pinnedNow.length = 0;
  }
}

/** Targets pinned while one file is planned (unpinned if its planning throws). */
const pinnedNow: EditTarget[] = [];

/** Pins a target under the confinement, if any. */
function pin(t: EditTarget, o: PlanOptions): void {
  if (!o.confine) return;
  pinTarget(t, o.confine);
  pinnedNow.push(t);
}

const report = (fp: FilePatch, p: string, status: PatchedFile['status'], changed: boolean, extra: Partial<PatchedFile> = {}): PatchedFile => ({
  path: p,
  action: fp.action,
  status,
  changed,
  written: false,
  linesBefore: 0,
  linesAfter: 0,
  hunks: [],
  ...extra,
});

function fail(failures: HunkFailure[], p: string, h: Pick<Hunk, 'header' | 'patchLine'>, why: string, near?: HunkFailure['near'], contextFree?: true): undefined {
  failures.push({ path: p, header: h.header, patchLine: h.patchLine, why, ...(near ? { near } : {}), ...(contextFree ? { contextFree } : {}) });
  return undefined;
}

function planCreate(fp: FilePatch, p: SafePath, o: PlanOptions, failures: HunkFailure[]): FileWork | undefined {
  const content = newFileContent(fp.hunks);
  const lines = lineCount(content);
  const hunks = fp.hunks.map((h) => hunkResult(h, 'applied', 0, false, { oldStart: 0, oldLines: 0, newStart: lines === 0 ? 0 : 1, newLines: lines }));
  if (p.exists) {
    // already there with this very content: applied before
    const r = readForPatch(p.real, p.given, o.encoding);
    // diff and git diff have a UTF-8 mark as line 1's first bytes: a file that starts with one was
    // created by a patch that has it (or by one from linewise's rows, which do not show it)
    const withMark = () => r.bom.length > 0 && r.codec === undefined && sameLines(new FileLines(Buffer.concat([r.bom, r.file.text])), content);
    if (sameLines(r.file, content) || withMark()) return { report: report(fp, p.given, 'already', false, { linesBefore: lines, linesAfter: lines, hunks: hunks.map((h) => ({ ...h, status: 'already' })) }) };
    return fail(failures, p.given, fp.hunks[0] ?? { header: 'new file', patchLine: fp.patchLine }, 'the patch creates it, but a different file is there already');
  }
  const bytes = o.encoding === undefined ? content : bytesToWrite({ bom: Buffer.alloc(0), codec: codecFor(o.encoding) }, content);
  const rep = report(fp, p.given, 'applied', true, { linesAfter: lines, hunks, ...(o.dryRun ? { diff: wholeFileDiff(null, p.given, content) } : {}) });
  return { report: rep, create: { real: p.real, given: p.given, bytes, ...(fp.newMode !== undefined ? { mode: fp.newMode } : {}) } };
}

/** `src`: the source of a copy undone (-R), which the copy, its hunks undone, must be. */
function planDelete(fp: FilePatch, p: SafePath, o: PlanOptions, failures: HunkFailure[], src?: SafePath): FileWork | undefined {
  if (!p.exists) return { report: report(fp, p.given, 'already', false, { hunks: fp.hunks.map((h) => hunkResult(h, 'already', 0, false, { oldStart: 0, oldLines: 0, newStart: 0, newLines: 0 })) }) };
  const target = examineTarget(p.given, p.real);
  pin(target, o);
  const r = readForPatch(targetPath(target), p.given, o.encoding);
  if (src !== undefined) {
    // its hunks hold some of its lines, or none: the copy is known by what it was made from
    const back = src.exists ? patchLines(fp, p.given, r, o, []) : undefined;
    const there = src.exists ? readForPatch(src.real, src.given, o.encoding) : undefined;
    if (back === undefined || there === undefined || !piecesToWrite(back.write, back.content).equals(bytesToWrite(there, there.file.text))) {
      unpinTarget(target);
      return fail(failures, p.given, fp.hunks[0] ?? { header: `copy ${fp.copyOf} -> ${fp.oldPath}`, patchLine: fp.patchLine }, `the patch undoes its copy from ${quotePath(src.given)}, but it is not that copy`);
    }
  } else if (fp.hunks.length > 0) {
    // A unified diff's deletion holds the file's lines: the file must be them (an envelope's does not).
    // a file that starts with a UTF-8 mark: diff's line 1 has it (taken off as a hunk's, bom.ts)
    const hunks = r.bom.length > 0 ? withoutMark(fp.hunks, false).hunks : fp.hunks;
    const want = hunks.flatMap((h) => sideOf(h, 'old').map((l) => lineKey(l.text)));
    const have = r.file;
    const same = have.length === want.length && want.every((k, i) => have.key(i, o.ignoreWhitespace) === k || have.key(i, true) === k);
    if (!same) {
      unpinTarget(target);
      return fail(failures, p.given, fp.hunks[0]!, `the patch deletes it, but its ${have.length} lines are not the ${want.length} the patch removes`);
    }
  }
  const rep = report(fp, p.given, 'applied', true, {
    linesBefore: r.file.length,
    hunks: fp.hunks.map((h) => hunkResult(h, 'applied', 0, false, { oldStart: 1, oldLines: r.file.length, newStart: 0, newLines: 0 })),
    ...(o.dryRun ? { diff: wholeFileDiff(p.given, null, r.file.text) } : {}),
  });
  return { report: rep, target, remove: { real: target.real, name: p.name, given: p.given, stat: r.stat, target } };
}

function planModify(fp: FilePatch, p: SafePath, alt: SafePath | undefined, o: PlanOptions, failures: HunkFailure[]): FileWork | undefined {
  // diff -ru's two names: the one that exists (the old first)
  const at = p.exists ? p : alt?.exists ? alt : p;
  if (!at.exists) {
    // diff -N: a file the old side did not have
    if (fp.maybeCreate) return planCreate({ ...fp, action: 'create' }, at, o, failures);
    // diff -N's deletion, done before
    if (fp.maybeDelete) return planDelete({ ...fp, action: 'delete' }, at, o, failures);
    return fail(failures, at.given, fp.hunks[0] ?? { header: 'file', patchLine: fp.patchLine }, 'no such file to patch');
  }
  const patched = patchExisting(fp, at, o, failures);
  if (patched === undefined) return undefined;
  const { t, r, result } = patched;
  const { content, lines, hunks, linesAfter, changed } = result;
  let mode: number | undefined;
  if (fp.newMode !== undefined && (Number(r.stat.mode) & 0o111) !== (fp.newMode & 0o111)) mode = (Number(r.stat.mode) & 0o7666) | (fp.newMode & 0o111);
  if (fp.maybeDelete && changed && content.length === 0) {
    return { target: t, report: report({ ...fp, action: 'delete' }, at.given, 'applied', true, { linesBefore: r.file.length, hunks, ...(o.dryRun ? { diff: wholeFileDiff(at.given, null, r.file.text) } : {}) }), remove: { real: t.real, name: at.name, given: at.given, stat: r.stat, target: t } };
  }
  const rep = report(fp, at.given, changed || mode !== undefined ? 'applied' : 'already', changed || mode !== undefined, {
    linesBefore: r.file.length,
    linesAfter,
    hunks,
    ...(o.dryRun && changed ? { diff: landedDiff(at.given, at.given, r.file, lines, hunks, result.placedHunks, result.marks) } : {}),
    ...(o.receipt && changed ? { receipt: receiptOf(at.given, lines, hunks, o.receipt) } : {}),
  });
  const w: FileWork = { report: rep, target: t, ...(mode !== undefined ? { chmod: { real: t.real, given: at.given, mode } } : {}) };
  // once a hunk failed nothing will be written: no more temporary files are made
  if (changed && o.writing && failures.length === 0) {
    // created, written and flushed to disk while the next files are planned (applyPatch waits for it)
    // the pieces as they are: views of the file read and the added lines, never joined
    const bytes = piecesToWrite(result.write, content);
    w.sealing = TempFile.createAsync(t, o.writeFn).then((temp) => {
      w.temp = temp;
      temp.writePieces(bytes.parts);
      return temp.sealAsync();
    });
    w.sealing.catch(() => {}); // awaited later; never an unhandled rejection meanwhile
    const dir = path.dirname(t.real);
    if (o.locks !== undefined && !o.locks.has(dir)) {
      const p = prepareLock(t);
      p.catch(() => {}); // awaited by the commit, or on the way out
      o.locks.set(dir, p);
    }
  }
  return w;
}

/** The existing file `p` examined, pinned (under a confinement), read and patched; undefined, unpinned, when a hunk failed. */
function patchExisting(fp: FilePatch, p: SafePath, o: PlanOptions, failures: HunkFailure[]): { t: EditTarget; r: ReadFile; result: Patched } | undefined {
  const t = examineTarget(p.given, p.real);
  pin(t, o);
  const r = readForPatch(targetPath(t), p.given, o.encoding);
  const result = patchLines(fp, p.given, r, o, failures);
  if (result === undefined) {
    unpinTarget(t);
    return undefined;
  }
  return { t, r, result };
}

function planMove(fp: FilePatch, from: SafePath, to: SafePath, o: PlanOptions, failures: HunkFailure[]): FileWork | undefined {
  const first = fp.hunks[0] ?? { header: `${fp.action} ${fp.oldPath} -> ${fp.newPath}`, patchLine: fp.patchLine };
  if (!from.exists) {
    // done before: the source gone (for a rename) and the target holding the result
    if (!to.exists) return fail(failures, from.given, first, `no such file to ${fp.action}`);
    if (fp.action === 'copy') return fail(failures, from.given, first, 'no such file to copy');
    const r = readForPatch(to.real, to.given, o.encoding);
    const result = patchLines(fp, to.given, r, o, []);
    if (result === undefined || result.changed) return fail(failures, to.given, first, `the patch renames ${quotePath(from.given)} to it, but ${quotePath(from.given)} is gone and it is not the renamed file`);
    return { report: report(fp, to.given, 'already', false, { from: from.given, linesBefore: r.file.length, linesAfter: r.file.length, hunks: result.hunks.map((h) => ({ ...h, status: 'already' })) }) };
  }
  if (to.exists) {
    // a copy made before (a rerun): the target holds the source as the patch leaves it, byte for byte
    const done = fp.action === 'copy' ? copiedBefore(fp, from, to, o) : undefined;
    if (done !== undefined) return { report: report(fp, to.given, 'already', false, { from: from.given, linesBefore: done.linesAfter, linesAfter: done.linesAfter, hunks: done.hunks.map((h) => ({ ...h, status: 'already' })) }) };
    return fail(failures, to.given, first, `the patch ${fp.action === 'copy' ? 'copies' : 'renames'} ${quotePath(from.given)} to it, but it exists already`);
  }
  const patched = patchExisting(fp, from, o, failures);
  if (patched === undefined) return undefined;
  const { t, r, result } = patched;
  const mode = fp.newMode !== undefined ? (Number(r.stat.mode) & 0o7666) | (fp.newMode & 0o111) : Number(r.stat.mode) & 0o7777;
  const rep = report(fp, to.given, 'applied', true, {
    from: from.given,
    linesBefore: r.file.length,
    linesAfter: result.linesAfter,
    hunks: result.hunks,
    ...(o.dryRun ? { diff: Buffer.concat([Buffer.from(`${fp.action} ${quotePath(from.given)} -> ${quotePath(to.given)}\n`), result.changed ? landedDiff(from.given, to.given, r.file, result.lines, result.hunks, result.placedHunks, result.marks) : Buffer.alloc(0)]) } : {}),
  });
  return {
    report: rep,
    target: t,
    create: { real: to.real, given: to.given, bytes: piecesToWrite(result.write, result.content).parts, mode },
    ...(fp.action === 'rename' ? { remove: { real: t.real, name: from.name, given: from.given, stat: r.stat, target: t } } : {}),
  };
}

/** The copy `from` -> `to` is there already: the source patched, written as it would be, is `to`'s bytes. */
function copiedBefore(fp: FilePatch, from: SafePath, to: SafePath, o: PlanOptions): Patched | undefined {
  const r = readForPatch(from.real, from.given, o.encoding);
  const result = patchLines(fp, from.given, r, o, []);
  if (result === undefined) return undefined;
  const there = readForPatch(to.real, to.given, o.encoding);
  return piecesToWrite(result.write, result.content).equals(bytesToWrite(there, there.file.text)) ? result : undefined;
}

/** A file's lines patched: every hunk located, the new content built; undefined when a hunk failed (recorded). */
function patchLines(fp: FilePatch, given: string, r: ReadFile, o: PlanOptions, failures: HunkFailure[]): Patched | undefined {
  const file = r.file;
  // a file with a byte order mark: a hunk from diff or git diff has it as line 1's first bytes
  const marked = r.bom.length > 0 ? withoutMark(fp.hunks, file.text.includes(MARK_BYTES)) : undefined;
  const placing = [...(marked?.hunks ?? fp.hunks)];
  const placed: Placement[] = locateHunks(file, placing, { numbered: o.numbered, ignoreWhitespace: o.ignoreWhitespace, unidiffZero: o.unidiffZero });
  // a hunk whose line 1 carried the mark, found below line 1 (its lines without the mark match
  // there): the mark says it is not that place
  placed.forEach((p, k) => {
    if (marked?.top[k] === true && p.status !== 'failed' && p.at !== 0) placed[k] = { status: 'failed', why: `its first line carries the byte order mark, which only line 1 can, but it fits only at line ${p.at + 1}` };
  });
  let ok = true;
  placed.forEach((p, k) => {
    if (p.status === 'failed') {
      ok = false;
      fail(failures, given, placing[k]!, p.why, p.near, p.contextFree);
    }
  });
  if (!ok) return undefined;
  const applied: Applied[] = [];
  placed.forEach((p, k) => {
    if (p.status !== 'apply') return;
    // lines added above a line 1 that had the mark in diff's view: that line keeps it (bom.ts)
    if (marked?.movesMark[k] === true && p.at === 0 && file.length > 0) {
      placing[k] = markMovedDown(placing[k]!, file.key(0, false));
      applied.push({ hunk: placing[k]!, at: 0, length: 1 });
      return;
    }
    applied.push({ hunk: placing[k]!, at: p.at, length: p.length });
  });
  const built = buildContent(r.file, applied);
  const content = built.content;
  let landedAt = 0;
  const hunks = placed.map((p, k) => {
    if (p.status === 'failed') throw new Error('unreachable');
    if (p.status === 'already') return hunkResult(placing[k]!, 'already', p.offset, p.whitespace, { oldStart: p.at + 1, oldLines: p.length, newStart: p.at + 1, newLines: p.length });
    return hunkResult(placing[k]!, 'applied', p.offset, p.whitespace, built.landed[landedAt++]!);
  });
  // A hunk applied whose old side starts with the mark and whose new side does not takes the mark
  // away, as diff saw it. Not from a file decoded by a codec: its mark says its encoding.
  const dropsMark = marked !== undefined && r.codec === undefined && placed.some((p, k) => p.status === 'apply' && marked.dropsMark[k]);
  // compared in place: the stretches the patch left alone are the file's own bytes, not compared
  const changed = dropsMark || !content.equals(r.file.text);
  return {
    content,
    lines: built.lines,
    hunks,
    linesAfter: built.linesAfter,
    changed,
    placedHunks: placing,
    write: dropsMark ? { bom: Buffer.alloc(0), codec: r.codec } : r,
    // --dry-run shows the mark as diff -u does, line 1's first bytes (not a codec's: its diff is of the decoded text)
    ...(r.codec === undefined && r.bom.length > 0 ? { marks: { old: r.bom, new: dropsMark ? Buffer.alloc(0) : r.bom } } : {}),
  };
}

/** A file's lines patched: the new content, and how it is written and shown. */
interface Patched {
  content: Pieces;
  lines: NewLines;
  hunks: HunkResult[];
  linesAfter: number;
  changed: boolean;
  /** the hunks as placed (a byte order mark taken off line 1's, see core/patch/bom.ts) */
  placedHunks: readonly Hunk[];
  /** the mark (and codec) the content is written with */
  write: Pick<ReadFile, 'bom' | 'codec'>;
  /** the file's UTF-8 byte order mark before and after, for --dry-run */
  marks?: Marks;
}

function hunkResult(h: Hunk, status: HunkResult['status'], offset: number, whitespace: boolean, l: Landed): HunkResult {
  return { header: h.header, patchLine: h.patchLine, status, offset, whitespace, oldStart: l.oldStart, oldLines: l.oldLines, newStart: l.newStart, newLines: l.newLines };
}

/** A file's lines hold the content, terminators aside (a creation found done). */
function sameLines(a: FileLines, content: Buffer): boolean {
  // the same bytes (a rerun finds what it wrote): no line to compare
  if (a.text.equals(content)) return true;
  const b = new FileLines(content);
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a.key(i, false) !== b.key(i, false)) return false;
  return true;
}


/**
 * The receipt of a patched file: each applied hunk's new lines with 2 lines of context, and the
 * shifts; rows made while `allow` lasts, the regions past it only as line numbers.
 */
function receiptOf(given: string, content: LineSource, hunks: readonly HunkResult[], allow: RowAllowance): FileReceipt {
  // the new content's lines as the build placed them: only the regions' lines are looked at (a
  // receipt of a two-hunk patch of a 256 MiB file made 2,260,000 views: 3.5 s, 860 MB; then the
  // starts of all its lines, in the content joined into one buffer: 1.2 s, 600 MB); none once the
  // budget is spent (a patch of thousands of files: the count alone)
  const count = content.length;
  const applied = hunks.filter((h) => h.status === 'applied');
  const edits: ReceiptEdit[] = applied.map((h) => ({
    start: h.oldLines === 0 ? h.oldStart + 1 : h.oldStart,
    end: h.oldLines === 0 ? h.oldStart : h.oldStart + h.oldLines - 1,
    newStart: h.newLines === 0 ? h.newStart + 1 : h.newStart,
    newEnd: h.newLines === 0 ? h.newStart : h.newStart + h.newLines - 1,
  }));
  const shifts: Shift[] = [];
  let by = 0;
  for (const e of edits) {
    const d = e.newEnd - e.newStart - (e.end - e.start);
    if (d === 0) continue;
    by += d;
    shifts.push({ after: e.end, by });
  }
  // each hunk's lines and context, merged into the region before when they touch it
  const spans: { lo: number; hi: number }[] = [];
  let lastEnd = 0;
  for (const e of edits) {
    const lo = Math.max(1, e.newStart - RECEIPT_CONTEXT, lastEnd + 1);
    const hi = Math.min(count, Math.max(e.newEnd, e.newStart - 1) + RECEIPT_CONTEXT);
    if (hi < lo) continue;
    if (spans.length > 0 && lo === lastEnd + 1 && lastEnd > 0) spans[spans.length - 1]!.hi = hi;
    else spans.push({ lo, hi });
    lastEnd = hi;
  }
  const made = spans.map(({ lo, hi }) => {
    const rows: ReturnType<typeof toLine>[] = [];
    for (let n = lo; n <= hi && !allow.spent; n++) {
      const bytes = content.line(n - 1);
      if (!allow.take(n, bytes.length)) break;
      rows.push(toLine(given, n, bytes, 0, bytes.length));
    }
    return { rows, span: { first: lo, lines: hi - lo + 1 } };
  });
  return { ...receiptRegions(made), edits, shifts };
}

/**
 * Writes every planned change: new files first (each linked to its name, failing if one took it
 * meanwhile), then the changed files renamed over theirs (locked, checked unchanged), then
 * removals (locked, checked unchanged). A failure before the renames undoes the new files.
 */
async function commit(works: readonly FileWork[], confine: Confinement | undefined, signal: AbortSignal | undefined, locks: ReadonlyMap<string, Promise<PreparedLock>> | undefined): Promise<void> {
  const created: string[] = [];
  const madeDirs: string[] = [];
  try {
    for (const w of works) {
      if (!w.create) continue;
      // under a confinement, each made and written through its parent opened and checked inside it
      for (const d of missingDirs(path.dirname(w.create.real))) {
        makeDirIn(d, w.create.given, confine);
        madeDirs.push(d);
      }
      await checkpoint(signal);
      writeNewFileIn(w.create.real, w.create.given, w.create.bytes, confine, undefined, w.create.mode);
      created.push(w.create.real);
    }
    await checkpoint(signal);
    await commitAll(
      works.flatMap((w) => (w.temp ? [w.temp] : [])),
      signal,
      locks,
    );
  } catch (e) {
    for (const c of created.reverse()) fs.rmSync(fsPath(c), { force: true });
    for (const d of madeDirs.reverse()) fs.rmdirSync(fsPath(d));
    throw e;
  }
  for (const w of works) {
    if (w.temp || w.create) w.report.written = true;
    if (w.chmod) {
      fs.chmodSync(fsPath(w.chmod.real), w.chmod.mode);
      w.report.written = true;
    }
    if (!w.remove) continue;
    const held = await lock(w.remove.target, signal);
    try {
      let now: fs.BigIntStats | undefined;
      try {
        now = fs.statSync(fsPath(w.remove.real), { bigint: true });
      } catch {
        now = undefined;
      }
      if (now === undefined || !sameFile(now, w.remove.stat)) throw new LinewiseError('changed', 'the file changed while the patch was prepared; it was not removed (the other files of the patch were written)', w.remove.given, Exit.stale);
      fs.unlinkSync(fsPath(w.remove.name));
      syncDir(path.dirname(w.remove.name));
    } finally {
      unlock(held);
    }
    w.report.written = true;
  }
}

/** The directories above `dir` that do not exist, outermost first. */
function missingDirs(dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; !taken(d); d = path.dirname(d)) {
    out.unshift(d);
    if (path.dirname(d) === d) break;
  }
  return out;
}
