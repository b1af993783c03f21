// A long-lived process's memory of files: contents, and the searches known to select no line in
// them, each kept under the file's device, inode, size and change times and checked against a
// fresh stat on every use, so a file changed on disk is never served stale. Bounded in bytes:
// what is known of each file and its contents are both charged to the process's CacheBudget.

import * as fs from 'node:fs';
import { fsPath } from '../core/path-names.js';
import { type CacheBudget, stringBytes } from './cache-budget.js';
import { checkOpened, type Confinement } from './confine.js';
import { type Input, OPEN_NOW } from './input.js';

/**
 * A file changed this recently (ms) may change again within the same tick of the file system's
 * clock, leaving size and times as they were: it is read afresh and nothing about it is kept.
 */
export const RACY_MS = 2000;

/** Whether what `t` stamps changed within `racyMs` of `now` (see RACY_MS; 0: nothing is racy). */
export function changedTooRecently(t: { mtimeMs: number; ctimeMs: number }, now: number, racyMs: number): boolean {
  return racyMs > 0 && now - Math.max(t.mtimeMs, t.ctimeMs) < racyMs;
}
/** Files larger than this are never held in memory (a search of them still reads them). */
export const MAX_CACHED_FILE = 1 << 20;
/** Contents unused this long (ms) give way to others when the cap is reached. */
const IDLE_MS = 60_000;
/** Searches remembered per file as selecting no line in it. */
const SEARCHES_PER_FILE = 8;
/** Searches given a number at most (each file remembers numbers, not the searches' text). */
const SEARCH_IDS = 4096;
/**
 * What an entry costs besides its path, about (bytes; measured as the heap's growth after a full GC): the object,
 * the numbers of its key and times, its slot in the map, and its list of searches when full.
 */
const ENTRY_BYTES = 400;
/** What a Buffer of contents costs besides its bytes: the Buffer, its ArrayBuffer, their native bookkeeping (measured: about 150 bytes in the heaps, more in malloc). */
const CONTENT_BYTES = 256;

/** What identifies a file's contents without reading them. */
interface Key {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

interface Entry extends Key {
  content?: Buffer;
  /** when it was last used: the cache's clock, and the time (ms) */
  used: number;
  at: number;
  /** searches (their numbers) that selected no line in these contents, when any did */
  none?: number[];
  /** what it is charged in the budget, besides its contents */
  cost: number;
}

const sameKey = (a: Key, b: Key | fs.Stats): boolean => a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;

/** The key alone (an entry also holds contents, which a key kept elsewhere must not keep alive). */
const keyOf = (e: Key): Key => ({ dev: e.dev, ino: e.ino, size: e.size, mtimeMs: e.mtimeMs, ctimeMs: e.ctimeMs });

/** What contents cost in the budget. */
const contentCost = (b: Buffer) => b.length + CONTENT_BYTES;

/** An input over bytes in memory. */
function memoryInput(name: string, bytes: Buffer, size: number): Input {
  let at = 0;
  return {
    name,
    size,
    read(buf, offset, length) {
      const n = Math.min(length, bytes.length - at);
      buf.set(bytes.subarray(at, at + n), offset);
      at += n;
      return n;
    },
    close() {},
  };
}

export class FileCache {
  private readonly entries = new Map<string, Entry>();
  /** the searches remembered, by their key: the number files list them by (oldest first) */
  private readonly searches = new Map<string, number>();
  private nextSearch = 0;
  private clock = 0;
  private swept = 0;
  hits = 0;
  misses = 0;

  /**
   * `budget`: what the entries and contents are charged to ('files', 'contents'); files whose
   * contents do not fit are read from disk, as without a cache, and files past the share of
   * 'files' are not remembered (the least recently used give way).
   */
  constructor(
    private readonly budget: CacheBudget,
    /** see {@link RACY_MS} (tests use 0: nothing is racy) */
    private readonly racyMs = RACY_MS,
    /** a server's confinement: each file read into memory is checked by its descriptor first (io/confine.ts) */
    private readonly confine?: Confinement,
  ) {}

