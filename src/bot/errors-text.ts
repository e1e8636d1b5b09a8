import {
  ApiError,
  ConnectionError,
  InvalidRequestError,
  LayerswapError,
  ResponseShapeError,
  TimeoutError,
  UnconfirmedCreateError,
} from '../layerswap/errors.js';
import { code, line, link, type Line, type Reply } from '../contracts/reply.js';

/**
 * Every failure of the swap service in plain words, in one place. Messages say what happened
 * and what to do; they never carry a stack trace, a request URL or the service's raw internals.
 */
export const NOT_ANSWERING = 'The swap service is not answering, try again in a minute.';

const num = (v: unknown): string | undefined => (typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'string' && /^\d+(\.\d+)?$/.test(v) ? v : undefined);

/** Plain-word explanation of each documented error code (reference section 7). */
export function apiErrorLines(e: ApiError): { title: string; lines: Line[] } {
  const m = e.metadata;
  const limit = num(m.AmountLimit);
  switch (e.code) {
    case 'ROUTE_NOT_FOUND_ERROR':
      return /rate not available/i.test(e.serviceMessage)
        ? { title: 'Amount too large for this route', lines: [line('The route exists, but at this amount the price impact would be too high.'), line('Try a smaller amount.')] }
        : { title: 'No such route', lines: [line('These networks and tokens cannot be swapped between right now.'), line('See where you can go with /routes <network> [token].')] };
    case 'PRICE_IMPACT_TOO_HIGH':
      return { title: 'Price impact too high', lines: [line('At this amount the swap would move the price too much.'), line('Try a smaller amount.')] };
    case 'LESS_THAN_MIN_ERROR':
      return { title: 'Amount too small', lines: [line(limit ? `The smallest amount for this route is ${limit}.` : 'The amount is below the minimum for this route.'), line('Send a larger amount.')] };
    case 'GREATER_THAN_MAX_ERROR':
      return { title: 'Amount too large', lines: [line(limit ? `The largest amount for this route is ${limit}.` : 'The amount is above the maximum for this route.'), line('Send a smaller amount, or split it into several swaps.')] };
    case 'VALIDATION_ERROR':
      return { title: 'The swap service refused the request', lines: [line('One of the values was not accepted', e.serviceMessage ? ': ' : '.', e.serviceMessage.slice(0, 200)), line('Check the amount, tokens and addresses and try again.')] };
    case 'QUOTE_REQUIRES_NO_DEPOSIT_ADDRESS':
      return { title: 'Not available by deposit address', lines: [line('This route only works when you send from a connected wallet, which this bot cannot do.'), line('Try another token or network, or use the Layerswap app for this route.')] };
    case 'INVALID_ADDRESS_ERROR':
      return { title: 'Address not accepted', lines: [line('The swap service says the destination address is not valid for that network.'), line('Check that it is an address on the destination network.')] };
    case 'BLACKLISTED_ADDRESS':
      return { title: 'Address blocked', lines: [line('The swap service does not accept this address.'), line('Use another destination address.')] };
    case 'UNACTIVATED_ADDRESS_ERROR': {
      const url = typeof m.ActivationUrl === 'string' && /^https:\/\//.test(m.ActivationUrl) ? m.ActivationUrl : undefined;
      return { title: 'Address not activated', lines: [line('The destination account must be activated before it can receive funds.'), url ? line('Activate it here: ', link('activation page', url)) : line('Activate it in your wallet first, then try again.')] };
    }
    case 'NETWORK_CURRENCY_DAILY_LIMIT_REACHED': {
      const left = num(m.AvailableTransactionAmount);
      return { title: 'Daily limit reached', lines: [line('This token on this network has reached its daily limit.'), line(left ? `At most ${left} can still be swapped today; try that or come back tomorrow.` : 'Try again tomorrow or use another token.')] };
    }
    case 'ACTIVE_SWAP_LIMIT_EXCEEDED':
      return { title: 'Too many open swaps', lines: [line('There are too many swaps waiting for a deposit.'), line('Finish or let the open ones expire, then try again.')] };
    case 'NOT_FOUND':
      return { title: 'Not found', lines: [line('The swap service has no swap with that id.'), line('Check the id; it is in the deposit message and in /history.')] };
    case 'INVALID_CREDENTIALS':
      return { title: 'The bot is not set up correctly', lines: [line('The swap service refused this bot\'s credentials.'), line('Please tell the person who runs this bot.')] };
    case 'INSUFFICIENT_FUNDS':
      return { title: 'Insufficient funds', lines: [line('There are not enough funds for this swap.'), line('Try a smaller amount.')] };
    case 'FUNDS_ON_HOLD_ERROR':
      return { title: 'Funds on hold', lines: [line('The funds for this swap are on hold.'), line('Try again later.')] };
    case 'COINBASE_AUTHORIZATION_LIMIT_EXCEEDED':
      return { title: 'Exchange limit reached', lines: [line('The exchange authorization limit was reached.'), line('Try a smaller amount or try again later.')] };
    case 'COINBASE_INVALID_2FA':
      return { title: 'Two-factor code refused', lines: [line('The exchange did not accept the two-factor code.'), line('Try again with a new code.')] };
    case 'NETWORK_ACCOUNT_ALREADY_EXISTS':
      return { title: 'Account already linked', lines: [line('This network account is already linked.'), line('Nothing more to do.')] };
    default:
      if (e.status === 429 || e.code === 'RATE_LIMITED') {
        const wait = e.retryAfterMs ? Math.max(1, Math.ceil(e.retryAfterMs / 1000)) : 60;
        return { title: 'The swap service is busy', lines: [line(`It asked us to slow down. Try again in ${wait} seconds.`)] };
      }
      if (e.status >= 500 || e.code === 'HTTP_ERROR' || e.code === 'NON_JSON_RESPONSE') return { title: 'Service unavailable', lines: [line(NOT_ANSWERING)] };
      return { title: 'The swap service refused the request', lines: [line(e.serviceMessage ? `It said: ${e.serviceMessage.slice(0, 200)}` : 'It gave no reason.'), line('Check what you sent and try again.')] };
  }
}

