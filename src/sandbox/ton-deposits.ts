import { parseUnits } from 'viem';
import type { SeenTransfer } from '../chain/watcher.js';
import { NETWORKS } from './catalog.js';
import { depositAddressFor } from './deposit-actions.js';
import { validation } from './http-error.js';
import type { SwapRecord } from './lifecycle.js';
import type { SandboxTon } from './ton-chain.js';

/**
 * The sandbox's TON deposits with --chain (chain.ts starts them beside the EVM node): its TON
 * chain (ton-chain.ts), and the service's side, which sees a swap's deposit the way Layerswap
 * does, by its comment at the shared deposit address (the same TON watcher as the bot, on its own
 * RPC). A transfer without the comment is never matched to a swap. The simulated deposit is a
 * real transfer from the funded wallet with the swap's comment.
 */

export interface SandboxTonDeposits {
  readonly ton: SandboxTon;
  /** Watches a TON swap's deposit (its comment at the shared address). */
  watch(rec: SwapRecord): void;
  /** Sends the swap's deposit (or `token`, another of its network) with its comment; `comment: null`: sent without it. */
  send(
    rec: SwapRecord,
    amountText?: string,
    token?: SwapRecord['request']['route']['from']['token'],
    comment?: string | null,
  ): Promise<string>;
  close(): Promise<void>;
}

/** The comment a TON swap's deposit carries (deposit-actions.ts writes it in the call data). */
const tonComment = (rec: SwapRecord): string => String(rec.sequenceNumber);

export const isTonSwap = (rec: SwapRecord): boolean => rec.request.route.from.network.type === 'ton';

/** POST /sandbox/swaps/{id}/deposit {"memo": false}: the swap's amount sent to its TON deposit address without the comment. */
export async function noMemoDeposit(rec: SwapRecord, deposits: SandboxTonDeposits | undefined): Promise<SwapRecord> {
  if (!deposits || !isTonSwap(rec))
    throw validation('"memo": false sends a TON deposit without its comment: start the sandbox with --chain, for a TON swap.');
  await deposits.send(rec, undefined, undefined, null);
  return rec;
}

export async function startTonDeposits(
  onDeposit: (swapId: string, t: SeenTransfer) => void,
  opts: { blockMs?: number; pollMs?: number } = {},
): Promise<SandboxTonDeposits> {
  const networks = NETWORKS.filter((n) => n.type === 'ton');
  const jettons = networks.flatMap((n) => n.tokens.flatMap((t) => (t.contract ? [t.contract] : [])));
  // The shared deposit address (the wallet flow's, deposit-actions.ts) is an active wallet, as Layerswap's is.
  const accounts = networks.map((n) => depositAddressFor(n, '', false));
  // The TON emulator and client load only with the sandbox's chain (the server imports isTonSwap from here).
  const [{ startSandboxTon }, { createTonWatcher }] = await Promise.all([import('./ton-chain.js'), import('../chain/ton/watcher.js')]);
  const ton = await startSandboxTon({ jettons, accounts, ...(opts.blockMs !== undefined ? { blockMs: opts.blockMs } : {}) });
  const watcher = createTonWatcher({
    rpcs: new Map(networks.map((n) => [n.name, ton.url])),
    pollMs: opts.pollMs ?? 1000,
    minGapMs: 0,
    events: {
      // The service matches a deposit by its comment; any other transfer is nobody's deposit to it.
      accept: (e, t) => t.value > 0n && t.memo === e.memo,
      transfer: (e, t) => onDeposit(e.swapId, t),
      head: () => undefined,
      health: () => undefined,
    },
  });
  // Its chain tells of each new block: a deposit is seen at once.
  const unhook = ton.onBlock(() => watcher.poke?.());
  return {
    ton,
    watch(rec) {
      if (!isTonSwap(rec)) return;
      const token = rec.request.route.from.token;
      watcher.watch({
        swapId: rec.id,
        network: rec.request.route.from.network.name,
        address: rec.depositAddress,
        token: { symbol: token.symbol, contract: token.contract, decimals: token.decimals },
        memo: tonComment(rec),
        depth: 1,
      });
    },
    send(rec, amountText, other, comment) {
      const token = other ?? rec.request.route.from.token;
      const value = parseUnits(amountText ?? rec.request.amount.text, token.decimals);
      return ton.send(rec.depositAddress, token, value, comment === null ? undefined : (comment ?? tonComment(rec)));
    },
    async close() {
      unhook();
      await watcher.close();
      await ton.close();
    },
  };
}
