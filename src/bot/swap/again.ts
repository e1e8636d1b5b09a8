import { line, type Reply } from '../../contracts/reply.js';
import type { Network, SwapDetails, Token } from '../../layerswap/schemas.js';
import { isNative } from '../catalog/index.js';
import { isPublic, type Ctx } from '../kernel/context.js';
import { expired, notice } from '../kernel/replies.js';
import { routeArgs, routeFromButton } from '../quote/index.js';
import { startWizard } from './start.js';
import { parseSwapId } from '../kernel/swap-id.js';
import type { Route } from '../kernel/route.js';

/**
 * "Swap again": a finished swap's route, amount and destination (and its refund address and
 * refuel choice) in a new swap draft, straight at the confirmation with a fresh quote: the old
 * figures are never reused, and every name is checked again against today's catalogue (tokens by
 * contract first, so a renamed symbol still finds the route). The
 * button (again-button.ts) carries only the swap id (`sa:<id>`, inline, under 64 bytes); what the swap was
 * is read from the service when pressed. Private chats only, and only the creator's own swaps: the
 * destination is private.
 */

/**
 * The token's name in today's catalogue: matched by contract on its network first, symbol second, so a
 * token renamed since the swap (USDT shown as USDT0 on a network) still finds its route.
 */
function todaysSymbol(networks: readonly Network[], network: string, token: Token): string {
  const contract = token.contract?.toLowerCase();
  if (!contract || isNative(token)) return token.symbol;
  const same = networks.find((n) => n.name === network)?.tokens?.find((t) => t.contract?.toLowerCase() === contract);
  return same?.symbol ?? token.symbol;
}

/** The route of a swap's details as a button would carry it (names; checked again by routeFromButton). */
function routeOf(details: SwapDetails, networks: readonly Network[]): Route | undefined {
  const s = details.swap;
  const amount = s.requested_amount ?? details.quote?.requested_amount;
  if (
    typeof amount !== 'number' ||
    !(amount > 0) ||
    !s.source_network?.name ||
    !s.source_token?.symbol ||
    !s.destination_network?.name ||
    !s.destination_token?.symbol
  )
    return undefined;
  return {
    amount: String(amount),
    sourceNetwork: s.source_network.name,
    sourceToken: todaysSymbol(networks, s.source_network.name, s.source_token),
    destinationNetwork: s.destination_network.name,
    destinationToken: todaysSymbol(networks, s.destination_network.name, s.destination_token),
    ...(s.source_exchange?.name ? { sourceExchange: s.source_exchange.name } : {}),
    ...(s.destination_exchange?.name ? { destinationExchange: s.destination_exchange.name } : {}),
  };
}

/** sa <swap id>: a new swap like that one, at its confirmation. */
export async function swapAgain(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const id = parseSwapId(args[0]);
  if (args.length !== 1 || !id.ok) return [expired(ctx)];
  const swapId = id.value;
  if (isPublic(ctx))
    return [{ ...notice(ctx.t('swapAgain.title'), [line(ctx.t('swapAgain.privateOnly'))], 'warning'), target: 'ephemeral' }];
  // Only the creator's own swap (history knows creators): the destination is theirs, and a
  // forged `sa:` with someone else's swap id must not put that address in front of the presser.
  const entry = await ctx.history.entry(ctx.incoming.platform, ctx.incoming.userId, swapId);
  if (!entry) return [{ ...notice(ctx.t('swapAgain.title'), [line(ctx.t('swapAgain.notYours'))], 'warning'), target: 'ephemeral' }];
  const details = await ctx.api.getSwap(swapId, { exclude_deposit_actions: true });
  const raw = routeOf(details, await ctx.catalog.networks());
  const route = raw ? await routeFromButton(ctx, routeArgs(raw)) : undefined;
  const address = details.swap.destination_address;
  if (!route || !address) return [{ ...notice(ctx.t('swapAgain.title'), [line(ctx.t('swapAgain.cannot'))], 'warning'), target: 'here' }];
  route.pendingDestinationAddress = address;
  // The service's answer does not carry the refund address: our record of the creation does (null: skipped).
  const refund = details.swap.refund_address ?? entry.refund;
  // Never refuel into an exchange, even when the old swap did.
  const refuel = typeof details.refuel?.amount === 'number' && details.refuel.amount > 0 && !route.destinationExchange;
  const replies = await startWizard(ctx, 'swap', route, undefined, {
    refuel,
    ...(refund ? { refundAddress: refund } : refund === null ? { refundSkipped: true } : {}),
  });
  return replies.map((r) => ({ ...r, mode: 'new' as const }));
}
