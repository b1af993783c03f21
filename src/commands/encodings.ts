// `encodings`: the names --encoding accepts, one a line, then a tab and the aliases.

import { Exit, type ExitCode } from '../core/errors.js';
import { listEncodings } from '../engine/encodings.js';
import type { Context } from './context.js';

export async function encodings(ctx: Context): Promise<ExitCode> {
  for (const { name, aliases } of await listEncodings()) ctx.out.text(`${name}\t${aliases.join(' ')}\n`);
  return Exit.ok;
}
