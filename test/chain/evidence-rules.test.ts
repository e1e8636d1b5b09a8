import { describe, expect, it } from 'vitest';
import { backedAt, judge, TRANSFER_TOPIC, type Tracked } from '../../src/chain/evidence.js';
import type { SeenTransfer } from '../../src/chain/watcher.js';
import { catalogueChainId, depositVerdict, dustFloor, kindOf, worthTelling } from '../../src/tracking/chain-evidence.js';
import { USDC as USDC_TOKEN } from '../support/swaps.js';

/**
 * The rules of chain evidence (pure): the dust floor, what is worth telling once, what a receipt
 * backs, and the catalogue's chain id. The end-to-end behaviour is evidence.test.ts's.
 */

const TO = '0x00000000000000000000000000000000000000aa';
const USDC = USDC_TOKEN.contract;
const t: SeenTransfer = { network: 'N', to: TO, txHash: '0x01', block: 10, contract: USDC, value: 5n, at: 0 };
const receipt = (over: Record<string, unknown> = {}) => ({
  status: '0x1',
  blockNumber: '0xa',
  logs: [{ address: USDC, topics: [TRANSFER_TOPIC, `0x${'0'.repeat(64)}`, `0x${'0'.repeat(24)}${TO.slice(2)}`], data: '0x05' }],
  ...over,
});

describe('chain evidence rules', () => {
  it('takes a tenth of the amount asked as the dust floor, at least one base unit', () => {
    expect(dustFloor(100_000_000n)).toBe(10_000_000n);
    expect(dustFloor(0n)).toBe(1n);
    expect(kindOf(true, 0n, 1n)).toBe('dust');
    expect(kindOf(true, 9_999_999n, 10_000_000n)).toBe('dust');
    expect(kindOf(true, 10_000_000n, 10_000_000n)).toBe('deposit');
    expect(kindOf(false, 10n ** 30n, 1n)).toBe('wrong_token');
    expect(depositVerdict(50n, 100n, false)).toBe('less');
    expect(depositVerdict(100n, 100n, true)).toBe('late');
  });

  it('tells noise once, a late transfer once, and never dust', () => {
    const w = { expired: false, told: {} };
    expect(worthTelling(w, 'dust', undefined, '0x1')).toBe(false);
    expect(w.told).toEqual({ dust: true });
    expect(worthTelling(w, 'wrong_token', undefined, '0x1')).toBe(true);
    expect(worthTelling({ ...w, told: { noise: true } }, 'wrong_token', undefined, '0x2')).toBe(false);
    // A deposit shown: another token no longer edits the card; nor does a second transfer after an exact one.
    expect(worthTelling(w, 'wrong_token', { verdict: 'less', txHash: '0x1' }, '0x2')).toBe(false);
    expect(worthTelling(w, 'deposit', { verdict: 'ok', txHash: '0x1' }, '0x2')).toBe(false);
    expect(worthTelling(w, 'deposit', { verdict: 'retracted', txHash: '0x1' }, '0x2')).toBe(true);
    const closed = { expired: true, told: {} };
    expect(worthTelling(closed, 'wrong_token', undefined, '0x3')).toBe(false);
    expect(worthTelling(closed, 'deposit', undefined, '0x3')).toBe(true);
    expect(worthTelling({ expired: true, told: { late: true } }, 'deposit', undefined, '0x4')).toBe(false);
  });

  it('believes a transfer only when a successful receipt carries that very log', () => {
    expect(backedAt(receipt(), t)).toBe(10);
    expect(backedAt(null, t)).toBeUndefined();
    expect(backedAt(receipt({ status: '0x0' }), t)).toBeUndefined();
    expect(backedAt(receipt({ logs: [] }), t)).toBeUndefined();
    expect(backedAt(receipt(), { ...t, value: 6n })).toBeUndefined();
    expect(backedAt({ status: '0x1', blockNumber: '0xb', to: TO }, { ...t, contract: null })).toBe(11);
  });

  it('reports once backed, takes back a reported one that lost its receipt, drops an unbacked one after three heads', () => {
    const entry = { swapId: 's', network: 'N', address: TO, token: { symbol: 'USDC', contract: USDC, decimals: 6 }, depth: 3 };
    const tr: Tracked = { entry, t, reported: false, checkedAt: -1, misses: 0 };
    expect(judge(tr, receipt(), 10)).toEqual({ kind: 'report', block: 10 });
    tr.reported = true;
    expect(judge(tr, receipt(), 11)).toEqual({ kind: 'wait' });
    expect(judge(tr, receipt(), 12)).toEqual({ kind: 'final' });
    expect(judge(tr, null, 11)).toEqual({ kind: 'retract' });
    const unbacked: Tracked = { entry, t, reported: false, checkedAt: -1, misses: 0 };
    expect([judge(unbacked, null, 10), judge(unbacked, null, 11), judge(unbacked, null, 12)].map((v) => v.kind)).toEqual([
      'wait',
      'wait',
      'drop',
    ]);
  });

  it("reads the catalogue's chain id, decimal or hex, and nothing else", () => {
    expect(catalogueChainId('42161')).toBe(42161);
    expect(catalogueChainId('0x2105')).toBe(8453);
    expect(catalogueChainId('')).toBeUndefined();
    expect(catalogueChainId(null)).toBeUndefined();
    // Starknet's (not an EVM chain): beyond what an EVM RPC's id can be as a number here.
    expect(catalogueChainId('0x534e5f4d41494e')).toBeUndefined();
    expect(catalogueChainId('mainnet')).toBeUndefined();
  });
});
