// Bounds shared across layers: how long a line may be when it must be whole in memory.

/**
 * The longest line held whole in memory: to compare it (the stale-edit guard), show it in a
 * diff, encode it as JSON, or collect it for the library. Longer lines stream (readers) or are
 * refused with a clear error.
 */
export const MAX_LINE_BYTES = 64 << 20;