/**
 * Any error from a handler as a reply. Service errors get their plain words; anything else
 * (a bug) gets a polite apology and is logged by the caller.
 */
export function errorReply(err: unknown): Reply {
  if (err instanceof ApiError) {
    const { title, lines } = apiErrorLines(err);
    return { title, tone: 'error', lines, target: 'here' };
  }
  if (err instanceof UnconfirmedCreateError) {
    return {
      title: 'Could not confirm the swap was created',
      tone: 'warning',
      lines: [
        line('The swap service did not answer in time, so the swap may or may not exist.'),
        line('Check /history or /status in a minute. ', { kind: 'bold', text: 'Do not pay twice.' }),
        line('Reference: ', code(err.referenceId)),
      ],
      target: 'here',
    };
  }
  if (err instanceof ConnectionError || err instanceof TimeoutError) return { title: 'Service unavailable', tone: 'error', lines: [line(NOT_ANSWERING)], target: 'here' };
  if (err instanceof ResponseShapeError) {
    return { title: 'Unexpected answer', tone: 'error', lines: [line('The swap service answered something this bot cannot read.'), line('Try again in a minute; if it keeps happening, tell the person who runs this bot.')], target: 'here' };
  }
  if (err instanceof InvalidRequestError) return { title: 'Not sent', tone: 'error', lines: [line(err.message)], target: 'here' };
  if (err instanceof LayerswapError) return { title: 'Service unavailable', tone: 'error', lines: [line(NOT_ANSWERING)], target: 'here' };
  return { title: 'Something went wrong', tone: 'error', lines: [line('Sorry, that did not work on our side. Please try again.')], target: 'here' };
}

/** True for failures that are the service's fault rather than a bug of ours (not worth an error log). */
export const isServiceError = (err: unknown): boolean => err instanceof LayerswapError;
