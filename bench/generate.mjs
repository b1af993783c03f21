// Generates the benchmark's data: LF and CRLF logs of a chosen size, a small file, a file that
// is one 100 MiB line, a source tree of 4,000 files, and a file with rows for each of its lines.
// Deterministic (seeded).
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A small fast PRNG (mulberry32), so every run generates the same bytes. */
function rng(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LEVELS = ['INFO ', 'DEBUG', 'WARN ', 'ERROR', 'INFO ', 'INFO ', 'DEBUG', 'TRACE'];
const WORDS = ['request', 'handled', 'cache', 'miss', 'user', 'session', 'timeout', 'retry', 'queue', 'flush', 'connection', 'opened', 'closed', 'payload', 'parsed', 'Résumé', 'naïve'];

/** Writes a log of about `bytes` bytes with line ending `eol` to `file`, if it is not there yet. */
export function makeLog(file, bytes, eol = '\n', seed = 42) {
  if (fs.existsSync(file) && fs.statSync(file).size >= bytes) return;
  const r = rng(seed);
  const fd = fs.openSync(`${file}.part`, 'w');
  let written = 0;
  let n = 0;
  while (written < bytes) {
    const lines = [];
    for (let i = 0; i < 20000; i++, n++) {
      const lvl = LEVELS[Math.floor(r() * LEVELS.length)];
      const code = 100 + Math.floor(r() * 500);
      const words = Array.from({ length: 3 + Math.floor(r() * 6) }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');
      lines.push(`2026-11-30T${String(n % 24).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}:00.${String(n % 1000).padStart(3, '0')}Z ${lvl} svc=api-${n % 17} req=${(n * 2654435761 >>> 0).toString(16)} status ${code} ${words} latency=${Math.floor(r() * 5000)}ms${eol}`);
    }
    const chunk = Buffer.from(lines.join(''));
    fs.writeSync(fd, chunk);
    written += chunk.length;
  }
  fs.closeSync(fd);
  fs.renameSync(`${file}.part`, file);
}

/** One line of `bytes` bytes, then a newline: the memory test. */
export function makeLongLine(file, bytes) {
  if (fs.existsSync(file) && fs.statSync(file).size === bytes + 1) return;
  const fd = fs.openSync(file, 'w');
  const block = Buffer.alloc(1 << 20, 'abcdefghij');
  for (let left = bytes; left > 0; left -= block.length) fs.writeSync(fd, block, 0, Math.min(left, block.length));
  fs.writeSync(fd, '\n');
  fs.closeSync(fd);
}

/**
 * A file of `count` short lines (`line N`) and, beside it, rows that replace every one of them
 * (`N<TAB>edited N`), as readlines prints them and an agent feeds them back: the rows memory case.
 */
export function makeRows(target, rows, count) {
  if (fs.existsSync(rows) && fs.existsSync(target)) return;
  const write = (file, line) => {
    const fd = fs.openSync(`${file}.part`, 'w');
    for (let from = 1; from <= count; from += 100000) {
      const part = [];
      for (let n = from; n < from + 100000 && n <= count; n++) part.push(line(n));
      fs.writeSync(fd, part.join(''));
    }
    fs.closeSync(fd);
    fs.renameSync(`${file}.part`, file);
  };
  write(target, (n) => `line ${n}\n`);
  write(rows, (n) => `${n}\tedited ${n}\n`);
}

/** What makeTree writes into `.done`: a tree made by an older version (other sizes) is rebuilt. */
const TREE_VERSION = 'v2: 80 dirs x 50 files, TODO_MARKER in every 40th file, build/ of 200 ignored files';

/**
 * A source tree of `dirs` × `perDir` TypeScript-like files (4,000 by default, the size issue 17
 * names) and a .gitignore'd build folder of 200 more. Every 40th file holds one `TODO_MARKER` line,
 * so a search for it is rare-match, as a search of a real tree usually is.
 */
export function makeTree(root, dirs = 80, perDir = 50) {
  const done = path.join(root, '.done');
  if (fs.existsSync(done) && fs.readFileSync(done, 'utf8') === TREE_VERSION) return;
  fs.rmSync(root, { recursive: true, force: true });
  const r = rng(7);
  for (let d = 0; d < dirs; d++) {
    const dir = path.join(root, 'src', `module${d}`);
    fs.mkdirSync(dir, { recursive: true });
    for (let f = 0; f < perDir; f++) {
      const lines = [];
      const count = 50 + Math.floor(r() * 250);
      for (let i = 0; i < count; i++) {
        const w = WORDS[Math.floor(r() * WORDS.length)];
        lines.push(i % 40 === 0 ? `export function ${w}${d}_${f}_${i}(input: string): number {` : `  const ${w}${i} = compute(${Math.floor(r() * 1e6)}, "${w}"); // TODO ${w}`);
      }
      if ((d * perDir + f) % 40 === 0) lines.splice(count >> 1, 0, '  // TODO_MARKER: the line the tree benchmark looks for');
      fs.writeFileSync(path.join(dir, `file${f}.ts`), `${lines.join('\n')}\n`);
    }
  }
  fs.mkdirSync(path.join(root, 'build'), { recursive: true });
  for (let i = 0; i < 200; i++) fs.writeFileSync(path.join(root, 'build', `out${i}.js`), 'compute(1, "request"); // TODO_MARKER request\n'.repeat(200));
  fs.writeFileSync(path.join(root, '.gitignore'), 'build/\n');
  fs.writeFileSync(done, TREE_VERSION);
}
