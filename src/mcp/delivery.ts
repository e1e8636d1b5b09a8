import { createRedis } from '../redis.js';
import { AgentMessenger, agentRenderer } from './events.js';
import { AgentKeyStore } from './key-store.js';
import { startWebhookWorker, WebhookQueue } from './webhook-queue.js';
import type { McpWiring } from './wiring.js';

/**
 * The worker's side of the agent surface: a messenger and renderer for platform 'mcp', and the
 * webhook worker. Apart from wiring.ts so that a process that only delivers (worker, terminal
 * chat) does not load the MCP SDK.
 */
export function agentDelivery(w: Pick<McpWiring, 'redisUrl' | 'coreDeps' | 'logger'>): {
  messenger: AgentMessenger;
  renderer: typeof agentRenderer;
  close: () => Promise<void>;
} {
  const { redis, keyPrefix } = w.coreDeps;
  const keys = new AgentKeyStore(redis, keyPrefix);
  const queue = new WebhookQueue(redis, keyPrefix, keys, w.logger);
  const workerConnection = createRedis(w.redisUrl, { logger: w.logger, name: 'mcp-webhook', maxRetriesPerRequest: null });
  const worker = startWebhookWorker(workerConnection, keyPrefix, keys, w.logger);
  return {
    messenger: new AgentMessenger(redis, keyPrefix, queue),
    renderer: agentRenderer,
    close: async () => {
      await worker.close();
      await queue.close();
      await workerConnection.quit().catch(() => undefined);
    },
  };
}
