import type { Money, SwapMoney } from '../bot/money/model.js';
import { unitsText } from '../bot/money/units.js';
import { phaseOfSwap } from '../layerswap/phase.js';
import type { SwapDetails } from '../layerswap/schemas.js';
import { problemText, type Problem } from '../bot/kernel/problem.js';
import type { Distribution } from '../contracts/route-times.js';
import { t, type Locale } from '../i18n/index.js';

/**
 * What tools answer, as data from the one money model (never a rendered card): every amount as
 * decimal text and in base units with its token, every deduction, and the next step in a word an
 * agent can branch on. A mistake is data too: the problem's id, field, message and choices.
 */
export interface AmountView {
  amount: string;
  base_units: string;
  symbol: string;
  decimals: number;
  usd?: number;
}

export const amountView = (m: Money): AmountView => ({
  amount: unitsText(m.units, m.token.decimals),
  base_units: m.units.toString(),
  symbol: m.token.symbol,
  decimals: m.token.decimals,
  ...(m.token.usd !== undefined ? { usd: Math.round(Number(unitsText(m.units, m.token.decimals)) * m.token.usd * 100) / 100 } : {}),
});

/** What the person (or the agent's own wallet) does next, one per money-model step. */
const NEXT_WORDS: Record<SwapMoney['next'], string> = {
  send: 'send the deposit (deposit instructions) before the deadline',
  wait_confirmations: 'wait: the deposit is seen and gathering confirmations; do not send again',
  wait_match: 'wait: the person says they sent the deposit and the service has not matched it yet; do not send again',
  wait_payout: 'wait: the deposit is in and the payout is on its way',
  wait_refund: 'wait: the deposit is being refunded',
  wait_review: 'wait: the swap is under review by the service',
  contact_support: 'contact Layerswap support with the swap id',
  new_swap: 'nothing more will happen on this swap; create a new one if still wanted',
  nothing: 'nothing: the swap is done',
  check_later: 'check again later',
};

export function moneyView(m: SwapMoney) {
  return {
    ...(m.asked ? { asked: amountView(m.asked) } : {}),
    ...(m.deposited ? { deposited: { ...amountView(m.deposited), ...(m.deposited.tx ? { tx: m.deposited.tx } : {}) } } : {}),
    ...(m.difference ? { difference: { kind: m.difference.kind, ...amountView(m.difference.amount) } } : {}),
    ...(m.expected ? { expected: { ...amountView(m.expected), basis: m.expected.basis } } : {}),
    ...(m.minimum ? { minimum: amountView(m.minimum) } : {}),
    ...(m.received ? { received: { ...amountView(m.received), ...(m.received.tx ? { tx: m.received.tx } : {}) } } : {}),
    deductions: m.deductions.map((d) => ({ kind: d.kind, ...amountView(d.amount) })),
    reconciled: m.reconciled,
    ...(m.refund
      ? { refund: { ...(m.refund.amount ? amountView(m.refund.amount) : {}), ...(m.refund.tx ? { tx: m.refund.tx } : {}) } }
      : {}),
    refund_address: m.refundKnown === 'given' ? (m.refundAddress ?? 'given') : m.refundKnown,
    next_step: m.next,
    next_step_text: NEXT_WORDS[m.next],
  };
}

/** A swap's state for an agent: phase, confirmations k/n, expected time, stuck or not, and the money. */
export function swapView(details: SwapDetails, m: SwapMoney, opts: { now: number; observed?: Distribution | undefined }) {
  const phase = phaseOfSwap(details);
  const s = details.swap;
  const finished = ['delivered', 'refunded', 'failed', 'expired', 'cancelled'].includes(phase.kind);
  return {
    swap_id: s.id,
    status: s.status,
    phase: phase.kind,
    final: finished,
    ...(phase.confirmations
      ? {
          confirmations: {
            done: phase.confirmations.done,
            required: phase.confirmations.max,
            text: `${phase.confirmations.done}/${phase.confirmations.max}`,
          },
        }
      : {}),
    ...(m.deadlines.depositBy !== undefined ? { deposit_deadline: new Date(m.deadlines.depositBy).toISOString() } : {}),
    ...(m.deadlines.expectedBy !== undefined ? { expected_by: new Date(m.deadlines.expectedBy).toISOString() } : {}),
    ...(opts.observed ? { route_times: routeTimesView(opts.observed) } : {}),
    stuck: m.late && !finished,
    source: { network: s.source_network?.name ?? null, token: s.source_token?.symbol ?? null },
    destination: {
      network: s.destination_network?.name ?? null,
      token: s.destination_token?.symbol ?? null,
      address: s.destination_address ?? null,
    },
    money: moneyView(m),
    resource: `swap://${s.id}`,
  };
}

export const routeTimesView = (d: Distribution) => ({
  p50_seconds: Math.round(d.p50Ms / 1000),
  p90_seconds: Math.round(d.p90Ms / 1000),
  swaps: d.count,
});

/** A problem as data an agent can act on (English words; ids and fields are stable). */
export function problemView(p: Problem, locale: Locale = 'en') {
  return {
    error: p.id,
    ...(p.field ? { field: p.field } : {}),
    message: problemText(locale, p),
    ...(p.choices && p.choices.length > 0 ? { did_you_mean: p.choices.slice(0, 10) } : {}),
  };
}

/** A refusal the agent must act on: a named cap, and how to raise it. */
export const capView = (cap: string, limit: number, raise: string) => ({ error: 'cap_reached', cap, limit, how_to_raise: raise });

/** The one sentence a tool error gives when the service itself failed. */
export const serviceDown = (locale: Locale = 'en') => ({ error: 'service_error', message: t(locale, 'error.notAnswering') });
