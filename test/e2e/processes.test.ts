import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LayerswapClient } from '../../src/layerswap/client.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { ManualClock, type SandboxServer } from '../../src/sandbox/types.js';
import { testRedis, testRedisUrl, uniquePrefix } from '../support/redis.js';
import { startDiscordWorld, titleOf, embedText, unescape, type DiscordWorld } from './discord/harness.js';
import { FakeBotApi } from './telegram/fake-bot-api.js';
import { waitFor, WAIT_MS } from '../support/wait.js';
import { swapRequest, quoteRequest } from '../support/swaps.js';
import { freePort, startCli, type CliProcess } from '../support/cli.js';

/**
 * The Procfile's two processes, as deployed: `swapbot web` (Telegram long polling, /health) and
 * `swapbot worker` (tracking), separate OS processes sharing only Redis, against the sandbox and a
 * fake Bot API over real sockets. Proves the adapters and the tracking engine are wired into the
 * running bot, and that SIGTERM drains both cleanly.
 */

async function health(port: number): Promise<number | undefined> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/health`)).status;
  } catch {
    return undefined;
  }
}

/**
 * Moves sandbox time 1 s at a time until `done`, each step once the worker has polled since the
 * move (the sandbox counts the requests: a signal, not a pause) or `done` already holds.
 */
async function stepUntil(sandbox: SandboxServer, clock: ManualClock, done: () => boolean): Promise<void> {
  for (let i = 0; i < 40 && !done(); i++) {
    clock.advance(1_000);
    const polls = sandbox.requestCount('getSwap');
    await waitFor(() => done() || sandbox.requestCount('getSwap') > polls, 'a poll after the clock moved');
  }
}

describe('swapbot web + swapbot worker as separate processes', () => {
  const prefix = uniquePrefix('procs');
  testRedis(prefix);
  let fake: FakeBotApi;
  let sandbox: SandboxServer;
  const clock = new ManualClock();
  let web: CliProcess;
  let worker: CliProcess;
  let port: number;
  let workerPort: number;

  beforeAll(async () => {
    fake = await FakeBotApi.start();
    sandbox = await startSandbox({ clock, timings: { depositDelayMs: 'off', confirmationIntervalMs: 1_000, payoutDelayMs: 1_000 } });
    port = await freePort();
    workerPort = await freePort();
    const env = {
      REDIS_URL: testRedisUrl(),
      REDIS_PREFIX: prefix,
      LAYERSWAP_API_URL: sandbox.url,
      LAYERSWAP_API_KEY: sandbox.apiKey,
      TELEGRAM_BOT_TOKEN: fake.token,
      TELEGRAM_API_ROOT: fake.apiRoot,
      POLL_FAST_MS: '200',
      POLL_SLOW_MS: '300',
      PORT: String(port),
      // One host, one environment: the worker's /health and /metrics go on their own port.
      WORKER_PORT: String(workerPort),
      LOG_LEVEL: 'info',
    };
    web = startCli('web', env);
    worker = startCli('worker', env);
  });

  afterAll(async () => {
    for (const p of [web, worker]) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await fake.close();
    await sandbox.close();
  });

  it('answers in Telegram, pushes status cards from the worker, serves /health, and drains on SIGTERM', async () => {
    const alice = { id: 4242, is_bot: false, first_name: 'Alice' };
    const chat = fake.privateChat(alice);

    // The web process answers a command over long polling.
    fake.sendText(chat, alice, '/quote 100 USDC arbitrum base');
    const quote = await waitFor(() => fake.botMessages(chat.id).find((m) => m.text?.includes('You receive')), 'the quote card');
    // The amount the sandbox quotes (a fixed network cost plus a small rate), not a made-up one.
    const api = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
    const expected = await api.getQuote(quoteRequest());
    expect(quote.text).toContain(`You receive: ${expected.quote.receive_amount} USDC on Base`);

    // A swap made elsewhere, followed with /track: the worker process polls it and pushes cards.
    const created = await api.createSwap(swapRequest('0x1111111111111111111111111111111111111111'));
    await api.close();
    const id = created.swap.id;
    fake.sendText(chat, alice, `/track ${id}`);
    const card = await waitFor(
      () => fake.botMessages(chat.id).find((m) => m.text?.includes(id.slice(0, 8)) && /Waiting for your deposit/i.test(m.text)),
      'the status card from the worker',
    );
    expect(fake.botMessages(chat.id).filter((m) => m.text?.includes(`Swap ${id.slice(0, 8)}`))).toHaveLength(1); // one card per swap per chat

    sandbox.deposit(id);
    // The payout completes before the status does (as on the real service): "Swap completed" is
    // sent at delivery, and the card moves on to Completed when the status follows.
    const finalTitle = `Swap ${id.slice(0, 8)}: Completed`;
    const cardText = () => fake.message(chat.id, card.message_id)?.text ?? '';
    await stepUntil(sandbox, clock, () => cardText().includes(finalTitle));
    await waitFor(() => fake.botMessages(chat.id).find((m) => m.text?.includes('Swap completed')), 'the completion message');
    // The one status card was edited in place to its final state.
    await waitFor(() => (cardText().includes(finalTitle) ? true : undefined), 'the card to say Completed');
    expect(fake.botMessages(chat.id).filter((m) => m.text?.includes('Swap completed'))).toHaveLength(1);
    expect(fake.botMessages(chat.id).filter((m) => m.text?.includes(`Swap ${id.slice(0, 8)}`))).toHaveLength(1);

    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(health.status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${workerPort}/health`)).status).toBe(200);
    // The worker's own counters: the cards it pushed to Telegram.
    const metrics = await (await fetch(`http://127.0.0.1:${workerPort}/metrics`)).text();
    expect(
      Number(/^swapbot_notify_deliveries_total\{platform="telegram",outcome="delivered"\} (\d+)$/m.exec(metrics)?.[1] ?? 0),
    ).toBeGreaterThanOrEqual(2);

    web.child.kill('SIGTERM');
    worker.child.kill('SIGTERM');
    expect(await web.exited).toBe(0);
    expect(await worker.exited).toBe(0);
    // Secrets never reach the logs.
    expect(web.output() + worker.output()).not.toContain(fake.token.split(':')[1]!);
  });
});

