import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusCard } from '../../src/bot/status/card.js';
import { statusActions } from '../../src/bot/kernel/status-actions.js';
import { MOMENT_TITLES } from '../../src/bot/status/moments.js';
import { trackingRenderer } from '../../src/bot/renderer.js';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { replyButtons, replyText, type Reply } from '../../src/contracts/reply.js';
import { LOCALES, t } from '../../src/i18n/index.js';
import type { LayerswapApi } from '../../src/layerswap/api.js';
import type { SwapDetails, SwapPoll } from '../../src/layerswap/schemas.js';
import { metricsPage } from '../../src/metrics.js';
import { BACKWARD_CONFIRMATIONS } from '../../src/tracking/observe.js';
import { memoryLogger } from '../support/log.js';
import { coreOver, startHarness, type Harness } from './support/harness.js';

/**
 * A swap's status only moves forward through the lifecycle the service documents. An answer that
 * would move it back (a lagging replica, a cache or proxy in front of the API) is logged, counted
 * and not shown: the card never goes from "Deposit seen" back to "Send the exact amount". A
 * real regression (the same backward answer on BACKWARD_CONFIRMATIONS polls in a row) is shown,
 * with words that never ask for the money again. The cards are the core's (the real renderer).
 */

/** A cache in front of the API: replays each swap's first answer while `stale` is above zero. */
class StaleCache {
  readonly first = new Map<string, SwapPoll>();
  readonly stale = new Map<string, number>();
  constructor(private readonly inner: () => LayerswapApi) {}
  asApi(): LayerswapApi {
    return new Proxy({} as LayerswapApi, {
      get: (_t, key) => {
        if (key === 'pollSwap') return (id: string, params: never, opts: never) => this.poll(id, params, opts);
        // A card drawn by the core (a pressed button) reads the same replayed answer, without using one up.
        if (key === 'getSwap')
          return async (id: string, params: never, opts: never) => {
            const old = this.first.get(id);
            return (this.stale.get(id) ?? 0) > 0 && old ? old.details() : this.inner().getSwap(id, params, opts);
          };
        const inner = this.inner() as unknown as Record<string | symbol, unknown>;
        const v = inner[key];
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(inner) : v;
      },
    });
  }
  private async poll(id: string, params: never, opts: never): Promise<SwapPoll> {
    const left = this.stale.get(id) ?? 0;
    const old = this.first.get(id);
    if (left > 0 && old) {
      this.stale.set(id, left - 1);
      return old;
    }
    const fresh = await (this.inner().pollSwap as NonNullable<LayerswapApi['pollSwap']>)(id, params, opts);
    if (!this.first.has(id)) {
      const details = fresh.details();
      this.first.set(id, { ...fresh, details: () => details });
    }
    return fresh;
  }
}

async function backwardCount(outcome: string): Promise<number> {
  const { body } = await metricsPage();
  const m = new RegExp(`^swapbot_backward_swap_answers_total\\{outcome="${outcome}"\\} (\\d+)`, 'm').exec(body);
  return Number(m?.[1] ?? 0);
}

