// The floor of a search in one large file in a fresh Node process, a reference of the grep rows
// (issue 27): open the file, read it to its end into one reused 1 MiB buffer, close it; no search
// at all, no output but the byte count. Node has no mmap, so every search it runs pays at least
// this (rg maps the file instead: compare `rg --no-mmap`, also in the table).
//
//   node bench/bare-read.mjs FILE
import * as fs from 'node:fs';

const buf = Buffer.allocUnsafe(1 << 20);
const fd = fs.openSync(process.argv[2], 'r');
let bytes = 0;
for (let n; (n = fs.readSync(fd, buf, 0, buf.length, null)) > 0; ) bytes += n;
fs.closeSync(fd);
console.log(`${bytes} bytes`);
