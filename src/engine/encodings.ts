// Encodings for the library: iconv-lite loads asynchronously, so the synchronous readers ask for
// it to be loaded first instead of failing inside a bundle that cannot require it.

import { LinewiseError } from '../core/errors.js';
import { canonicalName, encodingNames, isBuiltIn, prepareEncoding } from '../io/encodings/names.js';
import { string } from './validate.js';

const loaded = new Set<string>();

/**
 * Checks that `name` is an encoding linewise knows, and loads the decoder it needs. `grep` and
 * `replace` call it themselves; call it once before `readLines` or `page` with an `encoding`
 * other than UTF-8, UTF-16 or UTF-32.
 *
 * @throws {@link LinewiseError} (code `unknown-encoding`, exit code 2) for a name it does not know.
 *
 * @example
 * ```ts
 * await loadEncoding('windows-1252');
 * const lines = readLines('legacy.ini', 1, 5, { encoding: 'windows-1252' });
 * ```
 */
export async function loadEncoding(name: string): Promise<void> {
  string(name, 'encoding');
  await prepareEncoding(name);
  loaded.add(canonicalName(name));
}

/** Throws when a synchronous reader is given an encoding whose decoder was not loaded. */
export function checkEncodingLoaded(name: string | undefined): void {
  if (name === undefined || isBuiltIn(name) || loaded.has(canonicalName(name))) return;
  throw new LinewiseError('encoding-not-loaded', `encoding '${name}' is not loaded: await loadEncoding('${name}') once before reading with it`);
}

/** Every name `encoding` accepts: each encoding's own name, then its aliases (`linewise encodings`). */
export async function listEncodings(): Promise<{ name: string; aliases: string[] }[]> {
  return encodingNames();
}
