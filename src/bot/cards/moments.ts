import type { ChatTarget } from '../../contracts/incoming.js';
import { bold, code, copyButton, line, link, urlButton, type Button, type Line, type Reply, type Tone } from '../../contracts/reply.js';
import { DEFAULT_EXPECTED_COMPLETION_MS, lastEntered, NOT_FOUND_GIVE_UP_MS, type Moment, type MomentKind, type StopReason, type TrackedTimes, type TrackingRenderer } from '../../contracts/tracking.js';
import { PHASE_RANK, phaseOfSwap } from '../../layerswap/phase.js';
import type { SwapDetails, Transaction } from '../../layerswap/schemas.js';
import { fitReply } from '../fit.js';
import { explorerUrl, maskAddress, tokenAmount } from './format.js';
import { statusCard } from './status.js';
import { failReasonWords, phaseWords } from './status-words.js';
import { decimalText } from './units.js';

/**
 * What tracking sends besides the status card: the new messages at key moments (edits of the
 * card notify nobody), the support summary of a stuck swap, and the notice that tracking stopped.
 * Private chats get full addresses; groups and channels get masked ones and never deposit
 * details. `trackingRenderer` is what the tracking engine is given: every reply fitted.
 */

export const trackingRenderer: TrackingRenderer = {
  card: (details, target, view) => statusCard(details, { audience: target.chatKind === 'private' ? 'private' : 'public', ...(view ? { followed: view } : {}) }),
  moment: (moment, ctx) => fitReply(renderMoment(moment, ctx)),
  stopped: (reason, swapId) => fitReply(renderTrackingStopped(reason, swapId)),
};

export const MOMENT_TITLES: Readonly<Record<MomentKind, string>> = {
  deposit_seen: 'Deposit received',
  completed: 'Swap completed',
  failed: 'Swap failed',
  expired: 'Swap expired',
  cancelled: 'Swap cancelled',
  pending_refund: 'Refund on its way',
  refunded: 'Refund sent',
  stuck: 'Swap taking longer than expected',
};

/** A deposit above the route's maximum: status failed, but held for review (reference section 4). */
export const ON_HOLD_TITLE = 'Swap on hold for review';

const TONES: Readonly<Record<MomentKind, Tone>> = {
  deposit_seen: 'pending',
  completed: 'success',
  failed: 'error',
  expired: 'warning',
  cancelled: 'warning',
  pending_refund: 'warning',
  refunded: 'info',
  stuck: 'warning',
};

/** fail_reason in plain words (the status card's words: one place for them). */
function explainFailReason(reason: string | null | undefined): string {
  return reason ? failReasonWords(reason).meaning : 'The swap service did not give a reason.';
}

/**
 * A moment the swap has since moved past: "Deposit received" once the swap is completed,
 * refunded or closed. A chat that is behind is sent only what still matches its card.
 */
export function isStaleMoment(moment: Pick<Moment, 'kind'>, details: SwapDetails): boolean {
  return moment.kind === 'deposit_seen' && PHASE_RANK[phaseOfSwap(details).kind] > PHASE_RANK.processing;
}

export interface MomentContext {
  details: SwapDetails;
  state: TrackedTimes;
  target: ChatTarget;
}

