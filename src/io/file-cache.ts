// A long-lived process's memory of files: contents, and the searches known to select no line in
// them, each kept under the file's device, inode, size and change times and checked against a
// fresh stat on every use, so a file changed on disk is never served stale. Bounded in bytes.

import * as fs from 'node:fs';
import { fsPath } from '../core/path-names.js';
import type { Input } from './input.js';

/**
 * A file changed this recently (ms) may change again within the same tick of the file system's
 * clock, leaving size and times as they were: it is read afresh and nothing about it is kept.
 */
export const RACY_MS = 2000;
/** Files larger than this are never held in memory (a search of them still reads them). */
export const MAX_CACHED_FILE = 1 << 20;
/** Contents unused this long (ms) give way to others when the cap is reached. */
const IDLE_MS = 60_000;
/** Searches remembered per file as selecting no line in it. */
const SEARCHES_PER_FILE = 8;

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
  /** searches (their keys) that selected no line in these contents */
  none: string[];
}

const sameKey = (a: Key, b: Key | fs.Stats): boolean => a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;

/** The key alone (an entry also holds contents, which a key kept elsewhere must not keep alive). */
const keyOf = (e: Key): Key => ({ dev: e.dev, ino: e.ino, size: e.size, mtimeMs: e.mtimeMs, ctimeMs: e.ctimeMs });

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
  private bytes = 0;
  private clock = 0;
  private swept = 0;
  hits = 0;
  misses = 0;

  /**
   * `capBytes`: the most file contents held (0: contents never kept, only what searches found);
   * files past it are read from disk, as without a cache.
   */
  constructor(
    private readonly capBytes: number,
    /** the most files remembered, contents or not */
    private readonly maxFiles = 100_000,
    /** see {@link RACY_MS} (tests use 0: nothing is racy) */
    private readonly racyMs = RACY_MS,
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
    if (old?.content) this.bytes -= old.content.length;
    const entry: Entry = { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, none: [], used: ++this.clock, at };
    if (this.racy(entry)) {
      this.entries.delete(abs);
    } else {
      this.entries.set(abs, entry);
      if (old === undefined && this.entries.size > this.maxFiles) this.trim();
    }
    return entry;
  }

  private racy(k: Key): boolean {
    return this.racyMs > 0 && Date.now() - Math.max(k.mtimeMs, k.ctimeMs) < this.racyMs;
  }

  /**
   * The file as it is now (a stat): its key, and whether `search` is known to select no line of
   * it. Undefined when it is not a regular file (or is missing).
   */
  look(abs: string, search: string): { key: FileKey; none: boolean } | undefined {
    const e = this.current(abs);
    return e === undefined ? undefined : { key: keyOf(e), none: e.none.includes(search) };
  }

  /** Whether the file's contents may still change without its key changing (changed a moment ago). */
  isRacy(key: FileKey): boolean {
    return this.racy(key);
  }

  /** Records that `search` selected no line of the file, if it is still as it was when opened. */
  selectedNone(abs: string, search: string, opened: Key): void {
    const e = this.entries.get(abs);
    if (e === undefined || !sameKey(e, opened) || e.none.includes(search)) return;
    e.none.push(search);
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
      let content: Buffer;
      try {
        content = fs.readFileSync(fsPath(abs));
      } catch {
        return undefined; // reported when the caller opens it
      }
      const after = this.stat(abs);
      if (after === undefined || !sameKey(e, after) || content.length !== e.size) return undefined;
      this.misses++;
      e.content = content;
      this.bytes += content.length;
      onOpen?.(keyOf(e));
      return memoryInput(name, content, e.size);
    }
    this.hits++;
    onOpen?.(keyOf(e));
    return memoryInput(name, e.content, e.size);
  }

  /** Bytes of contents held. */
  get held(): number {
    return this.bytes;
  }

  /**
   * Whether `size` more bytes of contents fit. When they do not, contents unused for a minute
   * are let go (looked for at most once a second): what a server searched long ago gives way.
   */
  private room(size: number): boolean {
    if (this.bytes + size <= this.capBytes) return true;
    const now = Date.now();
    if (now - this.swept < 1000) return false;
    this.swept = now;
    for (const e of this.entries.values()) {
      if (e.content && now - e.at > IDLE_MS) {
        this.bytes -= e.content.length;
        delete e.content;
      }
    }
    return this.bytes + size <= this.capBytes;
  }

  /** Forgets the least recently used files past the cap on their number (down to 7/8 of it). */
  private trim(): void {
    const byAge = [...this.entries].sort((a, b) => a[1].used - b[1].used);
    for (const [abs, e] of byAge) {
      if (this.entries.size <= (this.maxFiles * 7) / 8) break;
      this.entries.delete(abs);
      if (e.content) this.bytes -= e.content.length;
    }
  }
}

export type FileKey = Readonly<Key>;

/** Two keys of one file name the same contents. */
export const sameFile = (a: FileKey, b: FileKey): boolean => sameKey(a, b);
