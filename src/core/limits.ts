// Bounds shared across layers: how long a line may be when it must be whole in memory, and how
// many rows one call may apply.

/**
 * The longest line held whole in memory: to compare it (the stale-edit guard), show it in a
 * diff, encode it as JSON, or collect it for the library. Longer lines stream (readers) or are
 * refused with a clear error.
 */
export const MAX_LINE_BYTES = 64 << 20;


/**
 * The most rows one `replace --rows` (or `--expect`) takes. Every row of a call is held until
 * its files are written (all or nothing), at about 600 to 800 bytes a row at the peak (rows,
 * edits and the plan: 6 million rows took 3.4 GB, one million 0.8 GB, `/usr/bin/time -f %M`):
 * the byte cap on the input alone let short rows reach 10 GB. More rows go in several calls.
 */
export const MAX_ROWS = 1_000_000;
