/** The swap service's client and its helpers: import from here, not from the files inside. */
export type { LayerswapApi, RequestOptions } from './api.js';
export { LayerswapClient, type LayerswapClientOptions } from './client.js';
export { CatalogCache, type CatalogCacheOptions } from './catalog-cache.js';
export { loadDepositActions, type LoadDepositActionsOptions } from './deposit-actions.js';
export * from './errors.js';
export * from './schemas.js';
export { isSwapId } from './query.js';
export { RETRY_AFTER_CAP_MS } from './retry.js';
export { describeDuration, parseTimeSpan } from './timespan.js';
export { NATIVE_ZERO_ADDRESS, contractOf, findToken, isZeroAddress, nativeToken, symbolOf, type TokenHolder } from './tokens.js';
