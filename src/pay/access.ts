import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isPlatform, type Platform } from '../contracts/incoming.js';

/**
 * Who may open the pay page. Two proofs, checked by the server only:
 * - Telegram Mini App `initData`, as Telegram documents it (core.telegram.org/bots/webapps,
 *   "Validating data received via the Mini App"): secret = HMAC-SHA-256(key "WebAppData", bot
 *   token); hash = hex HMAC-SHA-256(secret, the sorted `key=value` lines except `hash`), compared
 *   in constant time; `auth_date` no older than the configured age.
 * - A signed link for Discord and the terminal: `base64url(payload).base64url(HMAC-SHA-256)` with
 *   the server's secret, the payload binding platform, user, swap, expiry and a one-time nonce.
 */

export type Refusal = 'malformed' | 'bad_signature' | 'expired' | 'not_creator' | 'used';

export type AccessResult<T> = { ok: true; value: T } | { ok: false; why: Refusal };

export interface TelegramUser {
  id: string;
  languageCode?: string;
}

export function checkInitData(initData: string, botToken: string, maxAgeSeconds: number, nowMs: number): AccessResult<TelegramUser> {
  if (typeof initData !== 'string' || initData.length === 0 || initData.length > 4096) return { ok: false, why: 'malformed' };
  const params = new URLSearchParams(initData);
  const hash = params.get('hash');
  if (!hash || !/^[0-9a-f]{64}$/.test(hash)) return { ok: false, why: 'malformed' };
  const lines: string[] = [];
  for (const [k, v] of params) if (k !== 'hash') lines.push(`${k}=${v}`);
  lines.sort();
  const secret = createHmac('sha256', 'WebAppData').update(botToken).digest();
  const want = createHmac('sha256', secret).update(lines.join('\n')).digest();
  if (!timingSafeEqual(want, Buffer.from(hash, 'hex'))) return { ok: false, why: 'bad_signature' };
  const authDate = Number(params.get('auth_date'));
  if (!Number.isInteger(authDate) || authDate <= 0) return { ok: false, why: 'malformed' };
  if (nowMs / 1000 - authDate > maxAgeSeconds) return { ok: false, why: 'expired' };
  let user: unknown;
  try {
    user = JSON.parse(params.get('user') ?? '');
  } catch {
    return { ok: false, why: 'malformed' };
  }
  const id = (user as { id?: unknown } | null)?.id;
  if (typeof id !== 'number' && typeof id !== 'string') return { ok: false, why: 'malformed' };
  const lang = (user as { language_code?: unknown }).language_code;
  return { ok: true, value: { id: String(id), ...(typeof lang === 'string' ? { languageCode: lang } : {}) } };
}

/** What a signed link carries. */
export interface LinkClaims {
  platform: Platform;
  userId: string;
  swapId: string;
  /** Expiry, seconds since epoch. */
  exp: number;
  /** One-time nonce: the first use spends it (sessions.ts). */
  nonce: string;
}

const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64url');
const mac = (secret: string, body: string) => createHmac('sha256', secret).update(`swapbot-pay:${body}`).digest();

export function signLink(claims: Omit<LinkClaims, 'nonce'> & { nonce?: string }, secret: string): string {
  const full: LinkClaims = { ...claims, nonce: claims.nonce ?? randomBytes(12).toString('base64url') };
  const body = b64(JSON.stringify([full.platform, full.userId, full.swapId, full.exp, full.nonce]));
  return `${body}.${b64(mac(secret, body))}`;
}

export function verifyLink(token: string, secret: string, nowMs: number): AccessResult<LinkClaims> {
  if (typeof token !== 'string' || token.length > 1024) return { ok: false, why: 'malformed' };
  const [body, sig, extra] = token.split('.');
  if (!body || !sig || extra !== undefined) return { ok: false, why: 'malformed' };
  const given = Buffer.from(sig, 'base64url');
  const want = mac(secret, body);
  if (given.length !== want.length || !timingSafeEqual(given, want)) return { ok: false, why: 'bad_signature' };
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, why: 'malformed' };
  }
  if (!Array.isArray(parts) || parts.length !== 5) return { ok: false, why: 'malformed' };
  const [platform, userId, swapId, exp, nonce] = parts as unknown[];
  if (!isPlatform(platform) || typeof userId !== 'string' || typeof swapId !== 'string') return { ok: false, why: 'malformed' };
  if (typeof exp !== 'number' || typeof nonce !== 'string') return { ok: false, why: 'malformed' };
  if (nowMs / 1000 > exp) return { ok: false, why: 'expired' };
  return { ok: true, value: { platform, userId, swapId, exp, nonce } };
}
