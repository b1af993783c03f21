// Rows that crossed a decoding replace was not given: rows read with --encoding (or from a UTF-16
// file) fed back to the bytes of the file, or raw rows fed to a decoded file. Named as that
// mistake (exit 2) before the edit could transcode lines or be taken for a stale one (exit 3).
//
// The rule, without decoding: a row whose text is UTF-8 beyond ASCII, replacing a line that is
// not valid UTF-8 (or an ASCII line of a file that is not valid UTF-8), came through a decoding;
// and an expected line (`--expect`, an anchor) that the
// current line fails to match but matches once decoded in some common encoding is that mistake,
// not a change. With a decoding: expected rows that are not valid UTF-8 were read without it.

import { isUtf8 } from 'node:buffer';
import type { Edit, Expectation, Sorted } from '../core/edit-plan.js';
import { LinewiseError } from '../core/errors.js';
import { ExpectStream } from '../core/expect-stream.js';
import type { Mismatch, PatchResult } from '../core/patcher.js';
import { bodyOf } from '../core/terminators.js';
import { fnv1a } from '../core/row-guard.js';
import { lineHash } from '../io/line-hash.js';

/** Encodings tried to explain a line, as `--encoding` names them, and how Node decodes them. */
const CANDIDATES: readonly [string, (b: Buffer) => string | undefined][] = [
  ['latin1', (b) => b.toString('latin1')],
  ...['windows-1252', 'shift_jis', 'euc-jp', 'gbk', 'big5', 'euc-kr', 'windows-1251', 'koi8-r', 'windows-1250', 'iso-8859-2', 'iso-8859-15'].map(
    (name): [string, (b: Buffer) => string | undefined] => [name, (b) => decodeAs(name, b)],
  ),
];

function decodeAs(name: string, b: Buffer): string | undefined {
  try {
    return new TextDecoder(name, { fatal: true }).decode(b);
  } catch {
    return undefined; // not valid in that encoding, or not in this Node's ICU
  }
}

/** The first candidate encoding under which `current` (a line's text) satisfies `fits`. */
function explainingEncoding(current: Buffer, fits: (text: string) => boolean): string | undefined {
  for (const [name, decode] of CANDIDATES) {
    const text = decode(current);
    if (text !== undefined && fits(text)) return name;
  }
  return undefined;
}

/**
 * What to run instead: with the encoding that explains the line (`name`), else the one the file's
 * own bytes look like (`file`: UTF-16 read raw under -a, whose lines no single-byte encoding
 * explains, must not be sent to latin1), else an example.
 */
const fix = (name: string | undefined, file: string | undefined) =>
  name !== undefined || file !== undefined ? `run replace with --encoding ${name ?? file}` : 'run replace with the --encoding the rows were read with (for example --encoding latin1)';

/**
 * The decoding mistake a patch shows, or undefined. `expect`: the guard, as sources sorted by
 * line. `decoded`: replace read the file through a codec (`--encoding`, or a UTF-16 byte order
 * mark). `fileEncoding`: the wide encoding the file's first bytes look like, asked only for a message.
 */
export function decodingProblem(result: PatchResult, expect: readonly Sorted<Expectation>[], decoded: boolean, fileEncoding: () => string | undefined = () => undefined): LinewiseError | undefined {
  const at = expectedAt(result.mismatches, expect);
  if (decoded) {
    const raw = result.mismatches.flatMap((m) => at.get(m.line) ?? []).find((x) => x.bytes !== undefined && !isUtf8(bodyOf(x.bytes)));
    if (raw === undefined) return undefined;
    return problem(`${raw.origin}: the row is not UTF-8, so it was read without --encoding while replace decodes the file; run replace without --encoding, or read the rows again with it`);
  }
  const u = result.undecoded[0];
  if (u !== undefined) {
    const name = explainingEncoding(bodyOf(u.current), (t) => t === u.text.toString('utf8'));
    return problem(`${u.origin}: line ${u.line} is not valid UTF-8 but the row is: the rows were read decoded (--encoding or a UTF-16 file) and would transcode the line; ${fix(name, name ?? fileEncoding())}`);
  }
  for (const m of result.mismatches) {
    const explained = explainedMismatch(m, at.get(m.line) ?? [], fileEncoding);
    if (explained !== undefined) return explained;
  }
  return undefined;
}

