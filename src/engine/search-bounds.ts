// grep's time bound (--timeout) in numbers: apart from the search, so the CLI's grammar names
// them without loading the search at every start-up.

import { MAX_DEADLINE_MS } from '../io/deadline.js';
import { DEFAULT_TIMEOUT } from '../surface/options.js';

/** Seconds a stretch of searching may run before the pattern is blamed (see --timeout; the surface declares it). */
export { DEFAULT_TIMEOUT };
/** Work between two deadline checks: long enough that the watchdog's cost vanishes. */
export const SLICE_MS = 250;
/** The largest --timeout, in seconds: its deadline (plus a slice) must fit node:vm's range. */
export const MAX_TIMEOUT = Math.floor((MAX_DEADLINE_MS - SLICE_MS) / 1000);
