/** What the other features may use of quote/ (lint: features import each other only through here). */
export { quoteFields } from './card.js';
export {
  GASLESS_CREATE,
  GASLESS_QUOTE,
  gaslessOffered,
  observedTimes,
  quoteNow,
  quoteParams,
  quoteReply,
  recoverQuote,
  WALLET_QUOTE,
  walletOffered,
  walletOnlySource,
} from './quote.js';
export { routeArgs, routeFromButton } from './route-button.js';
export { checkRoute, exchangeNetworkChoices, loadExchanges, offersRefuel, routeFromLine, takesDepositAddress } from './route-check.js';
export type { RouteCheck } from './route-check.js';
export { isQuotable, isRouteField, missingField, routeKey, setRouteField } from './route.js';
export type { RouteExchanges } from './route.js';
export { exchangeName, labelOf, routeLabels, routeSummary } from './summary.js';
