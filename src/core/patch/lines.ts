// A patch's lines as the parsers see them: the bytes of each line without its "\n" (and without a
// "\r" before it), and the line's text for matching headers; errors that name the patch line.

import { LinewiseError } from '../errors.js';

/**
 * One line of a patch, as offsets into it: its bytes and text are made only when asked (a hunk's
 * lines only ever give their body, one view each; a view per line on top was garbage for the
 * collector in a patch of 40,000 lines).
 */
export class PatchLine {
  private decoded: string | undefined;

  constructor(
    /** the patch the line is in */
    readonly patch: Buffer,
    /** where the line starts in it */
    readonly start: number,
    private readonly end: number,
    /** the line ended "\r\n" in the patch */
    readonly crlf: boolean,
  ) {}

  /** the line's bytes, without "\n" or "\r\n" */
  get bytes(): Buffer {
    return this.patch.subarray(this.start, this.end);
  }

  get length(): number {
    return this.end - this.start;
  }

  /** its first byte (undefined for an empty line) */
  get first(): number | undefined {
    return this.start < this.end ? this.patch[this.start] : undefined;
  }

  /** its bytes after the first (a hunk line's body after its " ", "-" or "+") as latin1 text; "" for an empty line */
  body(): string {
    return this.patch.toString('latin1', Math.min(this.start + 1, this.end), this.end);
  }

  /** the line as text (UTF-8; a path's raw bytes are read from `bytes`) */
  get text(): string {
    this.decoded ??= this.patch.toString('utf8', this.start, this.end);
    return this.decoded;
  }
}

/** The lines of a patch; a last line without "\n" counts, an empty last piece does not. */
export function patchLines(patch: Buffer): PatchLine[] {
  const out: PatchLine[] = [];
  for (let at = 0; at < patch.length; at = nextLine(patch, at)) out.push(lineAt(patch, at));
  return out;
}

const u8IndexOf = Uint8Array.prototype.indexOf;

/**
 * Where the next "\n" at or after `from` is (-1: none). The typed array's own indexOf, not
 * Buffer's: Buffer#indexOf checks its arguments in JavaScript and calls into C++ each time,
 * 200 ns a line; this one is a builtin of V8 (a 1 MiB patch of 47,000 lines: 9 ms against 4;
 * the 200,000 lines of the files a patch changes: as many times more).
 */
export function newlineAt(buf: Uint8Array, from: number): number {
  return u8IndexOf.call(buf, 10, from);
}

/** The line starting at byte `at` of the patch (`at` < its length). */
export function lineAt(patch: Buffer, at: number): PatchLine {
  const nl = newlineAt(patch, at);
  const end = nl === -1 ? patch.length : nl;
  const cut = end > at && patch[end - 1] === 13 ? end - 1 : end;
  return new PatchLine(patch, at, cut, cut < end);
}

/** Where the line after the one starting at `at` starts (the patch's length after the last). */
export function nextLine(patch: Buffer, at: number): number {
  const nl = newlineAt(patch, at);
  return nl === -1 ? patch.length : nl + 1;
}

/** A malformed patch: exit 2, naming the patch line (1-based) and showing it. */
export function badPatch(line: number, what: string, shown?: string): LinewiseError {
  const clip = shown === undefined ? '' : `: ${JSON.stringify(shown.length > 60 ? `${shown.slice(0, 60)}...` : shown)}`;
  return new LinewiseError('bad-patch', `patch line ${line}: ${what}${clip}; nothing was written`);
}
