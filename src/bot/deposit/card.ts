import type { DepositAction, SwapDetails } from '../../layerswap/schemas.js';
import { isNative } from '../catalog/index.js';
import {
  actionButton,
  bold,
  code,
  copyButton,
  deeplinkButton,
  line,
  link,
  text,
  urlButton,
  type Button,
  type Line,
  type Reply,
} from '../../contracts/reply.js';
import { DEPOSIT_WINDOW_MS, swapMoney } from '../money/model.js';
import { expectedText } from '../money/words.js';
import { replySize, LIMITS } from '../kernel/fit.js';
import { depositPlan, type DepositPlan } from './plan.js';
import { formatTime, networkName, shortId, sideName, swapPageUrl } from '../kernel/format.js';
import { paymentUri } from './payment-uri.js';
import { qrImage } from './qr.js';
import { statusActions } from '../kernel/status-actions.js';
import { decimalText } from '../money/base-units.js';
import { defaultLocale, t as tr, tSpans, type CatalogKey, type Locale } from '../../i18n/index.js';
import { pagePaysWalletTransfer } from '../../contracts/pay-families.js';

export { depositMemo } from './plan.js';
export { fromBaseUnits } from '../money/base-units.js';

/** The deep-link payload that re-opens a swap's deposit card in a private chat. */
export const depositPayload = (swapId: string): string => `dep_${swapId.replace(/-/g, '')}`;

const exchangeName = (e: { name: string; display_name?: string | null | undefined } | null | undefined) =>
  e ? e.display_name || e.name : undefined;

/**
 * The deposit card, for the creator's private chat only: exact amount, token (with contract when
 * not native), network, deposit address, a memo only where its network requires one, a payment
 * QR, expiry, swap id, Status and Track. A deposit that only the Layerswap app can make shows no
 * address, just the swap page. The fallback for a group says to open a private chat through a
 * deep link. When the text would not fit an image caption, the QR comes as a second message.
 * `actions` are the swap's deposit actions when loaded apart (GET /swaps/{id}/deposit_actions).
 */