/** The expectations of the lines that did not hold, by line: one pass over the guard, only when some did not. */
function expectedAt(mismatches: readonly Mismatch[], expect: readonly Sorted<Expectation>[]): Map<number, Expectation[]> {
  const at = new Map<number, Expectation[]>(mismatches.map((m) => [m.line, []]));
  if (at.size === 0) return at;
  const all = new ExpectStream(expect, () => true);
  for (let x = all.next(); x !== undefined; x = all.next()) at.get(x.line)?.push(x);
  return at;
}

/** A mismatch of a line that is not UTF-8, which an expectation of its line (`expect`) matches once the line is decoded. */
function explainedMismatch(m: Mismatch, expect: readonly Expectation[], fileEncoding: () => string | undefined): LinewiseError | undefined {
  if (m.current === undefined) return undefined;
  const current = bodyOf(m.current);
  if (isUtf8(current)) return undefined;
  for (const x of expect) {
    const fits =
      x.bytes !== undefined
        ? (t: string) => t === bodyOf(x.bytes!).toString('utf8')
        : (t: string) => (x.fnv === undefined || fnv1a(Buffer.from(t, 'utf8')) === x.fnv) && (x.anchor === undefined || lineHash(Buffer.from(t, 'utf8')).startsWith(x.anchor));
    // Text expected as UTF-8 beyond ASCII where the line is not UTF-8: a decoding, even if edited since.
    const utf8Text = x.bytes !== undefined && isUtf8(bodyOf(x.bytes)) && bodyOf(x.bytes).some((c) => c >= 0x80);
    const name = explainingEncoding(current, fits);
    if (name !== undefined || utf8Text) {
      return problem(`${x.origin}: line ${m.line} is not valid UTF-8 and matches the row read only once decoded: the rows were read with a decoding replace was not given, not changed since; ${fix(name, name ?? fileEncoding())}`);
    }
  }
  return undefined;
}

/**
 * A row whose UTF-8 text (beyond ASCII) replaces an ASCII line of a file that is not valid UTF-8
 * (its first such byte at `invalidAt`): the line cannot tell, the file does. Writing it would
 * leave the file half in UTF-8, the mistake the rule is for; on purpose, a range edit does it.
 */
export function intoAsciiProblem(result: PatchResult, invalidAt: number, fileEncoding?: string): LinewiseError {
  const { line, origin } = result.intoAscii[0]!;
  return problem(
    `${origin}: the row brings UTF-8 text into line ${line}, but the file is not valid UTF-8 (at byte ${invalidAt}): the rows were read decoded (--encoding); ${fix(undefined, fileEncoding)}, or, to write UTF-8 there on purpose, replace the line as a range (replace FILE ${line} --text ...)`,
  );
}

function problem(message: string): LinewiseError {
  return new LinewiseError('decoding-mismatch', `${message}; nothing was written`);
}

/**
 * Rows fed back under -a (raw bytes) into a file whose bytes look like UTF-16 or UTF-32 text
 * without a byte order mark (`wide`): a raw line of such a file holds NUL bytes, a row read
 * with `--encoding` holds none, and writing it would break the file's two- or four-byte units
 * (an ASCII row made "a\0l\0" + "BETA\n" + "g\0", exit 0). The first row with no NUL, or undefined.
 */
export function narrowRowProblem(edits: Sorted<Edit>, wide: string): LinewiseError | undefined {
  for (let i = 0; i < edits.length; i++) {
    const e = edits.at(i);
    if (e === undefined || e.row !== true || e.lines.some((l) => l.includes(0))) continue;
    return problem(`${e.origin}: the file looks like ${wide.toUpperCase()} text without a byte order mark, and the row holds none of its NUL bytes: the rows were read with --encoding ${wide}; ${fix(wide, undefined)} instead of -a`);
  }
  return undefined;
}
