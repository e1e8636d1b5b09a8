import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LayerswapClient } from '../../src/layerswap/client.js';
import {
  DepositActionListSchema,
  DestinationListSchema,
  NetworkListSchema,
  QuoteResponseSchema,
  SwapDetailsSchema,
} from '../../src/layerswap/schemas.js';
import { isValidAddress } from '../../src/sandbox/addresses.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { ManualClock, type SandboxServer } from '../../src/sandbox/types.js';
import { ADDR, apiError, ISO_WITH_OFFSET, TIMESPAN } from './support.js';
import { WAIT_MS } from '../support/wait.js';

/** The real client against the real sandbox over sockets: every operation, filter and error code. */

let sandbox: SandboxServer;
let client: LayerswapClient;

beforeAll(async () => {
  sandbox = await startSandbox({ clock: new ManualClock(), timings: { depositDelayMs: 'off' } });
  client = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, maxRetries: 0, timeoutMs: WAIT_MS });
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});

const usdc = { source_network: 'SOLANA_MAINNET', source_token: 'USDC', destination_network: 'ARBITRUM_MAINNET', destination_token: 'USDC' };

describe('networks', () => {
  it('lists real mainnets of seven families with their real facts', async () => {
    const networks = await client.getNetworks();
    expect(() => NetworkListSchema.parse(networks)).not.toThrow();
    expect(networks.length).toBeGreaterThanOrEqual(12);
    expect(new Set(networks.map((n) => n.type))).toEqual(new Set(['evm', 'starknet', 'solana', 'ton', 'tron', 'bitcoin', 'stellar']));
    const by = new Map(networks.map((n) => [n.name, n]));
    expect(by.get('ETHEREUM_MAINNET')).toMatchObject({
      display_name: 'Ethereum',
      chain_id: '1',
      transaction_explorer_template: 'https://etherscan.io/tx/{0}',
    });
    expect(by.get('ARBITRUM_MAINNET')).toMatchObject({ display_name: 'Arbitrum One', chain_id: '42161' });
    expect(by.get('STARKNET_MAINNET')?.chain_id).toBe('0x534e5f4d41494e');
    expect(by.get('SOLANA_MAINNET')?.chain_id).toBe('');
    expect(by.get('TON_MAINNET')?.chain_id).toBeNull();
    expect(by.get('TRON_MAINNET')?.transaction_explorer_template).toBe('https://tronscan.org/#/transaction/{0}');
    expect(by.get('BITCOIN_MAINNET')?.token).toMatchObject({ symbol: 'BTC', decimals: 8, contract: null });
    expect(by.get('SOLANA_MAINNET')?.token).toMatchObject({ symbol: 'SOL', decimals: 9, contract: null });
    expect(by.get('STELLAR_MAINNET')?.token).toMatchObject({ symbol: 'XLM', decimals: 7, contract: null });
    const ethUsdc = by.get('ETHEREUM_MAINNET')?.tokens.find((t) => t.symbol === 'USDC');
    // Lower-case contracts and a stablecoin price that is not exactly 1, as in live answers.
    expect(ethUsdc).toMatchObject({ contract: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', decimals: 6, price_in_usd: 0.999766 });
    for (const n of networks) {
      expect(n.transaction_explorer_template).toContain('{0}');
      expect(n.logo).toMatch(/^https:\/\//);
    }
  });

  it('filters by network_types', async () => {
    const networks = await client.getNetworks({ network_types: ['ton', 'tron'] });
    expect(networks.map((n) => n.name).sort()).toEqual(['TON_MAINNET', 'TRON_MAINNET']);
    expect(await client.getNetworks({ network_types: ['cosmos'] })).toEqual([]);
    const e = await apiError(client.getNetworks({ network_types: ['evm', 'notachain'] }));
    expect(e).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(e.serviceMessage).toContain('notachain');
  });
});

describe('destinations', () => {
  const tokensOn = (list: { name: string; tokens: { symbol: string; status?: string | null }[] }[], name: string) =>
    list.find((n) => n.name === name)?.tokens.map((t) => `${t.symbol}:${t.status}`);

  it('lists same-asset routes from a token, with refuel offers on EVM destinations', async () => {
    const list = await client.getDestinations({ source_network: 'BASE_MAINNET', source_token: 'USDC' });
    expect(() => DestinationListSchema.parse(list)).not.toThrow();
    expect(list.map((n) => n.name)).toEqual(
      expect.arrayContaining(['ETHEREUM_MAINNET', 'ARBITRUM_MAINNET', 'SOLANA_MAINNET', 'STARKNET_MAINNET']),
    );
    expect(list.map((n) => n.name)).not.toContain('BASE_MAINNET');
    expect(tokensOn(list, 'ARBITRUM_MAINNET')).toEqual(['USDC:active']);
    const arbUsdc = list.find((n) => n.name === 'ARBITRUM_MAINNET')?.tokens[0];
    expect(arbUsdc?.refuel).toMatchObject({ token: { symbol: 'ETH' }, amount: 0.00033333, amount_in_usd: 1 });
    // No refuel on offer: the key is absent, as in real route tokens (and so is group).
    expect(list.find((n) => n.name === 'SOLANA_MAINNET')?.tokens[0]).not.toHaveProperty('refuel');
    expect(arbUsdc).not.toHaveProperty('group');
  });

  it('accepts the chain id and the contract address (any case) instead of names', async () => {
    const byName = await client.getDestinations({ source_network: 'BASE_MAINNET', source_token: 'USDC' });
    const byIds = await client.getDestinations({ source_network: '8453', source_token: '0x833589FCD6EDB6E08F4C7C32D4F71B54BDA02913' });
    expect(byIds.map((n) => n.name)).toEqual(byName.map((n) => n.name));
    const eth = await client.getDestinations({ source_network: '1', source_token: '0x0000000000000000000000000000000000000000' });
    expect(tokensOn(eth, 'STARKNET_MAINNET')).toEqual(['ETH:active']);
  });

  it('shows inactive routes only with include_unavailable', async () => {
    const without = await client.getDestinations({ source_network: 'ETHEREUM_MAINNET', source_token: 'USDC' });
    expect(tokensOn(without, 'ARBITRUM_MAINNET')).toEqual(['USDC:active']);
    const withAll = await client.getDestinations({ source_network: 'ETHEREUM_MAINNET', source_token: 'USDC', include_unavailable: true });
    expect(tokensOn(withAll, 'ARBITRUM_MAINNET')).toEqual(['USDC:active', 'USDC.e:inactive']);
  });

  it('shows cross-asset routes only with include_swaps, and unmatched tokens with include_unmatched', async () => {
    const sol = { source_network: 'SOLANA_MAINNET', source_token: '11111111111111111111111111111111' };
    expect(await client.getDestinations(sol)).toEqual([]);
    const swaps = await client.getDestinations({ ...sol, include_swaps: true });
    expect(swaps.map((n) => `${n.name}/${n.tokens.map((t) => t.symbol).join()}`).sort()).toEqual([
      'ARBITRUM_MAINNET/ETH',
      'BASE_MAINNET/ETH',
    ]);
    const unmatched = await client.getDestinations({ ...sol, include_unmatched: true });
    expect(tokensOn(unmatched, 'TON_MAINNET')).toEqual(['TON:not_found', 'USDT:not_found']);
  });

  it('filters destinations by network_types', async () => {
    const list = await client.getDestinations({ source_network: 'ETHEREUM_MAINNET', source_token: 'USDT', network_types: ['ton', 'tron'] });
    expect(list.map((n) => n.name).sort()).toEqual(['TON_MAINNET', 'TRON_MAINNET']);
  });

  it('rejects an unknown source network or token with VALIDATION_ERROR naming the parameter', async () => {
    const e1 = await apiError(client.getDestinations({ source_network: 'MOON_MAINNET' }));
    expect(e1).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(e1.serviceMessage).toMatch(/source_network.*MOON_MAINNET/);
    const e2 = await apiError(client.getDestinations({ source_network: 'BASE_MAINNET', source_token: 'DOGE' }));
    expect(e2.serviceMessage).toMatch(/source_token.*DOGE.*BASE_MAINNET/);
  });
});

describe('quote', () => {
  it('computes fees in source units and receive amounts in destination units', async () => {
    const q = await client.getQuote({ ...usdc, amount: 10 });
    expect(() => QuoteResponseSchema.parse(q)).not.toThrow();
    // A fixed network cost plus a small rate, as in the live capture (0.439897 + 0.002382 on 10 USDC).
    expect(q.quote).toMatchObject({
      requested_amount: 10,
      blockchain_fee: 0.439867,
      service_fee: 0.00238,
      total_fee: 0.442247,
      total_fee_in_usd: 0.442144,
      receive_amount: 9.557753,
      min_receive_amount: 9.533858,
      slippage: 0.0025,
      rate: 1,
      refuel_in_source: 0,
      path: [{ provider: 'LAYERSWAP', order: 0 }],
    });
    expect(q.quote.source_network?.name).toBe('SOLANA_MAINNET');
    expect(q.quote.destination_token).toMatchObject({
      symbol: 'USDC',
      decimals: 6,
      contract: '0xaf88d065e77c8cc2239327c5edb3a432268e5831',
    });
    expect(q.quote.avg_completion_time).toMatch(TIMESPAN);
    expect(q.refuel).toBeNull();
    expect(q.reward).toBeNull();
  });

  it('converts across assets at the price ratio (SOL to ETH)', async () => {
    const q = await client.getQuote({
      source_network: 'SOLANA_MAINNET',
      source_token: 'SOL',
      destination_network: 'ARBITRUM_MAINNET',
      destination_token: 'ETH',
      amount: 1,
    });
    expect(q.quote).toMatchObject({
      rate: 0.05,
      blockchain_fee: 0.00293176,
      service_fee: 0.000238,
      total_fee: 0.00316976,
      receive_amount: 0.04984151,
    });
    expect(q.quote.total_fee_in_usd).toBeCloseTo(0.475464, 6);
  });

  it('adds a refuel (taken from the amount) when asked, and a reward on the example route', async () => {
    const q = await client.getQuote({ ...usdc, amount: 100, refuel: true });
    expect(q.quote).toMatchObject({ refuel_in_source: 1.000234, receive_amount: 98.536099 });
    expect(q.refuel).toMatchObject({
      token: { symbol: 'ETH' },
      network: { name: 'ARBITRUM_MAINNET' },
      amount: 0.00033333,
      amount_in_usd: 1,
    });
    const r = await client.getQuote({
      source_network: 'ETHEREUM_MAINNET',
      source_token: 'ETH',
      destination_network: 'STARKNET_MAINNET',
      destination_token: 'ETH',
      amount: 0.1,
    });
    expect(r.reward).toMatchObject({ amount_in_usd: 0.5, campaign_type: 'default', network: { name: 'STARKNET_MAINNET' } });
    expect(r.quote.avg_completion_time).not.toBe(q.quote.avg_completion_time);
  });

  it('answers ROUTE_NOT_FOUND_ERROR for pairs without a route and for inactive routes', async () => {
    const e = await apiError(
      client.getQuote({
        source_network: 'ETHEREUM_MAINNET',
        source_token: 'ETH',
        destination_network: 'BITCOIN_MAINNET',
        destination_token: 'BTC',
        amount: 1,
      }),
    );
    expect(e).toMatchObject({ status: 404, code: 'ROUTE_NOT_FOUND_ERROR' });
    const inactive = await apiError(client.getQuote({ ...usdc, destination_token: 'USDC.e', amount: 10 }));
    expect(inactive.code).toBe('ROUTE_NOT_FOUND_ERROR');
    expect(inactive.serviceMessage).toContain('not available');
  });

  it('answers LESS_THAN_MIN_ERROR and GREATER_THAN_MAX_ERROR with the limit in metadata.AmountLimit', async () => {
    const low = await apiError(client.getQuote({ ...usdc, amount: 4.99 }));
    expect(low).toMatchObject({ status: 400, code: 'LESS_THAN_MIN_ERROR', metadata: { AmountLimit: 5.001171 } });
    const high = await apiError(client.getQuote({ ...usdc, amount: 500_200 }));
    expect(high).toMatchObject({ code: 'GREATER_THAN_MAX_ERROR', metadata: { AmountLimit: 500117.027384 } });
    const eth = await apiError(
      client.getQuote({
        source_network: 'ETHEREUM_MAINNET',
        source_token: 'ETH',
        destination_network: 'BASE_MAINNET',
        destination_token: 'ETH',
        amount: 0.001,
      }),
    );
    expect(eth.metadata).toEqual({ AmountLimit: 0.00166667 });
  });

  it('answers INVALID_ADDRESS_ERROR when the destination address does not fit the destination network', async () => {
    const e = await apiError(client.getQuote({ ...usdc, amount: 10, destination_address: ADDR.solana }));
    expect(e).toMatchObject({ status: 400, code: 'INVALID_ADDRESS_ERROR' });
    expect(e.serviceMessage).toContain('Arbitrum One');
    await expect(client.getQuote({ ...usdc, amount: 10, destination_address: ADDR.evm })).resolves.toBeTruthy();
  });

  it('answers VALIDATION_ERROR for malformed parameters, naming what is wrong', async () => {
    const cases: [Partial<typeof usdc> & { amount: number; slippage?: string }, RegExp][] = [
      [{ amount: 1.1234567 }, /6 decimals/],
      [{ amount: 0 }, /greater than 0/],
      [{ amount: -5 }, /positive decimal/],
      [{ amount: 10, slippage: '5' }, /slippage/],
      [{ amount: 10, source_network: 'NOPE' }, /source_network/],
      [{ amount: 10, destination_token: 'XYZ' }, /destination_token.*XYZ/],
    ];
    for (const [params, message] of cases) {
      const e = await apiError(client.getQuote({ ...usdc, ...params }));
      expect(e.code, JSON.stringify(params)).toBe('VALIDATION_ERROR');
      expect(e.serviceMessage).toMatch(message);
    }
  });

  it('answers QUOTE_REQUIRES_NO_DEPOSIT_ADDRESS where the network only takes wallet deposits', async () => {
    const e = await apiError(
      client.getQuote({
        source_network: 'STARKNET_MAINNET',
        source_token: 'ETH',
        destination_network: 'BASE_MAINNET',
        destination_token: 'ETH',
        amount: 0.1,
        use_deposit_address: true,
      }),
    );
    expect(e.code).toBe('QUOTE_REQUIRES_NO_DEPOSIT_ADDRESS');
  });

  it('answers 403 API_KEY_FORBIDDEN to a wrong key (reads too), without echoing it', async () => {
    const wrong = new LayerswapClient({ baseUrl: sandbox.url, apiKey: 'not-the-key-123', maxRetries: 0 });
    const e = await apiError(wrong.getNetworks());
    await wrong.close();
    expect(e).toMatchObject({ status: 403, code: 'API_KEY_FORBIDDEN', serviceMessage: 'Api key forbidden' });
    expect(e.message).not.toContain('not-the-key-123');
  });

  it('answers the public reads without a key; swaps need one (401)', async () => {
    const keyless = new LayerswapClient({ baseUrl: sandbox.url, maxRetries: 0 });
    expect((await keyless.getNetworks()).length).toBeGreaterThan(3);
    expect((await keyless.getQuote({ ...usdc, amount: 25 })).quote.receive_amount).toBeGreaterThan(0);
    expect((await keyless.getLimits(usdc)).min_amount).toBeGreaterThan(0);
    expect(await apiError(keyless.listSwaps({ address: ADDR.evm }))).toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS' });
    // The client itself refuses to create without a key, before sending anything.
    const before = sandbox.requestCount('createSwap');
    await expect(keyless.createSwap({ ...usdc, amount: 25, destination_address: ADDR.evm })).rejects.toMatchObject({
      name: 'InvalidRequestError',
      field: 'apiKey',
    });
    expect(sandbox.requestCount('createSwap')).toBe(before);
    await keyless.close();
  });
});

describe('swaps', () => {
  const base = { ...usdc, destination_address: ADDR.evm, amount: 25 };

  it('creates a swap with a deposit address of the source family and returns it by id', async () => {
    const created = await client.createSwap({ ...base, use_deposit_address: true, reference_id: 'order-42', refund_address: ADDR.solana });
    expect(() => SwapDetailsSchema.parse(created)).not.toThrow();
    const { swap } = created;
    expect(swap).toMatchObject({
      status: 'user_transfer_pending',
      requested_amount: 25,
      destination_address: ADDR.evm,
      use_deposit_address: true,
      fail_reason: null,
      transactions: [],
    });
    expect(swap.created_date).toMatch(ISO_WITH_OFFSET);
    expect(swap.metadata?.reference_id).toBe('order-42');
    expect(typeof swap.metadata?.sequence_number).toBe('number');
    const [action] = created.deposit_actions ?? [];
    // Deposit-address flow: the address and the amount, no invented memo.
    expect(action).toMatchObject({ type: 'manual_transfer', amount: 25, amount_in_base_units: '25000000', call_data: null });
    expect(String(swap.metadata?.sequence_number)).toMatch(/^\d{8}$/);
    expect(isValidAddress('solana', action?.to_address ?? '')).toBe(true);
    expect(created.quote?.receive_amount).toBe(24.554183);

    const fetched = await client.getSwap(swap.id);
    expect(fetched.swap).toEqual(swap);
    expect(fetched.deposit_actions).toEqual(created.deposit_actions);
    expect((await client.getSwap(swap.id, { exclude_deposit_actions: true })).deposit_actions).toBeUndefined();
    const actions = await client.getDepositActions(swap.id);
    expect(() => DepositActionListSchema.parse(actions)).not.toThrow();
    expect(actions).toEqual(created.deposit_actions);
  });

  it('gives deposit-address swaps an address of their own per swap and no memo, on every family', async () => {
    const tronSwap = {
      source_network: 'TRON_MAINNET',
      source_token: 'USDT',
      destination_network: 'ETHEREUM_MAINNET',
      destination_token: 'USDT',
      destination_address: ADDR.evm,
      amount: 20,
      use_deposit_address: true,
    };
    const tron = await client.createSwap(tronSwap);
    const tron2 = await client.createSwap(tronSwap);
    expect(tron.deposit_actions?.[0]).toMatchObject({ type: 'manual_transfer', call_data: null });
    expect(isValidAddress('tron', tron.deposit_actions?.[0]?.to_address ?? '')).toBe(true);
    expect(tron2.deposit_actions?.[0]?.to_address).not.toBe(tron.deposit_actions?.[0]?.to_address);
    // TON is wallet-only on Layerswap: no deposit address there.
    expect(await apiError(client.createSwap({ ...tronSwap, source_network: 'TON_MAINNET' }))).toMatchObject({
      code: 'QUOTE_REQUIRES_NO_DEPOSIT_ADDRESS',
    });

    const btc = await client.createSwap({
      source_network: 'BITCOIN_MAINNET',
      source_token: 'BTC',
      destination_network: 'ARBITRUM_MAINNET',
      destination_token: 'WBTC',
      destination_address: ADDR.evm,
      amount: 0.01,
      use_deposit_address: true,
    });
    expect(btc.deposit_actions?.[0]).toMatchObject({ call_data: null, amount_in_base_units: '1000000' });
    expect(isValidAddress('bitcoin', btc.deposit_actions?.[0]?.to_address ?? '')).toBe(true);

    const evm = await client.createSwap({
      source_network: 'ETHEREUM_MAINNET',
      source_token: 'ETH',
      destination_network: 'BASE_MAINNET',
      destination_token: 'ETH',
      destination_address: ADDR.evm,
      amount: 0.1,
      use_deposit_address: true,
    });
    expect(evm.deposit_actions?.[0]).toMatchObject({
      type: 'manual_transfer',
      call_data: null,
      amount_in_base_units: '100000000000000000',
    });
  });

  it('builds wallet transfers: native with the sequence number, ERC-20 through the token contract', async () => {
    const native = await client.createSwap({
      source_network: 'ETHEREUM_MAINNET',
      source_token: 'ETH',
      destination_network: 'BASE_MAINNET',
      destination_token: 'ETH',
      destination_address: ADDR.evm,
      amount: 0.1,
      source_address: ADDR.evm2,
    });
    const seq = Number(native.swap.metadata?.sequence_number);
    expect(native.deposit_actions?.[0]).toMatchObject({ type: 'transfer', amount: 0.1, call_data: `0x${seq.toString(16)}` });
    const token = await client.createSwap({
      source_network: 'ETHEREUM_MAINNET',
      source_token: 'USDC',
      destination_network: 'BASE_MAINNET',
      destination_token: 'USDC',
      destination_address: ADDR.evm,
      amount: 50,
    });
    const action = token.deposit_actions?.[0];
    expect(action).toMatchObject({ type: 'transfer', to_address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', amount: 0 });
    expect(action?.call_data).toMatch(/^0xa9059cbb[0-9a-f]{128}/);
    expect(action?.call_data).toContain((50_000_000).toString(16).padStart(64, '0'));
  });

  it('refuses bad swaps with the specific code', async () => {
    expect((await apiError(client.createSwap({ ...base, destination_address: ADDR.tron }))).code).toBe('INVALID_ADDRESS_ERROR');
    expect((await apiError(client.createSwap({ ...base, refund_address: ADDR.evm }))).serviceMessage).toMatch(/refund_address.*Solana/);
    expect((await apiError(client.createSwap({ ...base, destination_network: 'TON_MAINNET' }))).code).toBe('VALIDATION_ERROR');
    expect((await apiError(client.createSwap({ ...base, destination_token: 'USDT' }))).code).toBe('VALIDATION_ERROR');
    expect((await apiError(client.createSwap({ ...base, amount: 1 }))).code).toBe('LESS_THAN_MIN_ERROR');
    expect((await apiError(client.createSwap({ ...base, destination_address: '' }))).serviceMessage).toMatch(
      /destination_address is required/,
    );
  });

  it('answers NOT_FOUND for an unknown swap id', async () => {
    const e = await apiError(client.getSwap('3fa85f64-5717-4562-b3fc-2c963f66afa6'));
    expect(e).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect((await apiError(client.getDepositActions('3fa85f64-5717-4562-b3fc-2c963f66afa6'))).code).toBe('NOT_FOUND');
  });
});

describe('exchanges (the official app’s reads)', () => {
  it('source exchanges: all, or those withdrawing the token on the network', async () => {
    expect((await client.getSourceExchanges()).map((e) => e.name)).toEqual(['BINANCE', 'COINBASE', 'OKX', 'KRAKEN']);
    const usdcOnBase = await client.getSourceExchanges({
      source_network: 'BASE_MAINNET',
      source_token: 'USDC',
      include_swaps: false,
      include_unavailable: true,
      include_unmatched: true,
    });
    expect(usdcOnBase.map((e) => e.name)).toEqual(['BINANCE', 'COINBASE']);
    expect(Object.keys(usdcOnBase[0] ?? {}).sort()).toEqual(['display_name', 'logo', 'metadata', 'name']);
    expect(await client.getSourceExchanges({ source_network: 'ARBITRUM_MAINNET', source_token: 'USDC' })).toEqual([]);
    expect(await apiError(client.getSourceExchanges({ source_network: 'BASE_MAINNET' }))).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringMatching(/source_network and source_token go together/),
    });
  });

  it('withdrawal networks: where the exchange withdraws to reach the destination, never the destination network itself', async () => {
    const nets = await client.getExchangeWithdrawalNetworks({
      source_exchange: 'coinbase',
      destination_network: 'BASE_MAINNET',
      destination_token: 'USDC',
    });
    expect(nets.map((n) => `${n.network.name}/${n.token.symbol}`)).toEqual([
      'ETHEREUM_MAINNET/USDC',
      'SOLANA_MAINNET/USDC',
      'POLYGON_MAINNET/USDC',
    ]);
    expect(nets[0]?.fee?.total_fee).toBeGreaterThan(0);
    // Kraken moves no USDC at all.
    expect(
      await client.getExchangeWithdrawalNetworks({
        source_exchange: 'KRAKEN',
        destination_network: 'BASE_MAINNET',
        destination_token: 'USDC',
      }),
    ).toEqual([]);
    expect(
      await apiError(
        client.getExchangeWithdrawalNetworks({ source_exchange: 'FTX', destination_network: 'BASE_MAINNET', destination_token: 'USDC' }),
      ),
    ).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/unknown exchange 'FTX'/) });
  });

  it('destination exchanges and deposit networks, seen from the route’s source', async () => {
    const fromArbUsdc = await client.getDestinationExchanges({ source_network: 'ARBITRUM_MAINNET', source_token: 'USDC' });
    expect(fromArbUsdc.map((e) => e.name)).toEqual(['BINANCE', 'COINBASE']);
    const nets = await client.getExchangeDepositNetworks({
      destination_exchange: 'COINBASE',
      source_network: 'ARBITRUM_MAINNET',
      source_token: 'USDC',
    });
    expect(nets.map((n) => n.network.name)).toEqual(['ETHEREUM_MAINNET', 'BASE_MAINNET', 'SOLANA_MAINNET', 'POLYGON_MAINNET']);
  });

  it('a swap from an exchange on a network it does not withdraw on is refused', async () => {
    const body = {
      source_network: 'ARBITRUM_MAINNET',
      source_token: 'USDC',
      destination_network: 'BASE_MAINNET',
      destination_token: 'USDC',
      destination_address: ADDR.evm,
      amount: 100,
      source_exchange: 'COINBASE',
    };
    expect(await apiError(client.createSwap(body))).toMatchObject({
      code: 'ROUTE_NOT_FOUND_ERROR',
      message: expect.stringContaining('Coinbase does not move USDC over Arbitrum One.'),
    });
  });
});
