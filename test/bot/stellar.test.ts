import { describe, expect, test } from 'vitest';
import { depositCards } from '../../src/bot/deposit/card.js';
import { depositMemo, depositPlan } from '../../src/bot/deposit/plan.js';
import { errorReply } from '../../src/bot/kernel/errors-text.js';
import { problemText } from '../../src/bot/kernel/problem.js';
import { checkAddress } from '../../src/bot/swap/address/index.js';
import { crc16Xmodem, decodeStrKey, STRKEY_VERSION } from '../../src/bot/swap/address/stellar.js';
import { trustlineLines } from '../../src/bot/swap/trustline.js';
import { replyText } from '../../src/contracts/reply.js';
import { translator } from '../../src/i18n/index.js';
import { ApiError } from '../../src/layerswap/errors.js';
import { NetworkSchema, SwapDetailsSchema } from '../../src/layerswap/schemas.js';
import { NOW, SWAP_ID } from '../support/swaps.js';

/**
 * Stellar (Layerswap PR #2156, 2026-09: G-addresses and memos; trustline checks still open).
 * StrKey vectors: SEP-23 ("Strkey") and the strkey tests of stellar/js-stellar-base
 * (test/unit/strkey_test), read 2026-11-28.
 */
const STELLAR = { name: 'STELLAR_MAINNET', display_name: 'Stellar', type: 'stellar' };
const valid = [
  'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ',
  'GBBM6BKZPEHWYO3E3YKREDPQXMS4VK35YLNU7NFBRI26RAN7GI5POFBB',
  'GB7KKHHVYLDIZEKYJPAJUOTBE5E3NJAXPSDZK7O6O44WR3EBRO5HRPVT',
  'GD6WVYRVID442Y4JVWFWKWCZKB45UGHJAABBJRS22TUSTWGJYXIUR7N2',
  'GBCG42WTVWPO4Q6OZCYI3D6ZSTFSJIXIS6INCIUF23L6VN3ADE4337AP',
  'GDTYVCTAUQVPKEDZIBWEJGKBQHB4UGGXI2SXXUEW7LXMD4B7MK37CWLJ',
];
/** Not StrKeys at all: bad alphabet, lengths, unused bits set, padding, wrong algorithm. */
const malformed = [
  'GBPXX0A5N4JYPESHAADMQKBPWZWQDQ64ZV6ZL2S3LAGW4SY7NTCMWIVL',
  'GCFZB6L25D26RQFDWSSBDEYQ32JHLRMTT44ZYE3DZQUTYOL7WY43PLBG++',
  'GADE5QJ2TY7S5ZB65Q43DFGWYWCPHIYDJ2326KZGAGBN7AE5UY6JVDRRA',
  'GB6OWYST45X57HCJY5XWOHDEBULB6XUROWPIKW77L5DSNANBEQGUPADT2',
  'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZA',
  'G47QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVP2I',
  'MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUR',
  'MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUK===',
  'test',
];
const words = translator('en');
const why = (input: string) => {
  const r = checkAddress(input, STELLAR);
  return r.ok ? 'ok' : `${r.id}: ${problemText('en', r)}`;
};

describe('Stellar addresses (StrKey, SEP-23)', () => {
  test('CRC16-XMODEM: the standard check value', () => {
    expect(crc16Xmodem(new TextEncoder().encode('123456789'))).toBe(0x31c3);
  });

  test.each(valid)('%s is a valid account address', (a) => {
    expect(checkAddress(a, STELLAR)).toEqual({ ok: true, value: a });
    const d = decodeStrKey(a);
    expect(d !== undefined && d !== 'checksum' && d.version).toBe(STRKEY_VERSION.account);
  });

  test('the SEP-23 account key decodes to its published bytes; a lower-case paste is the same account', () => {
    const d = decodeStrKey('GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ');
    expect(d !== undefined && d !== 'checksum' && Buffer.from(d.payload).toString('hex')).toBe(
      '3f0c34bf93ad0d9971d04ccc90f705511c838aad9734a4a2fb0d7a03fc7fe89a',
    );
    expect(checkAddress(' ga7qynf7sowq3glr2bgmzehxavirza4kvwltjjfc7mgxua74p7ujvsgz ', STELLAR)).toEqual({
      ok: true,
      value: 'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ',
    });
  });

  test.each(malformed)('%s is refused as not a Stellar address', (a) => {
    expect(why(a)).toMatch(
      /^address\.invalid: That is not a valid Stellar address\. It must be a 56-character account address starting with G\.$/,
    );
  });

  test('one mistyped character: the checksum says so', () => {
    expect(why('GBPXXOA5N4JYPESHAADMQKBPWZWQDQ64ZV6ZL2S3LAGW4SY7NTCMWIVT')).toMatch(
      /^address\.checksum: The checksum of that Stellar address/,
    );
    expect(why('GDXIIZTKTLVYCBHURXL2UPMTYXOVNI7BRAEFQCP6EZCY4JLKY4VKFNLT')).toMatch(/^address\.checksum/);
  });

  test('a muxed M... address is valid StrKey but refused with the address to send instead', () => {
    for (const m of [
      'MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVAAAAAAAAAAAAAJLK',
      'MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAFB4CJJBRKA',
      'MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUQ',
    ])
      expect(why(m)).toMatch(/^address\.invalid_form: Muxed Stellar addresses \(starting with M\) are not accepted.*starting with G/);
  });

  test('a secret seed (S...) is never taken for an address, and the reply warns without repeating it', () => {
    const seed = 'SAB5556L5AN5KSR5WF7UOEFDCIODEWEO7H2UR4S5R62DFTQOGLKOVZDY';
    const text = why(seed);
    expect(text).toMatch(/^address\.secret: That is a Stellar secret key.*Never send it to anyone/);
    expect(text).not.toContain(seed);
  });
});

