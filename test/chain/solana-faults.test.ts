import { describe, expect, it } from 'vitest';
import type { Tracking } from '../../src/tracking/engine.js';
import { RecordingMessenger } from '../tracking/support/recording-messenger.js';
import { uniquePrefix } from '../support/redis.js';
import { waitFor } from '../support/wait.js';
import { cardSays, depositSeenMessages, sendDeposit, sentTo, useFamilyStack } from './support/family-stack.js';

/**
 * Issue 37's faults on the local Solana chain (LiteSVM behind JSON-RPC, real sockets; blocks
 * only when a transfer lands or the test mines one; the sandbox's payout on a ManualClock):
 * the bot's RPC cut mid-swap (the API's polls take over, nothing is lost), and a worker restart
 * while a deposit confirms (the next worker carries the network's watch on, one "Deposit seen").
 */

describe('a Solana swap when the RPC dies or the worker restarts', () => {
  const stack = useFamilyStack(
    'SOLANA_MAINNET',
    {
      source_network: 'SOLANA_MAINNET',
      source_token: 'USDC',
      destination_network: 'ARBITRUM_MAINNET',
      destination_token: 'USDC',
      amount: 100,
      use_deposit_address: true,
    },
    '4',
  );
  const usdcSwap = (tracking: Tracking, chatId: string) => stack.follow(tracking, chatId);
  const status = (tracking: Tracking, id: string) => stack.status(tracking, id);

  it('the RPC dies mid-swap: back to API polling, the swap completes, and a deposit sent while it is down is shown', async () => {
    const local = stack.sandbox.solana?.local;
    const { tracking, messenger, seen, blind } = await stack.cutMidSwap(
      stack.sandbox.solana?.url ?? '',
      'Deposit seen on Solana: 100 USDC in block',
    );

    // A deposit while the bot cannot read the chain, and the block that confirms both: only the service sees them.
    await sendDeposit(stack.sandbox, blind.id);
    local?.mine(1);
    await waitFor(
      async () => (await stack.client.getSwap(blind.id)).swap.transactions.find((x) => x.type === 'input')?.confirmations === 2,
      'the service confirming the deposit sent during the outage',
    );
    // The rest through API polls (each pollNow stands for the cadence's next one coming due).
    for (const s of [seen, blind]) await tracking.service.pollNow(s.id);
    for (const s of [seen, blind])
      await waitFor(async () => (await status(tracking, s.id)) === 'ls_transfer_pending', `${s.chatId}: the service's status by polling`);
    await stack.payOut(tracking, [seen, blind]);
    for (const s of [seen, blind]) await cardSays(messenger, s.chatId, 'Swap completed', `${s.chatId}: the completed card`);
    // The deposit made during the outage is on its card, from the API (the chain never told it).
    const blindCards = sentTo(messenger, blind.chatId).map((c) => c.text);
    expect(blindCards.some((c) => c.includes('Deposit seen on Solana'))).toBe(false);
    expect(blindCards.some((c) => c.includes('100 USDC'))).toBe(true);
    expect(depositSeenMessages(messenger, blind.chatId)).toBe(1);
  });

  it('a worker restart while deposits confirm: the next worker carries the watch on, with one "Deposit seen" each', async () => {
    const prefix = uniquePrefix('solana-restart');
    const url = stack.sandbox.solana?.url ?? '';
    // One chat per swap across both workers: a restart keeps the user's chat, and what it was sent.
    const messenger = new RecordingMessenger('console');
    const before = await stack.worker(prefix, url, messenger);
    const confirming = await usdcSwap(before, 'restart-confirming');
    const gap = await usdcSwap(before, 'restart-gap');
    await sendDeposit(stack.sandbox, confirming.id);
    await cardSays(messenger, confirming.chatId, 'Deposit seen on Solana: 100 USDC in block', 'the deposit seen before the restart');
    // The service has it too; a poll brings its count (the catalogue has none), so the card says 1/2.
    await waitFor(
      async () => (await stack.client.getSwap(confirming.id)).swap.transactions.some((x) => x.type === 'input'),
      'the service seeing it',
    );
    await before.service.pollNow(confirming.id);
    const input = async (t: Tracking, id: string) => (await t.swapState(id))?.transactions.find((x) => x.type === 'input');
    await waitFor(
      async () => (await input(before, confirming.id))?.maxConfirmations === 2,
      'the service count (1 of 2) polled before the restart',
    );
    await before.close();

    // While no worker runs, the other swap's deposit lands.
    await sendDeposit(stack.sandbox, gap.id);
    const after = await stack.worker(prefix, url, messenger);
    await cardSays(
      messenger,
      gap.chatId,
      'Deposit seen on Solana: 100 USDC in block',
      'the deposit sent between the workers, seen by the new one',
    );
    // The confirming block: only the new worker's watch of the network can tell it (the count reached, it asks the API itself).
    stack.sandbox.solana?.local.mine(1);
    await waitFor(async () => (await status(after, confirming.id)) === 'ls_transfer_pending', 'the confirmed deposit, from the new worker');
    // The other's count reached on the service's side (its payout time set), then its next poll reads it.
    await waitFor(
      async () => (await stack.client.getSwap(gap.id)).swap.transactions.find((x) => x.type === 'input')?.confirmations === 2,
      'the service confirming the deposit sent between the workers',
    );
    await after.service.pollNow(gap.id);
    await waitFor(async () => (await status(after, gap.id)) === 'ls_transfer_pending', 'the other swap confirmed');
    await stack.payOut(after, [confirming, gap]);
    for (const s of [confirming, gap]) {
      await cardSays(messenger, s.chatId, 'Swap completed', `${s.chatId}: the completed card`);
      expect(depositSeenMessages(messenger, s.chatId)).toBe(1);
    }
  });
});
