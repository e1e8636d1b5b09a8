import { Address, beginCell, Cell, toNano } from '@ton/core';
import { TonClient } from '@ton/ton';
import { parseUnits } from 'viem';
import type { DepositAction, SwapDetails } from '../layerswap/schemas.js';
import { decimalText } from '../bot/money/base-units.js';
import type { Shortfall } from './families.js';

/**
 * The one TON message the wallet is asked to send, built as Layerswap's app builds it
 * (packages/wallets/adapters/ton, transactionBuilder.ts) from the swap's `transfer` action, whose
 * `call_data` is JSON `{amount, asset, comment}`: TON as a transfer to the action's address with the
 * comment as a text payload; a jetton as a jetton transfer (op 0x0f8a7ea5) sent to the wallet's own
 * jetton wallet with 0.045 TON for fees, the comment in the forward payload. Valid for 360 s. One
 * difference: the jetton transfer's excess goes back to the wallet (the app names the deposit address).
 * Built here, not in the page, so the check and the cells are one piece of server code, and the page
 * carries no @ton/core. Refused unless the action pays this swap: its token, its amount (the call
 * data's, the action's and the swap's agree) and a comment to match it by.
 */
export interface TonTransfer {
  /** TON Connect's sendTransaction request (its `from` the connected wallet, `network` the chain). */
  request: { validUntil: number; network: string; from: string; messages: Array<{ address: string; amount: string; payload: string }> };
  /** What it moves, in the token's smallest units; the jetton master (none for TON). */
  amountUnits: string;
  jetton?: string;
  /** TON the wallet needs for the message beside the amount (the jetton transfer's 0.045, else a fee reserve). */
  feeUnits: string;
}

type TonRefusal = 'no_transaction' | 'not_this_swap';

/** TON Connect's chain ids (CHAIN.MAINNET, CHAIN.TESTNET). */
export const tonChainOf = (networkName: string): string => (/TESTNET/i.test(networkName) ? '-3' : '-239');

const JETTON_FEE = toNano('0.045');
const FORWARD = toNano('0.00002');
/** A plain transfer's network fee is about 0.004 TON; asked for with margin. */
const TON_FEE_RESERVE = toNano('0.01');
const VALID_SECONDS = 360;

const parse = (text: string | null | undefined): Address | undefined => {
  try {
    return text ? Address.parse(text) : undefined;
  } catch {
    return undefined;
  }
};

/** The action's call data: `{amount, asset, comment}`, or undefined. */
function callData(raw: string | null | undefined): { amount: string; asset?: string; comment: string } | undefined {
  try {
    const v = JSON.parse(raw ?? '') as Record<string, unknown>;
    const amount = typeof v.amount === 'number' ? String(v.amount) : v.amount;
    if (typeof amount !== 'string' || !/^\d+$/.test(amount)) return undefined;
    if (typeof v.comment !== 'string' || v.comment.trim() === '' || v.comment.length > 120) return undefined;
    return { amount, comment: v.comment, ...(typeof v.asset === 'string' ? { asset: v.asset } : {}) };
  } catch {
    return undefined;
  }
}

