import type { Config } from '../config.js';
import type { PayLinks } from '../contracts/pay.js';
import { signLink } from './access.js';

/**
 * Where the "Pay from wallet" button points, per platform: Telegram opens the page as a Mini App
 * (a web_app button; initData proves the user, so the URL carries only the swap id); Discord and
 * the terminal get a one-time signed link bound to the creator and the swap, expiring.
 */
export function payLinks(opts: { baseUrl: string; secret: string; ttlSeconds: number; now?: () => number }): PayLinks {
  const now = opts.now ?? Date.now;
  const page = `${opts.baseUrl.replace(/\/+$/, '')}/pay/`;
  return {
    forCreator(platform, userId, swapId) {
      if (platform === 'telegram') return { kind: 'webapp', url: `${page}?swap=${encodeURIComponent(swapId)}` };
      const token = signLink({ platform, userId, swapId, exp: Math.floor(now() / 1000) + opts.ttlSeconds }, opts.secret);
      return { kind: 'url', url: `${page}#t=${token}` };
    },
  };
}

/** The core's links to the page, when it is configured (PAY_PUBLIC_URL and PAY_LINK_SECRET); here, not in index.ts, so a process without the page loads none of its code. */
export function payLinksOf(config: Config, now?: () => number): PayLinks | undefined {
  if (!config.PAY_PUBLIC_URL || !config.PAY_LINK_SECRET) return undefined;
  return payLinks({
    baseUrl: config.PAY_PUBLIC_URL,
    secret: config.PAY_LINK_SECRET,
    ttlSeconds: config.PAY_LINK_TTL_SECONDS,
    ...(now ? { now } : {}),
  });
}
