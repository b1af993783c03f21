// A tool call's arguments as the client's own data: a name that every object also answers to
// through Object.prototype (`constructor`, `toString`, `valueOf`, `__proto__`, ...) is refused as
// the call arrives, before the SDK's schema (which drops `__proto__` unseen) or a tool reads it.
// No tool has such an argument, and none may take a value from the prototype instead.

import type { JSONRPCMessage } from './sdk.js';
import { errorResponse } from './stdio.js';

/** JSON-RPC's error code for arguments a method does not take. */
export const INVALID_PARAMS = -32602;

/** Names an argument may not have: Object.prototype's own, `__proto__` among them. */
export function prototypeNames(args: object): string[] {
  return Object.keys(args).filter((k) => k === '__proto__' || Object.hasOwn(Object.prototype, k));
}

/** An error response for a tools/call whose arguments use a prototype's name, else undefined. */
export function screenCall(message: JSONRPCMessage): JSONRPCMessage | undefined {
  const m = message as { method?: unknown; id?: unknown; params?: unknown };
  if (m.method !== 'tools/call' || (typeof m.id !== 'string' && typeof m.id !== 'number')) return undefined;
  const params = m.params as { name?: unknown; arguments?: unknown } | undefined;
  const args = params?.arguments;
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  const bad = prototypeNames(args);
  if (bad.length === 0) return undefined;
  const tool = typeof params?.name === 'string' ? params.name : 'the tool';
  return errorResponse(m.id, INVALID_PARAMS, `Invalid params: ${tool} has no argument ${bad.map((k) => JSON.stringify(k)).join(', ')} (a name every object has; the call was refused, nothing was done)`);
}
