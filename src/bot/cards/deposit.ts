import type { DepositAction, SwapDetails } from '../../layerswap/schemas.js';
import { isNative } from '../parse/token.js';
import { actionButton, bold, code, copyButton, deeplinkButton, line, text, type Button, type Line, type Reply } from '../reply.js';
import { replySize, LIMITS } from '../fit.js';
import { formatTime, networkName, shortId } from './format.js';
import { qrImage } from './qr.js';
import { statusActions } from './status.js';

/** How long the service waits for a deposit before the swap expires (reference section 4). */
export const DEPOSIT_WINDOW_MS = 6 * 3_600_000;

/** The deep-link payload that re-opens a swap's deposit card in a private chat. */
export const depositPayload = (swapId: string): string => `dep_${swapId.replace(/-/g, '')}`;

/** Exact decimal text of an integer amount in base units ("1500000", 6 -> "1.5"). */
export function fromBaseUnits(base: string, decimals: number): string | undefined {
  if (!/^\d+$/.test(base) || decimals < 0 || decimals > 40) return undefined;
  const padded = base.replace(/^0+/, '').padStart(decimals + 1, '0');
  const int = padded.slice(0, padded.length - decimals);
  const frac = padded.slice(padded.length - decimals).replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int;
}

/** The memo a deposit needs, if any: TON sends {comment, amount} JSON; others a plain string. */
export function depositMemo(action: DepositAction): { label: string; value: string } | undefined {
  const raw = action.call_data?.trim();
  if (!raw) return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object' && 'comment' in parsed && typeof parsed.comment === 'string' && parsed.comment !== '') {
      return { label: 'Comment (memo)', value: parsed.comment };
    }
  } catch {
    // Not JSON: the memo is the string itself.
  }
  return { label: 'Memo', value: raw };
}

function pickAction(details: SwapDetails): DepositAction | undefined {
  const actions = (details.deposit_actions ?? []).slice().sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  return actions.find((a) => a.type === 'manual_transfer') ?? actions.find((a) => a.type === 'transfer') ?? actions[0];
}

/** What the QR encodes: a payment URI where a standard one exists (with amount and memo), else the address. */
function qrText(address: string, amount: string, baseUnits: string | undefined, type: string, native: boolean, memo: string | undefined): string {
  if (native && type === 'bitcoin' && !memo) return `bitcoin:${address}?amount=${amount}`;
  if (native && type === 'ton' && baseUnits) return `ton://transfer/${address}?amount=${baseUnits}${memo ? `&text=${encodeURIComponent(memo)}` : ''}`;
  return address;
}

/**
 * The deposit card, for the creator's private chat only: exact amount, token (with contract when
 * not native), network, deposit address, memo with its warning, QR, expiry, swap id, Status and
 * Track. The fallback for a group says to open a private chat through a deep link. When the text
 * would not fit an image caption, the QR comes as a second message.
 */
export async function depositCards(details: SwapDetails, now: number): Promise<Reply[]> {
  const { swap } = details;
  const action = pickAction(details);
  const token = action?.token ?? swap.source_token;
  const net = action?.network ?? swap.source_network;
  const type = (net.type ?? swap.source_network.type ?? '').toLowerCase();
  const address = action?.to_address ?? '';
  const baseUnits = action?.amount_in_base_units ?? undefined;
  const amount = (baseUnits ? fromBaseUnits(baseUnits, token.decimals) : undefined) ?? String(action?.amount ?? swap.requested_amount ?? '?');
  const memo = action ? depositMemo(action) : undefined;
  const native = isNative(token);

  const lines: Line[] = [
    line('Send exactly ', bold(`${amount} ${token.symbol}`), ` on ${networkName(net)}`),
    line('To this deposit address:'),
    line(code(address || 'not given yet: check /status in a minute')),
  ];
  if (!native && token.contract) lines.push(line(`${token.symbol} token contract: `, code(token.contract)));
  if (memo) {
    lines.push(line(`${memo.label}: `, code(memo.value)));
    lines.push(line(bold(`⚠️ Include this ${memo.label.toLowerCase()} with your deposit. Without it the deposit cannot be matched and is lost.`)));
  }
  const created = Date.parse(swap.created_date);
  const expires = Number.isNaN(created) ? undefined : created + DEPOSIT_WINDOW_MS;
  lines.push(line(expires ? `Send it before ${formatTime(expires, now)}; after that the swap expires.` : 'Send it within 6 hours; after that the swap expires.'));
  lines.push(line('Swap id: ', code(swap.id)));
  lines.push(line(text('Send only from the network named above. This bot never asks for keys or seed phrases.')));

  const copies: Button[] = [];
  if (address) copies.push(copyButton('Copy address', address));
  copies.push(copyButton('Copy amount', amount));
  if (memo) copies.push(copyButton(`Copy ${memo.label === 'Memo' ? 'memo' : 'comment'}`, memo.value));
  const card: Reply = {
    title: `Deposit for swap ${shortId(swap.id)}`,
    tone: 'pending',
    lines,
    buttons: [copies, [actionButton('Status', statusActions.refresh(swap.id)), actionButton('Track', statusActions.track(swap.id))]],
    target: 'dm',
    dmFallback: {
      title: 'Open a private chat with me',
      tone: 'warning',
      lines: [line('Deposit details are only sent privately, and I could not message you.'), line('Open a private chat with me to get them:')],
      buttons: [[deeplinkButton('Get deposit details', depositPayload(swap.id))]],
      target: 'here',
    },
  };
  if (!address) return [card];
  const image = await qrImage(qrText(address, amount, baseUnits, type, native, memo?.value), `QR code of the deposit address for swap ${shortId(swap.id)}`);
  if (replySize(card) <= LIMITS.caption) return [{ ...card, image }];
  // Too long for a caption: the QR follows as its own private message.
  return [card, { lines: [line('QR code of the deposit address')], image, target: 'dm' }];
}
