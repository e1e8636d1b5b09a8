import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { amountProblem, routeLimits } from '../bot/catalog/index.js';
import { depositPlan, paymentUri } from '../bot/deposit/index.js';
import type { Route } from '../bot/kernel/route.js';
import { DEPOSIT_WINDOW_MS } from '../bot/money/model.js';
import { quoteMoney } from '../bot/money/quote-money.js';
import { toBaseUnits } from '../bot/money/base-units.js';
import { quoteParams, routeSummary } from '../bot/quote/index.js';
import { checkAddress } from '../bot/swap/index.js';
import { loadDepositActions } from '../layerswap/deposit-actions.js';
import type { CreateSwapParams } from '../layerswap/params.js';
import type { Network, SwapDetails } from '../layerswap/schemas.js';
import { guarded, result, type Agent } from './agent.js';
import { routeOf, routeShape } from './tools-route.js';
import { amountView, capView, problemView } from './views.js';

/**
 * create_swap and get_approval. The server proposes and never signs: a created swap is paid by
 * the person (the hand-off link) or by the agent's own wallet, outside this server. Caps per key:
 * swaps per UTC day (a refusal naming the cap) and USD per swap (above it, a person approves in
 * their chat, the wizard's confirmation pre-filled, and only their Confirm creates the swap).
 */
const address = z.string().trim().min(1).max(200);
const createArgs = z
  .object({
    ...routeShape,
    destination_address: address.describe('where the destination token is paid out'),
    refund_address: address.optional().describe('where a failed swap is refunded, on the source network'),
    no_refund_address: z
      .literal(true)
      .optional()
      .describe('true to create without a refund address (a failed swap is then not refunded automatically)'),
  })
  .refine((a) => (a.refund_address !== undefined) !== (a.no_refund_address === true), {
    message: 'give exactly one of refund_address (recommended) or no_refund_address: true',
    path: ['refund_address'],
  });

const RAISE_DAY = 'the operator raises it with: swapbot mcp-key set <key id> --max-swaps-per-day N (the count resets at 00:00 UTC)';
const RAISE_USD =
  'a person approves this swap through the hand-off link; the operator raises the threshold with: swapbot mcp-key set <key id> --max-usd-per-swap N';

function depositView(details: SwapDetails, actions: Parameters<typeof depositPlan>[1]) {
  const plan = depositPlan(details, actions);
  if (plan.kind !== 'manual')
    return {
      kind: plan.kind,
      note:
        plan.kind === 'app_only'
          ? 'this deposit can only be made from the Layerswap app with a connected wallet'
          : 'no deposit details yet; call get_swap shortly',
    };
  const net = plan.network;
  const base = toBaseUnits(plan.amount, plan.token.decimals);
  return {
    kind: 'manual',
    send: {
      amount: plan.amount,
      ...(base ? { base_units: base } : {}),
      symbol: plan.token.symbol,
      decimals: plan.token.decimals ?? null,
      contract: plan.token.contract ?? null,
    },
    network: net?.name ?? null,
    to_address: plan.address,
    ...(plan.memo ? { memo: plan.memo } : {}),
    payment_uri: paymentUri({
      family: net?.type ?? '',
      chainId: net?.chain_id,
      address: plan.address,
      amount: plan.amount,
      token: plan.token,
      nativeSymbol: net?.token?.symbol,
      memo: plan.memo,
    }),
    warning: 'send exactly this amount, once, from a wallet the person controls; this server never signs',
  };
}

