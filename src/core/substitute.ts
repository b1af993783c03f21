// grep --replace: rg's replacement syntax ($1, ${name}, $$) parsed once, and each match in a line
// replaced in the line's own bytes, so everything outside the matches stays byte for byte.

import { isUtf8 } from 'node:buffer';
import { LinewiseError } from './errors.js';
import { noteMatch } from './match-ranges.js';
import type { CompiledPattern } from './pattern.js';
import { terminatorLength } from './terminators.js';
import { ByteCursor, byteOffsets } from './utf8.js';

/** A replacement text, parsed: literal text and references to capture groups (by number or name). */
export type Template = ReadonlyArray<string | { group: number | string }>;

/**
 * Parses a replacement as rg does: `$N` or `${N}` is group N (`$0` the whole match), `$name` or
 * `${name}` a named group, `$$` a `$`. A name is the longest run of `[A-Za-z0-9_]` after the `$`
 * (so `$1a` is the group named "1a": write `${1}a`); a `$` that starts no reference is literal.
 * A group that does not exist, or did not take part in the match, gives the empty string.
 */
export function parseTemplate(text: string): Template {
  if (/[\r\n]/.test(text)) {
    throw new LinewiseError('usage', '--replace TEXT must not hold a line break: a row holds one line; to add lines, use replace FILE START END');
  }
  const parts: Array<string | { group: number | string }> = [];
  let lit = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== '$') {
      lit += c;
      continue;
    }
    let name: string | undefined;
    let next = i + 1;
    if (text[next] === '$') {
      lit += '$';
      i = next;
      continue;
    }
    if (text[next] === '{') {
      const close = text.indexOf('}', next);
      const inner = close === -1 ? '' : text.slice(next + 1, close);
      if (/^[A-Za-z0-9_]+$/.test(inner)) {
        name = inner;
        next = close + 1;
      }
    } else {
      const m = /^[A-Za-z0-9_]+/.exec(text.slice(next));
      if (m) {
        name = m[0];
        next += name.length;
      }
    }
    if (name === undefined) {
      lit += '$';
      continue;
    }
    if (lit !== '') parts.push(lit);
    lit = '';
    parts.push({ group: /^[0-9]+$/.test(name) ? Number(name) : name });
    i = next - 1;
  }
  if (lit !== '') parts.push(lit);
  return parts;
}

/** The replacement for one match. */
function expand(template: Template, m: RegExpExecArray): string {
  let s = '';
  for (const p of template) {
    if (typeof p === 'string') s += p;
    else s += (typeof p.group === 'number' ? m[p.group] : m.groups?.[p.group]) ?? '';
  }
  return s;
}

/**
 * The replacement for one match in a line that is not UTF-8, as bytes: a group brings the file's
 * own bytes (the match `m` of a regex with indices over `text`, the line `[start, end)` decoded),
 * never the U+FFFD its decoding shows, so `--replace '$0'` gives the line back byte for byte.
 */
function expandExact(template: Template, m: RegExpExecArray, buf: Buffer, start: number, end: number): Buffer {
  const parts: Buffer[] = [];
  for (const p of template) {
    if (typeof p === 'string') {
      parts.push(Buffer.from(p, 'utf8'));
      continue;
    }
    const at = typeof p.group === 'number' ? m.indices?.[p.group] : m.indices?.groups?.[p.group];
    if (at === undefined) continue;
    const [s, e] = byteOffsets(buf, start, end, at);
    parts.push(buf.subarray(start + s!, start + e!));
  }
  return Buffer.concat(parts);
}

/** The pattern's global RegExp with match indices (`d`), made once per pattern. */
const withIndices = new WeakMap<RegExp, RegExp>();
function indexed(re: RegExp): RegExp {
  let d = withIndices.get(re);
  if (d === undefined) withIndices.set(re, (d = new RegExp(re.source, re.flags.includes('d') ? re.flags : `${re.flags}d`)));
  return d;
}

/** One match in a line: its byte range relative to the line's start, and its replacement. */
export interface Replaced {
  start: number;
  end: number;
  text: Buffer;
}

/**
 * Hands every match of `pattern` in line `[start, end)` to `visit` (the pattern sees the line
 * without its terminator, as grep matches it), with `template` expanded; `visit` returns false
 * to stop. A zero-width match steps on by one character, as a global RegExp replace does.
 * Nothing is kept per match: a line of millions of matches costs its replacements one at a time.
 */
export function eachReplacement(pattern: CompiledPattern, template: Template, buf: Buffer, start: number, end: number, visit: (r: Replaced) => boolean | void): void {
  const te = end - terminatorLength(buf, start, end);
  const text = buf.toString('utf8', start, te);
  const exact = template.some((p) => typeof p !== 'string') && !isUtf8(buf.subarray(start, te));
  const re = exact ? indexed(pattern.all) : pattern.all;
  const cursor = new ByteCursor(buf, start, te);
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    noteMatch();
    const r = { start: cursor.offset(m.index), end: cursor.offset(m.index + m[0].length), text: exact ? expandExact(template, m, buf, start, te) : Buffer.from(expand(template, m), 'utf8') };
    if (visit(r) === false) return;
    if (m[0].length === 0) {
      if (re.lastIndex >= text.length) break;
      re.lastIndex += (text.codePointAt(re.lastIndex) ?? 0) > 0xffff ? 2 : 1;
    }
  }
}

/** Every match of `pattern` in line `[start, end)` with `template` expanded (see {@link eachReplacement}). */
export function replacements(pattern: CompiledPattern, template: Template, buf: Buffer, start: number, end: number): Replaced[] {
  const out: Replaced[] = [];
  eachReplacement(pattern, template, buf, start, end, (r) => {
    out.push(r);
  });
  return out;
}

/** Line `[start, end)` with every match replaced: the bytes between matches and the terminator kept. */
export function replaceLine(pattern: CompiledPattern, template: Template, buf: Buffer, start: number, end: number): Buffer {
  // One buffer grown by doubling: two Buffers per match (the part before it, its replacement)
  // made a 4 MB line of 4 million matches take a gigabyte.
  let out = Buffer.allocUnsafe(Math.max(64, end - start));
  let n = 0;
  const put = (b: Uint8Array, s: number, e: number) => {
    if (n + (e - s) > out.length) {
      const grown = Buffer.allocUnsafe(Math.max(out.length * 2, n + (e - s)));
      out.copy(grown, 0, 0, n);
      out = grown;
    }
    n += Buffer.from(b.buffer, b.byteOffset, b.byteLength).copy(out, n, s, e);
  };
  let at = 0;
  eachReplacement(pattern, template, buf, start, end, (r) => {
    put(buf, start + at, start + r.start);
    put(r.text, 0, r.text.length);
    at = r.end;
  });
  put(buf, start + at, end);
  return out.subarray(0, n);
}
