import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import type { LayerswapApi } from '../layerswap/api.js';
import type { Logger } from '../log.js';
import { LanguageStore } from '../i18n/store.js';
import { RedisHistoryStore } from '../bot/history/store.js';
import type { RequestHandler } from '../app/http-server.js';
import { payHandler } from './server.js';
import { PayStore } from './sessions.js';

/** The pay-from-wallet page: its path on the web process, its links for the core, its handler. */
export const PAY_PATH = '/pay';

/** The web process's /pay handler, or undefined when the page is not configured. */
export function payPage(parts: {
  config: Config;
  redis: Redis;
  api: LayerswapApi;
  logger: Logger;
  now?: () => number;
  pageDir?: string;
}): RequestHandler | undefined {
  const { config, redis } = parts;
  if (!config.PAY_PUBLIC_URL || !config.PAY_LINK_SECRET) return undefined;
  return payHandler({
    api: parts.api,
    store: new PayStore(redis, config.REDIS_PREFIX),
    history: new RedisHistoryStore(redis, config.REDIS_PREFIX),
    languages: new LanguageStore(redis, config.REDIS_PREFIX),
    botToken: config.TELEGRAM_BOT_TOKEN,
    linkSecret: config.PAY_LINK_SECRET,
    initDataMaxAgeSeconds: config.PAY_INITDATA_MAX_AGE_SECONDS,
    linkTtlSeconds: config.PAY_LINK_TTL_SECONDS,
    ...(config.WALLETCONNECT_PROJECT_ID
      ? { walletConnect: { projectId: config.WALLETCONNECT_PROJECT_ID, relayUrl: config.WALLETCONNECT_RELAY_URL } }
      : {}),
    ...(config.TONCONNECT_BRIDGE_URL !== 'off'
      ? {
          tonBridge: {
            bridgeUrl: config.TONCONNECT_BRIDGE_URL,
            universalLink: config.TONCONNECT_WALLET_LINK,
            name: config.TONCONNECT_WALLET_NAME,
          },
        }
      : {}),
    publicUrl: config.PAY_PUBLIC_URL,
    logger: parts.logger,
    now: parts.now ?? Date.now,
    ...(parts.pageDir ? { pageDir: parts.pageDir } : {}),
  });
}
