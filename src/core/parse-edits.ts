// `replace --edits`: JSON Lines, one edit a line, `{"start":S,"end":E,"text":T}` (a range edit) or
// `{"old":O,"new":N,"all":false}` (a content edit); anything else refused, naming its line.

import { LinewiseError } from './errors.js';

export type ParsedEdit = { start: number; end: number; text: string } | { old: string; new: string; all: boolean };

const RANGE_KEYS = new Set(['start', 'end', 'text']);
const TEXT_KEYS = new Set(['old', 'new', 'all']);

/** Parses the edits; blank lines are skipped. `source` names the input in messages. */
export function parseEdits(input: Buffer, source: string): ParsedEdit[] {
  const edits: ParsedEdit[] = [];
  const lines = input.toString('utf8').split('\n');
  lines.forEach((raw, i) => {
    const text = raw.replace(/\r$/, '');
    if (text.trim() === '') return;
    const bad = (what: string) => new LinewiseError('bad-edit', `line ${i + 1}: ${what}`, source);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw bad(`not JSON (${(e as Error).message}); each line is one edit, {"start":S,"end":E,"text":T} or {"old":O,"new":N}`);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw bad('an edit is an object: {"start":S,"end":E,"text":T} or {"old":O,"new":N}');
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o);
    if ('old' in o) {
      const extra = keys.filter((k) => !TEXT_KEYS.has(k));
      if (extra.length > 0) throw bad(`unknown field ${extra.join(', ')} in a content edit (it takes old, new, all)`);
      if (typeof o.old !== 'string' || o.old === '') throw bad('"old" must be a non-empty string');
      if (typeof o.new !== 'string') throw bad('"new" must be a string ("" deletes)');
      if (o.all !== undefined && typeof o.all !== 'boolean') throw bad('"all" must be true or false');
      edits.push({ old: o.old, new: o.new, all: o.all === true });
      return;
    }
    const extra = keys.filter((k) => !RANGE_KEYS.has(k));
    if (extra.length > 0) throw bad(`unknown field ${extra.join(', ')} (a range edit takes start, end, text; a content edit old, new, all)`);
    const whole = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v);
    if (!whole(o.start) || (o.start as number) < 1) throw bad('"start" must be a line number (1 or more)');
    if (o.end !== undefined && (!whole(o.end) || (o.end as number) < 0)) throw bad('"end" must be a line number (START - 1 inserts)');
    if (typeof o.text !== 'string') throw bad('"text" must be a string ("" deletes)');
    edits.push({ start: o.start as number, end: (o.end as number | undefined) ?? (o.start as number), text: o.text });
  });
  return edits;
}
