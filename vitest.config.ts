import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Real Redis, real sockets: keep parallelism modest on 2-core machines.
    maxWorkers: 2,
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
