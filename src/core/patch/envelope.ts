// apply_patch envelopes, as Codex-family models write them:
//   *** Begin Patch / *** Add File: P (+ lines) / *** Delete File: P / *** Update File: P
//   [*** Move to: Q] / @@ [context line] / hunk lines / [*** End of File] / *** End Patch
// Paths are taken as written (no -p). An update's hunks carry no line numbers: each is found
// after the one before it (and after its `@@` line when it names one).

import { pathFromBytes } from '../path-names.js';
import { badPatch, type PatchLine } from './lines.js';
import type { FilePatch, Hunk } from './types.js';

export const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const EOF_MARK = '*** End of File';

/** Parses an envelope whose first line (index `from`) is `*** Begin Patch`; throws `bad-patch` naming the line. */
export function parseEnvelope(lines: readonly PatchLine[], from: number): FilePatch[] {
  const files: FilePatch[] = [];
  let i = from + 1;
  const pathAt = (k: number, skip: string) => {
    const p = pathFromBytes(lines[k]!.bytes.subarray(Buffer.byteLength(skip))).trim();
    if (p === '') throw badPatch(k + 1, 'a file line without a path', lines[k]!.text);
    return p;
  };
  for (;;) {
    const line = lines[i];
    if (line === undefined) throw badPatch(i, `the envelope has no "${END}" line`);
    const t = line.text.trimEnd();
    if (t === END) break;
    if (t.startsWith(ADD)) {
      const f: FilePatch = { action: 'create', newPath: pathAt(i, ADD), hunks: [], patchLine: i + 1 };
      const hunk: Hunk = { header: `*** Add File: ${f.newPath}`, patchLine: i + 1, lines: [], oldNoNewline: false, newNoNewline: false };
      i++;
      while (lines[i] !== undefined && !lines[i]!.text.startsWith('*** ')) {
        if (lines[i]!.first !== 0x2b) throw badPatch(i + 1, 'a line of an added file that does not start with "+"', lines[i]!.text);
        hunk.lines.push({ op: '+', text: lines[i]!.body(), crlf: lines[i]!.crlf });
        i++;
      }
      f.hunks.push(hunk);
      files.push(f);
      continue;
    }
    if (t.startsWith(DELETE)) {
      files.push({ action: 'delete', oldPath: pathAt(i, DELETE), hunks: [], patchLine: i + 1 });
      i++;
      continue;
    }
    if (t.startsWith(UPDATE)) {
      const f: FilePatch = { action: 'modify', oldPath: pathAt(i, UPDATE), hunks: [], patchLine: i + 1 };
      f.newPath = f.oldPath;
      i++;
      if (lines[i]?.text.startsWith(MOVE)) {
        f.action = 'rename';
        f.newPath = pathAt(i, MOVE);
        i++;
      }
      i = readHunks(lines, i, f);
      if (f.hunks.length === 0 && f.action === 'modify') throw badPatch(f.patchLine, 'an update with no hunk');
      files.push(f);
      continue;
    }
    throw badPatch(i + 1, `expected "${ADD}", "${DELETE}", "${UPDATE}" or "${END}"`, line.text);
  }
  for (let k = i + 1; k < lines.length; k++) {
    if (lines[k]!.text.trim() !== '') throw badPatch(k + 1, `text after "${END}"`, lines[k]!.text);
  }
  if (files.length === 0) throw badPatch(from + 1, 'an envelope with no file in it');
  return files;
}

/** The hunks of an update, from line `i` to the next `*** ` line; returns that line's index. */
function readHunks(lines: readonly PatchLine[], i: number, f: FilePatch): number {
  let hunk: Hunk | undefined;
  const start = (k: number, header: string, anchor?: Buffer) => {
    hunk = { header, patchLine: k + 1, lines: [], oldNoNewline: false, newNoNewline: false, ...(anchor && anchor.length > 0 ? { anchor } : {}) };
    f.hunks.push(hunk);
  };
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    const t = line.text;
    if (t.trimEnd() === EOF_MARK) {
      if (hunk === undefined) throw badPatch(i + 1, `"${EOF_MARK}" before any hunk line`);
      hunk.atEnd = true;
      continue;
    }
    if (t.startsWith('*** ')) break;
    if (t.startsWith('@@')) {
      // "@@" alone, or "@@ TEXT": the hunk is below the line TEXT
      start(i, t.trimEnd(), line.bytes.subarray(t.startsWith('@@ ') ? 3 : 2));
      continue;
    }
    const c = line.first;
    const op = c === undefined ? ' ' : c === 0x20 ? ' ' : c === 0x2d ? '-' : c === 0x2b ? '+' : undefined;
    if (op === undefined) throw badPatch(i + 1, 'a hunk line that does not start with " ", "-" or "+"', t);
    if (hunk === undefined) start(i, `@@ (line ${i + 1})`);
    if (hunk!.atEnd) throw badPatch(i + 1, `a hunk line after "${EOF_MARK}"`, t);
    hunk!.lines.push({ op, text: line.body(), crlf: line.crlf });
  }
  for (const h of f.hunks) if (h.lines.length === 0) throw badPatch(h.patchLine, 'a hunk with no line in it', h.header);
  return i;
}