describe('answers that would move a swap back', () => {
  let h: Harness;
  const cache = new StaleCache(() => h.client);
  const log = memoryLogger();
  beforeAll(async () => {
    h = await startHarness({ tracking: { api: cache.asApi(), logger: log.logger } });
    await h.startWorkers({ render: trackingRenderer });
  });
  afterAll(async () => {
    await h?.close();
  });

  const chat = (chatId: string): ChatTarget => ({ platform: 'console', chatId, chatKind: 'private' });
  /** The chat's status card as it stands (the newest send or edit of it). */
  const card = (c: ChatTarget): Reply => {
    const cards = h.messengers.console.forChat(c.chatId).filter((r) => /^Swap [0-9a-f]+: /.test(r.reply.title ?? ''));
    const last = cards.at(-1);
    if (!last) throw new Error(`no status card in ${c.chatId}`);
    return last.reply;
  };
  const labels = (r: Reply) =>
    replyButtons(r)
      .flat()
      .map((b) => b.label);

  async function depositSeen(c: ChatTarget): Promise<string> {
    const id = await h.createSwap();
    await h.tracking.service.follow(id, c, { userId: c.chatId, creator: true });
    await h.settle([id]);
    h.clock.advance(1_000);
    h.sandbox.deposit(id);
    await h.settle([id]);
    expect(h.messengers.console.forChat(c.chatId).map((r) => r.reply.title)).toContain(MOMENT_TITLES.deposit_seen);
    return id;
  }

  it('one stale "waiting for your deposit" after "Deposit seen" is not shown, and is counted', async () => {
    const c = chat('stale-once');
    const id = await depositSeen(c);
    const before = card(c);
    const ignored = await backwardCount('ignored');

    cache.stale.set(id, 1);
    h.clock.advance(1_000);
    await h.settle([id]);
    expect(cache.stale.get(id)).toBe(0);

    expect(replyText(card(c))).not.toMatch(/Waiting for your deposit|Send the exact amount/);
    expect(labels(card(c))).not.toContain("I've sent it");
    expect(card(c).title).toBe(before.title);
    expect(await backwardCount('ignored')).toBe(ignored + 1);
    const logged = log.lines.filter((l) => l.includes(id) && l.includes('would move the swap back'));
    expect(logged).toHaveLength(1);
    expect(JSON.parse(logged[0] ?? '{}')).toMatchObject({
      status: 'user_transfer_pending',
      was: 'user_transfer_pending',
      depositSeen: true,
      polls: 1,
    });
    // The swap goes on as if the stale answer never came.
    await h.settleUntilCompleted(id, 12);
    await h.settle([id]);
    expect(h.messengers.console.forChat(c.chatId).filter((r) => r.reply.title === MOMENT_TITLES.completed)).toHaveLength(1);
  });

  it('a regression the service confirms poll after poll is shown, never asking to send again', async () => {
    const c = chat('stale-confirmed');
    const id = await depositSeen(c);
    const confirmed = await backwardCount('confirmed');

    cache.stale.set(id, 100);
    for (let k = 0; k < BACKWARD_CONFIRMATIONS; k++) {
      h.clock.advance(1_000);
      await h.settle([id]);
    }
    expect((await h.tracking.swapState(id))?.status).toBe('user_transfer_pending');
    const shown = card(c);
    expect(shown.title).toContain(t('en', 'swapPhase.regressed.label'));
    expect(replyText(shown)).not.toMatch(/send/i);
    expect(labels(shown)).not.toContain("I've sent it");
    expect(await backwardCount('confirmed')).toBe(confirmed + 1);

    // Mute pressed on that card: the core redraws it from the same answer, and it must not ask for the money either.
    const core = coreOver(h, { api: cache.asApi() });
    const [pressed] = await core.handle({
      platform: 'console',
      userId: c.chatId,
      userName: 'Tester',
      chatId: c.chatId,
      chatKind: 'private',
      isChatAdmin: () => Promise.resolve(true),
      action: statusActions.mute(id),
      messageRef: { platform: 'console', chatId: c.chatId, messageId: '1' },
    });
    expect(pressed?.title).toContain(t('en', 'swapPhase.regressed.label'));
    expect(replyText(pressed!)).not.toMatch(/send/i);
    expect(labels(pressed!)).not.toContain("I've sent it");
    cache.stale.set(id, 0);
  });

  it('the regression card in every language: none of the words that ask for the deposit', async () => {
    const waiting: SwapDetails = await h.client.getSwap(await h.createSwap());
    for (const locale of LOCALES) {
      const text = replyText(statusCard(waiting, { audience: 'private', locale, followed: { depositSeen: true } }));
      expect(text).toContain(t(locale, 'swapPhase.regressed.next'));
      expect(text).not.toContain(t(locale, 'swapStatus.user_transfer_pending.next'));
      expect(text).not.toContain(t(locale, 'statusCard.field.send'));
      const buttons = replyButtons(statusCard(waiting, { audience: 'private', locale, followed: { depositSeen: true } }))
        .flat()
        .map((b) => b.label);
      expect(buttons).not.toContain(t(locale, 'statusCard.button.sent'));
    }
  });
});
