import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/bot/create-core.js';
import { CatalogCache } from '../../src/layerswap/catalog-cache.js';
import { LayerswapClient } from '../../src/layerswap/client.js';
import { createLogger } from '../../src/log.js';
import { startConsoleChat } from '../../src/platforms/console/adapter.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { ManualClock, type SandboxServer } from '../../src/sandbox/types.js';
import { MemoryTracking } from '../bot/support/memory-tracking.js';
import { testRedis, uniquePrefix } from '../support/redis.js';

/**
 * The terminal chat's log in its readable one-line format (`swapbot console` writes it to
 * DATA_DIR/swapbot.log, test/e2e/console-log-file.test.ts): a warning is one plain line, not JSON.
 */
const API_KEY = 'k-console-log-secret';
let sandbox: SandboxServer;
let output: PassThrough;
let text = '';
let chat: ReturnType<typeof startConsoleChat>;

beforeAll(async () => {
  const clock = new ManualClock();
  sandbox = await startSandbox({ clock, apiKey: API_KEY, timings: { depositDelayMs: 'off' } });
  output = new PassThrough();
  output.on('data', (d: Buffer) => (text += d.toString()));
  const logger = createLogger({ level: 'warn', format: 'line', destination: output, secrets: [API_KEY] });
  // One retry, without waiting: the retry is what logs the warning.
  const api = new LayerswapClient({
    baseUrl: sandbox.url,
    apiKey: API_KEY,
    timeoutMs: 3_000,
    maxRetries: 1,
    sleep: async () => undefined,
    logger,
  });
  const prefix = uniquePrefix('console-log');
  const core = createCore({
    api,
    catalog: new CatalogCache(api, { ttlMs: 60_000, now: () => clock.now() }),
    redis: testRedis(prefix),
    keyPrefix: prefix,
    tracking: new MemoryTracking(),
    limits: { commandsPerMinute: 1000, draftTtlSeconds: 600 },
    logger,
    now: () => clock.now(),
  });
  chat = startConsoleChat({ core, input: new PassThrough(), output, userId: 'console-log-user' });
});
afterAll(async () => {
  chat?.close();
  await sandbox?.close();
});

describe('terminal chat log lines', () => {
  it('shows a warning during a chat as one readable line before the reply, never JSON', async () => {
    await chat.send('/quote 100 USDC arbitrum base');
    expect(text).toContain('[1] Swap this');
    sandbox.injectFault({ status: 502, count: 1, pathPrefix: '/api/v2/quote' });
    const before = text.length;
    await chat.send('/quote 50 USDC arbitrum base');
    const after = text.slice(before);

    const lines = after.split('\n');
    const warnings = lines.filter((l) => l.includes('WARN'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^\d\d:\d\d:\d\d WARN {2}layerswap request failed; retrying {2}.*request=GET \/api\/v2\/quote attempt=1 .*\(.*502/,
    );
    // The retried quote still reaches the user, after the warning.
    expect(lines.indexOf(warnings[0]!)).toBeLessThan(lines.findIndex((l) => l.includes('You send: 50 USDC')));
    expect(text).not.toMatch(/\{"level"|"msg":/);
    expect(text).not.toContain(API_KEY);
  });
});
