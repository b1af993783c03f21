// The fields of a row shared by its printers and its parser: the line field (`N`, `N#anchor`,
// `N[cut]`), the marker after a line without terminator, and which names a row could mistake.

/** Marks the number of a row whose line `page --max-bytes` cut short: `17[cut]\t...`. */
export const CUT_MARK = '[cut]';

/**
 * The line that follows the row of a last line that has no terminator (after a "\n"), on every
 * output: the unified-diff convention. `replace --rows` reads it as "this line has no terminator".
 */
export const NO_NEWLINE_MARK = '\\ No newline at end of file';

/**
 * Hex digits of the anchor the readers print (`--anchor`): the first 32 bits of the SHA-256 of
 * the line's text. A changed line keeps its anchor by chance once in 4 billion; 9 characters a
 * row are what an agent pays for that in its context.
 */
export const ANCHOR_DIGITS = 8;

/** What `replace` accepts as an anchor: 4 to 16 lowercase hex digits, a prefix of the line's hash. */
export const ANCHOR_PATTERN = /^[0-9a-f]{4,16}$/;

/** A line field read back. */
export interface LineField {
  line: string;
  anchor?: string;
  cut?: true;
  /** a row of the rest of a line, from this byte (`N[@38]`, `N[@38,cut]`): a part, refused as a cut row is */
  from?: number;
}

/** The field of a part of a line: `[cut]` for its first bytes, `[@38]` for its rest from byte 38, `[@38,cut]` between. */
export function partMark(from: number, cut: boolean): string {
  return from > 0 ? `[@${from}${cut ? ',cut' : ''}]` : cut ? CUT_MARK : '';
}

/**
 * Reads `N`, `N#anchor` or `N[cut]`; undefined when `s` is no line field. A field that starts
 * like one (`12#...`) but holds a bad anchor gives `bad` with what is wrong.
 */
export function parseLineField(s: string): LineField | { bad: string } | undefined {
  const m = /^([0-9]+)(?:#(.*)|(\[cut\])|\[@([0-9]+)(,cut)?\])?$/s.exec(s);
  if (m === null) return undefined;
  if (m[3] !== undefined) return { line: m[1]!, cut: true };
  if (m[4] !== undefined) return { line: m[1]!, from: Number(m[4]), ...(m[5] ? { cut: true as const } : {}) };
  if (m[2] === undefined) return { line: m[1]! };
  if (!ANCHOR_PATTERN.test(m[2])) return { bad: `"${m[2].slice(0, 20)}" after "${m[1]}#" is not an anchor (4 to 16 lowercase hex digits)` };
  return { line: m[1]!, anchor: m[2] };
}

/** A name a row would read as its line field (`12`, `12#x`, `3[cut]`): printed quoted in rows. */
export function looksLikeLineField(name: string): boolean {
  return /^[0-9]+(?:$|#|\[cut\]$|\[@[0-9]+(?:,cut)?\]$)/.test(name);
}
