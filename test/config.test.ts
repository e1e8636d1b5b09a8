import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

describe('config', () => {
  it('starts with no variables at all: sandbox, console, defaults', () => {
    const c = loadConfig({});
    expect(c.useSandbox).toBe(true);
    expect(c.telegramEnabled).toBe(false);
    expect(c.LAYERSWAP_API_URL).toBe('https://api.layerswap.io');
    expect(c.SANDBOX_API_KEY).toBe('sandbox');
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('lists every problem at once with how to fix it, and never echoes a secret', () => {
    let err: unknown;
    try {
      loadConfig({ PORT: 'eighty', TELEGRAM_BOT_TOKEN: 'not-a-token-supersecret', LAYERSWAP_API_URL: 'ftp://x', LOG_LEVEL: 'loud' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const e = err as ConfigError;
    expect(e.problems).toHaveLength(4);
    expect(e.message).toMatch(/PORT="eighty": must be a whole number/);
    expect(e.message).toMatch(/TELEGRAM_BOT_TOKEN=\(hidden\): must look like 123456:ABC/);
    expect(e.message).toMatch(/LAYERSWAP_API_URL="ftp:\/\/x": must be an http\(s\) URL/);
    expect(e.message).not.toContain('supersecret');
  });

  it('checks combinations: a webhook needs its secret', () => {
    expect(() => loadConfig({ TELEGRAM_WEBHOOK_URL: 'https://bot.example.com/tg', TELEGRAM_BOT_TOKEN: '123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ' })).toThrow(/TELEGRAM_WEBHOOK_SECRET is missing/);
  });

  it('remembers secret values, including the Redis password, for redaction', () => {
    const c = loadConfig({ LAYERSWAP_API_KEY: 'key-123456', REDIS_URL: 'redis://:hunter2pass@10.0.0.1:6379' });
    expect(c.useSandbox).toBe(false);
    expect(c.secretValues).toContain('key-123456');
    expect(c.secretValues).toContain('hunter2pass');
  });
});
