// The content modes of `replace FILE...`: `--old/--new` (a text by its content, in one file or
// several), `--edits` (several edits as JSON Lines) and `--create` (a new file): their inputs
// read, their engine call made.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { LinewiseError } from '../core/errors.js';
import { parseEdits } from '../core/parse-edits.js';
import { createFile } from '../engine/create.js';
import { applyEdits, type EditRunOptions, type ReplaceResult, replaceText } from '../engine/edit.js';
import { readOptionInput } from '../io/option-input.js';
import { argumentBytes, fsPath } from '../core/path-names.js';
import { isGlob, loadWalker } from '../io/walk.js';
import type { Context } from './context.js';
import type { ReplaceArgs } from './replace.js';

/** The content mode the options ask for (its flag), or undefined for a range or rows. */
export function contentMode(o: ReplaceArgs): string | undefined {
  const modes = [o.old !== undefined || o.oldFrom !== undefined ? '--old' : undefined, o.edits !== undefined ? '--edits' : undefined, o.create ? '--create' : undefined].filter((m) => m !== undefined);
  if (modes.length > 1) throw usage(`${modes.join(' and ')} are different ways to edit: give one`);
  return modes[0];
}

/** How many inputs want standard input (at most one may have it). */
export function stdinUsers(o: ReplaceArgs): number {
  return [o.rows === true || o.rows === '-', o.from === '-', o.expect === '-', o.oldFrom === '-', o.newFrom === '-', o.edits === '-'].filter(Boolean).length;
}

/** Runs the content mode of `o` on `file`; `newText` reads --text, --from or stdin for --create. */
export async function editsOrText(ctx: Context, files: readonly string[], o: ReplaceArgs, options: EditRunOptions, newText: () => Buffer): Promise<ReplaceResult> {
  const file = files[0]!;
  if (o.create) {
    if (o.expect !== undefined) throw usage('--create writes a new file: there are no lines to --expect');
    return createFile(file, newText(), {
      receipt: o.receipt === true,
      eol: o.eol,
      force: o.force === true,
      dryRun: o.dryRun === true,
      ...(o.encoding !== undefined ? { encoding: o.encoding } : {}),
      cwd: ctx.io.cwd,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      ...(o.writeFn ? { writeFn: o.writeFn } : {}),
    });
  }
  if (o.force) throw usage('--force goes with --create');
  if (o.text !== undefined || o.from !== undefined) throw usage(`${o.edits !== undefined ? '--edits brings its own texts' : 'the new text of --old is --new'}; --text and --from apply to a range or --create`);
  if (o.edits !== undefined) {
    if (o.all || o.new !== undefined || o.newFrom !== undefined) throw usage('--edits brings its own texts; --new and --all go with --old');
    const source = o.edits === '-' ? '<stdin>' : o.edits;
    const edits = parseEdits(readOptionInput(ctx.io, o.edits, '--edits'), source);
    if (edits.length === 0) throw new LinewiseError('bad-edit', 'no edits: each line is one edit, {"start":S,"end":E,"text":T} or {"old":O,"new":N}', source);
    return applyEdits(await contentTargets(ctx, files, o), edits, options);
  }
  const old = once(o.old, o.oldFrom, '--old', (f) => readOptionInput(ctx.io, f, '--old-from'));
  const replacement = once(o.new, o.newFrom, '--new', (f) => newTextInput(ctx, f, '--new-from', "to delete the old text, --new ''"));
  if (replacement === undefined) throw usage("--old needs the new text: --new TEXT or --new-from FILE (--new '' deletes the old text)");
  return replaceText(await contentTargets(ctx, files, o), { old: old!, new: replacement, all: o.all === true }, options);
}

/**
 * The files a content edit names: each argument as given, or, where no file of that name exists
 * and it holds a glob character, the files the glob matches (sorted, hidden ones only when its
 * own pattern names them), for shells that pass a quoted glob on. One file: the name as given.
 */
async function contentTargets(ctx: Context, files: readonly string[], o: ReplaceArgs): Promise<string | string[]> {
  if (files.length > 1 && o.expect !== undefined) throw usage('--expect guards the lines of one file: edit one file at a time with it');
  const globs = files.filter((f) => isGlob(f) && !exists(fsPath(path.resolve(ctx.io.cwd, f))));
  if (globs.length === 0) return files.length === 1 ? file0(files) : [...files];
  const walker = await loadWalker({ hidden: false, noIgnore: true, globs: [], follow: false }, true);
  return files.flatMap((f) => {
    if (!globs.includes(f)) return [f];
    const found = walker.glob(f, path.resolve(ctx.io.cwd));
    if (found.length === 0) throw new LinewiseError('no-match', 'no file matches this glob; nothing was written', f);
    return found;
  });
}

const file0 = (files: readonly string[]) => files[0]!;

function exists(p: string | Buffer): boolean {
  try {
    fs.statSync(p);
    return true;
  } catch {
    return false;
  }
}

/** A text given inline (`--old`) or from a file (`--old-from`), not both. */
function once(inline: string | undefined, from: string | undefined, flag: string, read: (f: string) => Buffer): Buffer | undefined {
  if (inline !== undefined && from !== undefined) throw usage(`give ${flag} or ${flag}-from, not both`);
  if (inline !== undefined) return argumentBytes(inline);
  return from === undefined ? undefined : read(from);
}

/**
 * New text read from an option input (`--from`, `--new-from`). Standard input that holds nothing
 * (`</dev/null`, the stdin CI jobs and agent harnesses give, or a command that printed nothing)
 * is refused, never taken for empty text: deleting is said (`--delete`, `--text ''`, `--new ''`),
 * which `empty` names.
 */
export function newTextInput(ctx: Context, source: string, what: string, empty: string): Buffer {
  const text = readOptionInput(ctx.io, source, what);
  if (source === '-' && text.length === 0) {
    throw usage(`standard input is empty, so there is no new text; nothing was written (give --text TEXT or --from FILE; ${empty})`);
  }
  return text;
}

function usage(message: string): LinewiseError {
  return new LinewiseError('usage', message);
}