export async function depositCards(
  details: SwapDetails,
  now: number,
  actions?: readonly DepositAction[],
  locale: Locale = defaultLocale(),
  /** The card carries Pay from wallet: a TON wallet transfer is then paid there only (no address, no comment to copy). */
  payButton = false,
): Promise<Reply[]> {
  const t = (key: CatalogKey, vars?: Record<string, string | number>): string => tr(locale, key, vars);
  const { swap } = details;
  const onPage = paidOnPage(details, actions ?? details.deposit_actions ?? []);
  const planned = depositPlan(details, actions ?? details.deposit_actions);
  const plan: DepositPlan = payButton && onPage === 'wallet' && swap.source_network?.type === 'ton' ? { kind: 'app_only' } : planned;
  const page = swapPageUrl(swap.id);
  const common = {
    title: t('deposit.title', { id: shortId(swap.id) }),
    target: 'dm' as const,
    dmFallback: {
      title: t('sent.private.title'),
      tone: 'warning' as const,
      lines: [line(t('deposit.private.text')), line(t('deposit.private.open'))],
      buttons: [[deeplinkButton(t('deposit.getDetails'), depositPayload(swap.id))]],
      target: 'here' as const,
    },
  };
  const statusRow = [
    actionButton(t('deposit.statusButton'), statusActions.refresh(swap.id)),
    actionButton(t('statusCard.button.track'), statusActions.track(swap.id)),
    actionButton(t('statusCard.button.sent'), statusActions.sent(swap.id)),
  ];
  if (plan.kind !== 'manual') {
    return [
      {
        ...common,
        tone: 'warning',
        lines: noManualDeposit(details, plan, locale, onPage),
        buttons: [[urlButton(t('deposit.openApp'), page)], statusRow],
      },
    ];
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
    : [
        line(t('deposit.sendExactly'), ' ', what, ' ', t('deposit.onNetwork', { network: networkName(network) })),
        line(t('deposit.toAddress')),
        line(code(address)),
      ];
  // An exchange's withdrawal form asks for no token contract: shown only for a wallet transfer.
  if (!native && token.contract && !source) lines.push(line(t('deposit.contract', { symbol: token.symbol }), ' ', code(token.contract)));
  if (memo) {
    lines.push(line(t(`deposit.memo.${memo.kind}`), ': ', code(memo.value)));
    lines.push(line(bold(t(`deposit.memoWarn.${memo.kind}`, { value: memo.value }))));
  }
  const destination = exchangeName(swap.destination_exchange);
  const created = swap.created_date ? Date.parse(swap.created_date) : Number.NaN;
  const expires = Number.isNaN(created) ? undefined : created + DEPOSIT_WINDOW_MS;
  lines.push(line(expires ? t('deposit.sendBefore', { time: formatTime(expires, now, locale) }) : t('deposit.sendWithin')));
  // What arrives and where, from the same money model as every other card (private: full address).
  const money = swapMoney(details, now);
  const receive = expectedText(money, locale);
  // What arrives and where, the exchange named when the payout goes to one ("on Binance (Base), at").
  if (receive && swap.destination_address) {
    lines.push(
      line(t('money.deposit.receive', { amount: receive, network: swap.destination_network ? sideName(details, 'destination') : '' })),
      line(code(swap.destination_address)),
    );
    if (destination) lines.push(line(t('deposit.exchangeAddress', { exchange: destination })));
  } else if (destination && swap.destination_address)
    lines.push(line(...tSpans(locale, 'deposit.payoutTo', { exchange: destination, address: code(swap.destination_address) })));
  lines.push(line(t('deposit.swapId'), ' ', code(swap.id)));
  lines.push(line(text(t('deposit.onlyFromNetwork', { network: networkName(network) }))));
  lines.push(line(link(t('money.deposit.check'), page)));

  const copies: Button[] = [copyButton(t('deposit.copyAddress'), address), copyButton(t('deposit.copyAmount'), amount)];
  if (memo) copies.push(copyButton(t(`deposit.copyMemo.${memo.kind}`), memo.value));
  const card: Reply = { ...common, tone: 'pending', lines, buttons: [copies, statusRow] };
  // A withdrawal form of an exchange takes an address, not a payment request: a scanner there may
  // read an EIP-681 token contract as the address (funds lost). The official app shows the bare address.
  const uri = source
    ? address
    : paymentUri({
        family: network?.type ?? '',
        chainId: network?.chain_id,
        nativeSymbol: network?.token?.symbol,
        address,
        amount,
        token,
        memo,
      });
  const image = await qrImage(
    uri,
    uri === address ? t('deposit.qr.addressAlt', { id: shortId(swap.id) }) : t('deposit.qr.paymentAlt', { amount, symbol: token.symbol }),
  );
  if (replySize(card) <= LIMITS.caption) return [{ ...card, image }];
  // Too long for a caption: the QR follows as its own private message.
  return [card, { lines: [line(t(uri === address ? 'deposit.qr.address' : 'deposit.qr.payment'))], image, target: 'dm' }];
}

/**
 * How a swap with no manual deposit is paid on the pay page: a gasless swap by a signature (its
 * `sign` action), a wallet transfer by the action's own transaction or message.
 */
function paidOnPage(details: SwapDetails, actions: readonly DepositAction[]): 'gasless' | 'wallet' | undefined {
  if (actions.some((a) => a.type === 'sign')) return 'gasless';
  return pagePaysWalletTransfer(details.swap.source_network?.type, details.swap.use_deposit_address) ? 'wallet' : undefined;
}

/** When no deposit can be made by hand: say where it can be made, and show no address. */
function noManualDeposit(
  details: SwapDetails,
  plan: Exclude<DepositPlan, { kind: 'manual' }>,
  locale: Locale,
  onPage: 'gasless' | 'wallet' | undefined,
): Line[] {
  const t = (key: CatalogKey, vars?: Record<string, string | number>): string => tr(locale, key, vars);
  const { swap } = details;
  const requested = decimalText(swap.requested_amount);
  const what = swap.source_token && requested ? `${requested} ${swap.source_token.symbol}` : undefined;
  const amount = what && swap.source_network ? t('route.onNetwork', { what: what, where: networkName(swap.source_network) }) : what;
  return plan.kind === 'app_only'
    ? [
        line(bold(amount ? t('deposit.appOnly.titleAmount', { amount }) : t('deposit.appOnly.title'))),
        // A gasless swap (chosen at the confirm step) is paid by a signature on the pay page.
        line(onPage === 'gasless' ? t('deposit.gasless.text') : onPage === 'wallet' ? t('deposit.wallet.text') : t('deposit.appOnly.why')),
        line(t('deposit.appOnly.open'), ' ', t('deposit.swapId'), ' ', code(swap.id)),
      ]
    : [line(bold(t('deposit.notYet.title'))), line(t('deposit.notYet.check'), ' ', t('deposit.swapId'), ' ', code(swap.id))];
}
