import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Platform } from '../../contracts/incoming.js';
import { CoreKeys } from '../../contracts/keys.js';
import type { CreatedByDraft, Draft, DraftStore } from '../kernel/stores.js';

const DRAFT_ID = /^[A-Za-z0-9_-]{8}$/;
export const isDraftId = (s: string | undefined): s is string => s !== undefined && DRAFT_ID.test(s);
export const newDraftId = (): string => randomBytes(6).toString('base64url');

export class RedisDraftStore implements DraftStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlSeconds: number,
    /**
     * How long a deposit card may be on its way before another Confirm of the same swap may send it
     * (its process died sending it): shorter than the Telegram update lease (dedup.ts, 10 s, renewed
     * every third), so the redelivered Confirm of a dead process always finds it lapsed.
     */
    private readonly depositLeaseMs = 5_000,
  ) {}

  private key(platform: Platform, userId: string): string {
    return new CoreKeys(this.prefix).draft(platform, userId);
  }

  async get(platform: Platform, userId: string): Promise<Draft | undefined> {
    const raw = await this.redis.get(this.key(platform, userId));
    if (raw === null) return undefined;
    try {
      const d = JSON.parse(raw) as Draft;
      return d && typeof d === 'object' && isDraftId(d.id) && d.route && typeof d.route === 'object' ? d : undefined;
    } catch {
      return undefined;
    }
  }

  /** Saves (and replaces any other draft of this user); the TTL restarts with every answer. */
  async save(draft: Draft): Promise<void> {
    await this.redis.set(this.key(draft.platform, draft.userId), JSON.stringify(draft), 'EX', this.ttlSeconds);
  }

  async delete(platform: Platform, userId: string): Promise<boolean> {
    return (await this.redis.del(this.key(platform, userId))) > 0;
  }

  /**
   * Takes the confirm lock of a draft: true for exactly one caller however often Confirm is
   * pressed, across processes. Kept after an unconfirmed create so nobody creates twice.
   */
  async lock(draftId: string, seconds = 300): Promise<boolean> {
    return (await this.redis.set(new CoreKeys(this.prefix).draftLock(draftId), '1', 'EX', seconds, 'NX')) === 'OK';
  }

  async unlock(draftId: string): Promise<void> {
    await this.redis.del(new CoreKeys(this.prefix).draftLock(draftId));
  }

  /**
   * Remembers which swap a confirmed draft created, and for whom, before anything is sent: a
   * repeated or redelivered Confirm then re-sends the creator's deposit card instead of creating.
   */
  async markCreated(draftId: string, created: CreatedByDraft): Promise<void> {
    await this.redis.set(new CoreKeys(this.prefix).draftDone(draftId), JSON.stringify(created), 'EX', 86_400);
  }

  /**
   * Claims the sending of a swap's deposit card to one chat: true for exactly one caller, however
   * many Confirm presses race (across processes). /status and the Deposit details button still show it on request.
   * The claim is a lease (`sending:<until>`) until the adapter reports the card delivered (`sent`):
   * a claim whose process died before that (a `web` restart) is taken over by the next Confirm of
   * the swap once lapsed (Telegram's redelivery of the same Confirm), so the card goes out once
   * more rather than never; a press while it is on its way, or after it arrived, gets the note.
   */
  async claimDepositCard(swapId: string, platform: Platform, chatId: string): Promise<boolean> {
    const key = new CoreKeys(this.prefix).depositCard(swapId, platform, chatId);
    const lease = `sending:${Date.now() + this.depositLeaseMs}`;
    if ((await this.redis.set(key, lease, 'EX', 7 * 86_400, 'NX')) === 'OK') return true;
    const held = await this.redis.get(key);
    const until = /^sending:(\d+)$/.exec(held ?? '')?.[1];
    // Sent (or '1', a claim from before leases), or still on its way: not this caller's to send.
    if (until === undefined || Number(until) > Date.now()) return false;
    // Lapsed: only the caller that swaps out the lapsed value it read sends it.
    return (await this.redis.set(key, lease, 'KEEPTTL', 'XX', 'GET')) === held;
  }

  /** The adapter delivered the claimed deposit card: no later Confirm sends it again. */
  async depositCardDelivered(swapId: string, platform: Platform, chatId: string): Promise<void> {
    await this.redis.set(new CoreKeys(this.prefix).depositCard(swapId, platform, chatId), 'sent', 'KEEPTTL', 'XX');
  }

  async createdSwap(draftId: string): Promise<CreatedByDraft | undefined> {
    const raw = await this.redis.get(new CoreKeys(this.prefix).draftDone(draftId));
    if (raw === null) return undefined;
    try {
      const v = JSON.parse(raw) as CreatedByDraft;
      return typeof v?.swapId === 'string' && typeof v.userId === 'string' && typeof v.platform === 'string' ? v : undefined;
    } catch {
      return undefined;
    }
  }
}
