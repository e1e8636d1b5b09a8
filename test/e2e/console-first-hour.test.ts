import { describe, expect, it } from 'vitest';
import { LanguageStore } from '../../src/i18n/store.js';
import { runCli } from '../support/cli.js';
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
});
