// The arguments of a tool, declared once: the JSON Schema the client sees and the checks a call's
// arguments pass, with the engine's messages (a mistake is one line, never a crashed server).

import { LinewiseError } from '../core/errors.js';
import * as v from '../engine/validate.js';

/** One argument of a tool. */
export interface Param {
  type: 'string' | 'integer' | 'boolean' | 'strings';
  description: string;
  required?: boolean;
  /** integers: the least value */
  min?: number;
  /** strings: the values allowed */
  choices?: readonly string[];
}

export type Params = Record<string, Param>;

/** The JSON Schema of a tool's arguments. */
export function inputSchema(params: Params): { type: 'object'; properties: Record<string, object>; required?: string[]; additionalProperties: false } {
  const properties: Record<string, object> = {};
  for (const [name, p] of Object.entries(params)) {
    const base =
      p.type === 'strings'
        ? { type: 'array', items: { type: 'string' } }
        : p.type === 'integer'
          ? { type: 'integer', ...(p.min !== undefined ? { minimum: p.min } : {}) }
          : { type: p.type, ...(p.choices ? { enum: p.choices } : {}) };
    properties[name] = { ...base, description: p.description };
  }
  const required = Object.entries(params)
    .filter(([, p]) => p.required)
    .map(([n]) => n);
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

/** A call's arguments, checked against `params`: unknown names and wrong types are refused. */
export function checkArgs(tool: string, params: Params, args: unknown): Record<string, unknown> {
  const given = v.options<Record<string, unknown>>(args, 'arguments');
  const unknown = Object.keys(given).filter((k) => !Object.hasOwn(params, k));
  if (unknown.length > 0) {
    throw new LinewiseError('usage', `${tool} has no argument ${unknown.map((k) => `"${k}"`).join(', ')}; its arguments are ${Object.keys(params).join(', ')}`);
  }
  const out: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(params)) {
    const value = Object.hasOwn(given, name) ? given[name] : undefined;
    if (value === undefined || value === null) {
      if (p.required) throw new LinewiseError('usage', `${tool} needs "${name}": ${p.description}`);
      continue;
    }
    if (p.type === 'integer') out[name] = v.count(value, name, p.min ?? 0);
    else if (p.type === 'boolean') out[name] = v.optionalBoolean(value, name);
    else if (p.type === 'strings') out[name] = v.strings(value, name);
    else out[name] = p.choices ? v.oneOf(value, name, p.choices) : v.string(value, name);
  }
  return out;
}
