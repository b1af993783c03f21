// Shared test tools: run the CLI in-process with captured output, temp dirs, and a byte view
// that shows every invisible byte, so a lost "\r" is visible in a failure.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chunkedReader } from '../src/core/lines.js';
import { main } from '../src/cli/main.js';
import { LinewiseError } from '../src/core/errors.js';
import { PatchFailedError } from '../src/engine/patch.js';
import type { Io, Sink } from '../src/io/streams.js';

/** What follows the row of a line without terminator on every output: "\n", the marker, "\n". */
export const MARK = '\n\\ No newline at end of file\n';

export const FIXTURES = fileURLToPath(new URL('../fixtures', import.meta.url));
export const fixture = (name: string) => path.join(FIXTURES, name);

/** Bytes shown with escapes: `\r`, `\n`, `\t`, and `\xNN` for anything not printable ASCII. Injective. */
export function esc(b: Uint8Array | string): string {
  const buf = typeof b === 'string' ? Buffer.from(b, 'utf8') : Buffer.from(b);
  let s = '';
  for (const c of buf) {
    if (c === 0x5c) s += '\\\\';
    else if (c === 10) s += '\\n';
    else if (c === 13) s += '\\r';
    else if (c === 9) s += '\\t';
    else if (c >= 0x20 && c < 0x7f) s += String.fromCharCode(c);
    else s += `\\x${c.toString(16).padStart(2, '0')}`;
  }
  return s;
}

export interface CliResult {
  status: number;
  stdout: Buffer;
  stderr: string;
}

class Capture implements Sink {
  readonly chunks: Buffer[] = [];
  constructor(readonly isTTY = false) {}
  write(chunk: Uint8Array): void {
    this.chunks.push(Buffer.from(chunk)); // the writer reuses its buffer: copy
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

export interface RunOptions {
  stdin?: Uint8Array | string;
  /** stdin read in chunks of these sizes (a pipe delivering pieces) */
  stdinChunks?: number[];
  tty?: boolean;
  env?: Record<string, string | undefined>;
  cwd?: string;
}

/** Runs the CLI in-process, as `linewise ...args`. */
export async function run(args: string[], o: RunOptions = {}): Promise<CliResult> {
  const stdout = new Capture(o.tty ?? false);
  const stderr = new Capture(false);
  const input = typeof o.stdin === 'string' ? Buffer.from(o.stdin) : (o.stdin ?? new Uint8Array());
  const io: Io = {
    stdout,
    stderr,
    stdin: chunkedReader(input, o.stdinChunks),
    stdinIsTTY: o.stdin === undefined && (o.tty ?? false),
    // stdin given: a pipe with that data; none: as under `</dev/null` (grep then walks the cwd)
    stdinReadable: o.stdin !== undefined,
    // the guard trailer's default as the test run sets it (vitest.config.ts), unless the test says
    env: { ...(process.env.LINEWISE_GUARD !== undefined ? { LINEWISE_GUARD: process.env.LINEWISE_GUARD } : {}), ...(o.env ?? {}) },
    cwd: o.cwd ?? process.cwd(),
  };
  const status = await main(args, io);
  return { status, stdout: stdout.bytes(), stderr: stderr.bytes().toString('utf8') };
}

/** A fresh temporary directory, removed by the returned cleanup. */
export function tempDir(): { dir: string; file(name: string, bytes?: string | Uint8Array): string; cleanup(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linewise-test-'));
  return {
    dir,
    file(name, bytes) {
      const p = path.join(dir, name);
      if (bytes !== undefined) fs.writeFileSync(p, bytes);
      return p;
    },
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Makes `file(bytes, name?)`: a fresh directory under `root` holding `name` (default f.txt) with
 * `bytes` (a string is taken as latin1, one byte per char); returns the file's path and directory.
 */
export function caseFiles(root: string): (bytes: string | Buffer, name?: string) => { f: string; dir: string } {
  let n = 0;
  return (bytes, name = 'f.txt') => {
    const dir = path.join(root, `case${n++}`);
    fs.mkdirSync(dir);
    const f = path.join(dir, name);
    fs.writeFileSync(f, typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes);
    return { f, dir };
  };
}

/** Writes a directory tree `root` from a map of relative paths to contents; returns `root`. */
export function writeTree(root: string, files: Record<string, string | Uint8Array>): string {
  for (const [rel, bytes] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), bytes);
  }
  return root;
}

/** Splits bytes into lines by the line model (the reference the scanner is checked against). */
export { splitLines as referenceLines } from '../src/core/lines.js';

/** `code: message` of the LinewiseError `f` throws, or 'no error'; anything else is rethrown. */
export function errorOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof LinewiseError) return `${e.code}: ${e.message}`;
    throw e;
  }
  return 'no error';
}

/**
 * Every entry under `dir`, names read as bytes (so names that are not UTF-8 stay apart), escaped:
 * a file's bytes, a link's target, a directory by kind. Two snapshots are equal only if no byte
 * of any file, and no name, changed; a leftover temporary file shows as a new entry.
 */
export function tree(dir: string | Buffer, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  const here = typeof dir === 'string' ? Buffer.from(dir) : dir;
  for (const name of fs.readdirSync(here, { encoding: 'buffer' }).sort(Buffer.compare)) {
    const key = `${rel}${esc(name)}`;
    const p = Buffer.concat([here, Buffer.from('/'), name]);
    const st = fs.lstatSync(p);
    if (st.isSymbolicLink()) out[key] = `-> ${fs.readlinkSync(p).toString()}`;
    else if (st.isDirectory()) Object.assign(out, { [key]: 'dir' }, tree(p, `${key}/`));
    else out[key] = esc(fs.readFileSync(p));
  }
  return out;
}

/**
 * `diff -U CONTEXT a/f.txt b/f.txt` of two contents, made in a new directory under `dir`: diff's
 * own output (its positions, its markers), as patch tests feed it back.
 */
export function diffFiles(dir: string, before: string | Uint8Array, after: string | Uint8Array, context: number): Buffer {
  const at = fs.mkdtempSync(path.join(dir, 'diff-'));
  fs.mkdirSync(path.join(at, 'a'));
  fs.mkdirSync(path.join(at, 'b'));
  fs.writeFileSync(path.join(at, 'a', 'f.txt'), before);
  fs.writeFileSync(path.join(at, 'b', 'f.txt'), after);
  return spawnSync('diff', [`-U${context}`, 'a/f.txt', 'b/f.txt'], { cwd: at }).stdout;
}

/** The PatchFailedError a patch run ends with; fails the test if the patch applied (any other error goes on up). */
export async function refused(p: Promise<unknown>): Promise<PatchFailedError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof PatchFailedError) return e;
    throw e;
  }
  throw new Error('the patch applied');
}
