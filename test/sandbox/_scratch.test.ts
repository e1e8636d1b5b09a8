import { test } from 'vitest';
import { isValidAddress, fakeAddress, fakeTxHash } from '../../src/sandbox/addresses.js';
import { NETWORKS } from '../../src/sandbox/catalog.js';
test('scratch', () => {
  for (const n of NETWORKS) for (const t of n.tokens) if (t.contract) console.log(n.name, t.symbol, isValidAddress(n.type, t.contract));
  for (const f of ['evm','starknet','solana','ton','tron','bitcoin'] as const) console.log(f, fakeAddress(f, 'x'), isValidAddress(f, fakeAddress(f, 'x')), fakeTxHash(f, 'y'));
  console.log(isValidAddress('bitcoin', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'), isValidAddress('bitcoin','1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'), isValidAddress('bitcoin','3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy'), isValidAddress('bitcoin','bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297'));
  console.log(isValidAddress('ton', 'UQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG'), isValidAddress('ton','EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDt'));
  console.log(isValidAddress('evm', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB49'), isValidAddress('evm','0xa0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'));
});
