import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { CLI, runCli } from '../support/cli.js';
import { testRedis, testRedisUrl, uniquePrefix } from '../support/redis.js';
import { waitFor } from '../support/wait.js';
import { AgentKeyStore } from '../../src/mcp/key-store.js';
import { call } from './support.js';

/**
 * `swapbot mcp-key` and `swapbot mcp` as a desktop assistant runs them: the built CLI spawned, the
 * SDK's Client over its stdin/stdout, the in-process sandbox (no API key) and real Redis. The agent
 * quotes, creates and is told "completed" by push: the in-process sandbox pays the deposit itself.
 */
const prefix = uniquePrefix('mcpcli');
const env = { REDIS_URL: testRedisUrl(), REDIS_PREFIX: prefix, SANDBOX_DEPOSIT_DELAY_MS: '200', SANDBOX_SPEED: '50' };
const redis = testRedis(prefix);
// The first test makes a key with `swapbot mcp-key`; the others make theirs in-process (one CLI process less each).
const keys = new AgentKeyStore(redis, prefix);

/**
 * 50 USDC Arbitrum → Base made through the create_swap tool; the key moments pushed about it. The
 * handler is set first: at SANDBOX_SPEED 50 on a loaded machine the swap can complete, and its
 * moments be pushed, before the tool's answer names the swap.
 */
async function createdAndHeard(client: Client): Promise<{ swapId: string; moments: () => string[] }> {
  const heard: Array<{ uri: string; moment: string }> = [];
  client.setNotificationHandler('notifications/resources/updated', (n) => {
    const m = (n.params._meta as Record<string, { moment: string } | undefined> | undefined)?.['swapbot/moment'];
    if (m) heard.push({ uri: n.params.uri, moment: m.moment });
  });
  const created = await call(client, 'create_swap', {
    amount: '50',
    from_network: 'arbitrum',
    from_token: 'USDC',
    to_network: 'base',
    destination_address: '0x1111111111111111111111111111111111111111',
    no_refund_address: true,
  });
  const swapId = created.data.swap_id as string;
  return { swapId, moments: () => heard.filter((h) => h.uri === `swap://${swapId}`).map((h) => h.moment) };
}

describe('swapbot mcp-key and swapbot mcp (stdio)', () => {
  it('creates a key whose secret is printed once and stored only hashed; a bad cap gets a specific message', async () => {
    const made = await runCli(['mcp-key', 'create', '--label', 'laptop', '--max-swaps-per-day', '5'], '', env);
    expect(made.code).toBe(0);
    const secret = /secret:\s+(\S+)/.exec(made.stdout)?.[1] ?? '';
    expect(secret).toMatch(/^sbk_/);
    const hashes = await Promise.all((await redis.keys(`${prefix}:mcp:key*`)).map((k) => redis.hgetall(k)));
    const stored = JSON.stringify(hashes);
    expect(stored).toContain('laptop');
    expect(stored).not.toContain(secret);
    const list = await runCli(['mcp-key', 'list'], '', env);
    expect(list.stdout).toContain('laptop');
    expect(list.stdout).not.toContain(secret);
    const bad = await runCli(['mcp-key', 'create', '--label', 'x', '--max-usd-per-swap', 'lots'], '', env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-usd-per-swap takes a number');
  });

  it('an assistant over stdio quotes, creates and is told the swap completed, without polling', async () => {
    const { secret } = await keys.create('desktop', {});
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env, SWAPBOT_MCP_KEY: secret },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'desktop', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(transport);
    try {
      const quote = await call(client, 'quote', { amount: '50', from_network: 'arbitrum', from_token: 'USDC', to_network: 'base' });
      expect(quote.isError).toBe(false);
      const { swapId, moments } = await createdAndHeard(client);
      await client.listen({ resourceSubscriptions: [`swap://${swapId}`] });
      // The sandbox runs fast here: a deposit seen and its completion may land in one poll, and
      // then only the newer news is pushed (tracking skips superseded moments); completed always is.
      await waitFor(() => moments().includes('completed'), 'completed pushed over stdio');
    } finally {
      await client.close();
    }
  });

  it('a 2025-era client subscribes with resources/subscribe to its own swap only, and is told it completed', async () => {
    const { secret } = await keys.create('older', {});
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env, SWAPBOT_MCP_KEY: secret },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'older', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
    await client.connect(transport);
    try {
      const { swapId, moments } = await createdAndHeard(client);
      await expect(client.subscribeResource({ uri: 'swap://00000000-0000-4000-8000-000000000000' })).rejects.toThrow(/no swap of this key/);
      await client.subscribeResource({ uri: `swap://${swapId}` });
      await waitFor(() => moments().includes('completed'), 'completed pushed to a 2025-era client');
    } finally {
      await client.close();
    }
  });

  it('refuses to start without a valid key, saying what to set', async () => {
    const r = await runCli(['mcp'], '', { ...env, SWAPBOT_MCP_KEY: 'sbk_wrong' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('SWAPBOT_MCP_KEY');
  });
});
