// A patch's lines as the parsers see them: the bytes of each line without its "\n" (and without a
// "\r" before it), and the line's text for matching headers; errors that name the patch line.

import { LinewiseError } from '../errors.js';

/** One line of a patch; its text is decoded only when asked (a hunk's lines never are). */
export class PatchLine {
  private decoded: string | undefined;

  constructor(
    /** the line's bytes, without "\n" or "\r\n" */
    readonly bytes: Buffer,
    /** the line ended "\r\n" in the patch */
    readonly crlf: boolean,
  ) {}

  /** the line as text (UTF-8; a path's raw bytes are read from `bytes`) */
  get text(): string {
    this.decoded ??= this.bytes.toString('utf8');
    return this.decoded;
  }
}

/** The lines of a patch; a last line without "\n" counts, an empty last piece does not. */
export function patchLines(patch: Buffer): PatchLine[] {
  const out: PatchLine[] = [];
  let at = 0;
  while (at < patch.length) {
    const nl = patch.indexOf(10, at);
    const end = nl === -1 ? patch.length : nl;
    const cut = end > at && patch[end - 1] === 13 ? end - 1 : end;
    out.push(new PatchLine(patch.subarray(at, cut), cut < end));
    at = end + 1;
  }
  return out;
}

/** A malformed patch: exit 2, naming the patch line (1-based) and showing it. */
export function badPatch(line: number, what: string, shown?: string): LinewiseError {
  const clip = shown === undefined ? '' : `: ${JSON.stringify(shown.length > 60 ? `${shown.slice(0, 60)}...` : shown)}`;
  return new LinewiseError('bad-patch', `patch line ${line}: ${what}${clip}; nothing was written`);
}