export function registerSwapTools(server: McpServer, agent: Agent): void {
  server.registerTool(
    'create_swap',
    {
      description:
        "Create a swap (deposit-address flow). Needs destination_address, and refund_address or no_refund_address: true. Answers the deposit instructions, payment URI, deadline and a hand-off link to the person's chat; above the key's USD threshold it answers needs_approval and creates nothing until the person confirms.",
      inputSchema: createArgs,
    },
    (a) =>
      guarded(agent, 'create_swap', async () => {
        const r = await routeOf(agent, a, true);
        if ('problem' in r) return result(problemView(r.problem), true);
        const byName = (n: string | undefined): Network | undefined => r.networks.find((x) => x.name === n);
        const dest = checkAddress(a.destination_address, byName(r.route.destinationNetwork) ?? { name: r.route.destinationNetwork ?? '' });
        if (!dest.ok) return result(problemView({ ...dest, field: 'destination_address' }), true);
        let refund: string | undefined;
        if (a.refund_address !== undefined) {
          const checked = checkAddress(a.refund_address, byName(r.route.sourceNetwork) ?? { name: r.route.sourceNetwork ?? '' });
          if (!checked.ok) return result(problemView({ ...checked, field: 'refund_address' }), true);
          refund = checked.value;
        }
        const limits = await routeLimits(agent.ctx, r.route, r.networks, a.refuel);
        const outside = limits ? amountProblem(Number(r.route.amount), limits) : undefined;
        if (outside) return result(problemView(outside), true);
        const q = await agent.ctx.api.getQuote(quoteParams(r.route, a.refuel));
        const m = quoteMoney(q, Number(r.route.amount), {
          sourceToken: r.route.sourceToken ?? '',
          destinationToken: r.route.destinationToken ?? '',
        });
        const usd = m.asked ? amountView(m.asked).usd : undefined;
        const { key } = agent;
        if (key.maxUsdPerSwap !== undefined && (usd === undefined || usd > key.maxUsdPerSwap)) {
          const token = agent.newHandoffToken();
          await agent.handoffs.put(token, {
            kind: 'approve',
            keyId: key.id,
            draftId: token.slice(0, 8),
            route: r.route,
            destinationAddress: dest.value,
            ...(refund ? { refundAddress: refund } : {}),
            refuel: a.refuel === true,
            createdAt: agent.now(),
          });
          return result({
            outcome: 'needs_approval',
            approval_id: token,
            cap: 'max_usd_per_swap',
            limit: key.maxUsdPerSwap,
            how_to_raise: RAISE_USD,
            swap_usd: usd ?? null,
            handoff: agent.handoffLinks(token),
            next_step: 'give the person the hand-off link; once they confirm in their chat, get_approval answers the created swap',
          });
        }
        const allowance = await agent.deps.keys.takeDaily(key);
        if (!allowance.ok) return result(capView('max_swaps_per_day', key.maxSwapsPerDay ?? 0, RAISE_DAY), true);
        const params: CreateSwapParams = {
          ...quoteParams(r.route, a.refuel),
          ...(r.route.sourceExchange ? { source_exchange: r.route.sourceExchange } : {}),
          ...(r.route.destinationExchange ? { destination_exchange: r.route.destinationExchange } : {}),
          destination_address: dest.value,
          ...(refund ? { refund_address: refund } : {}),
        };
        let details: SwapDetails;
        try {
          details = await agent.ctx.api.createSwap(params);
        } catch (err) {
          await agent.deps.keys.returnDaily(key);
          throw err;
        }
        const swapId = details.swap.id;
        await adopt(agent, swapId, r.route, refund ?? null, [dest.value, refund]);
        const token = agent.newHandoffToken();
        await agent.handoffs.put(token, {
          kind: 'swap',
          keyId: key.id,
          swapId,
          route: r.route,
          refund: refund ?? null,
          createdAt: agent.now(),
        });
        const actions = details.deposit_actions?.length
          ? details.deposit_actions
          : await loadDepositActions(agent.ctx.api, swapId).catch(() => []);
        const created = Date.parse(details.swap.created_date ?? '');
        return result({
          outcome: 'created',
          ...(await agent.view(details)),
          deposit: depositView(details, actions),
          deposit_deadline: new Date((Number.isNaN(created) ? agent.now() : created) + DEPOSIT_WINDOW_MS).toISOString(),
          handoff: agent.handoffLinks(token),
          swaps_today: allowance.used,
          pushed: `subscribe to swap://${swapId} (subscriptions/listen): notifications/resources/updated arrive at each key moment; a registered webhook gets them too`,
        });
      }),
  );

  server.registerTool(
    'get_approval',
    {
      description:
        'Whether the person confirmed a swap that needed approval: pending, or the created swap (then followed for this key like its own).',
      inputSchema: z.object({ approval_id: z.string().regex(/^[A-Za-z0-9_-]{16}$/, 'the approval_id create_swap answered') }),
      annotations: { readOnlyHint: true },
    },
    ({ approval_id }) =>
      guarded(agent, 'get_approval', async () => {
        const h = await agent.handoffs.get(approval_id);
        if (!h || h.kind !== 'approve' || h.keyId !== agent.key.id)
          return result({ error: 'not_found', message: 'no such approval for this key (or it expired after 7 days)' }, true);
        const created = await agent.ctx.drafts.createdSwap(h.draftId);
        if (!created)
          return result({
            outcome: 'pending',
            handoff: agent.handoffLinks(approval_id),
            next_step: 'wait for the person to confirm in their chat',
          });
        await adopt(agent, created.swapId, h.route, h.refundAddress ?? null, [h.destinationAddress, h.refundAddress]);
        return result({ outcome: 'approved', ...(await agent.view(await agent.ctx.api.getSwap(created.swapId))) });
      }),
  );
}

/** The swap becomes this key's: owned, in its record (route, refund), followed so its moments are pushed. */
async function adopt(
  agent: Agent,
  swapId: string,
  route: Route,
  refund: string | null,
  addresses: Array<string | undefined>,
): Promise<void> {
  const { ctx, key, target } = agent;
  await agent.deps.keys.own(key.id, swapId);
  if (!(await ctx.history.entry('mcp', key.id, swapId))) {
    await ctx.history.add('mcp', key.id, {
      swapId,
      createdAt: agent.now(),
      summary: routeSummary(route, ctx.catalog.peekNetworks() ?? [], 'en'),
      route,
      refund,
    });
    await ctx.history.addAddresses('mcp', key.id, addresses);
  }
  await ctx.tracking.follow(swapId, target, { userId: key.id, creator: true, locale: 'en' });
}
