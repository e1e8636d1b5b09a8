import {
  ApiError,
  ConnectionError,
  InvalidRequestError,
  LayerswapError,
  ResponseShapeError,
  TimeoutError,
  UnconfirmedCreateError,
} from '../../layerswap/errors.js';
import { bold, code, line, link, type Line, type Reply } from '../../contracts/reply.js';
import { defaultLocale, t as tr, type CatalogKey, type KeyPart, type Locale } from '../../i18n/index.js';

/**
 * Every failure of the swap service in plain words, in one place. Messages say what happened
 * and what to do; they never carry a stack trace, a request URL or the service's raw internals.
 */
export const notAnswering = (locale: Locale = defaultLocale()): string => tr(locale, 'error.notAnswering');

const num = (v: unknown): string | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'string' && /^\d+(\.\d+)?$/.test(v) ? v : undefined;

/** Catalog keys of each documented error code (reference section 7): `error.<key>.title`, `.reason`, `.hint`. */
type ErrorWords = KeyPart<'error.', '.title'> & KeyPart<'error.', '.reason'> & KeyPart<'error.', '.hint'>;
const SIMPLE: Readonly<Record<string, ErrorWords>> = {
  PRICE_IMPACT_TOO_HIGH: 'priceImpact',
  QUOTE_REQUIRES_NO_DEPOSIT_ADDRESS: 'needsWallet',
  INVALID_ADDRESS_ERROR: 'invalidAddress',
  BLACKLISTED_ADDRESS: 'blacklisted',
  ACTIVE_SWAP_LIMIT_EXCEEDED: 'activeSwaps',
  NOT_FOUND: 'notFound',
  UNEXPECTED_ERROR: 'unexpected',
  INSUFFICIENT_FUNDS: 'insufficientFunds',
  FUNDS_ON_HOLD_ERROR: 'onHold',
  COINBASE_AUTHORIZATION_LIMIT_EXCEEDED: 'exchangeLimit',
  COINBASE_INVALID_2FA: 'twoFactor',
  NETWORK_ACCOUNT_ALREADY_EXISTS: 'accountLinked',
};

/** Plain-word explanation of each documented error code (reference section 7). */
export function apiErrorLines(e: ApiError, locale: Locale = defaultLocale()): { title: string; lines: Line[] } {
  const t = (key: CatalogKey, vars?: Record<string, string | number>): string => tr(locale, key, vars);
  const words = (k: ErrorWords, reason?: string, hint?: string): { title: string; lines: Line[] } => ({
    title: t(`error.${k}.title`),
    lines: [line(reason ?? t(`error.${k}.reason`)), line(hint ?? t(`error.${k}.hint`))],
  });
  const m = e.metadata;
  const limit = num(m.AmountLimit);
  // EIP-7702 delegated destinations that cannot take native ETH are refused at creation (2026 docs).
  if (/7702|delegat/i.test(e.serviceMessage)) return words('delegated');
  // Stellar: the destination account has no trustline for the asset (no documented code yet).
  if (/trust\s?line/i.test(e.serviceMessage)) return words('trustline');
  const simple = SIMPLE[e.code];
  if (simple) return words(simple);
  switch (e.code) {
    // The operator's problem: the log has it once (layerswap/request-loop.ts noteAnswer).
    case 'API_KEY_FORBIDDEN':
    case 'INVALID_CREDENTIALS':
      return { title: t('error.credentials.title'), lines: [line(t('error.credentials.reason')), line(t('error.credentials.told'))] };
    // A 4xx with no body: Layerswap's answer to a malformed parameter. Refused, nothing created.
    case 'EMPTY_REFUSAL':
      return { title: t('error.refused.title'), lines: [line(t('error.emptyRefusal.reason')), line(t('error.refused.hint'))] };
    case 'ROUTE_NOT_FOUND_ERROR':
      return /rate not available/i.test(e.serviceMessage) ? words('rateNotAvailable') : words('noRoute');
    case 'LESS_THAN_MIN_ERROR':
      return words('tooSmall', limit ? t('error.tooSmall.reasonLimit', { limit }) : undefined);
    case 'GREATER_THAN_MAX_ERROR':
      return words('tooLarge', limit ? t('error.tooLarge.reasonLimit', { limit }) : undefined);
    case 'VALIDATION_ERROR':
      return {
        title: t('error.refused.title'),
        lines: [
          e.serviceMessage
            ? line(t('error.validation.reasonSaid'), ' ', e.serviceMessage.slice(0, 200))
            : line(t('error.validation.reason')),
          line(t('error.validation.hint')),
        ],
      };
    case 'UNACTIVATED_ADDRESS_ERROR': {
      const url = typeof m.ActivationUrl === 'string' && /^https:\/\//.test(m.ActivationUrl) ? m.ActivationUrl : undefined;
      return {
        title: t('error.unactivated.title'),
        lines: [
          line(t('error.unactivated.reason')),
          url ? line(t('error.unactivated.hereLabel'), ' ', link(t('error.unactivated.link'), url)) : line(t('error.unactivated.hint')),
        ],
      };
    }
    case 'NETWORK_CURRENCY_DAILY_LIMIT_REACHED': {
      const left = num(m.AvailableTransactionAmount);
      return words('dailyLimit', undefined, left ? t('error.dailyLimit.hintLeft', { left }) : undefined);
    }
    default:
      if (e.status === 429 || e.code === 'RATE_LIMITED') {
        const wait = e.retryAfterMs ? Math.max(1, Math.ceil(e.retryAfterMs / 1000)) : 60;
        return { title: t('error.busy.title'), lines: [line(t('error.busy.reason', { count: wait }))] };
      }
      if (e.status >= 500 || e.code === 'HTTP_ERROR' || e.code === 'NON_JSON_RESPONSE')
        return { title: t('error.unavailable.title'), lines: [line(notAnswering(locale))] };
      return {
        title: t('error.refused.title'),
        lines: [
          e.serviceMessage ? line(t('error.refused.said'), ' ', e.serviceMessage.slice(0, 200)) : line(t('error.refused.noReason')),
          line(t('error.refused.hint')),
        ],
      };
  }
}

