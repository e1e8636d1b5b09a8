import type { SwapPhase } from '../../layerswap/phase.js';
import type { Tone } from '../../contracts/reply.js';
import { defaultLocale, t, type KeyPart, type Locale } from '../../i18n/index.js';

/**
 * Every swap status and fail reason of the reference (section 4) in plain words, in the reader's
 * language: what it means and what happens next (catalog keys `swapStatus.<status>.*`,
 * `failReason.<reason>.*`, `swapPhase.*`). Unknown values are shown as they came.
 */
export interface StatusWords {
  label: string;
  meaning: string;
  next: string;
  tone: Tone;
}

/** The statuses the catalogs have words for (every `swapStatus.<status>.label`), with the tone of each. */
type KnownStatus = KeyPart<'swapStatus.', '.label'>;
const STATUS_TONES: Readonly<Record<KnownStatus, Tone>> = {
  created: 'pending',
  user_transfer_pending: 'pending',
  user_transfer_delayed: 'warning',
  ls_transfer_pending: 'pending',
  completed: 'success',
  failed: 'error',
  expired: 'warning',
  cancelled: 'warning',
  pending_refund: 'warning',
  refunded: 'warning',
};

const FAIL_REASONS: ReadonlySet<string> = new Set<Exclude<KeyPart<'failReason.', '.meaning'>, 'other'>>([
  'received_less_than_valid_range',
  'received_more_than_valid_range',
  'swap_route_unavailable',
  'degraded_quote',
  'gasless_deposit_failed',
]);
const isFailReason = (r: string): r is KeyPart<'failReason.', '.meaning'> & KeyPart<'failReason.', '.next'> => FAIL_REASONS.has(r);
const isKnownStatus = (s: string): s is KnownStatus => Object.hasOwn(STATUS_TONES, s);

/** A catalog group with a label, a meaning and a next step (`<group>.label`, …). */
type Group = KeyPart<'', '.label'> & KeyPart<'', '.meaning'> & KeyPart<'', '.next'>;
const group = (locale: Locale, prefix: Group, tone: Tone): StatusWords => ({
  label: t(locale, `${prefix}.label`),
  meaning: t(locale, `${prefix}.meaning`),
  next: t(locale, `${prefix}.next`),
  tone,
});

export function statusWords(status: string, locale: Locale = defaultLocale()): StatusWords {
  return isKnownStatus(status)
    ? group(locale, `swapStatus.${status}`, STATUS_TONES[status])
    : { label: status, meaning: t(locale, 'swapStatus.unknown.meaning'), next: t(locale, 'swapStatus.unknown.next'), tone: 'info' };
}

export function failReasonWords(reason: string, locale: Locale = defaultLocale()): { meaning: string; next: string } {
  return isFailReason(reason)
    ? { meaning: t(locale, `failReason.${reason}.meaning`), next: t(locale, `failReason.${reason}.next`) }
    : { meaning: t(locale, 'failReason.other.meaning', { reason }), next: t(locale, 'failReason.other.next') };
}

/**
 * The words for a swap's phase (phase.ts): what the card title says and the key moments repeat.
 * The status only colours them; the phase decides, so a listed deposit is never met with "send".
 */
export function phaseWords(phase: SwapPhase, status: string, failReason?: string | null, locale: Locale = defaultLocale()): StatusWords {
  const of = (s: string) => statusWords(s, locale);
  switch (phase.kind) {
    case 'waiting':
      return status === 'created'
        ? { ...of('user_transfer_pending'), meaning: t(locale, 'swapStatus.created.meaning') }
        : of('user_transfer_pending');
    case 'confirming': {
      const c = phase.confirmations;
      return {
        ...group(locale, 'swapPhase.confirming', 'pending'),
        ...(c ? { label: t(locale, 'swapPhase.confirming.labelCount', { done: c.done, max: c.max }) } : {}),
      };
    }
    case 'processing':
      return of('ls_transfer_pending');
    case 'delivered':
      // One name per phase: the payout is complete, whatever the lagging status says.
      return status === 'completed'
        ? of('completed')
        : { ...group(locale, 'swapPhase.delivered', 'success'), label: of('completed').label };
    case 'on_hold':
      return { label: t(locale, 'swapPhase.onHold.label'), ...failReasonWords('received_more_than_valid_range', locale), tone: 'warning' };
    case 'failed':
      return failReason ? { ...of('failed'), ...failReasonWords(failReason, locale) } : of('failed');
    case 'refunding':
      return of('pending_refund');
    case 'refunded':
      return of('refunded');
    case 'expired':
      return of('expired');
    case 'cancelled':
      return of('cancelled');
    case 'unknown':
      return of(status);
  }
}

const TRANSACTION_TYPES: ReadonlySet<string> = new Set<KeyPart<'transaction.'>>(['input', 'output', 'refuel', 'refund']);
const isTransactionType = (type: string): type is KeyPart<'transaction.'> => TRANSACTION_TYPES.has(type);
/** "Your deposit", "Payout", …; an unknown type as it came. */
export const transactionWord = (type: string | null | undefined, locale: Locale = defaultLocale()): string =>
  type ? (isTransactionType(type) ? t(locale, `transaction.${type}`) : type) : t(locale, 'transaction.other');
