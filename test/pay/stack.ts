import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { loadConfig } from '../../src/config.js';
import { createRuntime, type Runtime } from '../../src/app/runtime.js';
import { startWeb } from '../../src/app/web.js';
import { startTrackingWorkers } from '../../src/app/messengers.js';
import { buildPayPage } from '../../scripts/build-page.mjs';
import { FakeBotApi } from '../e2e/telegram/fake-bot-api.js';
import { memoryLogger } from '../support/log.js';
import { testRedisUrl, uniquePrefix } from '../support/redis.js';
import { launchChromium } from './browser.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
/** The https origin the page is served from in the browser (routed to the web process). */
export const PAY_ORIGIN = 'https://pay.test';

export interface PayStack {
  fake: FakeBotApi;
  rt: Runtime;
  /** The web process's own address. */
  local: string;
  browser: Browser;
  close(): Promise<void>;
}

/**
 * The runtime as `swapbot start` composes it, with the pay page on, the sandbox on its local chains
 * (deposits only when a test makes one), the fake Telegram Bot API, and a headless chromium.
 * `env`: more of the configuration (WalletConnect's project and relay).
 */
export async function startPayStack(prefix: string, env: Record<string, string> = {}): Promise<PayStack> {
  await buildPayPage(ROOT);
  const fake = await FakeBotApi.start();
  const { logger } = memoryLogger();
  const config = loadConfig({
    TELEGRAM_BOT_TOKEN: fake.token,
    TELEGRAM_API_ROOT: fake.apiRoot,
    REDIS_URL: testRedisUrl(),
    REDIS_PREFIX: uniquePrefix(prefix),
    PORT: '0',
    SANDBOX_CHAIN: '1',
    SANDBOX_DEPOSIT_DELAY_MS: 'off',
    SANDBOX_SPEED: '20',
    PAY_PUBLIC_URL: PAY_ORIGIN,
    PAY_LINK_SECRET: 'pay-link-secret-for-tests-0123456789abcdef',
    PAY_INITDATA_MAX_AGE_SECONDS: '600',
    POLL_FAST_MS: '300',
    POLL_SLOW_MS: '500',
    ...env,
  });
  const rt = await createRuntime(config, logger, 'start');
  const web = await startWeb(rt, { alwaysServeHttp: true });
  await startTrackingWorkers(rt);
  await web.ready;
  const browser = await launchChromium();
  return {
    fake,
    rt,
    local: `http://127.0.0.1:${web.port}`,
    browser,
    async close() {
      await browser.close();
      await rt.close();
      await fake.close();
    },
  };
}
