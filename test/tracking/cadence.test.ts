import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { blockTimeMs, confirming, isStuck, nextPollDelay, outageDelay, parseTimeSpan } from '../../src/tracking/cadence.js';
import { SWAP_STATUSES } from '../../src/layerswap/schemas.js';

const settings = { fastMs: 5_000, slowMs: 20_000 };
const min = 60_000;

describe('poll cadence', () => {
  it('stops at every final status', () => {
    for (const status of ['completed', 'failed', 'expired', 'cancelled', 'refunded']) {
      expect(nextPollDelay({ status, depositSeen: true, waitingMs: 0 }, settings)).toBeNull();
    }
  });

  it('keeps watching a deposit above the maximum for 3 hours (Layerswap reviews it for up to 2)', () => {
    const onHold = (statusAgeMs: number) =>
      nextPollDelay({ status: 'failed', failReason: 'received_more_than_valid_range', depositSeen: true, waitingMs: 0, statusAgeMs }, settings);
    expect(onHold(0)).toBe(120_000);
    expect(onHold(3 * 60 * min)).toBeNull();
    expect(nextPollDelay({ status: 'failed', failReason: 'received_less_than_valid_range', depositSeen: true, waitingMs: 0, statusAgeMs: 0 }, settings)).toBeNull();
  });

  it('polls fast once funds move: a deposit seen, ls_transfer_pending or pending_refund', () => {
    expect(nextPollDelay({ status: 'user_transfer_pending', depositSeen: true, waitingMs: 0 }, settings)).toBe(5_000);
    expect(nextPollDelay({ status: 'ls_transfer_pending', depositSeen: false, waitingMs: 0 }, settings)).toBe(5_000);
    expect(nextPollDelay({ status: 'pending_refund', depositSeen: true, waitingMs: 5 * 3_600_000 }, settings)).toBe(5_000);
  });

  it('polls slowly while waiting for a deposit, backing off on long waits up to 2 minutes', () => {
    const waiting = (waitingMs: number) => nextPollDelay({ status: 'user_transfer_pending', depositSeen: false, waitingMs }, settings);
    expect(waiting(0)).toBe(20_000);
    expect(waiting(9 * min)).toBe(20_000);
    expect(waiting(10 * min)).toBe(40_000);
    expect(waiting(59 * min)).toBe(40_000);
    expect(waiting(60 * min)).toBe(120_000);
    expect(waiting(10 * 60 * min)).toBe(120_000);
    // Unknown or legacy statuses are treated as waiting, never as final.
    expect(nextPollDelay({ status: 'something_new', depositSeen: false, waitingMs: 0 }, settings)).toBe(20_000);
  });

  test.prop([fc.constantFrom(...SWAP_STATUSES, 'unknown'), fc.boolean(), fc.nat(), fc.double({ min: 0, max: 1, noNaN: true })])(
    'never polls faster than the fast cadence, and jitter adds at most 10%',
    (status, depositSeen, waitingMs, jitter) => {
      const base = nextPollDelay({ status, depositSeen, waitingMs }, settings);
      const jittered = nextPollDelay({ status, depositSeen, waitingMs, jitter }, settings);
      if (base === null) {
        expect(jittered).toBeNull();
      } else {
        expect(base).toBeGreaterThanOrEqual(settings.fastMs);
        expect(jittered).toBeGreaterThanOrEqual(base);
        expect(jittered).toBeLessThanOrEqual(Math.round(base * 1.1));
      }
    },
  );
});

describe('outage back-off', () => {
  it('doubles from 1 s up to 60 s, and a Retry-After wins', () => {
    expect([1, 2, 3, 4, 7, 20].map((n) => outageDelay(n, settings))).toEqual([1000, 2000, 4000, 8000, 60_000, 60_000]);
    expect(outageDelay(1, settings, 7_000)).toBe(7_000);
  });
  it('never returns a delay of zero (no hot loop)', () => {
    fc.assert(fc.property(fc.integer({ min: -5, max: 100 }), (n) => outageDelay(n, { fastMs: 200, slowMs: 200 }) >= 200));
  });
});

