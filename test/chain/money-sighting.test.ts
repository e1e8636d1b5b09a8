import { describe, expect, it } from 'vitest';
import { depositCardAfter } from '../../src/bot/deposit/lifecycle.js';
import { renderMoment } from '../../src/bot/status/moments.js';
import { statusCard } from '../../src/bot/status/card.js';
import { swapMoney } from '../../src/bot/money/model.js';
import type { ChainSighting } from '../../src/contracts/chain.js';
import { replyText, type Reply } from '../../src/contracts/reply.js';
import type { SwapDetails } from '../../src/layerswap/schemas.js';
import { ARBITRUM, NOW, QUOTE as ISSUE_QUOTE, swapDetails, USDC } from '../support/swaps.js';

/**
 * One story of the user's money (pure): a deposit of the swap's token seen on chain is the money
 * model's deposited amount, so a different amount reads the same on every message as the one the
 * service shows later; another token or a late transfer is not counted as the deposit.
 */

const arb = ARBITRUM;
const usdc = USDC;
/** The money issue's quote, without the fee in USD. */
const { total_fee_in_usd: _usd, ...QUOTE } = ISSUE_QUOTE;
const TX = `0x${'a'.repeat(64)}`;

function details(status: string, txs: unknown[], chain?: Partial<ChainSighting>): SwapDetails {
  const d = swapDetails(status, txs, { swap: { destination_address: `0x${'d'.repeat(40)}` }, quote: QUOTE });
  const sighting: ChainSighting | undefined = chain
    ? {
        network: 'Arbitrum One',
        txHash: TX,
        block: 218_004_211,
        symbol: 'USDC',
        amount: '50',
        confirmations: 1,
        required: 3,
        verdict: 'less',
        expected: { symbol: 'USDC', amount: '100' },
        ...chain,
      }
    : undefined;
  return (sighting ? { ...d, chain: sighting } : d) as SwapDetails;
}
const input = (amount: number) => ({
  type: 'input',
  status: 'pending',
  amount,
  confirmations: 1,
  max_confirmations: 3,
  transaction_hash: TX,
  timestamp: '2026-01-01T11:59:00+00:00',
  network: arb,
  token: usdc,
});
const text = (r: Reply | undefined) => (r ? replyText(r) : '');
const UNDER = 'You sent 50 USDC: 50 USDC less than the 100 USDC asked.';

describe('a chain sighting in the money model', () => {
  it("takes the swap's token seen on chain as the deposit, with where it was seen", () => {
    const m = swapMoney(details('user_transfer_pending', [], {}), NOW);
    expect(m.deposited?.units).toBe(50_000_000n);
    expect(m.difference).toEqual({ kind: 'under', amount: { units: 50_000_000n, token: m.source } });
    expect(m.onChain).toEqual({ network: 'Arbitrum One', block: 218_004_211, confirmations: 1, required: 3 });
    // A deposit is in: never "send" again.
    expect(m.next).toBe('wait_confirmations');
  });

  it('does not count another token or a transfer after expiry as the deposit', () => {
    expect(
      swapMoney(details('user_transfer_pending', [], { verdict: 'wrong_token', symbol: 'USDT0', amount: '100' }), NOW).deposited,
    ).toBeUndefined();
    expect(swapMoney(details('expired', [], { verdict: 'late', amount: '100' }), NOW).deposited).toBeUndefined();
  });

  it("gives way to the service's input transaction once it shows one", () => {
    const m = swapMoney(details('user_transfer_pending', [input(50)], {}), NOW);
    expect(m.onChain).toBeUndefined();
    expect(m.deposited?.units).toBe(50_000_000n);
  });

  it('says a wrong amount the same on the status card, the deposit card and the key message as the service-seen one', () => {
    const chainSeen = details('user_transfer_pending', [], {});
    const serviceSeen = details('user_transfer_pending', [input(50)]);
    for (const d of [chainSeen, serviceSeen]) {
      expect(text(statusCard(d, { audience: 'private', now: NOW }))).toContain(UNDER);
      expect(text(depositCardAfter(d, NOW, 'en'))).toContain(UNDER);
    }
    const moment = text(
      renderMoment(
        { kind: 'deposit_seen', version: 2, at: NOW },
        {
          details: chainSeen,
          state: { lastPolledAt: NOW, lastChangeAt: NOW, history: [] },
          target: { platform: 'console', chatId: 'c', chatKind: 'private' },
        },
      ),
    );
    expect(moment).toContain(UNDER);
    expect(moment).toContain('Deposit seen on Arbitrum One: 50 USDC in block 218,004,211, confirming 1/3.');
    // The chain's own "wrong amount" wording is gone: one sentence for one fact.
    expect(text(statusCard(chainSeen, { audience: 'private', now: NOW }))).not.toContain('A transfer of 50 USDC reached');
  });

  it('names the phase the chain saw on the status card, never "Waiting for your deposit" beside "Deposit seen"', () => {
    const card = statusCard(details('user_transfer_pending', [], { verdict: 'ok', amount: '100', confirmations: 2 }), {
      audience: 'private',
      now: NOW,
    });
    expect(card.title).toBe('Swap 3f2b8c1e: Deposit seen, confirming 2/3');
    expect(text(card)).not.toContain('Waiting for your deposit');
    expect(text(card)).not.toMatch(/Send the exact amount|I've sent it/);
    // Without a sighting the same answer still waits for the deposit.
    expect(statusCard(details('user_transfer_pending', []), { audience: 'private', now: NOW }).title).toBe(
      'Swap 3f2b8c1e: Waiting for your deposit',
    );
  });
});
