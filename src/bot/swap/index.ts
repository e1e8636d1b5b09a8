/** What the other features may use of swap/ (lint: features import each other only through here). */
export { checkBitcoinAddress } from './address/bitcoin.js';
export { checkCosmosAddress } from './address/cosmos.js';
export { checkEvmAddress } from './address/evm.js';
export { checkSolanaAddress } from './address/solana.js';
export { checkTonAddress } from './address/ton.js';
export { checkTronAddress } from './address/tron.js';
export { swapAgainButton } from './again-button.js';
export { checkAddress } from './address/index.js';
