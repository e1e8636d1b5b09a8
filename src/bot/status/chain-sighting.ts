import { sightingOf } from '../../contracts/chain.js';
import { bold, code, italic, line, type Line } from '../../contracts/reply.js';
import { maskAddress } from '../kernel/format.js';
import { BEFORE_DEPOSIT } from '../../layerswap/phase.js';
import type { SwapDetails } from '../../layerswap/schemas.js';
import { t, type Locale } from '../../i18n/index.js';

/**
 * What the chain watcher saw at the deposit address, for the status card: "Deposit seen on
 * Arbitrum: 100 USDC in block 218,004,211, confirming 1/12" and, until the service shows the same
 * transaction, that it has yet to pick it up; a transfer that is not the swap's deposit (another
 * token, or after expiry) with what it means and what to do. A different amount of the swap's
 * token is its deposit: the money model takes it as the amount deposited, and its under- or
 * over-payment lines say it as they say the service-seen one. Nothing when the chain showed nothing.
 * `paid`: a deposit was seen before (tracking), so another token is never met with "send the right one".
 */
export function chainSightingLines(
  details: SwapDetails,
  locale: Locale,
  opts: { hideAmounts?: boolean; public?: boolean; paid?: boolean } = {},
): Line[] {
  const s = sightingOf(details);
  if (!s) return [];
  const amount = opts.hideAmounts ? s.symbol : `${s.amount} ${s.symbol}`;
  const block = s.block.toLocaleString('en-US');
  const network = s.network;
  // Taken back (a reorganisation, a faulty RPC): one sentence, and the card asks for the deposit as before.
  if (s.verdict === 'retracted')
    return BEFORE_DEPOSIT.has(details.swap.status) ? [line(t(locale, 'statusCard.chain.retracted', { amount, network, block }))] : [];
  if (s.verdict === 'no_memo') {
    // Never matched to the swap by the service: support, with the hash, is the way to it (a shared address, TON).
    const hash = opts.hideAmounts || opts.public ? maskAddress(s.txHash) : s.txHash;
    return [
      line(bold(t(locale, 'statusCard.chain.noMemoHead', { amount, network, block }))),
      line(t(locale, 'statusCard.chain.noMemo')),
      line(t(locale, 'statusCard.chain.tx'), ' ', code(hash)),
    ];
  }
  if (s.verdict === 'wrong_token' || s.verdict === 'late') {
    const expected = s.expected ? (opts.hideAmounts ? s.expected.symbol : `${s.expected.amount} ${s.expected.symbol}`) : '';
    // "Send the right token" only while the swap can still take it; after expiry the transfer is
    // said as late, whatever its token, and nothing asks for money.
    const open = BEFORE_DEPOSIT.has(details.swap.status) && !opts.paid && !listed(details);
    const late = s.verdict === 'late' || !open;
    const hash = opts.hideAmounts || opts.public ? maskAddress(s.txHash) : s.txHash;
    return [
      line(bold(t(locale, late ? 'statusCard.chain.lateHead' : 'statusCard.chain.wrong', { amount, network, block, expected }))),
      line(
        t(
          locale,
          late ? (s.verdict === 'late' ? 'statusCard.chain.late' : 'statusCard.chain.wrongClosed') : 'statusCard.chain.wrong_token',
          { expected },
        ),
      ),
      line(t(locale, 'statusCard.chain.tx'), ' ', code(hash)),
    ];
  }
  const waiting = BEFORE_DEPOSIT.has(details.swap.status);
  // Once the service has moved on or lists the deposit, its own transaction lines tell the rest
  // (one confirmation count per card: the service's).
  if (!waiting || listed(details)) return [];
  // required 0: the service's count is not known yet (the catalogue has none; its input transaction tells).
  const key =
    s.required <= 0
      ? 'statusCard.chain.seenSoFar'
      : s.confirmations >= s.required
        ? 'statusCard.chain.seenConfirmed'
        : 'statusCard.chain.seen';
  const out = [line(t(locale, key, { amount, network, block, confirmations: s.confirmations, required: s.required }))];
  const matched = details.swap.transactions.some((x) => x.type === 'input' && x.transaction_hash?.toLowerCase() === s.txHash.toLowerCase());
  if (!matched) out.push(line(italic(t(locale, 'statusCard.chain.unmatched'))));
  return out;
}

/**
 * One confirmation count per card: when the service lists the transaction the chain watcher saw,
 * its count is the larger of the two (the chain head is often ahead of the service's answer), and
 * the chain's own line is not shown beside it.
 */
export function withChainCount(details: SwapDetails): SwapDetails {
  const s = sightingOf(details);
  if (!s || (s.verdict !== 'ok' && s.verdict !== 'less' && s.verdict !== 'more')) return details;
  const hash = s.txHash.toLowerCase();
  let changed = false;
  const transactions = details.swap.transactions.map((x) => {
    const max = x.max_confirmations ?? 0;
    if (x.type !== 'input' || x.transaction_hash?.toLowerCase() !== hash || max <= 0) return x;
    const confirmations = Math.max(x.confirmations ?? 0, Math.min(s.confirmations, max));
    if (confirmations === x.confirmations) return x;
    changed = true;
    return { ...x, confirmations };
  });
  return changed ? { ...details, swap: { ...details.swap, transactions } } : details;
}

/** The service lists a deposit (an input transaction that did not fail). */
const listed = (details: SwapDetails): boolean => details.swap.transactions.some((x) => x.type === 'input' && x.status !== 'failed');
