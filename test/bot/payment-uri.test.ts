import { describe, expect, test } from 'vitest';
import { paymentUri, type PaymentRequest } from '../../src/bot/deposit/payment-uri.js';
import { decimalText, toBaseUnits } from '../../src/bot/money/base-units.js';

/** Each payment request checked against its standard; anything missing gives the bare address. */

const EVM_TO = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const USDC_ETH = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const BTC_TO = 'bc1plxa9q77gz9r33g8pd4c2ygzezchjffuedtzdrkclyceseyw8v80qasmquf';
const SOL_TO = '6H7GCfCx8JMUACbmSYZjConeJGzViPHhMvvYak5SDDBe';
const USDC_SOL = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const TON_TO = 'EQBynBO23ywHy_CgarY9NK9FTz0yDsG82PtcbSTQgGoXwiuA';

const req = (over: Partial<PaymentRequest>): PaymentRequest => ({
  family: 'evm',
  chainId: '1',
  address: EVM_TO,
  amount: '0.1',
  token: { symbol: 'ETH', decimals: 18, contract: null },
  ...over,
});

describe('payment request URIs', () => {
  test('EIP-681, EVM native: ethereum:<to>@<chain id>?value=<wei>', () => {
    expect(paymentUri(req({}))).toBe(`ethereum:${EVM_TO}@1?value=100000000000000000`);
    expect(paymentUri(req({ chainId: '42161', amount: '0.000373' }))).toBe(`ethereum:${EVM_TO}@42161?value=373000000000000`);
    // The zero address is how the service names a native token.
    expect(paymentUri(req({ token: { symbol: 'ETH', decimals: 18, contract: '0x0000000000000000000000000000000000000000' } }))).toBe(
      `ethereum:${EVM_TO}@1?value=100000000000000000`,
    );
  });

  test('EIP-681, ERC-20: ethereum:<token>@<chain id>/transfer?address=<to>&uint256=<base units>', () => {
    expect(paymentUri(req({ amount: '100', token: { symbol: 'USDC', decimals: 6, contract: USDC_ETH } }))).toBe(
      `ethereum:${USDC_ETH}@1/transfer?address=${EVM_TO}&uint256=100000000`,
    );
    expect(paymentUri(req({ amount: '1.000001', token: { symbol: 'USDC', decimals: 6, contract: USDC_ETH } }))).toMatch(/uint256=1000001$/);
  });

  test('BIP-21: bitcoin:<address>?amount=<BTC>', () => {
    expect(paymentUri({ family: 'bitcoin', address: BTC_TO, amount: '0.03755', token: { symbol: 'BTC', decimals: 8 } })).toBe(
      `bitcoin:${BTC_TO}?amount=0.03755`,
    );
  });

  test('Solana Pay: solana:<to>?amount=<decimal>[&spl-token=<mint>][&memo=<memo>]', () => {
    expect(paymentUri({ family: 'solana', address: SOL_TO, amount: '0.1', token: { symbol: 'SOL', decimals: 9, contract: null } })).toBe(
      `solana:${SOL_TO}?amount=0.1`,
    );
    expect(
      paymentUri({
        family: 'solana',
        address: SOL_TO,
        amount: '25.5',
        token: { symbol: 'USDC', decimals: 6, contract: USDC_SOL },
        memo: { kind: 'memo', value: '5089' },
      }),
    ).toBe(`solana:${SOL_TO}?amount=25.5&spl-token=${USDC_SOL}&memo=5089`);
  });

  test('TON transfer link: ton://transfer/<address>?amount=<nanotons>[&text=<comment>]; a jetton gets the plain address', () => {
    expect(paymentUri({ family: 'ton', address: TON_TO, amount: '1.5', token: { symbol: 'TON', decimals: 9 } })).toBe(
      `ton://transfer/${TON_TO}?amount=1500000000`,
    );
    expect(
      paymentUri({
        family: 'ton',
        address: TON_TO,
        amount: '1.5',
        token: { symbol: 'TON', decimals: 9 },
        memo: { kind: 'comment', value: 'swap 81230' },
      }),
    ).toBe(`ton://transfer/${TON_TO}?amount=1500000000&text=swap%2081230`);
    expect(
      paymentUri({
        family: 'ton',
        address: TON_TO,
        amount: '10',
        token: { symbol: 'USDT', decimals: 6, contract: 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs' },
      }),
    ).toBe(TON_TO);
  });

  test.each<[string, Partial<PaymentRequest>]>([
    ['no chain id', { chainId: null }],
    ['a Starknet-style hex chain id', { chainId: '0x534e5f4d41494e' }],
    ['no decimals', { token: { symbol: 'ETH', decimals: null } }],
    ['a cut-down token without its contract field (native or not is unknown)', { token: { symbol: 'USDC', decimals: 6 }, amount: '1' }],
    ['more places than the token has', { amount: '0.1234567', token: { symbol: 'USDC', decimals: 6, contract: USDC_ETH } }],
    ['no amount', { amount: undefined }],
    ['a zero amount', { amount: '0' }],
    ['a family without a standard', { family: 'starknet' }],
    ['a memo EIP-681 cannot carry', { memo: { kind: 'memo', value: '1' } }],
    ['a malformed address', { address: '0x<depository_contract>' }],
  ])('%s: the plain address', (_why, over) => {
    const r = req(over);
    expect(paymentUri(r)).toBe(r.address);
  });

  test('Bitcoin with an OP_RETURN memo: the plain address (BIP-21 cannot carry it)', () => {
    expect(
      paymentUri({
        family: 'bitcoin',
        address: BTC_TO,
        amount: '0.03755',
        token: { symbol: 'BTC', decimals: 8 },
        memo: { kind: 'op_return', value: 'aa8d31' },
      }),
    ).toBe(BTC_TO);
  });
});

describe('exact unit conversion', () => {
  test('decimal text to base units with BigInt, never floats', () => {
    expect(toBaseUnits('0.1', 18)).toBe('100000000000000000');
    expect(toBaseUnits('123456789.123456789123456789', 18)).toBe('123456789123456789123456789');
    expect(toBaseUnits('0.29', 2)).toBe('29');
    expect(toBaseUnits('1.10', 1)).toBe('11');
    expect(toBaseUnits('1.01', 1)).toBeUndefined();
    expect(toBaseUnits('1e-7', 18)).toBeUndefined();
    expect(toBaseUnits('1', undefined)).toBeUndefined();
  });

  test('JSON numbers as the decimal text they were written as', () => {
    expect(decimalText(0.000373)).toBe('0.000373');
    expect(decimalText(1e-7)).toBe('0.0000001');
    expect(decimalText(1.5e21)).toBe('1500000000000000000000');
    expect(decimalText(0.03755)).toBe('0.03755');
    expect(decimalText(Number.NaN)).toBeUndefined();
    expect(decimalText(-1)).toBeUndefined();
  });
});
