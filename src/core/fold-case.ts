// Where -i folds case before a line is decoded: which literal characters may be searched folding
// ASCII case only (foldSafe), and the finder that searches them (FoldFinder). The pattern itself
// folds case with the RegExp `i` flag (pattern.ts).

import { asciiFolder, type AsciiFolder, FOLD_SIZE, foldUser, inKernel } from './newlines.js';
import { BytesFinder, type Finder } from './finders.js';

/**
 * True when folding ASCII case finds code point `cp` exactly where `iu` matching would: printable
 * ASCII or a tab, but not k or s, which `iu` also matches to U+212A KELVIN SIGN and U+017F LONG S
 * (no other character folds to an ASCII one under Unicode simple case folding).
 */
export function foldSafe(cp: number): boolean {
  return ((cp >= 0x20 && cp <= 0x7e) || cp === 0x09) && !KS.has(cp);
}

const KS = new Set([0x4b, 0x53, 0x6b, 0x73]);

/**
 * ASCII case-insensitive, three ways. With WebAssembly SIMD, once the first 64 KiB are sampled
 * and the block lives in a kernel's memory (a scanner's buffer): in place, by two bytes of each
 * literal whose letters match either case (BytesFinder's pair search, folding). Before that, or
 * for a block elsewhere: the block copied into a scratch buffer, its ASCII letters lower-cased
 * there by a SIMD kernel, and the lower-cased literals found there (from their rarest byte, as
 * BytesFinder): positions are the block's own. The copy and the fold cost more than the search
 * (in place, `-i 'NAÏVE RÉSUMÉ'` over a 256 MiB log took 215 ms, not 236). Without SIMD, or for
 * a block larger than the scratch buffer and not in a kernel's memory (a long line): the block
 * read as latin1 (one character per byte) and a non-Unicode `gi` RegExp of the literals, which
 * folds ASCII only. The literals hold foldSafe characters only.
 */
export class FoldFinder implements Finder {
  readonly exact = false;
  private text = '';
  private start = 0;
  private end = 0;
  private at = -2;
  private readonly re: RegExp;
  private readonly lower: BytesFinder;
  private buf!: Buffer;
  /** how the block is searched: in place, in the folder (a copy), or as `text` */
  private way: 'place' | 'folder' | 'text' = 'text';

  constructor(literals: Buffer[]) {
    this.re = new RegExp(literals.map((l) => l.toString('latin1').replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')).join('|'), 'gi');
    this.lower = new BytesFinder(
      literals.map((l) => Buffer.from(l.toString('latin1').toLowerCase(), 'latin1')),
      false,
      true,
    );
  }

  reset(buf: Buffer, start: number, end: number): void {
    this.buf = buf;
    this.start = start;
    this.end = end;
    this.at = -2;
    this.text = '';
    if (this.lower.foldsInPlace && inKernel(buf)) {
      this.way = 'place';
      this.lower.reset(buf, start, end);
      return;
    }
    const folder = end - start <= FOLD_SIZE ? asciiFolder() : undefined;
    this.way = folder === undefined ? 'text' : 'folder';
    if (folder !== undefined) this.load(folder);
    else this.text = buf.toString('latin1', start, end);
  }

  /** Copies the block into the folder and lower-cases it; the folder's offsets are `start`-based. */
  private load(folder: AsciiFolder): void {
    folder.buffer.set(this.buf.subarray(this.start, this.end), 0);
    folder.fold(0, this.end - this.start);
    foldUser.current = this;
    this.lower.reset(folder.buffer, 0, this.end - this.start);
  }

  next(from: number): number {
    if (this.at === -1 || this.at >= from) return this.at;
    if (this.way === 'place') {
      this.at = this.lower.next(from);
      return this.at;
    }
    if (this.way === 'folder') {
      if (foldUser.current !== this) this.load(asciiFolder()!); // another search used the scratch
      const p = this.lower.next(from - this.start);
      this.at = p === -1 ? -1 : p + this.start;
      return this.at;
    }
    this.re.lastIndex = from - this.start;
    const m = this.re.exec(this.text);
    this.at = m ? m.index + this.start : -1;
    return this.at;
  }
}
