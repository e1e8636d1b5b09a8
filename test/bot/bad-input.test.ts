import { describe, expect, test } from 'vitest';
import { card, ChatUser, useHarness } from './support/conversation.js';

/** Every bad input gets its own message, and nothing already entered is lost. */
const h = useHarness();

describe('networks and tokens', () => {
  test('a misspelt network: did you mean, with that choice first; the rest of the line is kept', async () => {
    const u = new ChatUser(h, { userId: 'b1' });
    const r = await u.says('/quote 100 USDC arbitum base');
    const c = card(r, {
      title: 'New quote',
      contains: ['⚠️ There is no network called "arbitum". Did you mean Arbitrum One?', 'So far: 100 USDC → Base'],
    });
    expect(c.buttons?.[0]?.[0]?.label).toBe('Arbitrum One');
    card(await u.presses('Arbitrum One'), { title: 'Quote: USDC Arbitrum One → USDC Base', contains: ['You send: 100 USDC'] });
  });

  test('a network nobody has heard of points to /networks', async () => {
    const u = new ChatUser(h, { userId: 'b2' });
    card(await u.says('/quote 1 eth ethereum narnia'), {
      contains: ['There is no network called "narnia". Send /networks to see them all.', 'So far: 1 ETH on Ethereum'],
    });
  });

  test('an unknown token on a network lists what it has; the amount and networks stay', async () => {
    const u = new ChatUser(h, { userId: 'b3' });
    card(await u.says('/quote 100 DOGE arbitrum base'), {
      contains: ['Arbitrum One has no token "DOGE". It has ETH, USDC, USDC.e, USDT0, WBTC.', 'So far: 100 on Arbitrum One → Base'],
    });
    card(await u.says('usdc'), { title: 'Quote: USDC Arbitrum One → USDC Base' });
  });

  test('a token typo gets did-you-mean', async () => {
    const u = new ChatUser(h, { userId: 'b4' });
    card(await u.says('/quote 100 USDCC arbitrum base'), { contains: ['Arbitrum One has no token "USDCC". Did you mean USDC'] });
  });

  test('a token by contract address, and the native token by the zero address', async () => {
    const u = new ChatUser(h, { userId: 'b5' });
    card(await u.says('/quote 100 0xaf88d065e77c8cc2239327c5edb3a432268e5831 arbitrum base'), {
      title: 'Quote: USDC Arbitrum One → USDC Base',
    });
    card(await u.says('/quote 0.1 0x0000000000000000000000000000000000000000 arbitrum base'), {
      title: 'Quote: ETH Arbitrum One → ETH Base',
    });
  });

  test('a route that does not exist offers the reachable networks', async () => {
    const u = new ChatUser(h, { userId: 'b6' });
    card(await u.says('/quote 100 USDC arbitrum tron'), {
      contains: ['There is no route from USDC on Arbitrum One to Tron', 'So far: 100 USDC on Arbitrum One'],
      buttons: ['Base', 'Optimism'],
    });
  });

  test('a destination token that cannot be received there lists what can', async () => {
    const u = new ChatUser(h, { userId: 'b7' });
    card(await u.says('/quote 100 USDC arbitrum base ETH'), {
      contains: ['ETH cannot be received on Base from USDC. You can receive USDC.'],
      buttons: ['USDC'],
    });
  });

  test('too many words gets the usage', async () => {
    const u = new ChatUser(h, { userId: 'b8' });
    card(await u.says('/quote 1 2 3 4 5 6 7'), { title: 'Could not read that route', contains: ['/quote <amount> <token> <from> <to>'] });
  });
});

