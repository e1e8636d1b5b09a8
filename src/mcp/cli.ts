import { parseArgs } from 'node:util';
import type { Redis } from 'ioredis';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { McpServer } from '@modelcontextprotocol/server';
import type { CoreDeps } from '../bot/create-core.js';
import { asError, type Logger } from '../log.js';
import { createRedis } from '../redis.js';
import { AgentKeyStore, type AgentKey } from './key-store.js';
import { momentParams, mcpServer, subscribeEvents } from './server.js';

/**
 * `swapbot mcp-key create|list|set|revoke` (operators) and `swapbot mcp` (the server over stdio,
 * for a desktop assistant: the key comes from SWAPBOT_MCP_KEY). Secrets are printed once, to
 * stdout, and never logged.
 */
const MCP_KEY_USAGE = `swapbot mcp-key create --label NAME [--max-usd-per-swap N] [--max-swaps-per-day N]
swapbot mcp-key set ID [--max-usd-per-swap N|none] [--max-swaps-per-day N|none]
swapbot mcp-key list
swapbot mcp-key revoke ID`;

export class McpCliError extends Error {
  override name = 'McpCliError';
}

function cap(raw: string | undefined, what: string, allowNone: boolean): number | null | undefined {
  if (raw === undefined) return undefined;
  if (allowNone && raw === 'none') return null;
  const n = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || !Number.isFinite(n))
    throw new McpCliError(`${what} takes a number${allowNone ? ' or none' : ''}, such as ${what} 100 (got "${raw.slice(0, 20)}")`);
  return n;
}

export async function runMcpKeyCli(args: string[], redis: Redis, prefix: string, out: (line: string) => void): Promise<number> {
  const [sub, ...rest] = args;
  const store = new AgentKeyStore(redis, prefix);
  const { values, positionals } = parseArgs({
    args: rest,
    options: { label: { type: 'string' }, 'max-usd-per-swap': { type: 'string' }, 'max-swaps-per-day': { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  const usd = cap(values['max-usd-per-swap'], '--max-usd-per-swap', sub === 'set');
  const day = cap(values['max-swaps-per-day'], '--max-swaps-per-day', sub === 'set');
  switch (sub) {
    case 'create': {
      const label = values.label?.trim();
      if (!label || label.length > 64)
        throw new McpCliError('mcp-key create needs --label NAME (1-64 characters), e.g. --label "Claude on my laptop"');
      const { key, secret } = await store.create(label, {
        ...(usd != null ? { maxUsdPerSwap: usd } : {}),
        ...(day != null ? { maxSwapsPerDay: day } : {}),
      });
      out(`key id:  ${key.id}`);
      out(`secret:  ${secret}`);
      out(`caps:    ${capsText(key)}`);
      out(
        'The secret is shown only now: give it to the assistant (SWAPBOT_MCP_KEY for `swapbot mcp`, or Authorization: Bearer <secret> on /mcp).',
      );
      return 0;
    }
    case 'set': {
      const id = positionals[0];
      if (!id) throw new McpCliError('mcp-key set needs the key id (see `swapbot mcp-key list`)');
      const key = await store.setCaps(id, {
        ...(usd !== undefined ? { maxUsdPerSwap: usd } : {}),
        ...(day !== undefined ? { maxSwapsPerDay: day } : {}),
      });
      if (!key) throw new McpCliError(`no key with id ${id.slice(0, 20)} (see \`swapbot mcp-key list\`)`);
      out(`${key.id}  ${key.label}  ${capsText(key)}`);
      return 0;
    }
    case 'list': {
      const keys = await store.list();
      if (keys.length === 0) out('no keys yet: swapbot mcp-key create --label NAME');
      for (const k of keys)
        out(
          `${k.id}  ${k.label}  ${capsText(k)}${k.webhookUrl ? `  webhook ${k.webhookUrl}` : ''}  created ${new Date(k.createdAt).toISOString()}`,
        );
      return 0;
    }
    case 'revoke': {
      const id = positionals[0];
      if (!id) throw new McpCliError('mcp-key revoke needs the key id (see `swapbot mcp-key list`)');
      if (!(await store.revoke(id))) throw new McpCliError(`no key with id ${id.slice(0, 20)} (see \`swapbot mcp-key list\`)`);
      out(`revoked ${id}: its requests are refused from now on`);
      return 0;
    }
    default:
      throw new McpCliError(`usage:\n${MCP_KEY_USAGE}`);
  }
}

const capsText = (k: AgentKey): string =>
  `${k.maxUsdPerSwap !== undefined ? `approval above $${k.maxUsdPerSwap}/swap` : 'no USD threshold'}, ${k.maxSwapsPerDay !== undefined ? `${k.maxSwapsPerDay} swaps/day` : 'no daily cap'}`;

/** `swapbot mcp`: serves one key over stdin/stdout until stdin closes; pushed moments as resource updates. */
export async function runMcpStdio(opts: {
  coreDeps: CoreDeps;
  redisUrl: string;
  secret: string | undefined;
  botUsername?: string | undefined;
  logger: Logger;
}): Promise<{ closed: Promise<void>; close: () => Promise<void> }> {
  const keys = new AgentKeyStore(opts.coreDeps.redis, opts.coreDeps.keyPrefix);
  const key = await keys.verify(opts.secret);
  if (!key)
    throw new McpCliError(
      'swapbot mcp needs SWAPBOT_MCP_KEY set to a key from `swapbot mcp-key create` (this one is missing, unknown or revoked)',
    );
  const live = new Set<McpServer>();
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  const handle = serveStdio(
    () => {
      const server = mcpServer({ core: opts.coreDeps, keys, botUsername: opts.botUsername, logger: opts.logger }, key);
      live.add(server);
      server.server.onclose = () => {
        live.delete(server);
        if (live.size === 0) resolveClosed();
      };
      return server;
    },
    { onerror: (err) => opts.logger.debug({ err: asError(err, { stack: false }) }, 'mcp stdio: message refused') },
  );
  process.stdin.once('end', () => resolveClosed());
  const subscriber = createRedis(opts.redisUrl, { logger: opts.logger, name: 'mcp-events', maxRetriesPerRequest: null });
  const stop = await subscribeEvents(subscriber, opts.coreDeps.keyPrefix, (e) => {
    if (e.key_id !== key.id) return;
    for (const s of live) void s.server.sendResourceUpdated({ uri: e.resource, ...momentParams(e) }).catch(() => undefined);
  });
  opts.logger.info({ keyId: key.id }, 'mcp: serving over stdio');
  return {
    closed,
    close: async () => {
      await stop();
      await subscriber.quit().catch(() => undefined);
      await handle.close();
    },
  };
}
