import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { User } from 'grammy/types';
import type { Browser, BrowserContext } from 'playwright-core';
import { loadConfig } from '../../src/config.js';
import { createRuntime, type Runtime } from '../../src/app/runtime.js';
import { startWeb } from '../../src/app/web.js';
import { startTrackingWorkers } from '../../src/app/messengers.js';
import { buildPayPage } from '../../scripts/build-page.mjs';
import { FakeBotApi } from '../e2e/telegram/fake-bot-api.js';
import { memoryLogger } from '../support/log.js';
import { testRedisUrl, uniquePrefix } from '../support/redis.js';
import { setUp } from '../support/set-up.js';
import type { SandboxTon } from '../../src/sandbox/ton-chain.js';
import { TgUser } from '../e2e/telegram/world.js';
import { launchChromium, openPage } from './browser.js';
import { signInitData } from './support.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
/** The https origin the page is served from in the browser (routed to the web process). */
export const PAY_ORIGIN = 'https://pay.test';

interface PayStack {
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
 * `env`: more of the configuration (WalletConnect's project and relay); `browserOpts`: launchChromium's.
 */
async function startPayStack(
  prefix: string,
  env: Record<string, string> = {},
  browserOpts: { localNetwork?: boolean } = {},
): Promise<PayStack> {
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
  const browser = await launchChromium(browserOpts);
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

/** One test file's pay stack (usePayStack): its parts, and the steps every pay test takes. */
export interface PayWorld {
  readonly fake: FakeBotApi;
  readonly rt: Runtime;
  /** The web process's own address. */
  readonly local: string;
  readonly browser: Browser;
  /** The sandbox's local EVM chain's RPC. */
  readonly evmRpc: string;
  /** The sandbox's Solana chain's RPC. */
  readonly solanaRpc: string;
  /** The sandbox's TON emulator. */
  readonly ton: SandboxTon;
  /** Telegram's initData for this user, signed by the fake Bot API's token `ageSeconds` ago. */
  initDataFor(userId: number, ageSeconds?: number): string;
  /** This Telegram user in their private chat with the bot. */
  privately(user: User): TgUser;
  /** A fresh browser context on the pay page's origin (openPage), with the EVM test wallet and initData given. */
  open(opts?: Omit<Parameters<typeof openPage>[1], 'origin' | 'local'>): ReturnType<typeof openPage>;
  /** The pay page at `url` opened as this Telegram user, the wallet `inject` puts in, Connect wallet pressed. */
  connected(userId: number, url: string, inject: (context: BrowserContext) => Promise<void>): ReturnType<typeof openPage>;
}

/**
 * The pay stack for the tests of one file (setUp: started before them, closed after them); its
 * parts are there once it has started.
 */
export const usePayStack = (prefix: string, env: Record<string, string> = {}, browserOpts: { localNetwork?: boolean } = {}): PayWorld =>
  setUp(async () => payWorld(await startPayStack(prefix, env, browserOpts)));

function payWorld(stack: PayStack): PayWorld & { close(): Promise<void> } {
  const { fake, rt, local, browser } = stack;
  const initDataFor = (userId: number, ageSeconds = 5) =>
    signInitData(fake.token, { user: { id: userId }, authDate: Math.floor(Date.now() / 1000) - ageSeconds });
  const open: PayWorld['open'] = (opts = {}) => openPage(browser, { origin: PAY_ORIGIN, local, ...opts });
  return {
    fake,
    rt,
    local,
    browser,
    evmRpc: rt.sandbox!.chain!.url,
    solanaRpc: rt.sandbox!.solana!.url,
    ton: rt.sandbox!.chain!.ton!.ton,
    initDataFor,
    privately: (user) => new TgUser(fake, user, fake.privateChat(user)),
    open,
    async connected(userId, url, inject) {
      const opened = await open({ initData: initDataFor(userId) });
      await inject(opened.context);
      await opened.page.goto(url);
      await opened.page.getByRole('button', { name: 'Connect wallet' }).click();
      return opened;
    },
    close: () => stack.close(),
  };
}
