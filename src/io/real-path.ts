// A file's real path, byte-exact: the JavaScript realpath turns a name that is not UTF-8 into
// U+FFFD, which names a look-alike; the native one, asked for bytes, keeps it (path-names.ts).

import * as fs from 'node:fs';
import { fsPath, pathFromBytes } from '../core/path-names.js';

/** The real path of `p` (a string as path-names.ts keeps names); throws as realpath does. */
export function realPath(p: string): string {
  return pathFromBytes(fs.realpathSync.native(fsPath(p), { encoding: 'buffer' }));
}
