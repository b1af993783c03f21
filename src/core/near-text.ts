// When a text is not in a file: the places where it nearly is, differing only in whitespace or only
// in case (or in both), or only where the file's bytes are not UTF-8 and the text has U+FFFD (text
// copied from such lines as they were shown), so the caller sees the lines it meant and what to fix.

/**
 * How a near match differs from the text looked for. `encoding`: the lines, read as UTF-8 with
 * U+FFFD for each byte that is not, are the text: it was copied from them as shown.
 */
export type NearKind = 'encoding' | 'whitespace' | 'case' | 'whitespace and case';

/** Lines `from..to` hold the text but for differences of `kind`; `lines` are their bytes. */
export interface NearMatch {
  kind: NearKind;
  from: number;
  to: number;
  lines: Buffer[];
}

interface Fold {
  kind: NearKind;
  fold: (s: string) => string;
  /** folded lines are joined with "\n" (whitespace folds drop line breaks with the rest) */
  joiner: string;
}

const noSpace = (s: string) => s.replace(/\s+/gu, '');
/** What a byte that is not UTF-8 reads as: text copied from such a line holds it. */
export const REPLACEMENT = '\uFFFD';
const FOLDS: readonly Fold[] = [
  // Lines are decoded as UTF-8 with U+FFFD for bytes that are not: equal to a text that holds
  // U+FFFD, they differ from it only in those bytes. (Looked for only when the text holds one.)
  { kind: 'encoding', fold: (s) => s, joiner: '\n' },
  { kind: 'whitespace', fold: noSpace, joiner: '' },
  { kind: 'case', fold: (s) => s.toLowerCase(), joiner: '\n' },
  { kind: 'whitespace and case', fold: (s) => noSpace(s).toLowerCase(), joiner: '' },
];

/** Lines longer than this are not looked at (a near match is a hint, not a guarantee). */
export const NEAR_MAX_LINE = 1 << 20;

interface Kept {
  line: number;
  bytes: Buffer;
  /** the line folded, in each fold */
  folded: string[];
}

/**
 * Looks for `text` (normalised: "\n" line breaks) in lines fed one by one, under each fold, and
 * keeps the first `limit` near matches of the most specific fold that has one. A near match may
 * span up to twice the text's lines and a few more (a re-wrapped text); only that many lines
 * are kept, so the cost per line is bounded by the text, not the file.
 */
export class NearFinder {
  private readonly needles: string[];
  private readonly window: Kept[] = [];
  private readonly span: number;
  private readonly found: NearMatch[][] = FOLDS.map(() => []);

  constructor(
    text: string,
    private readonly limit = 3,
  ) {
    const body = text.replace(/\n$/, '');
    this.needles = FOLDS.map((f) => (f.kind === 'encoding' && !body.includes(REPLACEMENT) ? '' : f.fold(body)));
    this.span = Math.min(2 * text.split('\n').length + 8, 256);
  }

  /** Takes line `line` (its bytes, terminator included); `undefined` for a line too long to look at. */
  line(line: number, bytes: Buffer | undefined): void {
    if (bytes === undefined) {
      this.window.length = 0;
      return;
    }
    const body = bytes.toString('utf8').replace(/\r?\n$/, '');
    this.window.push({ line, bytes: Buffer.from(bytes), folded: FOLDS.map((f) => f.fold(body)) });
    if (this.window.length > this.span) this.window.shift();
    FOLDS.forEach((f, k) => this.look(f, k));
  }

  /** The near matches of the most specific fold that found one (empty when none did). */
  result(): NearMatch[] {
    return this.found.find((f) => f.length > 0) ?? [];
  }

  /** The first occurrence of the fold's needle that ends in the newest line, if any. */
  private look(f: Fold, k: number): void {
    const needle = this.needles[k]!;
    const w = this.window;
    const newest = w[w.length - 1]!.folded[k]!;
    if (needle === '' || newest === '' || this.found[k]!.length >= this.limit) return;
    const text = w.map((l) => l.folded[k]).join(f.joiner);
    const at = text.indexOf(needle, Math.max(0, text.length - newest.length - needle.length + 1));
    if (at === -1) return;
    // The line the occurrence starts in (a joiner belongs to the line before it).
    let first = 0;
    for (let offset = 0; first < w.length - 1; first++) {
      offset += w[first]!.folded[k]!.length + f.joiner.length;
      if (at < offset) break;
    }
    const prev = this.found[k]!.at(-1);
    if (prev !== undefined && prev.to >= w[first]!.line) return; // the same place, seen again
    const lines = w.slice(first);
    this.found[k]!.push({ kind: f.kind, from: lines[0]!.line, to: lines.at(-1)!.line, lines: lines.map((l) => l.bytes) });
  }
}
