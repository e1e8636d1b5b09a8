import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createRuntime, type Runtime } from '../../src/app/runtime.js';
import { runSandboxCli } from '../../src/sandbox/cli.js';
import { SystemClock } from '../../src/sandbox/types.js';
import { startTrackingWorkers } from '../../src/app/messengers.js';
import { memoryLogger } from '../support/log.js';
import { testRedisUrl, uniquePrefix } from '../support/redis.js';
import { swapRequest } from '../support/swaps.js';
import { waitFor } from '../support/wait.js';

/**
 * `npm start` against its in-process sandbox at SANDBOX_SPEED > 1: the sandbox stamps its swaps
 * with a clock that runs that much faster, so the bot reads the same clock; on the wall clock a
 * card's "expected by ... (about N minutes from now)" drifted from the swap's own times by the
 * sandbox's lead, minutes after a few minutes of a session.
 */
describe('the in-process sandbox and the bot share one clock', () => {
  let rt: Runtime | undefined;
  afterEach(async () => {
    await rt?.close();
    rt = undefined;
  });

  const start = (speed: string) =>
    createRuntime(
      loadConfig({
        REDIS_URL: testRedisUrl(),
        REDIS_PREFIX: uniquePrefix('clock'),
        PORT: '0',
        SANDBOX_DEPOSIT_DELAY_MS: 'off',
        SANDBOX_SPEED: speed,
      }),
      memoryLogger().logger,
      'console',
    );

  it("stamps a followed swap's poll in the sandbox's time, not the wall clock's, once the sandbox runs ahead", async () => {
    rt = await start('50');
    const sandbox = rt.sandbox;
    if (!sandbox) throw new Error('no in-process sandbox');
    await waitFor(() => sandbox.clock.now() - Date.now() > 10_000, 'the sandbox to run 10 s ahead of the wall clock');
    expect((rt.coreDeps.now?.() ?? Date.now()) - Date.now()).toBeGreaterThan(10_000);

    await startTrackingWorkers(rt);
    const created = await rt.api.createSwap(swapRequest(`0x${'a'.repeat(40)}`));
    const id = created.swap.id;
    const before = sandbox.clock.now();
    await rt.tracking.service.follow(id, { platform: 'console', chatId: 'clock', chatKind: 'private' }, { userId: 'clock' });
    const state = await waitFor(() => rt?.tracking.swapState(id), 'the first poll');
    // The poll's time is the sandbox's (ahead), the time its swap's own dates are in.
    expect(state.lastPolledAt).toBeGreaterThanOrEqual(before);
    expect(state.lastPolledAt - Date.now()).toBeGreaterThan(10_000);
  });

  it('reads the clock `swapbot sandbox --speed N` prints, for a sandbox in another process', async () => {
    const stop = new AbortController();
    let printed!: (line: string) => void;
    const clockLine = new Promise<string>((resolve) => (printed = resolve));
    const lines: string[] = [];
    const running = runSandboxCli(
      ['--port', '0', '--host', '127.0.0.1', '--speed', '50'],
      { SANDBOX_DEPOSIT_DELAY_MS: 'off' },
      {
        out: (l) => {
          lines.push(l);
          if (l.startsWith('clock:')) printed(l);
        },
        signal: stop.signal,
      },
    );
    try {
      const setting = /SANDBOX_CLOCK=(\S+)/.exec(await clockLine)?.[1] ?? '';
      const url = /(http:\/\/[^\s)]+)/.exec(lines[0] ?? '')?.[1] ?? '';
      const env = {
        REDIS_URL: testRedisUrl(),
        REDIS_PREFIX: uniquePrefix('clock'),
        PORT: '0',
        LAYERSWAP_API_URL: url,
        LAYERSWAP_API_KEY: 'sandbox',
      };
      const config = loadConfig({ ...env, SANDBOX_CLOCK: setting });
      expect(config.SANDBOX_CLOCK?.speed).toBe(50);
      const told = new SystemClock(config.SANDBOX_CLOCK?.speed, config.SANDBOX_CLOCK?.origin);
      await waitFor(() => told.now() - Date.now() > 10_000, 'the sandbox to run 10 s ahead of the wall clock');
      rt = await createRuntime(config, memoryLogger().logger, 'console');
      expect(rt.sandbox).toBeUndefined();
      await startTrackingWorkers(rt);
      const created = await rt.api.createSwap(swapRequest(`0x${'b'.repeat(40)}`));
      // The swap's own date is the sandbox's, ahead of the wall clock; the bot's poll is stamped in the same time.
      const createdAt = Date.parse(created.swap.created_date ?? '');
      expect(createdAt - Date.now()).toBeGreaterThan(10_000);
      await rt.tracking.service.follow(
        created.swap.id,
        { platform: 'console', chatId: 'clock2', chatKind: 'private' },
        { userId: 'clock2' },
      );
      const state = await waitFor(() => rt?.tracking.swapState(created.swap.id), 'the first poll');
      expect(state.lastPolledAt).toBeGreaterThanOrEqual(createdAt);

      // Without it, the same bot reads the wall clock.
      await rt.close();
      rt = await createRuntime(loadConfig(env), memoryLogger().logger, 'console');
      expect(rt.coreDeps.now).toBeUndefined();
    } finally {
      stop.abort();
      await running;
    }
  });

  it('leaves the wall clock alone at speed 1 (the two are one)', async () => {
    rt = await start('1');
    expect(rt.coreDeps.now).toBeUndefined();
  });
});