/** The sentence for a value our client refused to send, by the field it refused (layerswap/query.ts). */
const NOT_SENT: Readonly<Record<string, KeyPart<'error.notSent.'>>> = {
  swapId: 'swapId',
  transaction_hash: 'hash',
  transaction_id: 'hash',
};

/**
 * Any error from a handler as a reply. Service errors get their plain words; anything else
 * (a bug) gets a polite apology and is logged by the caller.
 */
export function errorReply(err: unknown, locale: Locale = defaultLocale()): Reply {
  const t = (key: CatalogKey): string => tr(locale, key);
  const plain = (key: KeyPart<'error.', '.title'>, lines: Line[]): Reply => ({
    title: t(`error.${key}.title`),
    tone: 'error',
    lines,
    target: 'here',
  });
  if (err instanceof ApiError) {
    const { title, lines } = apiErrorLines(err, locale);
    return { title, tone: 'error', lines, target: 'here' };
  }
  if (err instanceof UnconfirmedCreateError) {
    return {
      title: t('error.unconfirmed.title'),
      tone: 'warning',
      lines: [
        line(t('error.unconfirmed.reason')),
        line(t('error.unconfirmed.check'), ' ', bold(t('error.unconfirmed.payOnce'))),
        line(t('error.unconfirmed.reference'), ' ', code(err.referenceId)),
      ],
      target: 'here',
    };
  }
  if (err instanceof ConnectionError || err instanceof TimeoutError) return plain('unavailable', [line(notAnswering(locale))]);
  if (err instanceof ResponseShapeError) return plain('shape', [line(t('error.shape.reason')), line(t('error.shape.hint'))]);
  // No API key: the service's reads work, a swap cannot be made here.
  if (err instanceof InvalidRequestError && err.field === 'apiKey') return noKeyReply(locale);
  // Refused by our client before any request: said by which value it was, never in the client's English.
  if (err instanceof InvalidRequestError) return plain('notSent', [line(t(`error.notSent.${NOT_SENT[err.field] ?? 'reason'}`))]);
  if (err instanceof LayerswapError) return plain('unavailable', [line(notAnswering(locale))]);
  return plain('bug', [line(t('error.bug.reason'))]);
}

/** A bot without a Layerswap API key quotes but cannot create: said at /swap and at Confirm. */
export function noKeyReply(locale: Locale = defaultLocale()): Reply {
  const t = (key: CatalogKey): string => tr(locale, key);
  return {
    title: t('error.noKey.title'),
    tone: 'info',
    lines: [line(t('error.noKey.reason')), line(t('error.noKey.hint'))],
    target: 'here',
  };
}

/** True for failures that are the service's fault rather than a bug of ours (not worth an error log). */
export const isServiceError = (err: unknown): boolean => err instanceof LayerswapError;
