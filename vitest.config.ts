import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Real tmux servers, ptys and git repos: keep concurrency modest on a 2-core machine.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    globalSetup: ['tests/global-setup.ts'],
    // The suite's budget is visible in every log: wall time and the ten slowest files (issue 20).
    reporters: ['default', './tests/reporters/suite-budget.ts'],
  },
});
