import { validation } from './http-error.js';
import type { SandboxChain } from './chain.js';
import type { SwapRecord } from './lifecycle.js';

/**
 * POST /sandbox/swaps/{id}/deposit with `token` (docs/sandbox.md): a transfer of another token of
 * the swap's source network to its deposit address, sent for real on the sandbox's chain, which
 * the service never counts as the deposit (the bot's chain watcher tells it as a wrong token).
 */
export async function wrongTokenDeposit(
  rec: SwapRecord,
  chains: {
    evm: SandboxChain | undefined;
    solana?:
      | { sendDeposit(rec: SwapRecord, amount?: string, token?: SwapRecord['request']['route']['from']['token']): Promise<unknown> }
      | undefined;
  },
  symbol: unknown,
  amount: unknown,
): Promise<SwapRecord> {
  const { network, token } = rec.request.route.from;
  const other = network.tokens.find((t) => typeof symbol === 'string' && t.symbol.toLowerCase() === symbol.toLowerCase());
  if (!other || other.symbol === token.symbol)
    throw validation(`token must be another token of ${network.name}: ${network.tokens.map((t) => t.symbol).join(', ')}.`);
  // Each family's own chain (EVM and TON on the sandbox's chain, Solana); TON: the shared address
  // with the swap's comment (only the token is wrong).
  const ton = network.type === 'ton';
  const chain = network.type === 'evm' || ton ? chains.evm : network.type === 'solana' ? chains.solana : undefined;
  if (!chain || (ton ? !chains.evm?.ton : !rec.request.useDepositAddress))
    throw validation(
      'a wrong-token deposit is a real transfer: start the sandbox with --chain, for an EVM or Solana swap with a deposit address, or a TON swap.',
    );
  if (amount !== undefined && !(typeof amount === 'number' && amount > 0)) throw validation('amount must be a positive number.');
  await chain.sendDeposit(rec, amount === undefined ? rec.request.amount.text : amount.toFixed(other.decimals), other);
  return rec;
}
