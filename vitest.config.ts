import { defineConfig } from 'vitest/config';
import { LongPolesFirst } from './test/support/sequencer.js';

/**
 * Limits are hang detectors, not deadlines (test/support/wait.ts, WAIT_MS): tests wait on events
 * and injected clocks, so a loaded machine makes them slower, never red, and no test sets its own.
 */
const HANG_MS = 300_000;

/**
 * Folders whose files share one module graph per worker (isolate: false): importing the product
 * (discord.js, viem, bullmq…) once per worker instead of once per file took test/bot from 114 s to
 * 36 s and test/platforms from 49 s to 30 s (docs/development.md, "Where the suite's time goes").
 * Each folder here passed on its own and together without isolation. The Discord and Telegram
 * end-to-end files share among themselves (SHARED_E2E); the rest stay isolated.
 */
const SHARED = [
  ...['bot', 'tracking', 'chain', 'sandbox', 'layerswap', 'i18n', 'platforms/discord', 'platforms/telegram'].map(
    (d) => `test/${d}/**/*.test.ts`,
  ),
  // Not messenger-contract.test.ts: it drives discord.js against test/e2e/discord's fake (SHARED_E2E).
  'test/platforms/{attachment-render,words}.test.ts',
];

/**
 * The Discord and Telegram end-to-end files share a module graph among themselves (their own
 * project): 77 of them passed together with test/bot and test/platforms in two shared workers, but
 * in the `shared` project beside test/tracking and test/chain both workers went idle mid-run and
 * no hang detector fired (2026-11-28, not yet understood). In a project of their own a worker
 * runs only their files.
 */
const SHARED_E2E = [
  'test/e2e/discord/**/*.test.ts',
  'test/e2e/telegram/**/*.test.ts',
  'test/discord-http/interactions.test.ts',
  'test/platforms/messenger-contract.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: HANG_MS,
    hookTimeout: HANG_MS,
    teardownTimeout: HANG_MS,
    // Real Redis, real sockets: keep parallelism modest on 2-core machines.
    maxWorkers: 2,
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    // The files that take longest start first, so none of them is left running alone at the end.
    sequence: { sequencer: LongPolesFirst },
    projects: [
      // Every file is in one of the three: all of them, less the shared ones; a new folder is isolated.
      { extends: true, test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: [...SHARED, ...SHARED_E2E] } },
      { extends: true, test: { name: 'shared', include: SHARED, isolate: false } },
      { extends: true, test: { name: 'shared-e2e', include: SHARED_E2E, isolate: false } },
    ],
  },
});
