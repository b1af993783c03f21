// Whether a line that arrives in pieces (longer than the scanner's buffer) holds one of a
// pattern's required literals, found piece by piece as the pieces come: a line that holds none
// cannot match, so the searcher drops its pieces without joining or testing it.

import { ASCII_LOWER } from './finders.js';
import { asciiFolder, FOLD_SIZE, foldUser } from './newlines.js';

/**
 * Watches one line at a time for any of `literals` (ASCII case folded when `fold`: -i literals
 * are printable ASCII). A literal cut between two pieces is found too: the last bytes of one
 * piece (the longest literal's length less one) are kept and searched with the next one's first.
 * An empty literal is in every line.
 */
export class LiteralWatch {
  private readonly literals: Buffer[];
  /** bytes of the line's end so far that a literal may start in and not have ended */
  private readonly overlap: number;
  private tail: Buffer = Buffer.alloc(0);
  private found = false;

  constructor(literals: readonly Buffer[], private readonly fold: boolean) {
    this.literals = literals.map((l) => (fold ? lowered(l, 0, l.length) : l));
    this.overlap = Math.max(0, ...this.literals.map((l) => l.length - 1));
    this.found = this.literals.some((l) => l.length === 0);
  }

  /** A literal was seen in the line's pieces so far. */
  get seen(): boolean {
    return this.found;
  }

  /**
   * Looks at the next piece of the line, bytes `[start, end)` of `b`. Under fold the piece is
   * lower-cased in the shared SIMD folder, a folder's size at a time (each part searched as a
   * piece of its own); a JavaScript loop over every byte cost 6.5 MiB more on a 4.6 MB line (V8
   * compiled it with TurboFan) and a copy of every piece.
   */
  add(b: Buffer, start: number, end: number): void {
    const folder = this.fold ? asciiFolder() : undefined;
    if (folder === undefined) return this.look(this.fold ? lowered(b, start, end) : b.subarray(start, end));
    for (let at = start; at < end && !this.found; at += FOLD_SIZE) {
      const n = Math.min(FOLD_SIZE, end - at);
      folder.buffer.set(b.subarray(at, at + n), 0);
      folder.fold(0, n);
      foldUser.current = this; // the folder's bytes are this watch's now (fold-case.ts reloads its own)
      this.look(folder.buffer.subarray(0, n));
    }
  }

  /** Searches a piece (lower-cased already under fold); what is kept of it is copied. */
  private look(piece: Buffer): void {
    if (this.found) return;
    // across the cut: the tail before and the piece's first bytes
    const joined = Buffer.concat([this.tail, piece.subarray(0, this.overlap)]);
    if ((this.tail.length > 0 && this.holds(joined)) || this.holds(piece)) {
      this.found = true;
      return;
    }
    this.tail = Buffer.from(piece.length >= this.overlap ? piece.subarray(piece.length - this.overlap) : joined.subarray(Math.max(0, joined.length - this.overlap)));
  }

  /** Starts on the next line. */
  reset(): void {
    this.tail = Buffer.alloc(0);
    this.found = this.literals.some((l) => l.length === 0);
  }

  private holds(bytes: Buffer): boolean {
    return this.literals.some((l) => bytes.indexOf(l) !== -1);
  }
}

/** A copy of bytes `[start, end)` of `b` with A-Z lower-cased (without WebAssembly SIMD, and for the literals). */
function lowered(b: Uint8Array, start: number, end: number): Buffer {
  const out = Buffer.allocUnsafe(end - start);
  for (let i = start; i < end; i++) out[i - start] = ASCII_LOWER[b[i]!]!;
  return out;
}
