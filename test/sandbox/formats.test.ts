import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { fakeAddress, fakeTxHash, isValidAddress } from '../../src/sandbox/addresses.js';
import { NETWORKS } from '../../src/sandbox/catalog.js';
import type { Family } from '../../src/sandbox/model.js';
import { formatTimeSpan, isoWithOffset, toBaseUnits, toDecimalString } from '../../src/sandbox/numbers.js';
import { ADDR, ISO_WITH_OFFSET, TIMESPAN } from './support.js';

/** Pure format functions: what INVALID_ADDRESS_ERROR accepts, and what the sandbox itself hands out. */

const FAMILIES: Family[] = ['evm', 'starknet', 'solana', 'ton', 'tron', 'bitcoin'];

describe('address checks', () => {
  it('accept every token contract in the catalogue (EVM ones with a valid EIP-55 checksum)', () => {
    for (const n of NETWORKS) {
      for (const t of n.tokens) if (t.contract) expect(isValidAddress(n.type, t.contract), `${n.name} ${t.symbol}`).toBe(true);
    }
  });

  it('accept real addresses of each family and refuse them on the others', () => {
    const real: [Family, string][] = [
      ['evm', ADDR.evm],
      ['solana', ADDR.solana],
      ['starknet', ADDR.starknet],
      ['ton', ADDR.ton],
      ['tron', ADDR.tron],
      ['bitcoin', ADDR.bitcoin],
      ['bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
      ['bitcoin', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy'],
      ['bitcoin', 'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297'],
      ['ton', '0:ae4fe3d3f5c6c4b0fdde5b0d8d2e9a3e46bd4c2e8d8e1cba2b1f0d8fcbd8e2a1'],
    ];
    for (const [family, address] of real) {
      expect(isValidAddress(family, address), `${family} ${address}`).toBe(true);
      for (const other of FAMILIES) {
        if (other !== family && !(family === 'evm' && other === 'starknet'))
          expect(isValidAddress(other, address), `${other} ${address}`).toBe(false);
      }
    }
  });

  it('refuse near misses: bad checksums, lengths and prefixes', () => {
    expect(isValidAddress('evm', '0x5f4025cb72997D971e101a8FEf19422e696b4162')).toBe(false); // one letter's case changed
    expect(isValidAddress('evm', '0x5f4025cb72997d971e101a8fef19422e696b416')).toBe(false);
    expect(isValidAddress('evm', '5f4025cb72997d971e101a8fef19422e696b4162')).toBe(false);
    expect(isValidAddress('ton', 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDt')).toBe(false);
    expect(isValidAddress('tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toBe(false);
    expect(isValidAddress('bitcoin', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdr')).toBe(false);
    expect(isValidAddress('solana', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1O')).toBe(false); // O is not base58
    expect(isValidAddress('solana', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4w')).toBe(false); // too short
    expect(isValidAddress('starknet', `0x${'f'.repeat(64)}`)).toBe(false); // above the field prime
    expect(isValidAddress('evm', '')).toBe(false);
  });

  test.prop([fc.constantFrom(...FAMILIES), fc.string({ maxLength: 40 })])(
    'hands out addresses that pass its own checks',
    (family, seed) => {
      expect(isValidAddress(family, fakeAddress(family, seed))).toBe(true);
      expect(fakeAddress(family, seed)).toBe(fakeAddress(family, seed));
    },
  );

  test.prop([fc.constantFrom(...FAMILIES), fc.string({ minLength: 1, maxLength: 128 })])('never throws on any input', (family, input) => {
    expect(typeof isValidAddress(family, input)).toBe('boolean');
  });

  it('makes transaction hashes in each family’s format', () => {
    expect(fakeTxHash('evm', 's')).toMatch(/^0x[0-9a-f]{64}$/);
    expect(fakeTxHash('bitcoin', 's')).toMatch(/^[0-9a-f]{64}$/);
    expect(fakeTxHash('tron', 's')).toMatch(/^[0-9a-f]{64}$/);
    expect(fakeTxHash('solana', 's')).toMatch(/^[1-9A-HJ-NP-Za-km-z]{80,90}$/);
  });
});

describe('number formats', () => {
  it('writes amounts as plain decimals and base units without float error', () => {
    expect(toDecimalString(1e-7)).toBe('0.0000001');
    expect(toDecimalString(1.5e21)).toBe('1500000000000000000000');
    expect(toBaseUnits('0.1', 18)).toBe('100000000000000000');
    expect(toBaseUnits('25.5', 6)).toBe('25500000');
    expect(toBaseUnits('0.00000001', 8)).toBe('1');
  });

  test.prop([fc.integer({ min: 1, max: 10 ** 12 }), fc.integer({ min: 0, max: 9 })])(
    'base units of n / 10^k with k places equal n',
    (n, k) => {
      expect(toBaseUnits(toDecimalString(n / 10 ** k), 9)).toBe((BigInt(n) * 10n ** BigInt(9 - k)).toString());
    },
  );

  it('formats .NET TimeSpans and dates with an offset', () => {
    expect(formatTimeSpan(150.5)).toBe('00:02:30.5000000');
    expect(formatTimeSpan(5.4528534)).toBe('00:00:05.4528534');
    expect(formatTimeSpan(3725)).toMatch(TIMESPAN);
    expect(formatTimeSpan(3725)).toBe('01:02:05.0000000');
    expect(isoWithOffset(Date.UTC(2026, 0, 1, 12, 30))).toBe('2026-01-01T12:30:00.000000+00:00');
    expect(isoWithOffset(0)).toMatch(ISO_WITH_OFFSET);
  });
});
