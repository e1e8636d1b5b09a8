import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import type { SandboxServer } from '../../src/sandbox/types.js';
import { testRedis, testRedisUrl, uniquePrefix } from '../support/redis.js';
import { answerOf, startDiscordWorld, type DiscordWorld } from './discord/harness.js';
import { FakeBotApi } from './telegram/fake-bot-api.js';
import { waitFor } from '../support/wait.js';
import { CLI, freePort } from '../support/cli.js';

/**
 * One failure domain per platform (issue 33): `swapbot web` with Telegram and Discord, as built.
 * Discord refusing at start used to end the process (code 1 within seconds), taking Telegram and
 * the webhooks with it; now Discord is retried with back-off while Telegram answers, and the other
 * way round Discord answers while Telegram cannot be reached.
 */

async function health(port: number): Promise<number | undefined> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/health`)).status;
  } catch {
    return undefined;
  }
}

interface Proc {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function web(env: Record<string, string>): Proc {
  const child = spawn(process.execPath, [CLI, 'web'], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  return { child, output: () => out, exited: new Promise((r) => child.on('exit', (code) => r(code))) };
}

const prefix = uniquePrefix('domains');
testRedis(prefix);
let sandbox: SandboxServer;
const procs: Proc[] = [];
const worlds: DiscordWorld[] = [];
const fakes: FakeBotApi[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ timings: { depositDelayMs: 'off' } });
});
afterAll(async () => {
  for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  for (const w of worlds) await w.fake.close();
  for (const f of fakes) await f.close();
  await sandbox.close();
});

const envFor = (world: DiscordWorld, telegram: { apiRoot: string; token: string }, port: number) => ({
  REDIS_URL: testRedisUrl(),
  REDIS_PREFIX: prefix,
  LAYERSWAP_API_URL: sandbox.url,
  LAYERSWAP_API_KEY: sandbox.apiKey,
  TELEGRAM_BOT_TOKEN: telegram.token,
  TELEGRAM_API_ROOT: telegram.apiRoot,
  DISCORD_TOKEN: world.token,
  DISCORD_APPLICATION_ID: world.applicationId,
  DISCORD_API_URL: world.fake.apiUrl,
  DISCORD_GATEWAY_URL: world.fake.gatewayUrl,
  PORT: String(port),
  LOG_LEVEL: 'info',
});

describe('swapbot web: one platform down does not take the other with it', () => {
  it('Discord refusing at start: the process stays up, Telegram answers, and Discord connects once it accepts', async () => {
    const world = await startDiscordWorld();
    worlds.push(world);
    const telegram = await FakeBotApi.start({ token: '777101:TEST-domains-abcdefghijklmnopqrstuvw' });
    fakes.push(telegram);
    // Discord answers 500 to the gateway lookup of the first login attempts (discord.js retries each a few times).
    world.fake.fail({ method: 'GET', path: /\/gateway\/bot/, status: 500, times: 8 });
    const port = await freePort();
    const p = web(envFor(world, telegram, port));
    procs.push(p);

    await expect.poll(() => p.output(), { timeout: 30_000 }).toMatch(/discord: cannot connect; retrying with back-off/);
    const alice = { id: 7171, is_bot: false, first_name: 'Alice' };
    telegram.sendText(telegram.privateChat(alice), alice, '/help');
    await waitFor(() => telegram.botMessages(alice.id)[0], 'Telegram answering while Discord refuses');
    expect(p.child.exitCode).toBeNull();

    await expect.poll(() => health(port), { timeout: 60_000, interval: 250 }).toBe(200);
    expect(p.output()).toMatch(/discord connected/);
    const answer = await answerOf(world.fake, world.fake.slashCommand(world.alice, 'help'));
    expect(answer.ephemeral).toBeDefined();
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });

  it('Telegram unreachable at start: Discord answers meanwhile', async () => {
    const world = await startDiscordWorld();
    worlds.push(world);
    const port = await freePort();
    const p = web(
      envFor(world, { apiRoot: `http://127.0.0.1:${await freePort()}`, token: '777102:TEST-nowhere-abcdefghijklmnopqrstuvw' }, port),
    );
    procs.push(p);
    await expect.poll(() => p.output(), { timeout: 30_000 }).toMatch(/discord connected/);
    const answer = await answerOf(world.fake, world.fake.slashCommand(world.alice, 'help'));
    expect(answer.ephemeral).toBeDefined();
    expect(await health(port)).toBe(503);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });
});
