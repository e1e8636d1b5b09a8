import { describe, expect, it } from 'vitest';
import { NetworkSchema, DestinationSchema } from '../../src/layerswap/schemas.js';
import { contractOf, findToken, isZeroAddress, NATIVE_ZERO_ADDRESS, nativeToken, symbolOf } from '../../src/layerswap/tokens.js';
import { ARBITRUM, SOLANA, TON } from './samples.js';

const arbitrum = NetworkSchema.parse(ARBITRUM);
const solana = NetworkSchema.parse(SOLANA);
const ton = NetworkSchema.parse(TON);
const EVM_ZERO = '0x0000000000000000000000000000000000000000';

describe('zero addresses', () => {
  it('exist for EVM and Solana only', () => {
    expect(NATIVE_ZERO_ADDRESS.evm).toBe(EVM_ZERO);
    expect(NATIVE_ZERO_ADDRESS.solana).toBe('11111111111111111111111111111111');
    expect(NATIVE_ZERO_ADDRESS.ton).toBeUndefined();
  });

  it('are recognised per family', () => {
    expect(isZeroAddress('evm', EVM_ZERO)).toBe(true);
    expect(isZeroAddress('evm', '0X' + '0'.repeat(40))).toBe(true);
    expect(isZeroAddress('evm', '0x' + '0'.repeat(39))).toBe(false);
    expect(isZeroAddress('solana', '1'.repeat(32))).toBe(true);
    expect(isZeroAddress('solana', EVM_ZERO)).toBe(false);
    expect(isZeroAddress('ton', '1'.repeat(32))).toBe(false);
  });
});

describe('findToken', () => {
  it('finds by symbol in any case', () => {
    expect(findToken(arbitrum, 'usdc')?.contract).toBe('0xaf88d065e77c8cc2239327c5edb3a432268e5831');
    expect(findToken(arbitrum, 'USDC.E')?.symbol).toBe('USDC.e');
    expect(findToken(arbitrum, ' eth ')?.symbol).toBe('ETH');
    expect(findToken(arbitrum, 'DOGE')).toBeUndefined();
    expect(findToken(arbitrum, '')).toBeUndefined();
  });

  it('finds by contract: any case on EVM, exact elsewhere', () => {
    expect(findToken(arbitrum, '0xAF88d065e77c8cC2239327C5EDb3A432268e5831')?.symbol).toBe('USDC');
    expect(findToken(solana, 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')?.symbol).toBe('USDC');
    expect(findToken(solana, 'epjfwdd5aufqssqem2qn1xzybapc8g4wegGkzwytdt1v')).toBeUndefined();
  });

  it('reads the family zero address as the native token', () => {
    expect(findToken(arbitrum, EVM_ZERO)?.symbol).toBe('ETH');
    expect(findToken(solana, '1'.repeat(32))?.symbol).toBe('SOL');
    expect(findToken(ton, EVM_ZERO)).toBeUndefined();
  });

  it('falls back to network.token when tokens[] lacks the native token', () => {
    const onlyUsdc = NetworkSchema.parse({ ...ARBITRUM, tokens: [ARBITRUM.tokens[1]] });
    expect(findToken(onlyUsdc, EVM_ZERO)?.symbol).toBe('ETH');
    expect(findToken(onlyUsdc, 'eth')?.symbol).toBe('ETH');
    expect(nativeToken(NetworkSchema.parse({ ...ARBITRUM, token: null, tokens: [] }))).toBeUndefined();
  });

  it('returns the route entry (with its status) for a destination', () => {
    const dest = DestinationSchema.parse({ ...ARBITRUM, tokens: ARBITRUM.tokens.map((t) => ({ ...t, status: 'active' })) });
    const eth = findToken(dest, EVM_ZERO);
    expect(eth && 'status' in eth ? eth.status : undefined).toBe('active');
  });
});

describe('contractOf and symbolOf', () => {
  it('map symbols to contracts, null for the native token', () => {
    expect(contractOf(arbitrum, 'usdc')).toBe('0xaf88d065e77c8cc2239327c5edb3a432268e5831');
    expect(contractOf(arbitrum, 'ETH')).toBeNull();
    expect(contractOf(arbitrum, 'DOGE')).toBeUndefined();
  });

  it('map contracts to symbols, the zero address to the native symbol', () => {
    expect(symbolOf(solana, 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB')).toBe('USDT');
    expect(symbolOf(arbitrum, '0xFF970A61A04b1cA14834A43f5dE4533eBDDB5CC8')).toBe('USDC.e');
    expect(symbolOf(arbitrum, EVM_ZERO)).toBe('ETH');
    expect(symbolOf(arbitrum, 'USDC')).toBeUndefined();
  });
});
