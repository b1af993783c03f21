// How decorations look: a set of pure string functions, colored or not. The CLI picks one.

export interface Style {
  /** a row's line number */
  number(s: string): string;
  /** a row's path */
  path(s: string): string;
  /** a matched part of a line (grep) */
  match(s: string): string;
  /** footers, separators and notes */
  note(s: string): string;
}

const same = (s: string) => s;

/** No color: every function returns its input. */
export const plain: Style = { number: same, path: same, match: same, note: same };
