// Where the worker threads of a search get their code: grep-worker.js beside the bundle's chunks.
// The standalone binary (one script, no files beside it) builds in another version of this file,
// which returns the worker's own bundle as a string (scripts/build-binary.mjs).

import { existsSync } from 'node:fs';

/**
 * The worker's script: its source to evaluate, or the URL of its module; undefined where there is
 * none (run from the TypeScript sources, as the unit tests do): the search then runs on one thread.
 */
export function grepWorkerScript(): { code: string } | { url: URL } | undefined {
  const url = new URL('./grep-worker.js', import.meta.url);
  return existsSync(url) ? { url } : undefined;
}
