import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { payApi, type PayApiDeps } from './api.js';

/**
 * `/pay`: the page (index.html, page.js, page.css: the bundle `npm run build` writes to
 * dist/pay-page/, scripts/build-page.mjs) and its JSON API. The page loads nothing from another
 * origin but the wallet's own RPC through the wallet: the Content-Security-Policy allows scripts,
 * styles and connections from this origin only (and, with WalletConnect on, connections to its
 * relay's origin; with TON Connect's HTTP bridge on, to the bridge's origin; nothing else), no
 * inline script, no framing but Telegram's.
 */

/** Where `npm run build` puts the bundle: <root>/dist/pay-page, from src/pay or dist/pay alike. */
export const DEFAULT_PAGE_DIR = fileURLToPath(new URL('../../dist/pay-page/', import.meta.url));

const FILES: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'page.js': 'text/javascript; charset=utf-8',
  // TON Connect, which page.js loads only for a TON swap; WalletConnect, only when it is tapped.
  'ton.js': 'text/javascript; charset=utf-8',
  'walletconnect.js': 'text/javascript; charset=utf-8',
  'page.css': 'text/css; charset=utf-8',
  'icon.png': 'image/png',
};

/** TON Connect's app manifest: a wallet fetches it to show who asks (its url and icon on the public address). */
const MANIFEST = 'tonconnect-manifest.json';

/** The page's CSP; `others`: WalletConnect's relay and TON Connect's bridge, whose origins alone join connect-src. */
function pageCsp(others: Array<string | undefined>): string {
  const origins = [...new Set(others.filter((u): u is string => !!u).map((u) => new URL(u).origin))];
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    ['connect-src', "'self'", ...origins].join(' '),
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    // Telegram shows a Mini App in a frame on its web clients.
    'frame-ancestors https://web.telegram.org https://*.telegram.org',
  ].join('; ');
}

export function payHandler(deps: PayApiDeps & { pageDir?: string; publicUrl?: string }) {
  const api = payApi(deps);
  const HEADERS = {
    'content-security-policy': pageCsp([deps.walletConnect?.relayUrl, deps.tonBridge?.bridgeUrl]),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
  const dir = deps.pageDir ?? DEFAULT_PAGE_DIR;
  const cache = new Map<string, Buffer>();
  const file = (name: string): Buffer | undefined => {
    const hit = cache.get(name);
    if (hit) return hit;
    try {
      const data = readFileSync(join(dir, name));
      cache.set(name, data);
      return data;
    } catch {
      return undefined;
    }
  };
  return (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const rest = path.replace(/^\/pay\/?/, '');
    if (rest.startsWith('api/')) {
      void api(req, res, rest.slice(4));
      return;
    }
    req.resume();
    if (rest === MANIFEST && deps.publicUrl) {
      const base = `${deps.publicUrl.replace(/\/+$/, '')}/pay/`;
      const manifest = JSON.stringify({ url: base, name: 'swapbot', iconUrl: `${base}icon.png` });
      // Wallets fetch it from their own origin.
      res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*', ...HEADERS }).end(manifest);
      return;
    }
    const name = rest === '' ? 'index.html' : rest;
    const type = FILES[name];
    const data = type && (req.method === 'GET' || req.method === 'HEAD') ? file(name) : undefined;
    if (!type || !data) {
      const missing = type !== undefined;
      res
        .writeHead(missing ? 503 : 404, { 'content-type': 'text/plain; charset=utf-8', ...HEADERS })
        .end(missing ? 'The pay page is not built: run npm run build.' : 'Not found.');
      return;
    }
    res.writeHead(200, { 'content-type': type, ...HEADERS }).end(req.method === 'HEAD' ? undefined : data);
  };
}
