/** What the other features may use of catalog/ (lint: features import each other only through here). */
export { activeTokens } from './active-tokens.js';
export { NETWORK_ALIASES, networkStem } from './aliases.js';
export { amountProblem, limitsLine, routeLimits } from './limits.js';
export { exchangeLabel, findExchange, suggestExchanges } from './parse-exchange.js';
export { networkKeys, networkLabel, resolveNetwork } from './parse-network.js';
export { isNative, resolveToken, tokenList } from './parse-token.js';
export { typedNetwork } from './typed-network.js';
