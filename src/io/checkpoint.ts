// Cancellation points in long synchronous work: one turn of the event loop, so a signal handler
// or a client's cancel can run, then a stop if the AbortSignal fired. Nothing here knows who aborts.

import { LinewiseError } from '../core/errors.js';

/** Bytes of synchronous work between two checkpoints: short enough that a cancel is prompt. */
export const YIELD_BYTES = 4 << 20;

/**
 * Thrown when work stopped because its AbortSignal fired; nothing was written. `reason` is the
 * signal's reason when it is a string (the CLI aborts with the name of the process signal).
 */
export class Interrupted extends LinewiseError {
  readonly reason: string | undefined;
  constructor(signal: AbortSignal) {
    const reason = typeof signal.reason === 'string' ? signal.reason : undefined;
    super('interrupted', `interrupted${reason ? ` by ${reason}` : ''}; nothing was written`);
    this.reason = reason;
  }
}

/** Throws {@link Interrupted} when `signal` has fired. */
export function stopIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Interrupted(signal);
}

/** Lets pending events run (one turn of the event loop), then throws if `signal` fired meanwhile. */
export async function checkpoint(signal: AbortSignal | undefined): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  stopIfAborted(signal);
}
