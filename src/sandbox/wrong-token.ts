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
  chain: SandboxChain | undefined,
  symbol: unknown,
  amount: unknown,
): Promise<SwapRecord> {
  const { network, token } = rec.request.route.from;
  const other = network.tokens.find((t) => typeof symbol === 'string' && t.symbol.toLowerCase() === symbol.toLowerCase());
  if (!other || other.symbol === token.symbol)
    throw validation(`token must be another token of ${network.name}: ${network.tokens.map((t) => t.symbol).join(', ')}.`);
  // TON: the shared address, with the swap's comment (only the token is wrong).
  if (!chain || !(network.type === 'ton' ? chain.ton : network.type === 'evm' && rec.request.useDepositAddress))
    throw validation(
      'a wrong-token deposit is a real transfer: start the sandbox with --chain, for an EVM swap with a deposit address or a TON swap.',
    );
  if (amount !== undefined && !(typeof amount === 'number' && amount > 0)) throw validation('amount must be a positive number.');
  await chain.sendDeposit(rec, amount === undefined ? rec.request.amount.text : amount.toFixed(other.decimals), other);
  return rec;
}
