// The test run: every file under test/, in child processes (forks), with timeouts chosen for a
// loaded 2-core machine and more workers than cores, since most test time is spent waiting.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Limits against a hang, not measures of speed: the slowest test takes 10 s on an idle 2-core
    // machine, and at a load average of 15 (other sessions' tests beside these) processes run 5
    // to 10 times slower, so 30 s cut tests that were only slow; 120 s still ends a hang.
    testTimeout: 120_000,
    // Hooks build trees, write large files and start servers. vitest's default (10 s) once cut a
    // beforeAll that writes and hashes 256 MiB, and its 8 tests did not run; a hook that needs
    // longer than this says so itself (test/e2e/hardening.test.ts, test/e2e/pack.test.ts).
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    pool: 'forks',
    // vitest runs one file at a time on 2 cores (cores - 1), but most of a file's time is spent
    // waiting for the processes it spawns (the built CLI, npm, a server): three files at once on 2
    // cores took 27 % less time at the same load (docs/PERFORMANCE.md, "The test run"). No two
    // files share a path they write: each works in its own temporary directory.
    maxWorkers: Math.max(3, availableParallelism()),
    // The readers end piped rows with a guard trailer (`\ read {...}`, core/row-guard.ts). The
    // tests of row bytes, written before it, compare rows alone: they run with it off, as a user
    // can (LINEWISE_GUARD=never). The trailer is tested with its default where it matters:
    // test/e2e/guard.test.ts, the README transcript, the rows properties, test/core/row-guard.test.ts.
    env: { LINEWISE_GUARD: 'never' },
  },
});