describe('swapbot web + swapbot worker on Discord', () => {
  const prefix = uniquePrefix('procs-dc');
  testRedis(prefix);
  let world: DiscordWorld;
  let sandbox: SandboxServer;
  const clock = new ManualClock();
  let web: CliProcess;
  let worker: CliProcess;

  beforeAll(async () => {
    world = await startDiscordWorld();
    sandbox = await startSandbox({ clock, timings: { depositDelayMs: 'off', confirmationIntervalMs: 1_000, payoutDelayMs: 1_000 } });
    const env = {
      REDIS_URL: testRedisUrl(),
      REDIS_PREFIX: prefix,
      LAYERSWAP_API_URL: sandbox.url,
      LAYERSWAP_API_KEY: sandbox.apiKey,
      DISCORD_TOKEN: world.token,
      DISCORD_APPLICATION_ID: world.applicationId,
      DISCORD_API_URL: world.fake.apiUrl,
      DISCORD_GATEWAY_URL: world.fake.gatewayUrl,
      POLL_FAST_MS: '200',
      POLL_SLOW_MS: '300',
      PORT: String(await freePort()),
      WORKER_PORT: String(await freePort()),
    };
    web = startCli('web', env);
    worker = startCli('worker', env);
  });

  afterAll(async () => {
    for (const p of [web, worker]) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await world.fake.close();
    await sandbox.close();
  });

  it('answers a slash command through the gateway and the worker edits the live card in the DM', async () => {
    const fake = world.fake;
    const api = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
    const created = await api.createSwap(swapRequest('0x1111111111111111111111111111111111111111'));
    await api.close();
    const id = created.swap.id;
    const short = id.slice(0, 8);

    // The gateway session of the web process is up once a slash command gets an answer.
    const dm = fake.world.dmChannel(world.alice.user.id).id;
    const cardIn = () => fake.messagesIn(dm).find((m) => titleOf(m).includes(`Swap ${short}`) && !m.interactionId);
    await waitFor(
      () => fake.gateway.stats.identifies.some((i) => i.token === 'ok') || undefined,
      'the web process to identify on the gateway',
    );
    await waitFor(() => web.output().includes('discord connected'), 'the web process to handle READY and GUILD_CREATE');
    fake.slashCommand(world.aliceDm, 'track', { swap_id: id });
    const card = await waitFor(cardIn, 'the live card pushed by the worker');
    expect(unescape(embedText(card))).toMatch(/Waiting for your deposit/);

    sandbox.deposit(id);
    await stepUntil(sandbox, clock, () => /Completed/.test(titleOf(fake.message(card.id))));
    await waitFor(() => /Completed/.test(titleOf(fake.message(card.id))) || undefined, 'the card edited to Completed');
    expect(fake.messagesIn(dm).filter((m) => titleOf(m).includes(`Swap ${short}`) && !m.interactionId)).toHaveLength(1);

    web.child.kill('SIGTERM');
    worker.child.kill('SIGTERM');
    expect(await web.exited).toBe(0);
    expect(await worker.exited).toBe(0);
    expect(web.output() + worker.output()).not.toContain(world.token);
  });
});

