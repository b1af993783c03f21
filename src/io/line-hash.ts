// The hash behind anchors: SHA-256 of a line's text (without its terminator), from node:crypto,
// loaded on the first anchor so a run without anchors never pays for it.
//
// Why SHA-256: anyone can compute an anchor without linewise (`printf %s "$LINE" | sha256sum`,
// its first 8 hex digits), and node:crypto's one-shot hash() costs under a microsecond a line.
// node:crypto takes a few milliseconds to load, more than the whole start-up budget allows
// for something most runs never use: hence getBuiltinModule, synchronous and on demand.

type Crypto = typeof import('node:crypto');

let crypto: Crypto | undefined;

/**
 * The first 64 bits of the SHA-256 of `body`, as 16 lowercase hex digits. Rows print the first
 * 8 (ANCHOR_DIGITS); `replace` takes any prefix of 4 to 16 digits as an anchor.
 */
export function lineHash(body: Uint8Array): string {
  crypto ??= process.getBuiltinModule('node:crypto');
  return crypto.hash('sha256', body, 'hex').slice(0, 16);
}
