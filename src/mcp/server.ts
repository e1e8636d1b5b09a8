import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { createMcpHandler, McpServer, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { Redis } from 'ioredis';
import { contextFactory } from '../bot/create-core.js';
import { McpKeys } from '../contracts/keys.js';
import { readBody, BodyTooLarge } from '../http.js';
import { asError } from '../log.js';
import { Agent, type McpDeps } from './agent.js';
import type { AgentEvent } from './events.js';
import type { AgentKey } from './key-store.js';
import { registerRouteTools } from './tools-route.js';
import { registerSwapTools } from './tools-swap.js';
import { registerTrackTools } from './tools-track.js';

/**
 * The MCP server over the core, the official TypeScript SDK (@modelcontextprotocol/server, spec
 * 2026-07-28; 2025-era clients are served too). One server per key: every tool and the swap://
 * resource act as that key, so a key never reaches another's swaps. Pushed status: the SDK's
 * `subscriptions/listen` stream; each key moment is a notifications/resources/updated on
 * swap://<id>, the moment itself in `_meta["swapbot/moment"]`.
 */
const MCP_VERSION = '0.1.0';
const MOMENT_META = 'swapbot/moment';

export function mcpServer(deps: McpDeps, key: AgentKey, makeCtx = contextFactory(deps.core)): McpServer {
  const server = new McpServer(
    { name: 'swapbot', version: MCP_VERSION },
    {
      capabilities: { tools: {}, resources: { subscribe: true } },
      instructions:
        'Swaps between blockchain networks through Layerswap. quote, then create_swap; the server never signs: the person pays through the hand-off link, or your own wallet pays the deposit instructions. Listen to swap://<id> for pushed key moments instead of polling get_swap.',
    },
  );
  const agent = new Agent(deps, key, makeCtx);
  registerRouteTools(server, agent);
  registerSwapTools(server, agent);
  registerTrackTools(server, agent);
  return server;
}

/** Events from tracking (events.ts), read off Redis pub/sub in this process; one handler per key id. */
export async function subscribeEvents(subscriber: Redis, prefix: string, onEvent: (e: AgentEvent) => void): Promise<() => Promise<void>> {
  const channel = new McpKeys(prefix).events;
  subscriber.on('message', (ch: string, raw: string) => {
    if (ch !== channel) return;
    try {
      onEvent(JSON.parse(raw) as AgentEvent);
    } catch {
      // Not ours: nothing to tell.
    }
  });
  await subscriber.subscribe(channel);
  return async () => {
    await subscriber.unsubscribe(channel).catch(() => undefined);
  };
}

export const momentParams = (e: AgentEvent) => ({
  _meta: { [MOMENT_META]: { id: e.id, moment: e.moment, status: e.status, phase: e.phase, final: e.final, at: e.at } },
});

/**
 * `/mcp` on the web process: Streamable HTTP, each request authorised by `Authorization: Bearer
 * <key>`. A handler (and its listen streams) per key, so a notification for one key's swap is
 * never on another key's stream.
 */
export function mcpHttpRoute(deps: McpDeps): {
  handle: (req: IncomingMessage, res: ServerResponse) => void;
  onEvent: (e: AgentEvent) => void;
  close: () => Promise<void>;
} {
  const handlers = new Map<string, McpHttpHandler>();
  // The key as verified by the latest request: caps changed with `mcp-key set` apply at once.
  const current = new Map<string, AgentKey>();
  const makeCtx = contextFactory(deps.core);
  const handlerOf = (key: AgentKey): McpHttpHandler => {
    current.set(key.id, key);
    let h = handlers.get(key.id);
    if (!h) {
      h = createMcpHandler(() => mcpServer(deps, current.get(key.id) ?? key, makeCtx), {
        onerror: (err) => deps.logger.debug({ err: asError(err) }, 'mcp: request refused'),
      });
      handlers.set(key.id, h);
    }
    return h;
  };
  const refuse = (res: ServerResponse, status: number, message: string): void =>
    void res
      .writeHead(status, { 'content-type': 'application/json', ...(status === 401 ? { 'www-authenticate': 'Bearer' } : {}) })
      .end(JSON.stringify({ error: message }));

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const secret = /^Bearer (\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const key = await deps.keys.verify(secret);
    if (!key) {
      req.resume();
      return refuse(
        res,
        401,
        'every /mcp request needs Authorization: Bearer <key> with a key from `swapbot mcp-key create` (unknown or revoked keys are refused)',
      );
    }
    const body = req.method === 'POST' ? await readBody(req, 4 * 1_048_576) : undefined;
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const request = new Request(`http://localhost${req.url ?? '/mcp'}`, {
      method: req.method ?? 'GET',
      headers,
      signal: abort.signal,
      ...(body ? { body } : {}),
    });
    const answer = await handlerOf(key).fetch(request, { authInfo: { token: key.id, clientId: key.id, scopes: [] } });
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    if (!answer.body) return void res.end();
    Readable.fromWeb(answer.body as import('node:stream/web').ReadableStream)
      .on('error', () => res.destroy())
      .pipe(res);
  }

  return {
    handle: (req, res) =>
      void serve(req, res).catch((err: unknown) => {
        if (err instanceof BodyTooLarge) return refuse(res, 413, 'request body over 4 MiB');
        deps.logger.error({ err: asError(err) }, 'mcp: request failed');
        if (!res.headersSent) refuse(res, 500, 'internal error');
        else res.destroy();
      }),
    onEvent: (e) => handlers.get(e.key_id)?.bus.publish({ kind: 'resource_updated', uri: e.resource, params: momentParams(e) }),
    close: async () => {
      await Promise.all([...handlers.values()].map((h) => h.close()));
    },
  };
}
