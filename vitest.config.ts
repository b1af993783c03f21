import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    pool: 'forks',
    // The readers end piped rows with a guard trailer (`\ read {...}`, core/row-guard.ts). The
    // tests of row bytes, written before it, compare rows alone: they run with it off, as a user
    // can (LINEWISE_GUARD=never). The trailer is tested with its default where it matters:
    // test/e2e/guard.test.ts, the README transcript, the rows properties, test/core/row-guard.test.ts.
    env: { LINEWISE_GUARD: 'never' },
  },
});
