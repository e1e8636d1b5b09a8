/** What the other features may use of catalog/ (lint: features import each other only through here). */
export { activeTokens } from './active-tokens.js';
export { amountProblem, limitsLine, routeLimits } from './limits.js';
export { exchangeLabel, findExchange, suggestExchanges } from './parse-exchange.js';
export { networkKeys, networkLabel, resolveNetwork } from './parse-network.js';
export { isNative, resolveToken, tokenList } from './parse-token.js';
