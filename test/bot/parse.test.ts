import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { applyRouteWords, missingField } from '../../src/bot/quote/route.js';
import { parseAmount } from '../../src/bot/quote/amount.js';
import { resolveNetwork } from '../../src/bot/catalog/parse-network.js';
import { splitRouteWords } from '../../src/bot/quote/line.js';
import { parseSwapId } from '../../src/bot/kernel/swap-id.js';
import { NETWORKS } from './support/catalog-fixture.js';
import { say, type Msg } from '../../src/bot/kernel/problem.js';

/** A problem's words in English, as a user reads them. */
const en = (m: Msg | undefined): string => (m ? say('en', m) : '');

const parseLine = (s: string) => {
  const w = splitRouteWords(s);
  if (!w.ok) return w;
  return { ok: true as const, ...applyRouteWords({}, w.value, NETWORKS) };
};

/** Inputs that look like route lines: words, numbers, keywords, arrows, names and junk mixed. */
const routeish = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '100',
        '0.5',
        '-1',
        '1e999',
        'NaN',
        '1,5',
        'to',
        'from',
        '->',
        '→',
        'usdc',
        'ETH',
        'arbitrum',
        'arbitum',
        'base',
        'sol',
        '42161',
        'Arbitrum One',
        '0x0000000000000000000000000000000000000000',
      ),
      fc.string({ unit: 'binary', maxLength: 12 }),
    ),
    { maxLength: 8 },
  )
  .map((ws) => ws.join(' '));

describe('route line parser (property)', () => {
  test.prop([fc.string({ unit: 'binary', maxLength: 400 })])('never throws on any unicode input; every rejection has a reason', (s) => {
    const r = parseLine(s);
    if (!r.ok) expect(en(r.reason).trim().length).toBeGreaterThan(5);
    else if (r.problem) expect(en(r.problem.reason).trim().length).toBeGreaterThan(5);
  });

  test.prop([routeish])('route-like lines: a problem always names a field and says why', (s) => {
    const r = parseLine(s);
    if (r.ok && r.problem) {
      expect(['source_network', 'source_token', 'destination_network', 'destination_token', 'amount']).toContain(r.problem.field);
      expect(en(r.problem.reason).length).toBeGreaterThan(5);
    }
  });

  test.prop([fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 0, max: 999_999 })])(
    'any plain decimal within 6 places is read back exactly',
    (i, f) => {
      const text = f === 0 ? String(i) : `${i}.${String(f).padStart(6, '0').replace(/0+$/, '')}`;
      const a = parseAmount(text, { symbol: 'USDC', decimals: 6 });
      expect(a).toEqual({ ok: true, value: { value: Number(text), text } });
    },
  );

  test.prop([fc.string({ unit: 'binary', maxLength: 80 }), fc.integer({ min: 0, max: 30 })])(
    'amounts: never throws; a rejection explains itself',
    (s, decimals) => {
      const a = parseAmount(s, { symbol: 'TKN', decimals });
      if (a.ok) {
        expect(a.value.value).toBeGreaterThan(0);
        expect(a.value.value).toBeLessThan(Infinity);
        expect(a.value.text).toMatch(/^\d+(\.\d+)?$/);
      } else {
        expect(en(a.reason).length).toBeGreaterThan(5);
      }
    },
  );

  test.prop([fc.string({ unit: 'binary', maxLength: 60 })])('network lookup never throws', (s) => {
    const r = resolveNetwork(s, NETWORKS);
    if (!r.ok) expect(en(r.reason).length).toBeGreaterThan(3);
  });

  test.prop([fc.uuid(), fc.string({ unit: 'binary', maxLength: 50 })])(
    'swap ids: UUIDs pass, anything else is refused with a reason',
    (id, junk) => {
      expect(parseSwapId(id)).toEqual({ ok: true, value: id.toLowerCase() });
      const r = parseSwapId(junk);
      if (!r.ok) expect(en(r.reason).length).toBeGreaterThan(5);
      else expect(r.value).toMatch(/^[0-9a-f-]{36}$/);
    },
  );
});

