import { defineConfig } from 'vitest/config';

/**
 * Limits are hang detectors, not deadlines (test/support/wait.ts, WAIT_MS): tests wait on events
 * and injected clocks, so a loaded machine makes them slower, never red, and no test sets its own.
 */
const HANG_MS = 300_000;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: HANG_MS,
    hookTimeout: HANG_MS,
    teardownTimeout: HANG_MS,
    // Real Redis, real sockets: keep parallelism modest on 2-core machines.
    maxWorkers: 2,
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
