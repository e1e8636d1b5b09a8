import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { describe, expect, it } from 'vitest';
import type { CoreDeps } from '../../src/bot/create-core.js';
import { CatalogCache } from '../../src/layerswap/catalog-cache.js';
import { silentLogger } from '../../src/log.js';
import { AgentKeyStore } from '../../src/mcp/key-store.js';
import { mcpServer } from '../../src/mcp/server.js';
import { newUser } from '../e2e/telegram/harness.js';
import { TgUser, useWorld } from '../e2e/telegram/world.js';
import { waitFor } from '../support/wait.js';
import { call } from './support.js';

/**
 * The hand-off: an agent (the SDK's Client over the stdio entry, serveStdio, in-process) creates a
 * swap; its link, opened in the fake Telegram (real grammY), shows that swap's deposit card in the
 * person's private chat, once, to the first person who opens it. Above the key's threshold the link
 * opens the wizard's confirmation instead, and only the person's Confirm creates the swap, which
 * get_approval then answers.
 */
const world = useWorld('mcp-handoff');
const DEST = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const ROUTE = { amount: '100', from_network: 'arbitrum', from_token: 'USDC', to_network: 'base', to_token: 'USDC' };

async function agent(caps: { maxUsdPerSwap?: number } = {}): Promise<Client> {
  const core: CoreDeps = {
    api: world.api,
    catalog: new CatalogCache(world.api, { ttlMs: 3_600_000, now: () => world.clock.now() }),
    redis: world.redis,
    keyPrefix: world.prefix,
    tracking: world.tracking.service,
    limits: { commandsPerMinute: 1000, draftTtlSeconds: 600 },
    now: () => world.clock.now(),
  };
  const keys = new AgentKeyStore(world.redis, world.prefix);
  const { key } = await keys.create('handoff', caps);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serveStdio(() => mcpServer({ core, keys, logger: silentLogger }, key), { transport: serverSide });
  const client = new Client({ name: 'desk-agent', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(clientSide);
  return client;
}

describe("hand-off to the person's Telegram chat", () => {
  it("the link shows the agent's swap's deposit card in the private chat, to its first opener only", async () => {
    const c = await agent();
    const created = await call(c, 'create_swap', { ...ROUTE, destination_address: DEST, no_refund_address: true });
    const swapId = created.data.swap_id as string;
    const start = (created.data.handoff as { start_command: string }).start_command;
    expect(start).toMatch(/^\/start ag_/);

    const alice = newUser('Alice');
    const a = new TgUser(world.fake, alice, world.fake.privateChat(alice));
    a.says(start);
    const card = await waitFor(() => a.messages().find((m) => m.photoSize && (m.caption ?? '').includes(swapId)), 'the deposit card');
    expect(card.caption).toContain('100 USDC');
    await a.sees('A swap from your assistant');

    const bob = newUser('Bob');
    const b = new TgUser(world.fake, bob, world.fake.privateChat(bob));
    b.says(start);
    await b.sees(/expired|no longer/i);
    expect(b.messages().some((m) => (m.caption ?? m.text ?? '').includes(swapId))).toBe(false);
    await c.close();
  });

  it("above the threshold: needs approval, the link opens the confirmation, and the person's Confirm creates the swap", async () => {
    const c = await agent({ maxUsdPerSwap: 10 });
    const asked = await call(c, 'create_swap', { ...ROUTE, destination_address: DEST, no_refund_address: true });
    expect(asked.data).toMatchObject({ outcome: 'needs_approval', cap: 'max_usd_per_swap', limit: 10 });
    expect((await call(c, 'get_approval', { approval_id: asked.data.approval_id })).data.outcome).toBe('pending');

    const carol = newUser('Carol');
    const u = new TgUser(world.fake, carol, world.fake.privateChat(carol));
    u.says((asked.data.handoff as { start_command: string }).start_command);
    await u.sees('above the limit you set');
    await u.presses('Confirm');
    const card = await waitFor(() => u.messages().find((m) => m.photoSize), 'the deposit card').catch((e: unknown) => {
      throw new Error(`${String(e)}: ${JSON.stringify(u.messages().map((m) => m.text ?? m.caption))}`);
    });
    const swapId = /Swap id: ([0-9a-f-]{36})/.exec(card.caption ?? '')?.[1];
    const approved = await call(c, 'get_approval', { approval_id: asked.data.approval_id });
    expect(approved.data).toMatchObject({ outcome: 'approved', swap_id: swapId });
    expect((await call(c, 'get_swap', { swap_id: swapId })).data.swap_id).toBe(swapId);
    await c.close();
  });
});