const usdcIssuer = 'GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN';
function stellarSwap(callData: string | null, type: 'manual_transfer' | 'transfer' = 'manual_transfer') {
  const net = { ...STELLAR, account_explorer_template: 'https://stellar.expert/explorer/public/account/{0}' };
  const usdc = { symbol: 'USDC', decimals: 7, contract: usdcIssuer };
  return SwapDetailsSchema.parse({
    swap: {
      id: SWAP_ID,
      created_date: '2026-01-01T11:58:00+00:00',
      status: 'user_transfer_pending',
      source_network: net,
      source_token: usdc,
      destination_network: { name: 'BASE_MAINNET', display_name: 'Base', type: 'evm' },
      destination_token: { symbol: 'USDC', decimals: 6, contract: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913' },
      destination_address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
      requested_amount: 25,
      use_deposit_address: true,
      transactions: [],
    },
    quote: { receive_amount: 24.6, avg_completion_time: '00:01:00' },
    deposit_actions: [
      {
        type,
        to_address: 'GBBM6BKZPEHWYO3E3YKREDPQXMS4VK35YLNU7NFBRI26RAN7GI5POFBB',
        amount: 25,
        amount_in_base_units: '250000000',
        call_data: callData,
        order: 0,
        network: net,
        token: usdc,
      },
    ],
  });
}

describe('a Stellar deposit', () => {
  test('the memo is the call data (an id up to 2^64-1, or text up to 28 bytes); anything else is no memo', () => {
    expect(depositMemo('3511098423', 'stellar')).toEqual({ kind: 'memo', value: '3511098423' });
    expect(depositMemo('ls-3f2b8c1e', 'stellar')).toEqual({ kind: 'memo', value: 'ls-3f2b8c1e' });
    expect(depositMemo('18446744073709551616', 'stellar')).toBeUndefined();
    expect(depositMemo('x'.repeat(29), 'stellar')).toBeUndefined();
  });

  test('the card carries the memo as a required part of the instruction, with what happens without it', async () => {
    const [card] = await depositCards(stellarSwap('3511098423'), NOW);
    const text = replyText(card!);
    expect(text).toContain('Send exactly 25 USDC on Stellar');
    expect(text).toContain('GBBM6BKZPEHWYO3E3YKREDPQXMS4VK35YLNU7NFBRI26RAN7GI5POFBB');
    expect(text).toContain('3511098423');
    expect(text).toContain('Without it the deposit cannot be matched and is lost');
  });

  test('call data the bot cannot read as a Stellar memo: the address is never shown without it', () => {
    expect(depositPlan(stellarSwap('x'.repeat(40))).kind).toBe('app_only');
    expect(depositPlan(stellarSwap(null)).kind).toBe('manual');
  });
});

describe('Stellar trustlines', () => {
  const network = NetworkSchema.parse({
    ...STELLAR,
    account_explorer_template: 'https://stellar.expert/explorer/public/account/{0}',
    token: { symbol: 'XLM', decimals: 7, contract: null },
    tokens: [
      { symbol: 'XLM', decimals: 7, contract: null },
      { symbol: 'USDC', decimals: 7, contract: usdcIssuer },
    ],
  });
  const me = 'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ';

  test('the confirm card says a token needs a trustline and links the account page to check it', () => {
    const lines = trustlineLines(words, network, 'USDC', me);
    const flat = JSON.stringify(lines);
    expect(flat).toContain('needs a trustline for USDC');
    expect(flat).toContain(`https://stellar.expert/explorer/public/account/${me}`);
  });

  test('XLM needs none; other networks are not concerned', () => {
    expect(trustlineLines(words, network, 'XLM', me)).toEqual([]);
    expect(trustlineLines(words, NetworkSchema.parse({ name: 'BASE_MAINNET', type: 'evm', tokens: [] }), 'USDC', '0xd8dA')).toEqual([]);
  });

  test("the service's refusal that names the trustline is explained; nothing was created", () => {
    const e = new ApiError({
      status: 400,
      code: 'VALIDATION_ERROR',
      message: 'Destination address does not have a trustline for USDC',
      request: 'POST /api/v2/swaps',
    });
    const text = replyText(errorReply(e));
    expect(text).toContain('No trustline for this token');
    expect(text).toContain('Nothing was created');
  });
});
