import { problemText } from '../../src/bot/kernel/problem.js';
import { bech32 } from '@scure/base';
import { describe, expect, test } from 'vitest';
import { checkAddress, type AddressNetwork } from '../../src/bot/swap/address/index.js';
import { toChecksumAddress } from '../../src/bot/swap/address/evm.js';

/** Real addresses of each family (contracts, well-known accounts, BIP test vectors), and corruptions. */
const NET: Record<string, AddressNetwork> = {
  evm: { name: 'ARBITRUM_MAINNET', display_name: 'Arbitrum One', type: 'evm' },
  solana: { name: 'SOLANA_MAINNET', display_name: 'Solana', type: 'solana' },
  starknet: { name: 'STARKNET_MAINNET', display_name: 'StarkNet', type: 'starknet' },
  ton: { name: 'TON_MAINNET', display_name: 'Ton', type: 'ton' },
  tron: { name: 'TRON_MAINNET', display_name: 'Tron', type: 'tron' },
  bitcoin: { name: 'BITCOIN_MAINNET', display_name: 'Bitcoin', type: 'bitcoin' },
  bitcoinTest: { name: 'BITCOIN_TESTNET', display_name: 'Bitcoin Testnet', type: 'bitcoin' },
  cosmos: { name: 'COSMOSHUB_MAINNET', display_name: 'Cosmos Hub', type: 'cosmos' },
  fuel: { name: 'FUEL_MAINNET', display_name: 'Fuel', type: 'fuel' },
};

const valid: Array<[keyof typeof NET, string]> = [
  ['evm', '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'],
  ['evm', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'], // EIP-55 test vector
  ['evm', '0xaf88d065e77c8cc2239327c5edb3a432268e5831'], // all lower case: no checksum to check
  ['evm', '0x52908400098527886E0F7030069857D2E4169EE7'], // all upper case
  ['solana', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'],
  ['solana', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'],
  ['starknet', '0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7'],
  ['starknet', '0x53c91253bc9682c04929ca02ed00b3e423f6710d2ee7e0d5ebb06f3ecf368a8'],
  ['ton', 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs'],
  ['ton', 'EQAvlWFDxGF2lXm67y4yzC17wYKD9A0guwPkMs1gOsM__NOT'],
  ['ton', '0:b113a994b5024a16719f69139328eb759596c38a25f59028b146fecdc3621dfe'],
  ['ton', '-1:3333333333333333333333333333333333333333333333333333333333333333'],
  ['tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
  ['tron', 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7'],
  ['bitcoin', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
  ['bitcoin', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4'], // BIP 173, upper case
  ['bitcoin', 'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297'], // BIP 86 taproot
  ['bitcoin', 'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y'], // BIP 350 v1, 40 bytes
  ['bitcoin', 'bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs'], // BIP 350 v2
  ['bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
  ['bitcoin', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy'],
  ['bitcoinTest', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx'],
  ['cosmos', 'cosmos1vqpjljwsynsn58dugz0w8ut7kun7t8ls2qkmsq'],
  ['cosmos', 'osmo1clpqr4nrk4khgkxj78fcwwh6dl3uw4epasmvnj'],
  ['fuel', '0x7f2b9e2c9a9f8d3c9b6a5e4f3d2c1b0a9f8e7d6c5b4a39281706f5e4d3c2b1a0'],
];

const invalid: Array<[keyof typeof NET, string, RegExp]> = [
  ['evm', '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96046', /checksum/],
  [
    'evm',
    '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA9604',
    /not a valid Arbitrum One address\. It has 39 hex characters.*0x followed by 40 hex/,
  ],
  ['evm', 'd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', /0x followed by 40 hex/],
  ['evm', '0xg8dA6BF26964aF9D7eEd9e03E53415D37aA96045', /0x followed by 40 hex/],
  ['solana', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt10', /not a valid Solana address.*base58/], // 0 is not base58
  ['solana', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4w', /decodes to \d+ bytes, not the 32 bytes/],
  ['starknet', '0x0800000000000011000000000000000000000000000000000000000000000001', /too large/],
  ['starknet', '0x' + 'f'.repeat(65), /not a valid StarkNet address.*up to 64 hex/],
  ['starknet', '0x0', /zero address/],
  ['ton', 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDt', /checksum/],
  ['ton', 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sD', /not a valid Ton address.*48-character/],
  ['ton', '5:b113a994b5024a16719f69139328eb759596c38a25f59028b146fecdc3621dfe', /Workchain 5/],
  ['tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u', /checksum/],
  ['tron', '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', /not a valid Tron address.*starting with T/],
  ['bitcoin', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdx', /checksum/],
  ['bitcoin', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd', /wrong checksum kind \(bech32 instead of bech32m\)/], // BIP 350 invalid vector
  ['bitcoin', 'Bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', /all lower case or all upper case/],
  ['bitcoin', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', /not a valid Bitcoin address/],
  ['bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb', /checksum/],
  ['bitcoinTest', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', /not a Bitcoin address for this network/],
  ['cosmos', 'cosmos1vqpjljwsynsn58dugz0w8ut7kun7t8ls2qkmsp', /checksum/],
  ['cosmos', 'Cosmos1vqpjljwsynsn58dugz0w8ut7kun7t8ls2qkmsq', /not a valid Cosmos Hub address.*bech32/],
  ['fuel', 'has a space', /no spaces/],
  ['fuel', 'x'.repeat(129), /longer than 128/],
  ['fuel', '   ', /Send an address on Fuel/],
];

describe('checkAddress', () => {
  test.each(valid)('%s accepts %s', (family, address) => {
    const r = checkAddress(address, NET[family] as AddressNetwork);
    expect(r).toEqual({ ok: true, value: family.startsWith('bitcoin') && address.startsWith('BC1') ? address.toLowerCase() : address });
  });

  test.each(invalid)('%s refuses %s', (family, address, why) => {
    const r = checkAddress(address, NET[family] as AddressNetwork);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(problemText('en', r)).toMatch(why);
  });

  test('surrounding spaces are trimmed', () => {
    expect(checkAddress('  0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045\n', NET.evm as AddressNetwork)).toEqual({
      ok: true,
      value: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
    });
  });

  test('EIP-55 checksums match the EIP test vectors', () => {
    for (const a of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    ]) {
      expect(toChecksumAddress(a.toLowerCase())).toBe(a);
    }
  });

  test('any cosmos chain prefix with a 20- or 32-byte payload', () => {
    const words = bech32.toWords(new Uint8Array(32).fill(7));
    expect(checkAddress(bech32.encode('juno', words), NET.cosmos as AddressNetwork).ok).toBe(true);
    expect(checkAddress(bech32.encode('juno', bech32.toWords(new Uint8Array(10))), NET.cosmos as AddressNetwork).ok).toBe(false);
  });
});
