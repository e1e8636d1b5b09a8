import { ApiError } from '../../layerswap/errors.js';
import { apiErrorLines } from '../errors-text.js';
import { lineText } from '../../contracts/reply.js';
import type { FieldProblem, Route } from './route.js';

/**
 * A quote refusal that one field can fix, as a problem on that field (amount limits, no route,
 * no deposit-address support); undefined for failures the user cannot fix by answering again.
 */
export function quoteProblem(err: unknown): FieldProblem | undefined {
  if (!(err instanceof ApiError)) return undefined;
  const words = apiErrorLines(err);
  const reason = `${words.title}: ${words.lines.map(lineText).join(' ')}`;
  switch (err.code) {
    case 'LESS_THAN_MIN_ERROR':
    case 'GREATER_THAN_MAX_ERROR':
    case 'PRICE_IMPACT_TOO_HIGH':
    case 'NETWORK_CURRENCY_DAILY_LIMIT_REACHED':
      return { field: 'amount', reason };
    case 'ROUTE_NOT_FOUND_ERROR':
      return /rate not available/i.test(err.serviceMessage) ? { field: 'amount', reason } : { field: 'destination_network', reason };
    case 'QUOTE_REQUIRES_NO_DEPOSIT_ADDRESS':
      return { field: 'source_network', reason };
    default:
      return undefined;
  }
}

/** The route with the problem's field cleared, so the wizard asks it again. */
export function clearField(route: Route, field: FieldProblem['field']): Route {
  const r: Route = { ...route };
  if (field === 'amount') delete r.amount;
  if (field === 'destination_network' || field === 'destination_token') {
    if (field === 'destination_network') delete r.destinationNetwork;
    delete r.destinationToken;
  }
  if (field === 'source_network' || field === 'source_token') {
    if (field === 'source_network') delete r.sourceNetwork;
    delete r.sourceToken;
  }
  return r;
}
