import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { PayKeys } from '../contracts/keys.js';
import type { Platform } from '../contracts/incoming.js';

/**
 * The pay page's state in Redis: a link's nonce is spent on first use (a replayed link is refused),
 * the page then holds a short session bound to one creator and one swap, and each swap has one
 * payment slot: a second tab or a second tap finds it taken and pays nothing.
 */

export interface PaySession {
  platform: Platform;
  userId: string;
  swapId: string;
  locale: string;
}

export type PaymentSlot = { session: string; state: 'signing' } | { session: string; state: 'sent'; hash: string };

/** How long a session lives; the page asks for a new link after it. */
const SESSION_SECONDS = 1_800;
/** A wallet left open this long without an answer frees the slot again. */
const SIGNING_SECONDS = 300;
/** A sent payment holds the slot as long as the deposit window (6 h). */
const SENT_SECONDS = 6 * 3_600;

export class PayStore {
  private readonly keys: PayKeys;
  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.keys = new PayKeys(prefix);
  }

  /** True the first time this nonce is spent; false ever after (until the link has long expired). */
  async spendNonce(nonce: string, ttlSeconds: number): Promise<boolean> {
    return (await this.redis.set(this.keys.linkUsed(nonce), '1', 'EX', Math.max(1, ttlSeconds), 'NX')) === 'OK';
  }

  async openSession(s: PaySession): Promise<string> {
    const id = randomBytes(18).toString('base64url');
    await this.redis.set(this.keys.session(id), JSON.stringify(s), 'EX', SESSION_SECONDS);
    return id;
  }

  async session(id: string): Promise<PaySession | undefined> {
    if (!/^[A-Za-z0-9_-]{24}$/.test(id)) return undefined;
    const raw = await this.redis.get(this.keys.session(id));
    return raw ? (JSON.parse(raw) as PaySession) : undefined;
  }

  /** Takes the swap's payment slot for this session; the slot as it is when someone else holds it. */
  async take(swapId: string, session: string): Promise<{ ok: true } | { ok: false; slot: PaymentSlot }> {
    const mine: PaymentSlot = { session, state: 'signing' };
    const key = this.keys.payment(swapId);
    if ((await this.redis.set(key, JSON.stringify(mine), 'EX', SIGNING_SECONDS, 'NX')) === 'OK') return { ok: true };
    const held = await this.slot(swapId);
    if (held && held.state === 'signing' && held.session === session) return { ok: true };
    return held ? { ok: false, slot: held } : this.take(swapId, session);
  }

  async slot(swapId: string): Promise<PaymentSlot | undefined> {
    const raw = await this.redis.get(this.keys.payment(swapId));
    return raw ? (JSON.parse(raw) as PaymentSlot) : undefined;
  }

  /** The wallet refused or failed before sending: the slot is free again (only its holder frees it). */
  async release(swapId: string, session: string): Promise<void> {
    const held = await this.slot(swapId);
    if (held?.state === 'signing' && held.session === session) await this.redis.del(this.keys.payment(swapId));
  }

  /** The wallet sent: the slot keeps the hash, so nothing pays this swap again. */
  async sent(swapId: string, session: string, hash: string): Promise<boolean> {
    const held = await this.slot(swapId);
    if (!held || held.session !== session) return false;
    const slot: PaymentSlot = { session, state: 'sent', hash };
    await this.redis.set(this.keys.payment(swapId), JSON.stringify(slot), 'EX', SENT_SECONDS);
    return true;
  }
}
