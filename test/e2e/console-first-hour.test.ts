import { describe, expect, it } from 'vitest';
import { LanguageStore } from '../../src/i18n/store.js';
import { runCli } from '../support/cli.js';
import { LayerswapClient } from '../../src/layerswap/client.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { ManualClock } from '../../src/sandbox/types.js';
import { createTracking } from '../../src/tracking/engine.js';
import { testRedisUrl, testRedis, uniquePrefix } from '../support/redis.js';

/**
 * Issue 22 ("The first hour") at the terminal chat's start (the built CLI, the in-process sandbox,
 * real Redis): the banner in the user's language and true about pressing buttons, and an explicit
 * --lang beating a language saved earlier with /language.
 */
describe("the terminal chat's start in the user's language", () => {
  const prefix = uniquePrefix('console-start');
  const redis = testRedis(prefix);
  const env = { REDIS_URL: testRedisUrl(), REDIS_PREFIX: prefix };

  it('prints the banner in English by default, saying how to press a button while a question waits for text', async () => {
    const { code, stdout } = await runCli(['console'], '', env);
    expect(code).toBe(0);
    expect(stdout).toContain('swapbot terminal chat, against the local SANDBOX of the Layerswap API at http');
    expect(stdout).toContain("type a button's number to press it; while a question waits for your text, type # and the number");
  });

  it.each([
    [
      '--lang ru',
      ['console', '--lang', 'ru'],
      { REDIS_PREFIX: `${prefix}-ru` },
      ['Терминальный чат swapbot', 'Здесь всё ненастоящее', 'введите # и номер'],
    ],
    [
      'LANG=zh_CN.UTF-8',
      ['console'],
      { LANG: 'zh_CN.UTF-8', REDIS_PREFIX: `${prefix}-zh` },
      ['swapbot 终端聊天', '这里的一切都不是真实的', '请输入 # 加编号'],
    ],
  ])("prints the banner in the user's language (%s)", async (_name, args, extra, expected) => {
    // A prefix each: the first run's --lang is saved as the console user's choice.
    const { code, stdout } = await runCli(args, '', { ...env, ...extra });
    expect(code).toBe(0);
    for (const s of expected) expect(stdout).toContain(s);
    expect(stdout).not.toContain('Nothing here is real');
  });

  it('an explicit --lang wins over a language saved earlier with /language; an unknown one says so', async () => {
    // Spanish was chosen with /language in an earlier run (the terminal chat's user is console-user).
    await new LanguageStore(redis, `${prefix}-saved`).set('user', 'console', 'console-user', 'es');
    const { code, stdout } = await runCli(['console', '--lang', 'ru'], '/help\n', { ...env, REDIS_PREFIX: `${prefix}-saved` });
    expect(code).toBe(0);
    expect(stdout).not.toContain('Qué puedo hacer');
    expect(stdout).toContain('Что я умею');
    expect(stdout).toContain('Терминальный чат swapbot');
    const odd = await runCli(['console', '--lang', 'tlh'], '/help\n', { ...env, REDIS_PREFIX: `${prefix}-odd` });
    expect(odd.stdout).toContain('--lang tlh: I do not speak that language; I answer in English. Languages: en, ru, es, zh-CN, pt-BR.');
    expect(odd.stdout).toContain('What I can do');
  });

  it('says how to quit, is true about deposits with SANDBOX_DEPOSIT_DELAY_MS=off, and says --lang is kept', async () => {
    const off = await runCli(['console', '--lang', 'en'], '', { ...env, REDIS_PREFIX: `${prefix}-off`, SANDBOX_DEPOSIT_DELAY_MS: 'off' });
    expect(off.code).toBe(0);
    expect(off.stdout).not.toContain('deposits arrive by themselves');
    expect(off.stdout).toMatch(
      /deposits do not arrive by themselves \(SANDBOX_DEPOSIT_DELAY_MS=off\): make one with POST http:\/\/127\.0\.0\.1:\d+\/sandbox\/swaps\/<swap id>\/deposit/,
    );
    expect(off.stdout).toContain('To quit: Ctrl-D ends your input');
    expect(off.stdout).toContain('Language: English, from --lang, kept for later runs too (/language changes it).');
  });

  it('does not wait for swaps an earlier run followed that the new in-process sandbox never heard of: input ends, it exits', async () => {
    const p = `${prefix}-forgot`;
    // An earlier run created and followed a swap; its sandbox, and the swap with it, are gone.
    const sandbox = await startSandbox({ clock: new ManualClock(), timings: { depositDelayMs: 'off' } });
    const api = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, maxRetries: 0 });
    const tracking = createTracking({
      redis: testRedisUrl(),
      prefix: p,
      api,
      limits: { maxPerChat: 100, maxPerUser: 100 },
      cadence: { fastMs: 50, slowMs: 100, stuckFactor: 4 },
    });
    try {
      const follow = await tracking.service.follow(
        '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b',
        { platform: 'console', chatId: 'console-user', chatKind: 'private' },
        { userId: 'console-user' },
      );
      expect(follow.ok).toBe(true);
    } finally {
      await tracking.close();
      await api.close();
      await sandbox.close();
    }
    const { code, stdout } = await runCli(['console'], '/help\n', { ...env, REDIS_PREFIX: p }, 40_000);
    expect(code).toBe(0);
    expect(stdout).toContain('Stopped following 1 swap the sandbox no longer knows');
    expect(stdout).not.toContain('waiting for 1 followed swap');
  });
});