export async function tonTransfer(
  actions: readonly DepositAction[],
  details: SwapDetails,
  from: string,
  now: number,
  jettonWalletOf: (master: Address, owner: Address) => Promise<Address>,
): Promise<{ ok: true; value: TonTransfer } | { ok: false; why: TonRefusal }> {
  const action = actions.find((a) => a.type === 'transfer');
  const to = parse(action?.to_address);
  const data = callData(action?.call_data);
  const owner = parse(from);
  const token = details.swap.source_token;
  if (!action || !to || !data || !owner || !token || typeof token.decimals !== 'number') return { ok: false, why: 'no_transaction' };
  const requested = decimalText(details.swap.requested_amount);
  const units = requested ? parseUnits(requested, token.decimals).toString() : undefined;
  const master = token.contract ? parse(token.contract) : undefined;
  const sameToken =
    (!data.asset || data.asset.toUpperCase() === token.symbol.toUpperCase()) &&
    (!action.token || action.token.symbol === token.symbol) &&
    (token.contract ? !!master : true);
  const sameAmount = data.amount === units && (action.amount_in_base_units ?? data.amount) === data.amount;
  // Never to the jetton's master or back to the wallet itself.
  const payee = !to.equals(owner) && !(master && to.equals(master));
  if (!sameToken || !sameAmount || !payee || BigInt(data.amount) === 0n) return { ok: false, why: 'not_this_swap' };
  const comment = beginCell().storeUint(0, 32).storeStringTail(data.comment).endCell();
  const message = master
    ? {
        address: (await jettonWalletOf(master, owner)).toString({ bounceable: true }),
        amount: JETTON_FEE.toString(),
        payload: jettonTransfer(BigInt(data.amount), to, owner, comment).toBoc().toString('base64'),
      }
    : { address: action.to_address ?? '', amount: data.amount, payload: comment.toBoc().toString('base64') };
  return {
    ok: true,
    value: {
      request: {
        validUntil: Math.floor(now / 1000) + VALID_SECONDS,
        network: tonChainOf(details.swap.source_network?.name ?? ''),
        from: owner.toRawString(),
        messages: [message],
      },
      amountUnits: data.amount,
      ...(master ? { jetton: master.toString() } : {}),
      feeUnits: (master ? JETTON_FEE : TON_FEE_RESERVE).toString(),
    },
  };
}

/** TEP-74's transfer: the amount to `to` (its jetton wallet is the master's to find), excess back to `owner`, the comment forwarded. */
function jettonTransfer(amount: bigint, to: Address, owner: Address, comment: Cell): Cell {
  return beginCell()
    .storeUint(0x0f8a7ea5, 32)
    .storeUint(0, 64)
    .storeCoins(amount)
    .storeAddress(to)
    .storeAddress(owner)
    .storeBit(0)
    .storeCoins(FORWARD)
    .storeBit(1)
    .storeRef(comment)
    .endCell();
}

/** The network's toncenter-style RPC (the swap's node_url): the wallet's jetton wallet and its balances. */
export function tonReader(nodeUrl: string) {
  const client = new TonClient({ endpoint: nodeUrl, timeout: 10_000 });
  return {
    async jettonWalletOf(master: Address, owner: Address): Promise<Address> {
      const r = await client.runMethod(master, 'get_wallet_address', [{ type: 'slice', cell: beginCell().storeAddress(owner).endCell() }]);
      return r.stack.readAddress();
    },
    /** TON, and the jetton's balance (a jetton wallet not deployed yet holds none). */
    async balances(owner: Address, jettonWallet?: Address): Promise<{ ton: bigint; jetton: bigint }> {
      const ton = await client.getBalance(owner);
      if (!jettonWallet) return { ton, jetton: 0n };
      const r = await client.runMethodWithError(jettonWallet, 'get_wallet_data');
      return { ton, jetton: r.exit_code === 0 ? r.stack.readBigNumber() : 0n };
    },
  };
}

/** What the wallet lacks for the transfer, before it is asked: the token, else TON for the fee. */
export async function tonShortfall(reader: ReturnType<typeof tonReader>, from: string, t: TonTransfer): Promise<Shortfall | undefined> {
  const owner = Address.parse(from);
  const need = BigInt(t.amountUnits);
  const fee = BigInt(t.feeUnits);
  const jettonWallet = t.jetton ? Address.parse(t.request.messages[0]?.address ?? '') : undefined;
  const { ton, jetton } = await reader.balances(owner, jettonWallet);
  const have = t.jetton ? jetton : ton;
  if (have < need) return { kind: 'amount', have, need };
  return (t.jetton ? ton : ton - need) < fee ? { kind: 'fee' } : undefined;
}
