import { describe, expect, it } from 'vitest';
import type { SeenTransfer, WatchEntry } from '../../src/chain/watcher.js';
import { entryOf, memoOwner, worthTelling } from '../../src/tracking/chain-evidence.js';
import type { SwapDetails } from '../../src/layerswap/schemas.js';
import { TON_USDT_MASTER } from '../fixtures/ton.js';

/**
 * Whose a transfer to a shared deposit address is (pure): the swap's own by its comment; sent
 * without it (told once, never counted); or another swap's (never this swap's business). The
 * end-to-end behaviour is ton-watch.test.ts's.
 */

const USDT = TON_USDT_MASTER.toLowerCase();
const SENDER = `0:${'ab'.repeat(32)}`;
const entry: WatchEntry = {
  swapId: 's',
  network: 'TON_MAINNET',
  address: 'EQshared',
  token: { symbol: 'USDT', contract: USDT, decimals: 6 },
  memo: '81230',
};
const t = (over: Partial<SeenTransfer>): SeenTransfer => ({
  network: 'TON_MAINNET',
  to: 'EQshared',
  txHash: 'aa',
  block: 5,
  contract: USDT,
  value: 25_500_000n,
  at: 0,
  memo: '81230',
  ...over,
});

describe('TON memo rules', () => {
  it('the swap comment makes it the swap’s own, whatever the sender; an address of the swap’s own needs none', () => {
    expect(memoOwner(entry, t({}), 25_500_000n, false)).toBe('own');
    expect(memoOwner(entry, t({ from: `0:${'cd'.repeat(32)}` }), 25_500_000n, false)).toBe('own');
    const { memo: _m, ...own } = entry;
    expect(memoOwner(own, t({ memo: null }), 25_500_000n, false)).toBe('own');
  });

  it('without the comment: this swap’s when its sender sent it, or (sender unknown) exactly its token and amount', () => {
    const withSender = { ...entry, from: SENDER };
    expect(memoOwner(withSender, t({ memo: null, from: SENDER }), 25_500_000n, false)).toBe('no_memo');
    expect(memoOwner(withSender, t({ memo: 'typo', from: SENDER }), 25_500_000n, false)).toBe('no_memo');
    expect(memoOwner(withSender, t({ memo: null, from: `0:${'cd'.repeat(32)}` }), 25_500_000n, false)).toBe('other');
    // The same sender's other swap (its comment is another watched swap's): theirs.
    expect(memoOwner(withSender, t({ memo: '81231', from: SENDER }), 25_500_000n, true)).toBe('other');
    expect(memoOwner(entry, t({ memo: null }), 25_500_000n, false)).toBe('no_memo');
    expect(memoOwner(entry, t({ memo: null, value: 25_000_000n }), 25_500_000n, false)).toBe('other');
    expect(memoOwner(entry, t({ memo: null, contract: null }), 25_500_000n, false)).toBe('other');
    // Someone else's comment, sender unknown: someone else's deposit.
    expect(memoOwner(entry, t({ memo: '99999' }), 25_500_000n, false)).toBe('other');
  });

  it('tells a missing memo once, never beside a deposit seen', () => {
    const w = { expired: false, told: {} as { memo?: true } };
    expect(worthTelling(w, 'no_memo', undefined, 'aa')).toBe(true);
    expect(worthTelling({ ...w, told: { memo: true } }, 'no_memo', undefined, 'bb')).toBe(false);
    expect(worthTelling(w, 'no_memo', { verdict: 'ok', txHash: 'aa' }, 'bb')).toBe(false);
    // After a missing-memo transfer, the right one is still the deposit.
    expect(worthTelling(w, 'deposit', { verdict: 'no_memo', txHash: 'aa' }, 'bb')).toBe(true);
  });

  it('watches a TON swap at its transfer action’s address with the comment from {amount, asset, comment}', () => {
    const details = {
      swap: {
        id: 'swap-1',
        source_network: { name: 'TON_MAINNET', type: 'ton' },
        source_token: { symbol: 'USDT', contract: TON_USDT_MASTER, decimals: 6 },
        source_address: 'UQsender',
      },
      deposit_actions: [
        {
          type: 'transfer',
          to_address: 'EQshared',
          call_data: JSON.stringify({ amount: '25500000', asset: 'USDT', comment: '81230' }),
          network: { name: 'TON_MAINNET', type: 'ton' },
          token: { symbol: 'USDT', contract: TON_USDT_MASTER, decimals: 6 },
        },
      ],
    } as unknown as SwapDetails;
    expect(entryOf(details)).toMatchObject({ address: 'EQshared', memo: '81230', from: 'UQsender', network: 'TON_MAINNET' });
    // No comment to match by: not watched (the API's polling follows it).
    const bare = { ...details, deposit_actions: [{ ...details.deposit_actions?.[0], call_data: null }] } as unknown as SwapDetails;
    expect(entryOf(bare)).toBeUndefined();
  });
});