describe('route line parser (examples)', () => {
  const full = { amount: '100', sourceNetwork: 'ARBITRUM_MAINNET', sourceToken: 'USDC', destinationNetwork: 'BASE_MAINNET' };
  test.each([
    '100 USDC arbitrum base',
    '100 usdc ARBITRUM_MAINNET BASE_MAINNET',
    '100 USDC from arbitrum to base',
    '100 USDC from Arbitrum One to Base',
    '100 USDC arb -> base',
    '100 USDC arb→base',
    '100 USDC 42161 8453',
    '100 USDC arbitrum-one to base',
  ])('%s', (line) => {
    const r = parseLine(line);
    expect(r.ok && r.route).toMatchObject(full);
    expect(r.ok && r.problem).toBeUndefined();
  });

  test('to-token after the destination, in both forms', () => {
    const a = parseLine('2 SOL solana base ETH');
    const b = parseLine('2 SOL from solana to base eth');
    for (const r of [a, b])
      expect(r.ok && r.route).toMatchObject({ sourceToken: 'SOL', destinationNetwork: 'BASE_MAINNET', destinationToken: 'ETH' });
  });

  test.each([
    ['eth', 'ETHEREUM_MAINNET'],
    ['op', 'OPTIMISM_MAINNET'],
    ['sol', 'SOLANA_MAINNET'],
    ['zksync', 'ZKSYNCERA_MAINNET'],
    ['starknet', 'STARKNET_MAINNET'],
    ['TON', 'TON_MAINNET'],
    ['tron', 'TRON_MAINNET'],
    ['btc', 'BITCOIN_MAINNET'],
    ['bsc', 'BSC_MAINNET'],
    ['polygon', 'POLYGON_MAINNET'],
    ['linea', 'LINEA_MAINNET'],
    ['scroll', 'SCROLL_MAINNET'],
    ['bnb smart chain', 'BSC_MAINNET'],
    ['0x534e5f4d41494e', 'STARKNET_MAINNET'],
  ])('alias %s is %s', (alias, name) => {
    const r = resolveNetwork(alias, NETWORKS);
    expect(r.ok && r.network.name).toBe(name);
  });

  test('near misses suggest the network by its display name', () => {
    for (const typo of ['arbitum', 'optimsm', 'polgon', 'etherum']) {
      const r = resolveNetwork(typo, NETWORKS);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(en(r.hint)).toMatch(/^Did you mean /);
    }
  });

  test('missing parts are left for the wizard, in order', () => {
    const r = parseLine('100 usdc');
    expect(r.ok && missingField(r.route)).toBe('source_network');
    expect(r.ok && r.route.pendingSourceToken).toBe('usdc');
  });

  test('more decimals than the token has are caught once the token is known', () => {
    const r = parseLine('1.0000001 USDC arbitrum base');
    expect(r.ok && r.problem?.field).toBe('amount');
    expect(r.ok ? en(r.problem?.reason) : '').toContain('USDC has 6 decimals');
  });
});

describe('route lines: addresses and exchanges', () => {
  const EXCHANGES = {
    source: [
      { name: 'COINBASE', display_name: 'Coinbase' },
      { name: 'BINANCE', display_name: 'Binance' },
    ],
    destination: [{ name: 'COINBASE', display_name: 'Coinbase' }],
  };
  const lineWith = (s: string) => {
    const w = splitRouteWords(s);
    if (!w.ok) throw new Error(en(w.reason));
    return applyRouteWords({}, w.value, NETWORKS, EXCHANGES);
  };

  test('an address as the last word is where to deliver, not the token to receive', () => {
    const u = lineWith('100 USDC arbitrum base 0x8ba1f109551bD432803012645Ac136ddd64DBA72');
    expect(u.problem).toBeUndefined();
    expect(u.route).toMatchObject({
      destinationNetwork: 'BASE_MAINNET',
      pendingDestinationAddress: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
    });
    expect(u.route.pendingDestinationToken).toBeUndefined();
  });

  test('the zero address at the end is still the native token', () => {
    const w = splitRouteWords('1 ETH arbitrum base 0x0000000000000000000000000000000000000000');
    expect(w.ok ? w.value.address : undefined).toBeFalsy();
  });

  test('an exchange names a side; its network is left to ask; "binance" is the exchange, not BSC', () => {
    expect(lineWith('100 USDC from Coinbase to Base').route).toMatchObject({
      sourceExchange: 'COINBASE',
      pendingSourceToken: 'USDC',
      destinationNetwork: 'BASE_MAINNET',
    });
    expect(lineWith('100 USDC binance base').route.sourceExchange).toBe('BINANCE');
    expect(lineWith('100 USDC arbitrum coinbase').route).toMatchObject({
      sourceNetwork: 'ARBITRUM_MAINNET',
      destinationExchange: 'COINBASE',
    });
  });

  test('a misspelt exchange gets did-you-mean with the exchange as a choice', () => {
    const u = lineWith('100 USDC coinbsae base');
    expect(u.problem).toMatchObject({ field: 'source_network', choices: ['COINBASE'] });
    expect(en(u.problem?.hint)).toBe('Did you mean Coinbase?');
  });
});

describe('problems are data: an id to translate on, words rendered in one place', () => {
  test('each kind of wrong input has its own stable id', () => {
    const ids = [
      parseAmount('1,5'),
      parseAmount('-3'),
      parseAmount('1e5'),
      parseAmount(''),
      splitRouteWords('100 usdc from arbitrum to'),
      parseSwapId(''),
      parseSwapId('nope'),
    ].map((r) => (r.ok ? 'ok' : r.id));
    expect(ids).toEqual([
      'amount.decimal_comma',
      'amount.negative',
      'amount.exponent',
      'amount.missing',
      'route.nothing_after_to',
      'swap_id.missing',
      'swap_id.invalid',
    ]);
  });

  test('a route problem carries its field and id with its words', () => {
    const w = splitRouteWords('100 USDC arbitrum narnia');
    if (!w.ok) throw new Error(en(w.reason));
    const u = applyRouteWords({}, w.value, NETWORKS);
    expect(u.problem).toMatchObject({ id: 'network.unknown', field: 'destination_network' });
    expect(en(u.problem?.reason)).toContain('narnia');
    // The same problem in Russian: the words come from the catalog, the user's input stays as typed.
    expect(say('ru', u.problem?.reason as Msg)).toBe('Сети с названием "narnia" нет.');
  });
});
