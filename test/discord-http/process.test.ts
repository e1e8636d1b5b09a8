import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { ManualClock, type SandboxServer } from '../../src/sandbox/types.js';
import { answerOf, startDiscordWorld, titleOf, unescape, type DiscordWorld } from '../e2e/discord/harness.js';
import type { HttpInteractions } from '../e2e/discord/fake-interactions-http.js';
import { testRedis, testRedisUrl, uniquePrefix } from '../support/redis.js';
import { waitFor } from '../support/wait.js';
import { freePort, startCli, type CliProcess } from '../support/cli.js';

/**
 * `swapbot web` with DISCORD_INTERACTIONS=http, as deployed: two replicas (separate OS processes
 * sharing only Redis) behind which the fake Discord POSTs signed interactions. Neither connects
 * to the gateway; a request replayed to the other replica is refused.
 */
async function healthy(port: number): Promise<true | undefined> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/health`)).status === 200 || undefined;
  } catch {
    return undefined;
  }
}

describe('swapbot web with DISCORD_INTERACTIONS=http, two replicas', () => {
  const prefix = uniquePrefix('procs-dch');
  testRedis(prefix);
  let world: DiscordWorld;
  let delivery: HttpInteractions;
  let sandbox: SandboxServer;
  const ports: number[] = [];
  const webs: CliProcess[] = [];

  beforeAll(async () => {
    world = await startDiscordWorld();
    delivery = world.fake.deliverOverHttp();
    sandbox = await startSandbox({ clock: new ManualClock(), timings: { depositDelayMs: 'off' } });
    for (let n = 0; n < 2; n++) {
      const port = await freePort();
      ports.push(port);
      webs.push(
        startCli('web', {
          REDIS_URL: testRedisUrl(),
          REDIS_PREFIX: prefix,
          LAYERSWAP_API_URL: sandbox.url,
          LAYERSWAP_API_KEY: sandbox.apiKey,
          DISCORD_TOKEN: world.token,
          DISCORD_APPLICATION_ID: world.applicationId,
          DISCORD_API_URL: world.fake.apiUrl,
          DISCORD_INTERACTIONS: 'http',
          DISCORD_PUBLIC_KEY: delivery.publicKeyHex,
          PORT: String(port),
        }),
      );
    }
    for (const port of ports) await waitFor(() => healthy(port), `web on ${port} to be healthy`);
  });

  afterAll(async () => {
    for (const p of webs) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await world?.fake.close();
    await sandbox?.close();
  });

  const endpointOf = (n: number) => `http://127.0.0.1:${ports[n]}/discord/interactions`;

  it('answers PING and slash commands on either replica, with no gateway connection', async () => {
    for (const n of [0, 1]) {
      delivery.endpoint = endpointOf(n);
      expect(
        await delivery.post(JSON.stringify({ id: `90${n}`, application_id: world.applicationId, type: 1, token: 't', version: 1 })),
      ).toEqual({
        status: 200,
        body: { type: 1 },
      });
      const help = await answerOf(world.fake, world.fake.slashCommand(world.alice, 'help'));
      expect(unescape(titleOf(help))).toBe('What I can do');
    }
    expect(world.fake.gateway.stats.connections).toBe(0);
    expect(webs[0]!.output()).toContain('interactions over HTTP');
  });

  it('refuses a bad signature, and a request replayed to the other replica', async () => {
    const first = world.fake.slashCommand(world.alice, 'help');
    delivery.endpoint = endpointOf(0);
    await answerOf(world.fake, first);
    const body = JSON.stringify({ ...first.payload, id: '9911', token: 'replayed-token' });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = delivery.sign(timestamp, body);
    expect((await delivery.post(body, { timestamp, signature: 'ab'.repeat(64) })).status).toBe(401);
    expect((await delivery.post(body, { timestamp, signature })).status).toBe(200);
    delivery.endpoint = endpointOf(1);
    expect((await delivery.post(body, { timestamp, signature })).status).toBe(401);
  });

  it('stops cleanly on SIGTERM, and no token reached the logs', async () => {
    for (const p of webs) p.child.kill('SIGTERM');
    for (const p of webs) expect(await p.exited).toBe(0);
    for (const p of webs) expect(p.output()).not.toContain(world.token);
  });
});
