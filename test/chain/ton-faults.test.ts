import { describe, expect, it } from 'vitest';
import type { Tracking } from '../../src/tracking/engine.js';
import { RecordingMessenger } from '../tracking/support/recording-messenger.js';
import { uniquePrefix } from '../support/redis.js';
import { waitFor } from '../support/wait.js';
import { cardSays, depositSeenMessages, sendDeposit, sentTo, useFamilyStack, type Followed } from './support/family-stack.js';

/**
 * Issue 37's faults on the local TON chain (the TON emulator behind toncenter's API v2, real
 * sockets; USDT jetton deposits to the shared address with the swap's comment; the sandbox's
 * payout on a ManualClock): the bot's RPC cut mid-swap (the API's polls take over, nothing is
 * lost), and a worker restart around a deposit (the next worker carries the network's watch on,
 * one "Deposit seen" per swap). TON counts one confirmation: the service confirms what it sees.
 */

describe('a TON swap when the RPC dies or the worker restarts', () => {
  const stack = useFamilyStack(
    'TON_MAINNET',
    {
      source_network: 'TON_MAINNET',
      source_token: 'USDT',
      destination_network: 'OPTIMISM_MAINNET',
      destination_token: 'USDT',
      amount: 25.5,
    },
    '5',
  );
  const tonUrl = () => stack.sandbox.chain?.ton?.ton.url ?? '';
  const usdtSwap = (tracking: Tracking, chatId: string) => stack.follow(tracking, chatId);
  const status = (tracking: Tracking, id: string) => stack.status(tracking, id);
  /** The service has the deposit (confirmed at its one confirmation, its payout time set), and the swap's next poll reads it. */
  const confirmed = async (tracking: Tracking, s: Followed) => {
    await waitFor(
      async () => (await stack.client.getSwap(s.id)).swap.status === 'ls_transfer_pending',
      `the service confirming ${s.chatId}`,
    );
    await tracking.service.pollNow(s.id);
    await waitFor(async () => (await status(tracking, s.id)) === 'ls_transfer_pending', `${s.chatId}: the service's status polled`);
  };
  /** The payout, then each swap's completed card. */
  const payOut = async (tracking: Tracking, swaps: Followed[], messenger: RecordingMessenger) => {
    await stack.payOut(tracking, swaps);
    for (const s of swaps) await cardSays(messenger, s.chatId, 'Swap completed', `${s.chatId}: the completed card`);
  };

  it('the RPC dies mid-swap: back to API polling, the swap completes, and a deposit sent while it is down is shown', async () => {
    const { tracking, messenger, seen, blind } = await stack.cutMidSwap(tonUrl(), 'Deposit seen on Ton: 25.5 USDT in block');

    // A deposit while the bot cannot read the chain: only the service sees it (by its comment).
    await sendDeposit(stack.sandbox, blind.id);
    for (const s of [seen, blind]) await confirmed(tracking, s);
    await payOut(tracking, [seen, blind], messenger);
    // The deposit made during the outage is on its card, from the API (the chain never told it).
    const blindCards = sentTo(messenger, blind.chatId).map((c) => c.text);
    expect(blindCards.some((c) => c.includes('Deposit seen on Ton'))).toBe(false);
    expect(blindCards.some((c) => c.includes('25.5 USDT'))).toBe(true);
    expect(depositSeenMessages(messenger, blind.chatId)).toBe(1);
    expect(depositSeenMessages(messenger, seen.chatId)).toBe(1);
  });

  it('a worker restart around deposits: the next worker carries the watch on, with one "Deposit seen" each', async () => {
    const prefix = uniquePrefix('ton-restart');
    // One chat per swap across both workers: a restart keeps the user's chat, and what it was sent.
    const messenger = new RecordingMessenger('console');
    const before = await stack.worker(prefix, tonUrl(), messenger);
    const seenBefore = await usdtSwap(before, 'restart-seen');
    const gap = await usdtSwap(before, 'restart-gap');
    await sendDeposit(stack.sandbox, seenBefore.id);
    await cardSays(messenger, seenBefore.chatId, 'Deposit seen on Ton: 25.5 USDT in block', 'the deposit seen before the restart');
    await before.close();

    // While no worker runs, the other swap's deposit lands; the new worker's watch of the network finds it.
    await sendDeposit(stack.sandbox, gap.id);
    const after = await stack.worker(prefix, tonUrl(), messenger);
    await cardSays(
      messenger,
      gap.chatId,
      'Deposit seen on Ton: 25.5 USDT in block',
      'the deposit sent between the workers, seen by the new one',
    );
    for (const s of [seenBefore, gap]) await confirmed(after, s);
    await payOut(after, [seenBefore, gap], messenger);
    // The new worker read the first deposit again (its address's history): not a second "Deposit seen".
    for (const s of [seenBefore, gap]) expect(depositSeenMessages(messenger, s.chatId)).toBe(1);
  });
});
