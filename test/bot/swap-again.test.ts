import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackingRenderer } from '../../src/bot/renderer.js';
import type { BotCore } from '../../src/bot/core.js';
import { replyButtons, replyText, type Reply } from '../../src/contracts/reply.js';
import { MAX_ACTION_BYTES, utf8Length } from '../../src/bot/kernel/actions.js';
import { waitFor } from '../support/wait.js';
import { coreOver, startHarness as startTracking, type Harness as TrackingHarness } from '../tracking/support/harness.js';
import { card, ChatUser } from './support/conversation.js';

/**
 * Swap again, as a user sees it: a swap made in the chat, followed by the real tracker to its
 * completion message, whose Swap again (and /history's) opens a new swap at its confirmation
 * with the same route, amount and destination, quoted afresh.
 */
let h: TrackingHarness;
let core: BotCore;
/** Quotes the core asked for. */
let quotes = 0;

beforeAll(async () => {
  h = await startTracking({ tracking: { pacing: () => undefined } });
  await h.startWorkers({ render: trackingRenderer });
  const client = h.client;
  const api: typeof client = Object.assign(Object.create(client) as typeof client, {
    getQuote: (...a: Parameters<typeof client.getQuote>) => {
      quotes++;
      return client.getQuote(...a);
    },
  });
  core = coreOver(h, { api });
});
afterAll(async () => {
  await h?.close();
});

const DEST = '0x2222222222222222222222222222222222222222';

describe('Swap again', () => {
  it('from the completion message and from /history: the confirmation with the same route, amount and destination, a fresh quote', async () => {
    const u = new ChatUser({ core }, { userId: 'u-again' });
    const { id } = await u.createsSwap('/swap 25 USDC arbitrum base', DEST);
    h.clock.advance(1_000);
    await h.settle([id]);
    h.sandbox.deposit(id);
    await h.settleUntilCompleted(id, 10);
    let done: Reply | undefined;
    await waitFor(async () => {
      done = h.messengers.console
        .forChat('u-again')
        .map((r) => r.reply)
        .find((r) => r.title === 'Swap completed');
      return done !== undefined;
    }, 'the completion message');
    const again = replyButtons(done!).find((b) => b.label === 'Swap again');
    expect(again?.kind === 'action' ? utf8Length(again.action) : Infinity).toBeLessThanOrEqual(MAX_ACTION_BYTES);

    const quotesBefore = quotes;
    const confirm = card(await u.presses('Swap again', [done!]), {
      title: 'Confirm your swap',
      contains: [DEST, '25 USDC', 'Arbitrum One', 'Base'],
      buttons: ['Confirm'],
    });
    expect(replyText(confirm)).not.toContain('refund address');
    // The card's figures are from a quote asked for now, not the old swap's.
    expect(quotes).toBeGreaterThan(quotesBefore);

    const list = card(await u.says('/history'), { title: 'Your swaps' });
    const row = replyButtons(list).find((b) => b.label === `Again: ${id.slice(0, 8)}`);
    expect(row, 'a Swap again button on the row').toBeDefined();
    card(await u.presses(`Again: ${id.slice(0, 8)}`, [list]), { title: 'Confirm your swap', contains: [DEST, '25 USDC'] });
  });

  it("a token renamed since the swap (its symbol then is not in today's catalogue) is found by its contract", async () => {
    // The service's answer for the old swap names the destination token as it was called then; the
    // catalogue now calls the same contract on Base "USDC" (as USDT became USDT0 on some networks).
    const client = h.client;
    const renamed: typeof client = Object.assign(Object.create(client) as typeof client, {
      getSwap: async (...a: Parameters<typeof client.getSwap>) => {
        const d = await client.getSwap(...a);
        const token = d.swap.destination_token;
        return { ...d, swap: { ...d.swap, destination_token: token ? { ...token, symbol: 'USDCOLD' } : token } };
      },
    });
    const renamedCore = coreOver(h, { api: renamed });
    const u = new ChatUser({ core: renamedCore }, { userId: 'u-renamed' });
    const { id } = await u.createsSwap('/swap 30 USDC arbitrum base', DEST);
    expect((await renamed.getSwap(id)).swap.destination_token?.contract, 'the answer carries the contract').toBeTruthy();
    card(await u.sendsAction(`sa:${id}`), {
      title: 'Confirm your swap',
      contains: [DEST, '30 USDC', 'Arbitrum One', 'Base'],
      buttons: ['Confirm'],
    });
  });

  it('in a group, the button answers only the presser and opens nothing there', async () => {
    const u = new ChatUser({ core }, { userId: 'u-grp', chatId: 'g-1', chatKind: 'group' });
    const r = await u.sendsAction(`sa:${'3f2c1a9e-8b7d-4c6e-9f01-23456789abcd'}`);
    expect(r).toHaveLength(1);
    expect(r[0]?.target).toBe('ephemeral');
    expect(replyText(r[0]!)).toContain('private chat');
  });
});
