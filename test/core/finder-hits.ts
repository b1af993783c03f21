// Test helpers for the finders: what a finder points at, and what it should point at.
import type { Finder } from '../../src/core/finders.js';

/** Every position `f` points at in block `[start, end)`, stepping one byte past each. */
export function hits(f: Finder, buf: Buffer, start: number, end: number): number[] {
  f.reset(buf, start, end);
  const out: number[] = [];
  for (let p = f.next(start); p !== -1 && p < end; p = f.next(p + 1)) out.push(p);
  return out;
}

/** Every start of any of `literals` lying wholly in `[start, end)`, the obvious way. */
export function occurrences(buf: Buffer, start: number, end: number, literals: Buffer[], fold = (b: Buffer) => b): number[] {
  const out: number[] = [];
  const hay = fold(Buffer.from(buf));
  for (let i = start; i < end; i++) if (literals.some((l) => i + l.length <= end && hay.subarray(i, i + l.length).equals(fold(Buffer.from(l))))) out.push(i);
  return out;
}
