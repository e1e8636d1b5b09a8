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