  /** The file's stats now, or undefined when it is not a regular file (the caller opens it as usual and reports). */
  private stat(abs: string): fs.Stats | undefined {
    try {
      const st = fs.statSync(fsPath(abs), { throwIfNoEntry: false });
      return st?.isFile() ? st : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The entry of a file as it is now: kept when unchanged, else new. Undefined: not a regular
   * file. (Recency is a counter, not the map's order: a search touches thousands of entries.)
   */
  private current(abs: string): Entry | undefined {
    const st = this.stat(abs);
    if (st === undefined) return undefined;
    const old = this.entries.get(abs);
    const at = Date.now();
    if (old !== undefined && sameKey(old, st)) {
      old.used = ++this.clock;
      old.at = at;
      return old;
    }
    if (old !== undefined) this.forget(abs, old);
    const cost = ENTRY_BYTES + stringBytes(abs);
    const entry: Entry = { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, used: ++this.clock, at, cost };
    // Changed a moment ago: nothing is kept (the entry only answers this call).
    if (this.racy(entry)) return entry;
    if (!this.budget.fits('files', cost)) this.trim(cost);
    if (this.budget.fits('files', cost)) {
      this.entries.set(abs, entry);
      this.budget.add('files', cost);
    }
    return entry;
  }

  /** Removes the entry of `abs` (its contents too) from the map and the budget. */
  private forget(abs: string, e: Entry): void {
    this.entries.delete(abs);
    this.budget.remove('files', e.cost);
    this.dropContent(e);
  }

  private dropContent(e: Entry): void {
    if (e.content === undefined) return;
    this.budget.remove('contents', contentCost(e.content));
    e.content = undefined; // not \`delete\`: that would turn every entry into a slower, larger dictionary
  }

  /** The number `search` is remembered by (given one if `make`), or undefined. */
  private searchId(search: string, make: boolean): number | undefined {
    const id = this.searches.get(search);
    if (id !== undefined || !make) return id;
    // The oldest search is forgotten: files that list its number just no longer match any search.
    if (this.searches.size >= SEARCH_IDS) {
      const [oldest] = this.searches.keys();
      this.searches.delete(oldest!);
      this.budget.remove('files', stringBytes(oldest!) + 32);
    }
    this.searches.set(search, this.nextSearch);
    this.budget.add('files', stringBytes(search) + 32);
    return this.nextSearch++;
  }

  private racy(k: Key): boolean {
    return changedTooRecently(k, Date.now(), this.racyMs);
  }

  /**
   * The file as it is now (a stat): its key, and whether `search` is known to select no line of
   * it. Undefined when it is not a regular file (or is missing).
   */
  look(abs: string, search: string): { key: FileKey; none: boolean } | undefined {
    const e = this.current(abs);
    if (e === undefined) return undefined;
    const id = e.none === undefined ? undefined : this.searchId(search, false);
    return { key: keyOf(e), none: id !== undefined && e.none!.includes(id) };
  }

  /** Whether the file's contents may still change without its key changing (changed a moment ago). */
  isRacy(key: FileKey): boolean {
    return this.racy(key);
  }

  /** Records that `search` selected no line of the file, if it is still as it was when opened. */
  selectedNone(abs: string, search: string, opened: Key): void {
    const e = this.entries.get(abs);
    if (e === undefined || !sameKey(e, opened)) return;
    const id = this.searchId(search, true)!;
    e.none ??= [];
    if (e.none.includes(id)) return;
    e.none.push(id);
    if (e.none.length > SEARCHES_PER_FILE) e.none.shift();
  }

  /**
   * Opens the file from memory (reading it into memory first when it fits): undefined when it is
   * not a regular file, or too large, or changed while it was read; the caller then opens it.
   * `onOpen` is told the key of the contents served (or, for a large file, found by the stat).
   */
  open(abs: string, name: string, onOpen?: (key: Key) => void): Input | undefined {
    const e = this.current(abs);
    if (e === undefined) return undefined;
    if (e.size > MAX_CACHED_FILE) {
      // Read from disk; a change after this stat shows in the next one, so `e` still keys what is found.
      onOpen?.(keyOf(e));
      return undefined;
    }
    if (e.content === undefined) {
      // No room: the file is read from disk as usual (into the scanner's reused buffer), so a tree
      // larger than the cap keeps the part that fits instead of churning through it.
      if (this.entries.get(abs) !== e || !this.room(e.size)) {
        onOpen?.(keyOf(e));
        return undefined;
      }
      const content = this.read(abs, name, e);
      if (content === undefined) return undefined;
      this.misses++;
      e.content = content;
      this.budget.add('contents', contentCost(content));
      onOpen?.(keyOf(e));
      return memoryInput(name, content, e.size);
    }
    this.hits++;
    onOpen?.(keyOf(e));
    return memoryInput(name, e.content, e.size);
  }

  /**
   * The file's contents, read by descriptor (checked inside the confinement first, so a link
   * swapped in since the stat is refused: the error goes to the caller), or undefined when they
   * are no longer those of `e` or cannot be read (the caller opens the file and reports).
   */
  private read(abs: string, name: string, e: Key): Buffer | undefined {
    let fd: number;
    try {
      fd = fs.openSync(fsPath(abs), OPEN_NOW); // a named pipe swapped in since the stat would block
    } catch {
      return undefined;
    }
    try {
      if (this.confine !== undefined) checkOpened(this.confine, fd, abs, name);
    } catch (err) {
      fs.closeSync(fd);
      throw err;
    }
    try {
      const st = fs.fstatSync(fd);
      if (!st.isFile() || !sameKey(e, st)) return undefined;
      // Its own ArrayBuffer, exactly its size: a slice of Node's shared pool would keep the
      // whole slab (and whatever else came to live in it) alive for as long as it is cached.
      const content = Buffer.allocUnsafeSlow(e.size);
      let n = 0;
      for (let k; n < content.length && (k = fs.readSync(fd, content, n, content.length - n, null)) > 0; ) n += k;
      // grown or shrunk while read: its times move too, but only once the write is over
      const after = fs.fstatSync(fd);
      return n === e.size && fs.readSync(fd, PROBE, 0, 1, null) === 0 && sameKey(e, after) ? content : undefined;
    } catch {
      return undefined;
    } finally {
      fs.closeSync(fd);
    }
  }

  /** Bytes of contents held (their cost in the budget). */
  get held(): number {
    return this.budget.of('contents');
  }

  /**
   * Whether `size` more bytes of contents fit. When they do not, contents unused for a minute
   * are let go (looked for at most once a second): what a server searched long ago gives way.
   */
  private room(size: number): boolean {
    const cost = size + CONTENT_BYTES;
    if (this.budget.fits('contents', cost)) return true;
    const now = Date.now();
    if (now - this.swept < 1000) return false;
    this.swept = now;
    for (const e of this.entries.values()) if (e.content && now - e.at > IDLE_MS) this.dropContent(e);
    return this.budget.fits('contents', cost);
  }

  /** Forgets the least recently used files until `cost` more fits in the share of 'files', with an eighth of it to spare. */
  private trim(cost: number): void {
    const byAge = [...this.entries].sort((a, b) => a[1].used - b[1].used);
    const limit = this.budget.limit('files');
    const until = limit - cost - limit / 8;
    for (const [abs, e] of byAge) {
      if (this.budget.of('files') <= until) break;
      this.forget(abs, e);
    }
  }
}

/** One byte, to tell that a file read to its size has no more. */
const PROBE = Buffer.alloc(1);

export type FileKey = Readonly<Key>;

/** Two keys of one file name the same contents. */
export const sameFile = (a: FileKey, b: FileKey): boolean => sameKey(a, b);