export function renderMoment(moment: Moment, ctx: MomentContext): Reply {
  const { details, target } = ctx;
  const s = details.swap;
  const isPublic = target.chatKind !== 'private';
  const addr = (a: string | null | undefined) => (a ? (isPublic ? maskAddress(a) : a) : '');
  // The amount sent is a deposit detail: private chats only.
  const requested = decimalText(s.requested_amount);
  const amount = !isPublic && requested ? `${requested} ` : '';
  // A cut-down swap (no tokens or networks) drops the route line rather than show blanks.
  const route = s.source_token && s.source_network && s.destination_token && s.destination_network
    ? line(`${amount}${s.source_token.symbol} ${netName(s.source_network)} → ${s.destination_token.symbol} ${netName(s.destination_network)}`)
    : undefined;
  const lines: Line[] = route ? [route] : [];
  const buttons: Button[][] = [];
  const tx = (type: string) => lastTx(s.transactions, type);
  const txLine = (label: string, t: Transaction | undefined) => {
    if (!t?.transaction_hash) return;
    const url = txExplorer(details, t);
    lines.push(url ? line(`${label}: `, link(shortHash(t.transaction_hash), url)) : line(`${label}: `, code(t.transaction_hash)));
    if (url) buttons.push([urlButton(`View ${label.toLowerCase()}`, url)]);
  };

  switch (moment.kind) {
    case 'deposit_seen': {
      const input = tx('input');
      // The same words as the status card for the same data: one reading of the phase.
      const phase = phaseOfSwap(details);
      const words = phaseWords(phase, s.status, s.fail_reason);
      const now = phase.kind === 'confirming' || phase.kind === 'processing' ? `${words.label}. ` : '';
      if (isPublic) {
        lines.push(line(`${now}The deposit arrived; the swap is on its way.`));
      } else {
        const sent = input?.amount != null ? tokenAmount(input.amount, input.token ?? s.source_token) : requested ? `${requested} ${s.source_token?.symbol ?? ''}`.trim() : '';
        lines.push(line(now, `We saw your deposit${sent ? ` of ${sent}` : ''}. `, phase.kind === 'processing' ? 'Layerswap is sending the payout.' : 'Nothing to do, and do not send it again: the payout follows once it is confirmed.'));
        txLine('Deposit transaction', input);
      }
      break;
    }
    case 'completed': {
      const output = tx('output');
      const received = output?.amount ?? details.quote?.receive_amount;
      if (received != null) lines.push(line('Received ', bold(tokenAmount(received, output?.token ?? s.destination_token)), s.destination_network ? ` on ${netName(s.destination_network)}` : ''));
      if (s.destination_address) lines.push(line('To ', code(addr(s.destination_address))));
      txLine('Payout transaction', output);
      break;
    }
    case 'failed': {
      if (phaseOfSwap(details).kind === 'on_hold') {
        const words = failReasonWords('received_more_than_valid_range');
        lines.push(line(words.meaning), line(words.next));
        lines.push(line('Swap id: ', code(s.id)));
        return { title: ON_HOLD_TITLE, tone: 'warning', lines, target: 'here' };
      }
      lines.push(line(explainFailReason(s.fail_reason)));
      lines.push(line('If funds were sent, contact Layerswap support with the swap id ', code(s.id), '.'));
      break;
    }
    case 'expired':
      lines.push(line('No deposit arrived in time, so the swap expired.'));
      if (!isPublic) lines.push(line('Do not send funds to its deposit address any more. If you already did, contact Layerswap support with the swap id ', code(s.id), '.'));
      break;
    case 'cancelled':
      lines.push(line('The swap was cancelled. If funds were sent, contact Layerswap support with the swap id ', code(s.id), '.'));
      break;
    case 'pending_refund':
      lines.push(line('The swap could not be completed, so Layerswap is refunding the deposit', s.refund_address ? ' to ' : '.', ...(s.refund_address ? [code(addr(s.refund_address)), '.'] : [])));
      break;
    case 'refunded': {
      const refund = tx('refund');
      lines.push(line('The deposit was refunded', refund?.amount != null ? ` (${tokenAmount(refund.amount, refund.token ?? s.source_token)})` : '', s.refund_address ? ' to ' : '.', ...(s.refund_address ? [code(addr(s.refund_address)), '.'] : [])));
      txLine('Refund transaction', refund);
      break;
    }
    case 'stuck':
      return renderStuck(ctx, route);
  }
  lines.push(line('Swap id: ', code(s.id)));
  return { title: MOMENT_TITLES[moment.kind], tone: TONES[moment.kind], lines, ...(buttons.length ? { buttons } : {}), target: 'here' };
}

