// The floor of a tree search in a fresh Node process, the reference of the tree rows: a bare walk
// (readdirSync with file types, hidden names skipped, no ignore rules, no symbolic links) that
// opens each file, reads it into one reused 64 KiB buffer, looks for the literal with indexOf and
// closes it. It prints the number of files holding the literal, nothing else: no rows, no output.
//
//   node bench/bare-walk.mjs LITERAL DIR
import * as fs from 'node:fs';
import * as path from 'node:path';

const [literal, root] = process.argv.slice(2);
const needle = Buffer.from(literal);
const buf = Buffer.allocUnsafe(1 << 16);
let files = 0;
let hits = 0;

function walk(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.isFile()) search(p);
  }
}

function search(p) {
  files++;
  const fd = fs.openSync(p, 'r');
  try {
    // the literal may straddle two reads: keep its length less one byte of the previous read
    let keep = 0;
    for (let n; (n = fs.readSync(fd, buf, keep, buf.length - keep, null)) > 0; ) {
      const end = keep + n;
      if (buf.subarray(0, end).indexOf(needle) !== -1) {
        hits++;
        return;
      }
      keep = Math.min(needle.length - 1, end);
      buf.copyWithin(0, end - keep, end);
    }
  } finally {
    fs.closeSync(fd);
  }
}

walk(root);
console.log(`${hits} of ${files} files`);
