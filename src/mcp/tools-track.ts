import { ResourceNotFoundError, ResourceTemplate, type McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { parseLookup } from '../bot/follow/lookup/shape.js';
import { ApiError } from '../layerswap/errors.js';
import type { SwapDetails } from '../layerswap/schemas.js';
import { guarded, result, type Agent } from './agent.js';
import { problemView } from './views.js';

/**
 * Reading and following a key's own swaps: get_swap, find_swap, follow_swap, watch_address, the
 * `swap://<id>` resource (what a resource-updated notification points at) and register_webhook.
 * A swap another key (or a chat) made is "not found" here, the same answer as one that does not
 * exist, so a key learns nothing of swaps that are not its own.
 */
const swapId = z.string().uuid('a swap id, e.g. 3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b');
const NOT_FOUND = {
  error: 'not_found',
  message: 'no swap of this key has that id (swaps created by other keys or in chats are not visible here)',
};

const isNotFound = (err: unknown): boolean => err instanceof ApiError && (err.status === 404 || err.code === 'NOT_FOUND');

export function registerTrackTools(server: McpServer, agent: Agent): void {
  server.registerTool(
    'get_swap',
    {
      description:
        'A swap of this key: phase, next step, confirmations k/n, deposit deadline, expected time, stuck or not, and the money (every deduction). Prefer follow_swap and notifications to calling this in a loop.',
      inputSchema: z.object({ swap_id: swapId }),
      annotations: { readOnlyHint: true },
    },
    ({ swap_id }) =>
      guarded(agent, 'get_swap', async () => {
        const details = await agent.ownedSwap(swap_id).catch((err: unknown) => (isNotFound(err) ? undefined : Promise.reject(err)));
        return details ? result(await agent.view(details)) : result(NOT_FOUND, true);
      }),
  );

  server.registerTool(
    'find_swap',
    {
      description: "Find this key's swaps by swap id, deposit or payout transaction hash, or an address used in them.",
      inputSchema: z.object({ query: z.string().trim().min(1).max(200) }),
      annotations: { readOnlyHint: true },
    },
    ({ query }) =>
      guarded(agent, 'find_swap', async () => {
        const parsed = parseLookup(query);
        if (!parsed.ok) return result(problemView(parsed), true);
        const input = parsed.value;
        let found: SwapDetails[];
        const api = agent.ctx.api;
        const quiet = <T>(p: Promise<T>, none: T) => p.catch((err: unknown) => (isNotFound(err) ? none : Promise.reject(err)));
        if (input.kind === 'swap') found = [await quiet(api.getSwap(input.id), undefined)].filter((d): d is SwapDetails => d !== undefined);
        else if (input.kind === 'transaction')
          found = [await quiet(api.getSwapByTransactionHash(input.hash), undefined)].filter((d): d is SwapDetails => d !== undefined);
        else if (input.kind === 'address')
          found = await quiet(api.listSwaps({ address: input.address, page: 1, include_expired: true }), []);
        else {
          const mine = await agent.ctx.history.all('mcp', agent.key.id);
          const ids = mine.filter((e) => e.swapId.startsWith(input.prefix.toLowerCase())).map((e) => e.swapId);
          found = await Promise.all(ids.slice(0, 5).map((id) => api.getSwap(id)));
        }
        const owned = [];
        for (const d of found) if (await agent.deps.keys.owns(agent.key.id, d.swap.id)) owned.push(await agent.view(d));
        return result({ swaps: owned, count: owned.length });
      }),
  );

  server.registerTool(
    'follow_swap',
    {
      description:
        "Follow a swap of this key: each key moment (deposit seen, confirmed, completed, failed, refunded, expired, stuck) is pushed as notifications/resources/updated on swap://<id> and to the key's webhook; a final status ends the follow.",
      inputSchema: z.object({ swap_id: swapId }),
    },
    ({ swap_id }) =>
      guarded(agent, 'follow_swap', async () => {
        if (!(await agent.deps.keys.owns(agent.key.id, swap_id))) return result(NOT_FOUND, true);
        const r = await agent.ctx.tracking.follow(swap_id, agent.target, { userId: agent.key.id, locale: 'en' });
        if (!r.ok)
          return result(
            {
              error: 'follow_limit',
              reason: r.reason,
              limit: r.limit,
              how_to_raise: 'the operator raises MAX_TRACKED_PER_USER / MAX_TRACKED_PER_CHAT',
            },
            true,
          );
        return result({
          following: true,
          already: r.alreadyFollowing,
          resource: `swap://${swap_id}`,
          how: 'subscriptions/listen with resourceSubscriptions ["swap://<id>"]; each notification carries the moment in _meta["swapbot/moment"]',
        });
      }),
  );

  server.registerTool(
    'watch_address',
    {
      description:
        'Watch an address this key used in its swaps (destination or refund): new swaps to or from it are followed and pushed like follow_swap. on: false stops.',
      inputSchema: z.object({ address: z.string().trim().min(1).max(200), on: z.boolean().default(true) }),
    },
    ({ address, on }) =>
      guarded(agent, 'watch_address', async () => {
        const mine = await agent.ctx.history.addresses('mcp', agent.key.id);
        if (!mine.some((a) => a.toLowerCase() === address.toLowerCase()))
          return result(
            { error: 'not_your_address', message: 'only addresses this key used as a destination or refund address can be watched' },
            true,
          );
        if (!agent.ctx.tracking.watchAddress)
          return result({ error: 'unavailable', message: 'address watching is off on this server' }, true);
        await agent.ctx.tracking.watchAddress(address, agent.target, { userId: agent.key.id, locale: 'en' }, on);
        return result({ watching: on, address });
      }),
  );

  server.registerTool(
    'register_webhook',
    {
      description:
        'Register (or replace) the URL this key\'s key moments are POSTed to, signed: X-Swapbot-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">, with an X-Swapbot-Event-Id to drop duplicates (delivery is at least once). Answers the signing secret once.',
      inputSchema: z.object({
        url: z
          .string()
          .url()
          .max(500)
          .refine(
            (u) => u.startsWith('https://') || /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//.test(u),
            'https:// (or http:// on localhost only)',
          ),
      }),
    },
    ({ url }) =>
      guarded(agent, 'register_webhook', async () => {
        const secret = await agent.deps.keys.setWebhook(agent.key.id, url);
        if (!secret) return result({ error: 'key_revoked', message: 'this key was revoked' }, true);
        return result({ url, signing_secret: secret, note: 'shown once; register again to rotate it' });
      }),
  );

  server.registerResource(
    'swap',
    new ResourceTemplate('swap://{id}', { list: undefined }),
    { description: 'A swap of this key, as get_swap answers it; subscribe to be told when it changes.', mimeType: 'application/json' },
    async (uri, vars) => {
      const id = String(vars.id ?? '');
      const details = swapId.safeParse(id).success ? await agent.ownedSwap(id).catch(() => undefined) : undefined;
      const body = details ? await agent.view(details) : NOT_FOUND;
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(body) }] };
    },
  );

  // 2025-era clients subscribe with resources/subscribe (the capability says they may): this key's
  // own swap:// only, so a subscription never confirms that another key's swap exists. Moments then
  // reach them on a connection that stays open (stdio); over HTTP, through the webhook.
  const ownSwap = async (uri: string): Promise<void> => {
    const id = /^swap:\/\/(.+)$/.exec(uri)?.[1] ?? '';
    const owned = swapId.safeParse(id).success ? await agent.ownedSwap(id).catch(() => undefined) : undefined;
    if (!owned) throw new ResourceNotFoundError(uri, `no swap of this key at ${uri} (subscribe to swap://<swap_id> from create_swap)`);
  };
  server.server.setRequestHandler('resources/subscribe', async (req) => {
    await ownSwap(req.params.uri);
    return {};
  });
  server.server.setRequestHandler('resources/unsubscribe', () => ({}));
}
