// Whether a file can be replaced by a rename, checked for every file of a batch before any rename:
// a batch that would fail half-way (a mount point, a sticky directory) is refused whole instead.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { LinewiseError } from '../core/errors.js';
import { fsPath, pathFromBytes, quotePath } from '../core/path-names.js';
import { targetDir } from './edit-target.js';
import type { TempFile } from './temp-file.js';

const STICKY = 0o1000;
/** mountinfo is a few KB; a bound all the same, as for every input linewise reads. */
const MOUNTINFO_MAX = 4 << 20;

/**
 * The mount points of this process (Linux: /proc/self/mountinfo), or undefined where they cannot
 * be listed (then a bind-mounted file is found only by its rename failing, which commit.ts undoes).
 */
export function mountPoints(): Set<string> | undefined {
  if (process.platform !== 'linux') return undefined;
  let text: string;
  try {
    const fd = fs.openSync('/proc/self/mountinfo', 'r');
    try {
      const buf = Buffer.allocUnsafe(MOUNTINFO_MAX);
      let n = 0;
      for (let k; n < buf.length && (k = fs.readSync(fd, buf, n, buf.length - n, null)) > 0; ) n += k;
      // latin1: one character per byte, so a mount point that is not UTF-8 is rebuilt byte for byte
      text = buf.toString('latin1', 0, n);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const points = new Set<string>();
  for (const line of text.split('\n')) {
    // the fifth field is the mount point, with space, tab, newline and backslash in octal
    const field = line.split(' ')[4];
    if (field === undefined) continue;
    const bytes = Buffer.from(field.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(Number.parseInt(o, 8))), 'latin1');
    points.add(pathFromBytes(bytes)); // named as EditTarget.real names files
  }
  return points;
}

/** What the replacement of a file needs of its directory; the same for every file there, so a batch asks once. */
export interface DirFacts {
  /** undefined: it cannot be examined */
  stat: fs.Stats | undefined;
  /** this process may create and remove names in it */
  writable: boolean;
}

function dirFacts(at: string): DirFacts {
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(fsPath(at));
  } catch {
    return { stat: undefined, writable: false };
  }
  try {
    fs.accessSync(fsPath(at), fs.constants.W_OK | fs.constants.X_OK);
    return { stat, writable: true };
  } catch {
    return { stat, writable: false };
  }
}

/**
 * Throws (exit 2, nothing written) when renaming `t` over its target would fail: a directory
 * that is not writable, a target on another file system than its directory or one that is a
 * mount point (EXDEV, EBUSY), a sticky directory where neither it nor the file is ours (EPERM).
 */
export function checkReplaceable(t: TempFile, mounts: ReadonlySet<string> | undefined, dirs?: Map<string, DirFacts>): void {
  const target = t.target;
  const dir = path.dirname(target.real); // for messages
  const at = targetDir(target); // for system calls
  const refuse = (why: string) => new LinewiseError('not-replaceable', `cannot be replaced: ${why}; nothing was written`, target.given);
  let facts = dirs?.get(at);
  if (facts === undefined) {
    facts = dirFacts(at);
    dirs?.set(at, facts);
  }
  if (facts.stat === undefined) throw refuse(`its directory ${quotePath(dir)} cannot be examined`);
  if (!facts.writable) throw refuse(`its directory ${quotePath(dir)} is not writable`);
  const dirStat = facts.stat;
  // the temporary file was made in the directory, so it is on the directory's file system: a
  // target on another one is mounted over its name
  if (BigInt(dirStat.dev) !== target.stat.dev || mounts?.has(target.real)) {
    throw refuse('it is a mount point (a file mounted over this name); edit the file mounted there');
  }
  const euid = process.geteuid?.();
  if (euid !== undefined && euid !== 0 && dirStat.mode & STICKY && dirStat.uid !== euid && Number(target.stat.uid) !== euid) {
    throw refuse(`its directory ${quotePath(dir)} is sticky (+t) and neither it nor the file is yours`);
  }
}
