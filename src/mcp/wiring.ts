import type { Redis } from 'ioredis';
import type { CoreDeps } from '../bot/create-core.js';
import type { Logger } from '../log.js';
import { createRedis } from '../redis.js';
import { AgentKeyStore } from './key-store.js';
import { mcpHttpRoute, subscribeEvents } from './server.js';

/**
 * How the running processes carry the agent surface: the worker delivers to agent keys
 * (delivery.ts); the web process serves `/mcp` and turns tracking's events into notifications for
 * the listening agents.
 */
export interface McpWiring {
  redisUrl: string;
  coreDeps: CoreDeps;
  logger: Logger;
  botUsername?: string | undefined;
}

export async function mcpWeb(w: McpWiring): Promise<{ handle: ReturnType<typeof mcpHttpRoute>['handle']; close: () => Promise<void> }> {
  const keys = new AgentKeyStore(w.coreDeps.redis, w.coreDeps.keyPrefix);
  const route = mcpHttpRoute({ core: w.coreDeps, keys, botUsername: w.botUsername, logger: w.logger });
  const subscriber: Redis = createRedis(w.redisUrl, { logger: w.logger, name: 'mcp-events', maxRetriesPerRequest: null });
  const stop = await subscribeEvents(subscriber, w.coreDeps.keyPrefix, route.onEvent);
  return {
    handle: route.handle,
    close: async () => {
      await stop();
      await route.close();
      await subscriber.quit().catch(() => undefined);
    },
  };
}
