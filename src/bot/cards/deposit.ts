import type { DepositAction, SwapDetails } from '../../layerswap/schemas.js';
import { isNative } from '../parse/token.js';
import { actionButton, bold, code, copyButton, deeplinkButton, line, text, urlButton, type Button, type Line, type Reply } from '../../contracts/reply.js';
import { replySize, LIMITS } from '../fit.js';
import { depositPlan, type DepositPlan } from './deposit-plan.js';
import { formatTime, networkName, shortId, swapPageUrl } from './format.js';
import { paymentUri } from './payment-uri.js';
import { qrImage } from './qr.js';
import { SENT_LABEL, statusActions } from './status.js';
import { decimalText } from './units.js';
import { defaultLocale, t as tr, type Locale } from '../../i18n/index.js';

export { depositMemo, depositPlan } from './deposit-plan.js';
export { fromBaseUnits } from './units.js';

/** How long the service waits for a deposit before the swap expires (reference section 4). */
export const DEPOSIT_WINDOW_MS = 6 * 3_600_000;

/** The deep-link payload that re-opens a swap's deposit card in a private chat. */
export const depositPayload = (swapId: string): string => `dep_${swapId.replace(/-/g, '')}`;

const exchangeName = (e: { name: string; display_name?: string | null | undefined } | null | undefined) => (e ? e.display_name || e.name : undefined);

/**
 * The deposit card, for the creator's private chat only: exact amount, token (with contract when
 * not native), network, deposit address, a memo only where its network requires one, a payment
 * QR, expiry, swap id, Status and Track. A deposit that only the Layerswap app can make shows no
 * address, just the swap page. The fallback for a group says to open a private chat through a
 * deep link. When the text would not fit an image caption, the QR comes as a second message.
 * `actions` are the swap's deposit actions when loaded apart (GET /swaps/{id}/deposit_actions).
 */
export async function depositCards(details: SwapDetails, now: number, actions?: readonly DepositAction[], locale: Locale = defaultLocale()): Promise<Reply[]> {
  const t = (key: string, vars?: Record<string, string | number>): string => tr(locale, key, vars);
  const { swap } = details;
  const plan = depositPlan(details, actions ?? details.deposit_actions);
  const page = swapPageUrl(swap.id);
  const common = {
    title: `Deposit for swap ${shortId(swap.id)}`,
    target: 'dm' as const,
    dmFallback: {
      title: 'Open a private chat with me',
      tone: 'warning' as const,
      lines: [line('Deposit details are only sent privately, and I could not message you.'), line('Open a private chat with me to get them:')],
      buttons: [[deeplinkButton('Get deposit details', depositPayload(swap.id))]],
      target: 'here' as const,
    },
  };
  const statusRow = [actionButton('Status', statusActions.refresh(swap.id)), actionButton('Track', statusActions.track(swap.id)), actionButton(SENT_LABEL, statusActions.sent(swap.id))];
  if (plan.kind !== 'manual') {
    return [{ ...common, tone: 'warning', lines: noManualDeposit(details, plan), buttons: [[urlButton('Open on layerswap.io', page)], statusRow] }];
  }

  const { address, amount, token, network, memo } = plan;
  const native = isNative(token);
  const what = bold(`${amount} ${token.symbol}`);
  const source = exchangeName(swap.source_exchange);
  const lines: Line[] = source
    ? [
      line(t('deposit.withdrawExactly'), ' ', what, ' ', t('deposit.withdrawFrom', { exchange: source, network: networkName(network) })),
      line(code(address)),
      line(t('deposit.pickNetwork', { exchange: source, network: networkName(network), amount, symbol: token.symbol })),
    ]
    : [line(t('deposit.sendExactly'), ' ', what, ' ', t('deposit.onNetwork', { network: networkName(network) })), line(t('deposit.toAddress')), line(code(address))];
  if (!native && token.contract) lines.push(line(`${token.symbol} token contract: `, code(token.contract)));
  if (memo) {
    lines.push(line(`${memo.label}: `, code(memo.value)));
    lines.push(line(bold(memo.kind === 'op_return'
      ? `⚠️ Add an OP_RETURN output with the text ${memo.value} to your deposit. Without it the deposit cannot be matched and is lost. If your wallet cannot add OP_RETURN data, make the deposit from the Layerswap app instead.`
      : `⚠️ Include this ${memo.kind === 'comment' ? 'comment' : 'memo'} with your deposit. Without it the deposit cannot be matched and is lost.`)));
  }
  const destination = exchangeName(swap.destination_exchange);
  if (destination && swap.destination_address) lines.push(line(`The payout goes to your ${destination} deposit address `, code(swap.destination_address), '.'));
  const created = swap.created_date ? Date.parse(swap.created_date) : Number.NaN;
  const expires = Number.isNaN(created) ? undefined : created + DEPOSIT_WINDOW_MS;
  lines.push(line(expires ? t('deposit.sendBefore', { time: formatTime(expires, now) }) : t('deposit.sendWithin')));
  lines.push(line(t('deposit.swapId'), ' ', code(swap.id)));
  lines.push(line(text(t('deposit.onlyFromNetwork'))));

  const copies: Button[] = [copyButton(t('deposit.copyAddress'), address), copyButton(t('deposit.copyAmount'), amount)];
  if (memo) copies.push(copyButton(memo.kind === 'comment' ? 'Copy comment' : memo.kind === 'op_return' ? 'Copy OP_RETURN text' : 'Copy memo', memo.value));
  const card: Reply = { ...common, tone: 'pending', lines, buttons: [copies, statusRow] };
  const uri = paymentUri({ family: network?.type ?? '', chainId: network?.chain_id, nativeSymbol: network?.token?.symbol, address, amount, token, memo });
  const image = await qrImage(uri, uri === address ? `QR code of the deposit address for swap ${shortId(swap.id)}` : `QR code of a payment request for ${amount} ${token.symbol} to the deposit address`);
  if (replySize(card) <= LIMITS.caption) return [{ ...card, image }];
  // Too long for a caption: the QR follows as its own private message.
  return [card, { lines: [line(uri === address ? 'QR code of the deposit address' : 'QR code of the payment request (address and amount)')], image, target: 'dm' }];
}

/** When no deposit can be made by hand: say where it can be made, and show no address. */
function noManualDeposit(details: SwapDetails, plan: Exclude<DepositPlan, { kind: 'manual' }>): Line[] {
  const { swap } = details;
  const requested = decimalText(swap.requested_amount);
  const sent = swap.source_token && requested ? ` (${requested} ${swap.source_token.symbol}${swap.source_network ? ` on ${networkName(swap.source_network)}` : ''})` : '';
  return plan.kind === 'app_only'
    ? [
      line(bold(`This swap's deposit${sent} must be made from the Layerswap app, with a connected wallet.`)),
      line('It needs a wallet transaction that a plain transfer to an address cannot make, so this bot shows no address: a plain transfer would not be matched to the swap.'),
      line('Open the swap on layerswap.io to make the deposit. Swap id: ', code(swap.id)),
    ]
    : [
      line(bold('The deposit details are not available yet, so this bot shows no address.')),
      line('Check the swap page on layerswap.io, or /status in a minute. Swap id: ', code(swap.id)),
    ];
}
