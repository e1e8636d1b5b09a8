import { describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { replyButtons, replyText } from '../../src/contracts/reply.js';
import type { SwapDetails, Transaction } from '../../src/layerswap/schemas.js';
import { isStaleMoment, MOMENT_TITLES, ON_HOLD_TITLE, renderMoment } from '../../src/bot/status/moments.js';
import { observe, type SwapState } from '../../src/tracking/observe.js';
import { maskAddress } from '../../src/bot/kernel/format.js';
import { routeTimesId } from '../../src/contracts/route-times.js';

/** The pure part of the poller: what counts as a change, which key moments happened, what they say. */

const ID = '3f2c1a9e-8b7d-4c6e-9f01-23456789abcd';
const DEST = '0x1234567890abcdef1234567890abcdef12345678';
const REFUND = '0xabcdefabcdefabcdefabcdefabcdefabcdefabcd';
const HASH = `0x${'ab'.repeat(32)}`;

function details(status: string, txs: Partial<Transaction>[] = [], extra: Partial<SwapDetails['swap']> = {}): SwapDetails {
  return {
    swap: {
      id: ID,
      created_date: '2026-01-01T00:00:00Z',
      status,
      source_network: {
        name: 'ARBITRUM_MAINNET',
        display_name: 'Arbitrum One',
        transaction_explorer_template: 'https://arbiscan.io/tx/{0}',
      },
      source_token: { symbol: 'USDC', decimals: 6 },
      destination_network: { name: 'BASE_MAINNET', display_name: 'Base', transaction_explorer_template: 'https://basescan.org/tx/{0}' },
      destination_token: { symbol: 'USDC', decimals: 6 },
      destination_address: DEST,
      refund_address: REFUND,
      requested_amount: 100,
      transactions: txs.map((t) => ({ type: 'input', ...t })),
      ...extra,
    },
    quote: { receive_amount: 99.5, avg_completion_time: '00:02:00' },
  };
}

const input = (confirmations: number, status = 'pending'): Partial<Transaction> => ({
  type: 'input',
  status,
  transaction_hash: HASH,
  confirmations,
  max_confirmations: 3,
  amount: 100,
});

describe('observing a swap', () => {
  it('announces nothing on first sight, then each key moment once as the status moves', () => {
    const t0 = 1_000_000;
    let o = observe(undefined, details('user_transfer_pending'), t0, 4);
    expect(o).toMatchObject({ changed: true, moments: [], state: { version: 1 } });
    let s: SwapState = o.state;

    o = observe(s, details('user_transfer_pending'), t0 + 1000, 4);
    expect(o.changed).toBe(false);
    expect(o.state.version).toBe(1);
    s = o.state;

    o = observe(s, details('ls_transfer_pending', [input(0)]), t0 + 2000, 4);
    expect(o.moments.map((m) => m.kind)).toEqual(['deposit_seen']);
    s = o.state;

    o = observe(s, details('ls_transfer_pending', [input(1)]), t0 + 3000, 4);
    expect(o).toMatchObject({ changed: true, moments: [], state: { version: 3 } });
    s = o.state;

    o = observe(
      s,
      details('completed', [input(3, 'completed'), { type: 'output', status: 'completed', transaction_hash: '0xout', amount: 99.4 }]),
      t0 + 4000,
      4,
    );
    expect(o.moments.map((m) => m.kind)).toEqual(['completed']);
    expect(o.state.history.map((h) => h.status)).toEqual(['user_transfer_pending', 'ls_transfer_pending', 'completed']);
  });

  it('an answer that would move the swap back is not shown until 3 in a row agree; forward moves are never held', () => {
    const seen = observe(
      observe(undefined, details('user_transfer_pending'), 0, 4).state,
      details('user_transfer_pending', [input(1)]),
      1000,
      4,
    ).state;
    // A stale "waiting, no deposit": ignored, the state stays, and any other answer ends the streak.
    let o = observe(seen, details('user_transfer_pending'), 2000, 4);
    expect(o).toMatchObject({
      changed: false,
      backward: 'ignored',
      save: true,
      state: { version: seen.version, status: 'user_transfer_pending', backward: { polls: 1 } },
    });
    expect(o.state.transactions).toEqual(seen.transactions);
    o = observe(o.state, details('user_transfer_pending', [input(1)]), 3000, 4);
    expect(o).toMatchObject({ changed: false, save: true });
    expect(o.state.backward).toBeUndefined();
    // Three in a row: a real regression, shown (the deposit stays remembered for the card's words).
    let s = o.state;
    for (let k = 1; k <= 3; k++) {
      o = observe(s, details('user_transfer_pending'), 3000 + k * 1000, 4);
      s = o.state;
    }
    expect(o).toMatchObject({ changed: true, backward: 'confirmed', moments: [] });
    expect(o.state.transactions).toEqual([]);
    expect(o.state.depositSeenAt).toBe(1000);
    // From there the deposit reappearing is a move forward, without a second "Deposit seen".
    o = observe(o.state, details('user_transfer_pending', [input(2)]), 8000, 4);
    expect(o).toMatchObject({ changed: true, moments: [] });
    expect(o.backward).toBeUndefined();

    const processing = observe(seen, details('ls_transfer_pending', [input(3, 'completed')]), 2000, 4).state;
    expect(observe(processing, details('user_transfer_pending', [input(2)]), 3000, 4).backward).toBe('ignored');
    const delivered = observe(
      processing,
      details('ls_transfer_pending', [input(3, 'completed'), { type: 'output', status: 'completed', transaction_hash: '0xout' }]),
      3000,
      4,
    ).state;
    expect(observe(delivered, details('ls_transfer_pending', [input(3, 'completed')]), 4000, 4).backward).toBe('ignored');
    // The documented order: pending_refund after a failed execution, refunded after it.
    const refunding = observe(processing, details('pending_refund', [input(3, 'completed')]), 3000, 4);
    expect(refunding.backward).toBeUndefined();
    expect(observe(refunding.state, details('refunded', [input(3, 'completed')]), 4000, 4).moments.map((m) => m.kind)).toEqual([
      'refunded',
    ]);
    expect(observe(refunding.state, details('ls_transfer_pending', [input(3, 'completed')]), 4000, 4).backward).toBe('ignored');
  });

  it('first sight past the deposit card: version 2, and the outcome of a swap that already ended', () => {
    expect(observe(undefined, details('user_transfer_pending', [input(1)]), 0, 4)).toMatchObject({ moments: [], state: { version: 2 } });
    const failed = observe(undefined, details('failed', [input(3, 'completed')], { fail_reason: 'received_less_than_valid_range' }), 0, 4);
    expect(failed).toMatchObject({ state: { version: 2 }, moments: [{ kind: 'failed', version: 2 }] });
    expect(observe(undefined, details('refunded', [input(3, 'completed')]), 0, 4).moments.map((m) => m.kind)).toEqual(['refunded']);
  });

  it('a poll that misses the in-between status announces only where the swap is now, never an older moment after it', () => {
    const s = observe(undefined, details('user_transfer_pending'), 0, 4).state;
    const refunded = observe(
      s,
      details('refunded', [input(3, 'completed'), { type: 'refund', status: 'completed', transaction_hash: '0xrefund' }]),
      1000,
      4,
    );
    expect(refunded.moments.map((m) => m.kind)).toEqual(['refunded']);
    const completed = observe(
      s,
      details('completed', [input(3, 'completed'), { type: 'output', status: 'completed', transaction_hash: '0xout', amount: 99.4 }]),
      1000,
      4,
    );
    expect(completed.moments.map((m) => m.kind)).toEqual(['completed']);
    expect(completed.state.depositSeenAt).toBe(1000);
  });

  it('a completed payout under ls_transfer_pending is announced as completed once, and never called stuck', () => {
    const out = { type: 'output', status: 'completed', transaction_hash: '0xout', amount: 99.4 };
    let s = observe(undefined, details('ls_transfer_pending', [input(3, 'completed')]), 0, 4).state;
    let o = observe(s, details('ls_transfer_pending', [input(3, 'completed'), out]), 60_000, 4);
    expect(o.moments.map((m) => m.kind)).toEqual(['completed']);
    s = o.state;
    o = observe(s, details('ls_transfer_pending', [input(3, 'completed'), out]), 60 * 60_000, 4);
    expect(o.moments).toEqual([]);
    o = observe(o.state, details('completed', [input(3, 'completed'), out]), 61 * 60_000, 4);
    expect(o.moments).toEqual([]);
    expect(o.changed).toBe(true);
  });

  it("a deposit listed while the status still says user_transfer_pending is announced, with the card's words", () => {
    const s = observe(undefined, details('user_transfer_pending'), 0, 4).state;
    const d = details('user_transfer_pending', [input(1)]);
    const o = observe(s, d, 1000, 4);
    expect(o.moments.map((m) => m.kind)).toEqual(['deposit_seen']);
    const text = replyText(
      renderMoment(o.moments[0]!, { details: d, state: o.state, target: { platform: 'telegram', chatId: '1', chatKind: 'private' } }),
    );
    expect(text).toContain('Deposit seen, confirming 1/3.');
    expect(text).not.toMatch(/send the exact|send exactly/i);
  });

  it('a deposit_seen moment is stale once the swap is completed, refunded or closed', () => {
    const seen = { kind: 'deposit_seen' as const };
    expect(isStaleMoment(seen, details('ls_transfer_pending', [input(1)]))).toBe(false);
    expect(isStaleMoment(seen, details('completed', [input(3, 'completed')]))).toBe(true);
    expect(isStaleMoment(seen, details('ls_transfer_pending', [input(3, 'completed'), { type: 'output', status: 'completed' }]))).toBe(
      true,
    );
    expect(isStaleMoment(seen, details('refunded', [input(3, 'completed')]))).toBe(true);
    expect(isStaleMoment({ kind: 'completed' }, details('completed'))).toBe(false);
  });

  it('calls a swap stuck once, after the factor times its expected completion time in ls_transfer_pending', () => {
    let s = observe(undefined, details('ls_transfer_pending', [input(3, 'completed')]), 0, 4).state;
    // expected 2 minutes, factor 4: not stuck at 7 minutes, stuck after 8
    let o = observe(s, details('ls_transfer_pending', [input(3, 'completed')]), 7 * 60_000, 4);
    expect(o.moments).toEqual([]);
    s = o.state;
    o = observe(s, details('ls_transfer_pending', [input(3, 'completed')]), 8 * 60_000 + 1, 4);
    expect(o.moments.map((m) => m.kind)).toEqual(['stuck']);
    expect(o.changed).toBe(true);
    o = observe(o.state, details('ls_transfer_pending', [input(3, 'completed')]), 60 * 60_000, 4);
    expect(o.moments).toEqual([]);
  });

  it("with the route's own distribution, stuck only past both its p99 and the service's estimate", () => {
    const pending = () => details('ls_transfer_pending', [input(3, 'completed')]);
    const s = observe(undefined, pending(), 0, 4).state;
    expect(s.route).toBe(
      routeTimesId({
        sourceNetwork: 'ARBITRUM_MAINNET',
        sourceToken: 'USDC',
        destinationNetwork: 'BASE_MAINNET',
        destinationToken: 'USDC',
      }),
    );
    // The route's p99 is 20 minutes: 9 minutes (past 4 x the 2-minute estimate) is not stuck on this route.
    expect(observe(s, pending(), 9 * 60_000, 4, { stuckAfterMs: 20 * 60_000 }).moments).toEqual([]);
    expect(observe(s, pending(), 20 * 60_000 + 1, 4, { stuckAfterMs: 20 * 60_000 }).moments.map((m) => m.kind)).toEqual(['stuck']);
    // A fast route (p99 30 s): still not before the service's own estimate of 2 minutes.
    expect(observe(s, pending(), 90_000, 4, { stuckAfterMs: 30_000 }).moments).toEqual([]);
    expect(observe(s, pending(), 2 * 60_000 + 1, 4, { stuckAfterMs: 30_000 }).moments.map((m) => m.kind)).toEqual(['stuck']);
  });

  it("past the route's p90 while moving: one card edit marks it slower (no message)", () => {
    const confirming = (n: number) => details('user_transfer_pending', [input(n)]);
    const s = observe(undefined, confirming(1), 0, 4).state;
    const early = observe(s, confirming(1), 10_000, 4, { slowAfterMs: 20_000 });
    expect(early.changed).toBe(false);
    const late = observe(early.state, confirming(1), 21_000, 4, { slowAfterMs: 20_000 });
    expect(late.changed).toBe(true);
    expect(late.moments).toEqual([]);
    expect(late.state.slower).toBe(true);
    expect(observe(late.state, confirming(1), 30_000, 4, { slowAfterMs: 20_000 }).changed).toBe(false);
  });
});

describe('key-moment messages', () => {
  const privateChat: ChatTarget = { platform: 'telegram', chatId: '42', chatKind: 'private' };
  const group: ChatTarget = { platform: 'telegram', chatId: '-100', chatKind: 'group' };
  const state: SwapState = {
    swapId: ID,
    version: 5,
    status: 'ls_transfer_pending',
    failReason: null,
    transactions: [],
    history: [
      { status: 'user_transfer_pending', at: 0 },
      { status: 'ls_transfer_pending', at: 60_000 },
    ],
    firstPolledAt: 0,
    lastPolledAt: 3_600_000,
    lastChangeAt: 3_600_000,
    expectedCompletionMs: 120_000,
  };
  const moment = (kind: Parameters<typeof renderMoment>[0]['kind']) => ({ kind, version: 5, at: 0 });

  it('completed: the received amount and the payout transaction link', () => {
    const d = details('completed', [
      input(3, 'completed'),
      { type: 'output', status: 'completed', transaction_hash: '0xpayout', amount: 99.4, token: { symbol: 'USDC', decimals: 6 } },
    ]);
    const r = renderMoment(moment('completed'), { details: d, state, target: privateChat });
    expect(r.title).toBe(MOMENT_TITLES.completed);
    expect(replyText(r)).toContain('Received 99.4 USDC on Base');
    expect(replyButtons(r)).toContainEqual({ kind: 'url', label: 'View payout transaction', url: 'https://basescan.org/tx/0xpayout' });
    expect(replyText(r)).toContain(DEST);
  });

  it('failed: the reason in plain words', () => {
    const d = details('failed', [input(3, 'completed')], { fail_reason: 'received_less_than_valid_range' });
    expect(replyText(renderMoment(moment('failed'), { details: d, state, target: privateChat }))).toContain(
      'The deposit was less than the minimum for this route.',
    );
  });

  it('a deposit above the maximum is on hold for review, not "failed"', () => {
    const d = details('failed', [input(3, 'completed')], { fail_reason: 'received_more_than_valid_range' });
    const r = renderMoment(moment('failed'), { details: d, state, target: privateChat });
    expect(r.title).toBe(ON_HOLD_TITLE);
    expect(replyText(r)).toContain('up to 2 hours');
    expect(replyText(r)).not.toMatch(/failed/i);
  });

  it('refunded: the refund transaction', () => {
    const d = details('refunded', [
      input(3, 'completed'),
      { type: 'refund', status: 'completed', transaction_hash: '0xrefundtx', amount: 100 },
    ]);
    const r = renderMoment(moment('refunded'), { details: d, state, target: privateChat });
    expect(replyButtons(r)).toContainEqual({ kind: 'url', label: 'View refund transaction', url: 'https://arbiscan.io/tx/0xrefundtx' });
    expect(replyText(r)).toContain(REFUND);
  });

  it('stuck: what the state means and a copyable support summary with ids, hashes, addresses and history', () => {
    const d = details('ls_transfer_pending', [input(3, 'completed')]);
    const text = replyText(renderMoment(moment('stuck'), { details: d, state, target: privateChat }));
    expect(text).toContain('ls_transfer_pending');
    expect(text).toContain('usually takes about 2 minutes; it has been 59 minutes.');
    for (const part of [
      `Swap id: ${ID}`,
      `input tx: ${HASH}`,
      `Destination address: ${DEST}`,
      'History: user_transfer_pending 1970-01-01T00:00:00Z, ls_transfer_pending 1970-01-01T00:01:00Z',
    ]) {
      expect(text).toContain(part);
    }
  });

  it('groups and channels see masked addresses and no deposit details', () => {
    const d = details('completed', [
      input(3, 'completed'),
      { type: 'output', status: 'completed', transaction_hash: '0xpayout', amount: 99.4 },
    ]);
    for (const kind of ['deposit_seen', 'completed', 'refunded', 'pending_refund', 'stuck', 'expired'] as const) {
      const text = replyText(renderMoment(moment(kind), { details: d, state, target: group }));
      expect(text).not.toContain(DEST);
      expect(text).not.toContain(REFUND);
      expect(text).not.toContain('deposit address');
    }
    const deposit = replyText(renderMoment(moment('deposit_seen'), { details: d, state, target: group }));
    expect(deposit).not.toMatch(/100 USDC|deposit of/);
    expect(replyText(renderMoment(moment('completed'), { details: d, state, target: group }))).toContain(maskAddress(DEST));
    expect(maskAddress(DEST)).toBe('0x1234…5678');
  });
});
