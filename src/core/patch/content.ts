// A patched file's new content as pieces: views of the old file's bytes for what the patch leaves
// alone and small buffers for what it adds, written in turn, never copied into one buffer.

/**
 * The new content as an ordered list of pieces. Pieces are views: the old file's buffer (or the
 * added lines' buffer) must not change while they are in use.
 */
export class Pieces {
  /** the pieces in order, none empty */
  readonly parts: Buffer[] = [];
  /** their total length in bytes */
  length = 0;

  /** Appends `b` (kept as it is, not copied); an empty buffer is left out. */
  push(b: Buffer): this {
    if (b.length > 0) {
      this.parts.push(b);
      this.length += b.length;
    }
    return this;
  }

  /**
   * The content holds exactly the bytes of `b`. Compared piece by piece in place; a piece that
   * is `b`'s own bytes at the same place (an untouched stretch of the old file) is not compared.
   */
  equals(b: Uint8Array): boolean {
    if (b.length !== this.length) return false;
    let at = 0;
    for (let i = 0; i < this.parts.length; i++) {
      const p = this.parts[i]!;
      const same = p.buffer === b.buffer && p.byteOffset === b.byteOffset + at;
      if (!same && Buffer.compare(p, b.subarray(at, at + p.length)) !== 0) return false;
      at += p.length;
    }
    return true;
  }

  /** The content as one buffer: the only piece itself, else a copy of them all (for a caller that needs one). */
  join(): Buffer {
    if (this.parts.length === 1) return this.parts[0]!;
    return Buffer.concat(this.parts, this.length);
  }

  /** Pieces of one buffer. */
  static of(...bufs: Buffer[]): Pieces {
    const p = new Pieces();
    for (const b of bufs) p.push(b);
    return p;
  }
}
