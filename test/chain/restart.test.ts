import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LayerswapClient } from '../../src/layerswap/client.js';
import { ManualClock, type SandboxServer } from '../../src/sandbox/types.js';
import type { Tracking } from '../../src/tracking/engine.js';
import { RecordingMessenger } from '../tracking/support/recording-messenger.js';
import { uniquePrefix } from '../support/redis.js';
import { waitFor, WAIT_MS } from '../support/wait.js';
import {
  cardSaying,
  depositSwap,
  follow,
  sandboxClient,
  sendToken,
  startChainSandbox,
  startChainTracking,
  type FollowedSwap,
} from './support/chain-stack.js';

/**
 * Watches live in a worker's memory. A worker that restarts while a swap waits for its deposit
 * (its next API poll spaced out minutes ahead, as while watched) watches the address again at
 * start, so a deposit landing right after the restart is on the card at once.
 */

describe('a worker restart while swaps wait for their deposits', () => {
  let sandbox: SandboxServer;
  let client: LayerswapClient;
  const clock = new ManualClock();
  const prefix = uniquePrefix('chain-restart');
  const running: Tracking[] = [];

  const worker = async (messenger: RecordingMessenger) => {
    const rpcUrl = sandbox.chain?.url ?? '';
    const tracking = await startChainTracking({ client, clock, prefix, rpcUrl, pollEveryMs: 60_000, messenger });
    running.push(tracking);
    return tracking;
  };
  /** A swap followed from `chatId` and polled past its expiry by `tracking`: only a late transfer can still be told. */
  const expiredSwap = async (tracking: Tracking, destination: string, chatId: string): Promise<FollowedSwap> => {
    const swap = await follow(tracking, await depositSwap(client, destination), chatId);
    clock.advance(3_600_001);
    await tracking.service.pollNow(swap.id);
    await waitFor(async () => (await tracking.swapState(swap.id))?.status === 'expired', 'the expired status');
    return swap;
  };

  beforeAll(async () => {
    sandbox = await startChainSandbox(clock);
    client = sandboxClient(sandbox, WAIT_MS);
  });
  afterAll(async () => {
    for (const t of running) await t.close();
    await client?.close();
    await sandbox?.close();
  });

  it('watches every waiting swap again at start: a deposit right after the restart is on the card', async () => {
    const before = await worker(new RecordingMessenger('console'));
    const swaps: FollowedSwap[] = [];
    for (let n = 1; n <= 2; n++)
      swaps.push(await follow(before, await depositSwap(client, `0x${n.toString(16).padStart(40, 'c')}`), `restart-${n}`));
    await before.close();

    const messenger = new RecordingMessenger('console');
    await worker(messenger);
    for (const s of swaps) await sendToken(sandbox, s.address, '100');
    for (const s of swaps) {
      await cardSaying(
        messenger,
        s.chat.chatId,
        'Deposit seen on Arbitrum One: 100 USDC in block',
        `the sighting on ${s.chat.chatId}'s card after the restart`,
      );
    }
  });

  it('tells a transfer that lands after the swap expired, though the swap is polled no more', async () => {
    // One worker at a time: the one of the test before stops.
    await running.at(-1)?.close();
    const messenger = new RecordingMessenger('console');
    const late = await worker(messenger);
    const { address } = await expiredSwap(late, `0x${'d'.repeat(40)}`, 'late');
    await sendToken(sandbox, address, '100');
    await cardSaying(messenger, 'late', 'It arrived after the swap expired', 'the late transfer on the card');
  });

  it('still tells a late transfer when the worker restarted after the swap expired', async () => {
    await running.at(-1)?.close();
    const before = await worker(new RecordingMessenger('console'));
    const { address } = await expiredSwap(before, `0x${'e'.repeat(40)}`, 'late-restart');
    // The swap is final: no poll job, not among the active swaps. Only the late list brings its watch back.
    await before.close();
    const messenger = new RecordingMessenger('console');
    await worker(messenger);
    await sendToken(sandbox, address, '100');
    const told = await cardSaying(
      messenger,
      'late-restart',
      'It arrived after the swap expired',
      'the late transfer told by the restarted worker',
    );
    expect(told).toContain('A transfer of 100 USDC reached the deposit address on Arbitrum One');
  });
});
