// Checks the arguments of the library's public functions, so a caller's mistake is a
// LinewiseError with a code (`bad-option`), never a raw TypeError from deep inside.

import { LinewiseError, quoted } from '../core/errors.js';
import type { Row } from '../core/parse-rows.js';
import { ANCHOR_PATTERN } from '../core/row-fields.js';
import { parseCount } from '../core/ranges.js';

function bad(what: string, expected: string, value: unknown): LinewiseError {
  const shown = typeof value === 'string' ? quoted(value, 40) : Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value === 'object' ? 'an object' : String(value);
  return new LinewiseError('bad-option', `${what} must be ${expected}, not ${shown}`);
}

/** A whole number at least `min` (the CLI's rules and messages for counts and line numbers). */
export function count(value: unknown, what: string, min = 0): number {
  // a whole number in range (every call the CLI makes) is taken as it is; anything else is
  // judged by parseCount, so the messages are the CLI's own (-0 goes there too, and comes back 0)
  if (Number.isSafeInteger(value) && (value as number) >= min && !Object.is(value, -0)) return value as number;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw bad(what, 'a number', value);
  return parseCount(String(value), what, min);
}

/** `count`, or undefined when not given. */
export function optionalCount(value: unknown, what: string, min = 0): number | undefined {
  return value === undefined ? undefined : count(value, what, min);
}

export function optionalBoolean(value: unknown, what: string): boolean | undefined {
  if (value !== undefined && typeof value !== 'boolean') throw bad(what, 'true or false', value);
  return value;
}

export function string(value: unknown, what: string): string {
  if (typeof value !== 'string') throw bad(what, 'a string', value);
  return value;
}

export function optionalString(value: unknown, what: string): string | undefined {
  return value === undefined ? undefined : string(value, what);
}

/** One string or an array of strings, as an array (never a string iterated by character). */
export function strings(value: unknown, what: string): string[] {
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw bad(what, 'a string or an array of strings', value);
  return [...(value as string[])];
}

export function oneOf<T extends string>(value: unknown, what: string, choices: readonly T[]): T {
  if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) throw bad(what, `one of ${choices.join(', ')}`, value);
  return value as T;
}

/** Text as bytes: a string (encoded as UTF-8) or bytes. */
export function textBytes(value: unknown, what: string): Buffer {
  if (typeof value === 'string') return Buffer.from(value, 'utf8');
  if (value instanceof Uint8Array) return Buffer.from(value);
  throw bad(what, 'a string or bytes (Uint8Array)', value);
}

/** An options object (undefined and null give the defaults). */
export function options<T extends object>(value: unknown, what: string): Partial<T> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw bad(what, 'an object', value);
  return value as Partial<T>;
}

/** An AbortSignal, or undefined. */
export function optionalSignal(value: unknown): AbortSignal | undefined {
  if (value === undefined) return undefined;
  if (!(value instanceof AbortSignal)) throw bad('signal', 'an AbortSignal', value);
  return value;
}

/** A function, or undefined. */
export function optionalFunction<T extends (...args: never[]) => unknown>(value: unknown, what: string): T | undefined {
  if (value !== undefined && typeof value !== 'function') throw bad(what, 'a function', value);
  return value as T | undefined;
}

/**
 * Rows as parseRows makes them (`expectRows`, an option of the CLI's calls that a JavaScript
 * caller can pass all the same): every field the planner reads, checked.
 */
export function parsedRows(value: unknown, what: string): Row[] {
  if (!Array.isArray(value)) throw bad(what, 'an array of rows', value);
  const reading = (r: unknown, at: string) => {
    if (r === null || typeof r !== 'object') throw bad(at, 'a row { path?, line, bytes }', r);
    const x = r as Record<string, unknown>;
    optionalString(x.path, `${at}: path`);
    count(x.line, `${at}: line`, 1);
    if (!Buffer.isBuffer(x.bytes)) throw bad(`${at}: bytes`, 'a Buffer', x.bytes);
    const anchor = optionalString(x.anchor, `${at}: anchor`);
    if (anchor !== undefined && !ANCHOR_PATTERN.test(anchor)) throw bad(`${at}: anchor`, '4 to 16 lowercase hex digits', anchor);
    return x;
  };
  value.forEach((r, i) => {
    const x = reading(r, `${what} ${i + 1}`);
    count(x.rowNumber, `${what} ${i + 1}: rowNumber`, 1);
    if (x.alts === undefined) return;
    if (!Array.isArray(x.alts)) throw bad(`${what} ${i + 1}: alts`, 'an array', x.alts);
    x.alts.forEach((a: unknown, k: number) => {
      const alt = reading(a, `${what} ${i + 1}: alt ${k + 1}`);
      string(alt.path, `${what} ${i + 1}: alt ${k + 1}: path`);
      string(alt.why, `${what} ${i + 1}: alt ${k + 1}: why`);
      if (alt.restore !== undefined) throw bad(`${what} ${i + 1}: alt ${k + 1}: restore`, 'left out (only parseRows sets it)', alt.restore);
    });
  });
  return value as Row[];
}