describe('amounts', () => {
  const cases: Array<[string, string | RegExp]> = [
    ['abc', '"abc" is not a number.'],
    ['-1', 'The amount must be more than 0, not negative.'],
    ['0', 'The amount must be more than 0.'],
    ['1e999', '"1e999" uses exponent notation.'],
    ['NaN', '"NaN" is not an amount.'],
    ['Infinity', '"Infinity" is not an amount.'],
    ['1,5', 'Use a dot for decimals, not a comma: 1.5.'],
    ['1.1234567', 'USDC has 6 decimals, and "1.1234567" has 7 digits after the dot. Use at most 6.'],
  ];
  for (const [amount, message] of cases) {
    test(`"${amount}" is refused with its reason, and the route is kept`, async () => {
      const u = new ChatUser(h, { userId: `amount-${amount}` });
      const r = await u.says(`/quote ${amount} USDC arbitrum base`);
      card(r, { title: 'New quote', contains: [message, 'So far: USDC on Arbitrum One → USDC on Base', 'How much USDC'] });
      // A good answer continues from there.
      card(await u.says('10'), { title: 'Quote: USDC Arbitrum One → USDC Base' });
    });
  }

  /** The route's limits as the service states them (GET /limits), as the bot prints them. */
  async function usdcArbitrumBaseLimits(): Promise<{ min: string; max: string }> {
    const l = await h.api.getLimits({
      source_network: 'ARBITRUM_MAINNET',
      source_token: 'USDC',
      destination_network: 'BASE_MAINNET',
      destination_token: 'USDC',
    });
    return { min: String(l.min_amount), max: String(l.max_amount) };
  }

  test('below and above the route limits: the limit is named and the amount asked again', async () => {
    const { min, max } = await usdcArbitrumBaseLimits();
    const u = new ChatUser(h, { userId: 'b9' });
    card(await u.says('/quote 1 USDC arbitrum base'), {
      contains: [
        `1 USDC is below the minimum of ${min} USDC for this route.`,
        'So far: USDC on Arbitrum One → USDC on Base',
        'How much USDC',
        /You can send between [\d.]+ USDC and [\d,]+ USDC\./,
      ],
    });
    card(await u.says('900000'), { contains: [`900000 USDC is above the maximum of ${max} USDC for this route.`, 'How much USDC'] });
    // The minimum itself is accepted.
    card(await u.says(min), { title: 'Quote: USDC Arbitrum One → USDC Base', contains: [`You send: ${min} USDC`] });
  });

  test('a bad amount typed as an answer keeps the draft and asks again', async () => {
    const { min } = await usdcArbitrumBaseLimits();
    const u = new ChatUser(h, { userId: 'b10' });
    await u.says('/swap usdc from arbitrum to base');
    card(await u.says('1,5'), { contains: ['Use a dot for decimals, not a comma: 1.5.', 'So far: USDC on Arbitrum One → USDC on Base'] });
    card(await u.says('1.5'), {
      contains: [`1.5 USDC is below the minimum of ${min} USDC for this route.`, 'So far: USDC on Arbitrum One → USDC on Base'],
    });
    card(await u.says('50'), { contains: ['So far: 50 USDC on Arbitrum One → USDC on Base', 'address on Base'] });
  });
});

describe('addresses', () => {
  const cases: Array<[string, string, string]> = [
    ['/swap 100 USDC arbitrum base', 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs', 'That is not a valid Base address.'],
    ['/swap 100 USDC arbitrum base', '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96046', 'do not match its checksum'],
    ['/swap 100 USDC arbitrum solana', '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', 'That is not a valid Solana address.'],
    ['/swap 100 USDT ethereum tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u', 'The checksum of that Tron address does not match'],
    ['/swap 100 USDT ethereum ton', '0:b113a994b5024a16719f69139328eb759596c38a25f59028b146fecdc3621d', 'That is not a valid Ton address.'],
    [
      '/swap 0.01 WBTC ethereum bitcoin BTC',
      'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdx',
      'The checksum of that Bitcoin address does not match',
    ],
    [
      '/swap 100 USDC arbitrum starknet',
      '0x0800000000000011000000000000000000000000000000000000000000000001',
      'too large to be a Starknet address',
    ],
  ];
  for (const [line, address, message] of cases) {
    test(`${line.split(' ').slice(-2).join(' ')}: "${address.slice(0, 12)}…" is refused before any request`, async () => {
      const u = new ChatUser(h, { userId: `addr-${address}` });
      card(await u.says(line), { contains: ['Send the address on'] });
      const creates = h.sandbox.requestCount('createSwap');
      const quotes = h.sandbox.requestCount('getQuote');
      card(await u.says(address), { contains: [message, 'Send the address on'] });
      expect(h.sandbox.requestCount('createSwap')).toBe(creates);
      expect(h.sandbox.requestCount('getQuote')).toBe(quotes);
    });
  }
});

describe('swap ids and commands', () => {
  test('/status with a bad id is refused before any request', async () => {
    const u = new ChatUser(h, { userId: 'b11' });
    const before = h.sandbox.requestCount('getSwap');
    card(await u.says('/status 12345'), { title: 'Which swap?', contains: ['That is not a swap id', 'UUID'] });
    card(await u.says('/status'), { title: 'Which swap?', contains: ['Add its id'] });
    expect(h.sandbox.requestCount('getSwap')).toBe(before);
  });

  test('/status of an unknown swap says it was not found', async () => {
    const u = new ChatUser(h, { userId: 'b12' });
    card(await u.says('/status 3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b'), { title: 'Not found', contains: ['no swap with that id'] });
  });

  test('unknown commands in private get a pointer; in groups, silence', async () => {
    card(await new ChatUser(h, { userId: 'b13' }).says('/frobnicate'), { title: 'Unknown command', contains: ['/help'] });
    expect(await new ChatUser(h, { userId: 'b13', chatId: 'g', chatKind: 'group' }).says('/frobnicate')).toEqual([]);
  });

  test('markup in user text stays plain text', async () => {
    const u = new ChatUser(h, { userId: 'b14' });
    const r = await u.says('/quote 1 <b>x</b> arbitrum base');
    const spans = r.flatMap((x) => x.lines.flat());
    expect(
      spans
        .filter((s) => s.kind === 'text')
        .map((s) => s.text)
        .join('\n'),
    ).toContain('"<b>x</b>"');
  });
});
