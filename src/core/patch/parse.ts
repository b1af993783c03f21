// Which kind of patch a text is (a unified diff, an apply_patch envelope, or neither: refused),
// parsed; and a parsed patch reversed (-R).

import { LinewiseError } from '../errors.js';
import { BEGIN, parseEnvelope } from './envelope.js';
import { badPatch, lineAt, nextLine, type PatchLine, patchLines } from './lines.js';
import type { FilePatch, ParsedPatch } from './types.js';
import { reverseHunk } from './types.js';
import { hunkLines, parseUnified } from './unified.js';

export type { FileAction, FilePatch, Hunk, HunkLine, ParsedPatch } from './types.js';

/** How a patch is read. */
export interface ParseOptions {
  /** `-p N`: path components cut from a unified diff's names (default: git's a/ and b/) */
  strip?: number;
  /** `-R`: the patch undone */
  reverse?: boolean;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Parses a patch. Throws `empty-patch`, `binary-patch` or `bad-patch` (exit 2) naming the line
 * for an empty patch, a binary one, or a text that is neither a unified diff nor an envelope.
 */
export function parsePatch(patch: Buffer, o: ParseOptions = {}): ParsedPatch {
  const text = patch.subarray(0, 3).equals(UTF8_BOM) ? patch.subarray(3) : patch;
  // the first line that is not blank says which format it is
  let first = 0;
  let firstLine: PatchLine | undefined;
  for (let at = 0; at < text.length && firstLine === undefined; at = nextLine(text, at), first++) {
    const l = lineAt(text, at);
    if (l.text.trim() !== '') firstLine = l;
  }
  if (firstLine === undefined) throw new LinewiseError('empty-patch', 'the patch is empty: nothing to apply (give a unified diff or a *** Begin Patch envelope)');
  first--;
  let parsed: ParsedPatch;
  if (firstLine.text.trim() === BEGIN) {
    parsed = { format: 'envelope', files: parseEnvelope(patchLines(text), first) };
  } else {
    const files = parseUnified(text, o.strip === undefined ? {} : { strip: o.strip });
    if (files.length === 0) {
      throw badPatch(first + 1, 'neither a unified diff (no "--- " and "+++ " file header, no "diff --git") nor an apply_patch envelope ("*** Begin Patch")', firstLine.text);
    }
    parsed = { format: 'unified', files };
  }
  if (o.reverse && parsed.format === 'envelope') {
    const del = parsed.files.find((f) => f.action === 'delete');
    if (del) throw badPatch(del.patchLine, 'an envelope\'s "*** Delete File" does not hold the file\'s lines, so -R cannot bring it back', `*** Delete File: ${del.oldPath}`);
  }
  return o.reverse ? { ...parsed, files: parsed.files.map(reverseFile) } : parsed;
}

/**
 * The file's patch with its hunks' lines read from the patch (a unified diff leaves them there
 * until the file is planned: see HunkSource); the caller drops it once the file is planned.
 */
export function withLines(f: FilePatch): FilePatch {
  if (!f.hunks.some((h) => h.source !== undefined)) return f;
  return {
    ...f,
    hunks: f.hunks.map((h) => {
      const { source: _, ...rest } = h;
      return { ...rest, lines: hunkLines(h) };
    }),
  };
}

/** A file's patch undone: a creation becomes a deletion, a rename goes back, each hunk reversed. */
export function reverseFile(f: FilePatch): FilePatch {
  const action = f.action === 'create' ? 'delete' : f.action === 'delete' ? 'create' : f.action === 'copy' ? 'delete' : f.action;
  const out: FilePatch = {
    ...f,
    action,
    hunks: f.hunks.map(reverseHunk),
    ...(f.newMode !== undefined || f.oldMode !== undefined ? { newMode: f.oldMode, oldMode: f.newMode } : {}),
    maybeCreate: f.maybeDelete,
    maybeDelete: f.maybeCreate,
  };
  // a copy undone removes the copy
  if (f.action === 'copy') return { ...out, oldPath: f.newPath, newPath: undefined, ...(f.oldPath !== undefined ? { copyOf: f.oldPath } : {}) };
  return { ...out, oldPath: f.newPath, newPath: f.oldPath };
}
