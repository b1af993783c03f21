// The tools the server lists, as the declaration gives them (surface/tools.ts): name, title,
// description, the input schema derived from the command's options, and the annotations that
// tell a client which tools write.

import { TOOLS as DECLARED } from '../surface/tools.js';
import type { ToolSpec } from '../surface/types.js';
import { inputSchema } from './schema.js';

export type { ToolSpec } from '../surface/types.js';

/** Every tool, in the order tools/list shows them. */
export const TOOLS: readonly ToolSpec[] = DECLARED;

/** A tool as tools/list shows it. */
export function listed(t: ToolSpec): Record<string, unknown> {
  return {
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: inputSchema(t),
    // no outputSchema: structuredContent is the same shape for every tool ({status, records}),
    // said once in the instructions, not nine times in tools/list
    annotations: t.writes ? { readOnlyHint: false, destructiveHint: true } : { readOnlyHint: true },
  };
}