describe('swapbot web when Telegram misbehaves', () => {
  const prefix = uniquePrefix('procs-tg');
  testRedis(prefix);
  let sandbox: SandboxServer;
  const procs: CliProcess[] = [];
  const fakes: FakeBotApi[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ timings: { depositDelayMs: 'off' } });
  });
  afterAll(async () => {
    for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    for (const f of fakes) await f.close();
    await sandbox.close();
  });

  const envFor = (apiRoot: string, token: string, port: number) => ({
    REDIS_URL: testRedisUrl(),
    REDIS_PREFIX: prefix,
    LAYERSWAP_API_URL: sandbox.url,
    LAYERSWAP_API_KEY: sandbox.apiKey,
    TELEGRAM_BOT_TOKEN: token,
    TELEGRAM_API_ROOT: apiRoot,
    PORT: String(port),
    LOG_LEVEL: 'info',
  });
  const web = (env: Record<string, string>) => {
    const p = startCli('web', env);
    procs.push(p);
    return p;
  };
  /** A fake Telegram with this token and a web process on it, healthy, and Alice's private chat. */
  const readyWeb = async (token: string) => {
    const fake = await FakeBotApi.start({ token });
    fakes.push(fake);
    const port = await freePort();
    const p = web(envFor(fake.apiRoot, fake.token, port));
    await expect.poll(() => health(port), { timeout: WAIT_MS, interval: 200 }).toBe(200);
    const alice = { id: 6161, is_bot: false, first_name: 'Alice' };
    return { fake, p, alice, chat: fake.privateChat(alice) };
  };

  it('starts while Telegram is unreachable: says so, /health 503, then 200 once Telegram answers', async () => {
    const [port, telegramPort] = [await freePort(), await freePort()];
    const token = '777001:TEST-unreachable-abcdefghijklmnopqrstu';
    const p = web(envFor(`http://127.0.0.1:${telegramPort}`, token, port));
    await expect.poll(() => health(port), { timeout: WAIT_MS, interval: 200 }).toBe(503);
    await expect.poll(() => p.output(), { timeout: WAIT_MS }).toMatch(/cannot reach the Bot API/);

    // Telegram comes back where the process looks: it connects on its own and becomes ready.
    const fake = await FakeBotApi.start({ token, port: telegramPort });
    fakes.push(fake);
    await expect.poll(() => health(port), { timeout: WAIT_MS, interval: 250 }).toBe(200);
    const alice = { id: 5151, is_bot: false, first_name: 'Alice' };
    fake.sendText(fake.privateChat(alice), alice, '/help');
    await waitFor(() => fake.botMessages(alice.id)[0], 'an answer once connected');
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });

  it('an update in hand when web is SIGKILLed is answered by the next web process', async () => {
    const { fake, p: first, alice, chat } = await readyWeb('777002:TEST-sigkill-abcdefghijklmnopqrstuvw');
    // Telegram takes the reply but never answers: the update is in hand when the process dies.
    fake.hold({ method: 'sendMessage', chatId: chat.id });
    fake.sendText(chat, alice, '/help');
    await waitFor(() => fake.callsTo('sendMessage').find((c) => c.held), 'the reply in flight');
    first.child.kill('SIGKILL');
    await first.exited;

    fake.releaseHolds();
    const second = web(envFor(fake.apiRoot, fake.token, await freePort()));
    const reply = await waitFor(() => fake.botMessages(chat.id)[0], 'the reply from the next process');
    expect(reply.text).toMatch(/\/quote/);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(fake.botMessages(chat.id)).toHaveLength(1);
  });

  it('SIGTERM ends the process within 25 s while Telegram hangs, naming what hung', async () => {
    const { fake, p, alice, chat } = await readyWeb('777003:TEST-hanging-abcdefghijklmnopqrstuvw');
    // From now on Telegram answers nothing (the poll in progress still delivers this update).
    fake.hold();
    fake.sendText(chat, alice, '/help');
    await waitFor(() => fake.callsTo('sendMessage').find((c) => c.held), 'the reply hanging');

    const t0 = Date.now();
    p.child.kill('SIGTERM');
    await p.exited;
    expect(Date.now() - t0).toBeLessThan(25_000);
    expect(p.output()).toMatch(/updates still in hand at shutdown|still closing/);
  });
});

describe('swapbot worker beside web on one host', () => {
  const prefix = uniquePrefix('procs-port');
  testRedis(prefix);

  it('says which variable to set when its port is taken, instead of a bare EADDRINUSE', async () => {
    const busy = net.createServer();
    const port = await new Promise<number>((r) => busy.listen(0, '0.0.0.0', () => r((busy.address() as net.AddressInfo).port)));
    try {
      const env = {
        REDIS_URL: testRedisUrl(),
        REDIS_PREFIX: prefix,
        LAYERSWAP_API_URL: 'http://127.0.0.1:9',
        LAYERSWAP_API_KEY: 'unused-key',
        TELEGRAM_BOT_TOKEN: '777003:TEST-port-taken-abcdefghijklmnopqrs',
        TELEGRAM_API_ROOT: 'http://127.0.0.1:9',
        PORT: String(port),
      };
      const worker = startCli('worker', env);
      expect(await worker.exited).not.toBe(0);
      expect(worker.output()).toContain(`port ${port} (PORT) is in use`);
      expect(worker.output()).toContain('set WORKER_PORT');
    } finally {
      await new Promise((r) => busy.close(r));
    }
  });
});
