// Exact byte matchers that stream: every occurrence (overlapping ones too) of one needle (KMP,
// jumping with Buffer.indexOf where nothing is half matched) or of many (Aho-Corasick), in time
// linear in the bytes fed whatever the needle: no byte is compared again for each occurrence.

/** Called with the needle's index and the offset just past the occurrence's last byte. */
export type MatchSink = (needle: number, end: number) => void;

/** A streaming matcher: blocks fed in order, occurrences across blocks found too. */
export interface StreamMatcher {
  /** Feeds `block` (all of it), whose first byte is at offset `base` of the stream. */
  feed(block: Buffer, base: number, emit: MatchSink): void;
}

/** Bytes of a needle's start looked for by indexOf where nothing is half matched (a short needle is searched whole). */
const JUMP_BYTES = 16;

/** The KMP failure function: fail[q] is the length of the longest proper border of needle[0..q). */
function failure(needle: Uint8Array): Int32Array {
  const m = needle.length;
  const fail = new Int32Array(m + 1);
  fail[0] = -1;
  let k = 0;
  for (let q = 1; q < m; q++) {
    while (k > 0 && needle[q] !== needle[k]) k = fail[k]!;
    if (needle[q] === needle[k]) k++;
    fail[q + 1] = k;
  }
  return fail;
}

/**
 * One needle, Knuth-Morris-Pratt: the state is the length of the needle's longest prefix that
 * ends the bytes fed. In state 0 the next candidate is found by Buffer.indexOf of the needle's
 * first {@link JUMP_BYTES} bytes (memchr speed on text where they are rare); from there bytes
 * are compared one at a time, each once. Buffer.indexOf of a whole long needle is not linear
 * (it compares the needle again at every overlapping occurrence, and Boyer-Moore looks at only
 * its last 250 bytes), which made `--old` of 80k `y` in 160k `y` take seconds.
 */
export class KmpMatcher implements StreamMatcher {
  private readonly fail: Int32Array;
  private readonly jump: Buffer;
  /** matched length at the end of what was fed */
  private q = 0;

  constructor(
    private readonly needle: Buffer,
    private readonly index = 0,
  ) {
    if (needle.length === 0) throw new RangeError('KmpMatcher: empty needle');
    this.fail = failure(needle);
    this.jump = needle.subarray(0, Math.min(needle.length, JUMP_BYTES));
  }

  feed(block: Buffer, base: number, emit: MatchSink): void {
    const needle = this.needle;
    const fail = this.fail;
    const m = needle.length;
    const p = this.jump.length;
    const n = block.length;
    let q = this.q;
    let i = 0;
    // Once no jump is found, only the last bytes (fewer than the jump) can start a half match.
    let tail = false;
    while (i < n) {
      if (q === 0 && !tail) {
        const j = block.indexOf(this.jump, i);
        if (j === -1) {
          i = Math.max(i, n - (p - 1));
          tail = true;
          continue;
        }
        // Nothing was half matched before j, and the jump's bytes are the needle's: state p.
        i = j + p;
        q = p;
        if (q === m) {
          emit(this.index, base + i);
          q = fail[m]!;
        }
        continue;
      }
      const c = block[i++]!;
      while (q > 0 && needle[q] !== c) q = fail[q]!;
      if (needle[q] === c) q++;
      if (q === m) {
        emit(this.index, base + i);
        q = fail[m]!;
      }
    }
    this.q = q;
  }
}

/**
 * Many needles in one pass, Aho-Corasick: a trie of the needles whose failure links lead from each
 * node to the longest proper suffix of its string that is also in the trie. Each byte moves one
 * edge (and fails back along links, amortised), so the time is linear in the bytes fed plus the
 * occurrences. At the root, bytes that start no needle are skipped without a trie lookup.
 */
export class AhoCorasick implements StreamMatcher {
  /** child of node n by byte c, keyed n * 256 + c */
  private readonly edges = new Map<number, number>();
  private readonly fail: Int32Array;
  /** first needle ending at each node (-1: none); `nextSame` chains needles with equal bytes */
  private readonly ends: Int32Array;
  private readonly nextSame: Int32Array;
  /** the nearest node on the failure chain (itself excluded) at which a needle ends, or -1 */
  private readonly dict: Int32Array;
  /** a byte that starts some needle */
  private readonly starts = new Uint8Array(256);
  private node = 0;

  constructor(needles: readonly Buffer[]) {
    let total = 1;
    for (const n of needles) total += n.length;
    const endsOf = new Int32Array(total).fill(-1);
    this.nextSame = new Int32Array(needles.length).fill(-1);
    let nodes = 1;
    needles.forEach((needle, k) => {
      if (needle.length === 0) throw new RangeError('AhoCorasick: empty needle');
      this.starts[needle[0]!] = 1;
      let v = 0;
      for (const c of needle) {
        const key = v * 256 + c;
        let w = this.edges.get(key);
        if (w === undefined) {
          w = nodes++;
          this.edges.set(key, w);
        }
        v = w;
      }
      this.nextSame[k] = endsOf[v]!;
      endsOf[v] = k;
    });
    this.ends = endsOf.subarray(0, nodes);
    this.fail = new Int32Array(nodes);
    this.dict = new Int32Array(nodes).fill(-1);
    // Breadth first, so a node's failure target is done before the node. Children by node:
    const children: number[][] = Array.from({ length: nodes }, () => []);
    for (const [key, w] of this.edges) children[Math.floor(key / 256)]!.push(key % 256, w);
    const queue = new Int32Array(nodes);
    let head = 0;
    let tail = 0;
    const kids0 = children[0]!;
    for (let x = 0; x < kids0.length; x += 2) queue[tail++] = kids0[x + 1]!;
    while (head < tail) {
      const v = queue[head++]!;
      const kids = children[v]!;
      for (let x = 0; x < kids.length; x += 2) {
        const c = kids[x]!;
        const w = kids[x + 1]!;
        let f = this.fail[v]!;
        let to = this.edges.get(f * 256 + c);
        while (to === undefined && f !== 0) {
          f = this.fail[f]!;
          to = this.edges.get(f * 256 + c);
        }
        const fw = to === undefined || to === w ? 0 : to;
        this.fail[w] = fw;
        this.dict[w] = this.ends[fw]! !== -1 ? fw : this.dict[fw]!;
        queue[tail++] = w;
      }
    }
  }

  feed(block: Buffer, base: number, emit: MatchSink): void {
    const edges = this.edges;
    const fail = this.fail;
    const starts = this.starts;
    let v = this.node;
    const n = block.length;
    for (let i = 0; i < n; i++) {
      let c = block[i]!;
      if (v === 0) {
        while (starts[c] === 0) {
          if (++i === n) {
            this.node = 0;
            return;
          }
          c = block[i]!;
        }
      }
      let to = edges.get(v * 256 + c);
      while (to === undefined && v !== 0) {
        v = fail[v]!;
        to = edges.get(v * 256 + c);
      }
      v = to ?? 0;
      for (let u = this.ends[v]! !== -1 ? v : this.dict[v]!; u !== -1; u = this.dict[u]!) {
        for (let k = this.ends[u]!; k !== -1; k = this.nextSame[k]!) emit(k, base + i + 1);
      }
    }
    this.node = v;
  }
}

/** Needles above which one Aho-Corasick pass beats a KMP pass per needle. */
export const MANY_NEEDLES = 8;
