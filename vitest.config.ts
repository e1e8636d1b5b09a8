import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LongPolesFirst } from './test/support/sequencer.js';

/**
 * Limits are hang detectors, not deadlines (test/support/wait.ts, WAIT_MS): tests wait on events
 * and injected clocks, so a loaded machine makes them slower, never red, and no test sets its own.
 */
const HANG_MS = 300_000;

/**
 * Files that share one module graph per worker (isolate: false): importing the product (discord.js,
 * viem, bullmq…) once per worker instead of once per file. With four workers on 2 cores the suite
 * is CPU-bound, so this is most of what is left to cut: the pay, MCP, console, app and Telegram
 * end-to-end files joining took it from 3 min 23 s to 2 min 44 s (docs/development.md). What
 * starts discord.js against test/e2e/discord's fake stays isolated: after another file ran in the
 * same worker, such a file times out waiting for its deposit card (the shared state not found).
 */
const SHARED = [
  ...['bot', 'tracking', 'chain', 'sandbox', 'layerswap', 'i18n', 'platforms/discord', 'platforms/telegram', 'console', 'app', 'mcp'].map(
    (d) => `test/${d}/**/*.test.ts`,
  ),
  // Not messenger-contract.test.ts: it drives discord.js against test/e2e/discord's fake.
  'test/platforms/{attachment-render,words}.test.ts',
  'test/*.test.ts',
  // Not discord-link: it drives discord.js against test/e2e/discord's fake, as below.
  'test/pay/!(discord-link).test.ts',
  // The end-to-end files that do not start discord.js.
  'test/e2e/telegram/**/*.test.ts',
  'test/e2e/{console-*,redis-failures}.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: HANG_MS,
    hookTimeout: HANG_MS,
    teardownTimeout: HANG_MS,
    // Two files per core: half the suite's time is waiting (real sockets, child processes, a
    // browser), so two workers on 2 cores left one idle (5 min 4 s at 109% CPU; four: 3 min 27 s
    // at 159%; six: 3 min 28 s, CPU-bound). TEST_WORKERS overrides (docs/development.md).
    maxWorkers: Number(process.env.TEST_WORKERS) || 2 * availableParallelism(),
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    // The files that take longest start first, so none of them is left running alone at the end.
    sequence: { sequencer: LongPolesFirst },
    projects: [
      // Every file is in one of the two: all of them, less the shared ones; a new folder is isolated.
      { extends: true, test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: SHARED } },
      { extends: true, test: { name: 'shared', include: SHARED, isolate: false } },
    ],
  },
});
