// Where the server's search threads get their code: mcp-search-thread.js beside the bundle. The
// standalone binary (one script, no files beside it) builds in another version of this file,
// which returns the thread's own bundle as a string (scripts/build-binary.mjs).

import { existsSync } from 'node:fs';

/**
 * The search thread's script: its source to evaluate, or the URL of its module; undefined where
 * there is none (run from the TypeScript sources, as the unit tests do): searches then run on
 * the main thread, as they did before threads.
 */
export function searchThreadScript(): { code: string } | { url: URL } | undefined {
  const url = new URL('./mcp-search-thread.js', import.meta.url);
  return existsSync(url) ? { url } : undefined;
}