function renderStuck(ctx: MomentContext, route: Line | undefined): Reply {
  const { details, state, target } = ctx;
  const expected = state.expectedCompletionMs ?? DEFAULT_EXPECTED_COMPLETION_MS;
  const since = lastEntered(state.history, 'ls_transfer_pending') ?? state.lastChangeAt;
  const summary = supportSummary(details, state, target.chatKind === 'private' ? 'private' : 'public');
  const lines: Line[] = [
    ...(route ? [route] : []),
    line('Layerswap has the deposit and is sending the payout (status ls_transfer_pending). ',
      `This usually takes about ${duration(expected)}; it has been ${duration(state.lastPolledAt - since)}.`),
    line('Funds in this state are not lost: they are either paid out soon or refunded. If it stays like this, contact Layerswap support and paste this summary:'),
    ...summary.map((l) => line(code(l))),
  ];
  const text = summary.join('\n');
  // Telegram copy buttons hold at most 256 characters; the code lines above copy cleanly anyway.
  const buttons = text.length <= 256 ? [[copyButton('Copy support summary', text)]] : undefined;
  return { title: MOMENT_TITLES.stuck, tone: TONES.stuck, lines, ...(buttons ? { buttons } : {}), target: 'here' };
}

function lastTx(txs: readonly Transaction[], type: string): Transaction | undefined {
  for (let i = txs.length - 1; i >= 0; i--) if (txs[i]?.type === type) return txs[i];
  return undefined;
}

const netName = (n: { name: string; display_name?: string | null | undefined }) => n.display_name || n.name;
const shortHash = (h: string) => (h.length > 20 ? `${h.slice(0, 10)}…${h.slice(-8)}` : h);

function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 90) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 90) return `${m} min`;
  const h = Math.floor(m / 60);
  return `${h} h ${m % 60} min`;
}

// --- the support summary a user pastes to Layerswap support ---

const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

/** The explorer template for a transaction: its own network, else the swap's side for its type. */
export function txExplorer(details: SwapDetails, tx: Transaction): string | undefined {
  const swap = details.swap;
  const side = tx.type === 'output' || tx.type === 'refuel' ? swap.destination_network : swap.source_network;
  return explorerUrl(tx.network?.transaction_explorer_template ?? side?.transaction_explorer_template, tx.transaction_hash);
}

export function supportSummary(details: SwapDetails, state: Pick<TrackedTimes, 'history'>, audience: 'private' | 'public'): string[] {
  const s = details.swap;
  const addr = (a: string | null | undefined) => (a ? (audience === 'public' ? maskAddress(a) : a) : undefined);
  const lines = [
    `Swap id: ${s.id}`,
    `Status: ${s.status}${s.fail_reason ? ` (${s.fail_reason})` : ''}`,
  ];
  // A cut-down swap drops the lines it cannot fill.
  if (s.source_token && s.source_network && s.destination_token && s.destination_network) {
    lines.push(`Route: ${audience === 'private' && s.requested_amount != null ? `${s.requested_amount} ` : ''}${s.source_token.symbol} ${s.source_network.name} -> ${s.destination_token.symbol} ${s.destination_network.name}`);
  }
  if (s.created_date) lines.push(`Created: ${s.created_date}`);
  const to = addr(s.destination_address);
  if (to) lines.push(`Destination address: ${to}`);
  const from = addr(s.source_address);
  if (from) lines.push(`Source address: ${from}`);
  const refund = addr(s.refund_address);
  if (refund) lines.push(`Refund address: ${refund}`);
  for (const tx of s.transactions) {
    if (!tx.transaction_hash) continue;
    lines.push(`${tx.type ?? 'unknown'} tx: ${tx.transaction_hash} (${tx.status ?? 'unknown'})`);
  }
  lines.push(`History: ${state.history.map((h) => `${h.status} ${iso(h.at)}`).join(', ')}`);
  return lines;
}

// --- tracking stopped early ---

/**
 * Nothing here depends on the swap's data (there may be none: a swap the service never found), so
 * it is the same text in private and public chats and shows no deposit details.
 */
export const STOPPED_TITLE = 'Tracking stopped';

function renderTrackingStopped(reason: StopReason, swapId: string): Reply {
  const why: Record<StopReason, string> = {
    not_found: `The swap service has not found this swap for over ${Math.round(NOT_FOUND_GIVE_UP_MS / 60_000)} minutes, so updates stopped.`,
  };
  return {
    title: STOPPED_TITLE,
    tone: 'warning',
    lines: [
      line('No more updates for swap ', code(swapId), '.'),
      line(why[reason]),
      line('If you sent funds for it, contact Layerswap support with this swap id. ', code(`/status ${swapId}`), ' shows its status if it appears later.'),
    ],
    target: 'here',
  };
}