describe('expected completion time and stuck swaps', () => {
  it('reads .NET TimeSpan strings', () => {
    expect(parseTimeSpan('00:00:05.4528534')).toBe(5_453);
    expect(parseTimeSpan('00:02:00')).toBe(120_000);
    expect(parseTimeSpan('1.02:00:00')).toBe(26 * 3_600_000);
    expect(parseTimeSpan('PT5S')).toBeUndefined();
    expect(parseTimeSpan(null)).toBeUndefined();
  });
  it('calls a swap stuck after factor x the expected time, with a one-minute floor', () => {
    expect(isStuck(7 * min, 2 * min, 4)).toBe(false);
    expect(isStuck(8 * min + 1, 2 * min, 4)).toBe(true);
    expect(isStuck(3 * min, 5_000, 4)).toBe(false);
    expect(isStuck(4 * min + 1, 5_000, 4)).toBe(true);
    // Unknown expected time: 5 minutes
    expect(isStuck(20 * min + 1, undefined, 4)).toBe(true);
    expect(isStuck(19 * min, undefined, 4)).toBe(false);
  });
});


describe('poll cadence when webhooks are trusted', () => {
  const hooked = { ...settings, webhooks: { safetyMs: 300_000, tailMs: 30_000 } };
  const base = { depositSeen: false, waitingMs: 0, sinceChangeMs: 60_000 };

  it('waits for a deposit at the slow cadence for the usual deposit window (no webhook announces a seen deposit), then at the safety interval only', () => {
    expect(nextPollDelay({ ...base, status: 'user_transfer_pending' }, hooked)).toBe(hooked.slowMs);
    expect(nextPollDelay({ ...base, status: 'user_transfer_pending', waitingMs: 9 * min }, hooked)).toBe(hooked.slowMs);
    expect(nextPollDelay({ ...base, status: 'user_transfer_pending', waitingMs: 11 * min }, hooked)).toBe(300_000);
    expect(nextPollDelay({ ...base, status: 'user_transfer_pending', waitingMs: 5 * 60 * min }, hooked)).toBe(300_000);
    expect(nextPollDelay({ ...base, status: 'ls_transfer_pending', depositSeen: true }, hooked)).toBe(300_000);
  });

  it('polls fast for a short tail after a change', () => {
    expect(nextPollDelay({ ...base, status: 'ls_transfer_pending', depositSeen: true, sinceChangeMs: 10_000 }, hooked)).toBe(5_000);
  });

  it('paces confirmations by the source network block time, never faster than the fast cadence', () => {
    const confirmingOn = (network: { name: string; type?: string }, sinceChangeMs: number) =>
      nextPollDelay({ ...base, status: 'user_transfer_pending', depositSeen: true, confirming: true, blockMs: blockTimeMs(network), sinceChangeMs }, hooked);
    expect(confirmingOn({ name: 'ETHEREUM_MAINNET', type: 'evm' }, 0)).toBe(12_000);
    expect(confirmingOn({ name: 'ETHEREUM_MAINNET', type: 'evm' }, 4_000)).toBe(8_000);
    // The block was due and the poll saw no new confirmation: a retry at the fast cadence, not a whole block.
    expect(confirmingOn({ name: 'ETHEREUM_MAINNET', type: 'evm' }, 12_500)).toBe(hooked.fastMs);
    // A 1 s chain is not polled every second: that would cost more than fixed polling.
    expect(confirmingOn({ name: 'ARBITRUM_MAINNET', type: 'evm' }, 0)).toBe(hooked.fastMs);
    expect(confirmingOn({ name: 'BITCOIN_MAINNET', type: 'bitcoin' }, 0)).toBe(600_000);
    expect(confirmingOn({ name: 'BITCOIN_MAINNET', type: 'bitcoin' }, 600_500)).toBe(hooked.fastMs);
    // Unknown names fall back to the family, then to 5 s.
    expect(blockTimeMs({ name: 'SOME_NEW_L2', type: 'evm' })).toBe(2_000);
    expect(blockTimeMs({ name: 'MYSTERY', type: 'mystery' })).toBe(5_000);
  });

  it('knows when a deposit still gathers confirmations', () => {
    const tx = (status: string, confirmations: number, maxConfirmations: number) => ({ type: 'input', status, hash: '0x1', confirmations, maxConfirmations });
    expect(confirming([tx('pending', 1, 3)])).toBe(true);
    expect(confirming([tx('completed', 3, 3)])).toBe(false);
    expect(confirming([])).toBe(false);
  });
});
