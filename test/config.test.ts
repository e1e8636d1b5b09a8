import { describe, expect, it } from 'vitest';
import { assertProcessConfig, ConfigError, loadConfig, processProblems, type ProcessKind } from '../src/config.js';

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
    expect(e.message).toMatch(/PORT="eighty": must be a whole number in plain digits/);
    expect(e.message).toMatch(/TELEGRAM_BOT_TOKEN=\(hidden\): must look like 123456:ABC/);
    expect(e.message).toMatch(/LAYERSWAP_API_URL="ftp:\/\/x": must be an http\(s\) URL/);
    expect(e.message).not.toContain('supersecret');
  });

  it('checks combinations: a webhook needs its secret', () => {
    expect(() =>
      loadConfig({ TELEGRAM_WEBHOOK_URL: 'https://bot.example.com/tg', TELEGRAM_BOT_TOKEN: '123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ' }),
    ).toThrow(/TELEGRAM_WEBHOOK_SECRET is missing/);
  });

  it("reads a sandbox's clock only for a sandbox elsewhere, never against Layerswap's service", () => {
    const local = { LAYERSWAP_API_URL: 'http://127.0.0.1:8787', LAYERSWAP_API_KEY: 'sandbox' };
    expect(loadConfig({ ...local, SANDBOX_CLOCK: '1795891312000@10' }).SANDBOX_CLOCK).toEqual({ origin: 1795891312000, speed: 10 });
    expect(() => loadConfig({ ...local, SANDBOX_CLOCK: '10x' })).toThrow(/SANDBOX_CLOCK="10x": must be what `swapbot sandbox` prints/);
    expect(() => loadConfig({ ...local, SANDBOX_CLOCK: '1795891312000@0' })).toThrow(/its speed must be above 0/);
    expect(() => loadConfig({ SANDBOX_CLOCK: '1795891312000@10' })).toThrow(/the in-process sandbox shares its clock by itself/);
    expect(() =>
      loadConfig({ LAYERSWAP_API_URL: 'https://api.layerswap.io', LAYERSWAP_API_KEY: 'k', SANDBOX_CLOCK: '1795891312000@10' }),
    ).toThrow(/LAYERSWAP_API_URL is Layerswap's service/);
  });

  it('remembers secret values, including the Redis password, for redaction', () => {
    const c = loadConfig({ LAYERSWAP_API_KEY: 'key-123456', REDIS_URL: 'redis://:hunter2pass@10.0.0.1:6379' });
    expect(c.useSandbox).toBe(false);
    expect(c.secretValues).toContain('key-123456');
    expect(c.secretValues).toContain('hunter2pass');
  });

  const problemsOf = (env: Record<string, string>): readonly string[] => problemsOfProcess(env);
  const problemsOfProcess = (env: Record<string, string>, kind?: ProcessKind): readonly string[] => {
    try {
      loadConfig(env, kind);
    } catch (e) {
      if (e instanceof ConfigError) return e.problems;
      throw e;
    }
    return [];
  };

  it('names the range when a number is out of it', () => {
    expect(problemsOf({ PORT: '70000' })).toEqual(['PORT="70000": must be 0-65535 (0 picks any free port)']);
    expect(problemsOf({ COMMANDS_PER_MINUTE: '0' })).toEqual(['COMMANDS_PER_MINUTE="0": must be 1-10000']);
    // The waiting poll with webhooks: every problem at once, each naming its range.
    expect(problemsOf({ POLL_WAITING_MS: '500', POLL_SAFETY_MS: '0x10' })).toEqual([
      'POLL_SAFETY_MS="0x10": must be a whole number in plain digits, such as 3000 (no sign, decimal point, 0x or exponent)',
      'POLL_WAITING_MS="500": must be 1000-3600000',
    ]);
    expect(loadConfig({}).POLL_WAITING_MS).toBe(60_000);
    expect(problemsOf({ SANDBOX_DEPOSIT_DELAY_MS: '999999999999' })).toEqual([
      'SANDBOX_DEPOSIT_DELAY_MS="999999999999": must be 0-86400000 (milliseconds) or off',
    ]);
    expect(problemsOf({ SANDBOX_SPEED: '0' })).toEqual(['SANDBOX_SPEED="0": must be above 0 and at most 10000']);
    expect(problemsOf({ STUCK_AFTER_FACTOR: '0.5' })[0]).toMatch(/^STUCK_AFTER_FACTOR="0.5": must be 1-1000/);
    // Telegram takes 1-100 webhook connections; 40 is its own default.
    expect(problemsOf({ TELEGRAM_WEBHOOK_MAX_CONNECTIONS: '0' })).toEqual(['TELEGRAM_WEBHOOK_MAX_CONNECTIONS="0": must be 1-100']);
    expect(problemsOf({ TELEGRAM_WEBHOOK_MAX_CONNECTIONS: '101' })).toEqual(['TELEGRAM_WEBHOOK_MAX_CONNECTIONS="101": must be 1-100']);
    expect(loadConfig({}).TELEGRAM_WEBHOOK_MAX_CONNECTIONS).toBe(40);
    expect(problemsOf({ REQUIRE_PERSISTENCE: 'yes' })).toEqual([
      `REQUIRE_PERSISTENCE="yes": must be '1' (refuse a Redis without appendonly yes) or '0'`,
    ]);
  });

  it('reads numbers as plain decimal digits only, and says so', () => {
    for (const odd of ['0x3e8', '1e4', '+5', '1_000', '3000.0', '-1']) {
      expect(problemsOf({ PORT: odd }), odd).toEqual([
        `PORT=${JSON.stringify(odd)}: must be a whole number in plain digits, such as 3000 (no sign, decimal point, 0x or exponent)`,
      ]);
    }
    expect(problemsOf({ SANDBOX_SPEED: '1e2' })).toEqual([
      'SANDBOX_SPEED="1e2": must be a plain decimal number, such as 1.5 (no sign, 0x or exponent)',
    ]);
    expect(problemsOf({ SANDBOX_DEPOSIT_DELAY_MS: '0x10' })[0]).toMatch(/use off or a whole number in plain digits/);
    const c = loadConfig({ PORT: '8080', SANDBOX_SPEED: '2.5', SANDBOX_DEPOSIT_DELAY_MS: 'off', STUCK_AFTER_FACTOR: '3' });
    expect([c.PORT, c.SANDBOX_SPEED, c.SANDBOX_DEPOSIT_DELAY_MS, c.STUCK_AFTER_FACTOR]).toEqual([8080, 2.5, 'off', 3]);
  });

  it('lists problems across variables in the same run as malformed values', () => {
    const problems = problemsOf({
      PORT: '70000',
      TELEGRAM_BOT_TOKEN: 'not-a-token',
      TELEGRAM_WEBHOOK_URL: 'https://bot.example.com/tg',
      DISCORD_TOKEN: 'MTEw.some.token',
      POLL_FAST_MS: '9000',
      POLL_SLOW_MS: '3000',
    });
    expect(problems).toHaveLength(5);
    expect(problems.join('\n')).toMatch(/PORT="70000": must be 0-65535/);
    expect(problems.join('\n')).toMatch(/TELEGRAM_BOT_TOKEN=\(hidden\)/);
    expect(problems.join('\n')).toMatch(/TELEGRAM_WEBHOOK_SECRET is missing/);
    expect(problems.join('\n')).toMatch(/DISCORD_APPLICATION_ID is missing/);
    expect(problems.join('\n')).toMatch(/POLL_FAST_MS \(9000\) is above POLL_SLOW_MS \(3000\)/);
    expect(problemsOf({ DISCORD_APPLICATION_ID: '1100000000000000001' })).toEqual([
      expect.stringMatching(/^DISCORD_TOKEN is missing: DISCORD_APPLICATION_ID is set/),
    ]);
  });

  it('watched addresses: the back-off and the share of the API budget, each bad value named with its range', () => {
    expect(problemsOf({ WATCH_MIN_MS: '500', WATCH_MAX_MS: '1e6', WATCH_API_PERCENT: '0' })).toEqual([
      'WATCH_MIN_MS="500": must be 1000-86400000 (milliseconds)',
      'WATCH_MAX_MS="1e6": must be a whole number in plain digits, such as 3000 (no sign, decimal point, 0x or exponent)',
      'WATCH_API_PERCENT="0": must be 1-100 (percent of LAYERSWAP_RATE_LIMIT)',
    ]);
    expect(problemsOf({ WATCH_API_PERCENT: '150' })).toEqual(['WATCH_API_PERCENT="150": must be 1-100 (percent of LAYERSWAP_RATE_LIMIT)']);
    expect(problemsOf({ WATCH_MIN_MS: '600000', WATCH_MAX_MS: '120000' })).toEqual([
      'WATCH_MIN_MS (600000) is above WATCH_MAX_MS (120000): the check interval backs off from the first to the second',
    ]);
    const d = loadConfig({});
    expect([d.WATCH_MIN_MS, d.WATCH_MAX_MS, d.WATCH_API_PERCENT]).toEqual([60_000, 900_000, 10]);
    const c = loadConfig({ WATCH_MIN_MS: '30000', WATCH_MAX_MS: '3600000', WATCH_API_PERCENT: '25' });
    expect([c.WATCH_MIN_MS, c.WATCH_MAX_MS, c.WATCH_API_PERCENT]).toEqual([30_000, 3_600_000, 25]);
  });

  it('tells a worker without any platform token that it has nothing to deliver to', () => {
    const none = loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', LAYERSWAP_API_KEY: 'key' });
    expect(processProblems(none, 'worker')).toEqual([
      expect.stringMatching(/^swapbot worker has nothing to deliver to: .*TELEGRAM_BOT_TOKEN and\/or DISCORD_TOKEN/),
    ]);
    expect(() => assertProcessConfig(none, 'worker')).toThrow(ConfigError);
    // Listed with every other problem, in the one message the CLI prints.
    try {
      loadConfig({ PORT: '70000' }, 'worker');
      expect.unreachable();
    } catch (err) {
      expect((err as ConfigError).problems.join('\n')).toMatch(/PORT="70000"[\s\S]*nothing to deliver to/);
    }
    expect(processProblems(none, 'start')).toEqual([]);
    expect(processProblems(none, 'console')).toEqual([]);
    const discord = loadConfig({
      DISCORD_TOKEN: 'MTEw.some.token',
      DISCORD_APPLICATION_ID: '1100000000000000001',
      REDIS_URL: 'redis://127.0.0.1:6379',
      LAYERSWAP_API_KEY: 'key',
    });
    expect(processProblems(discord, 'worker')).toEqual([]);
  });

  it('lists a missing REDIS_URL (and API key) for web and worker with the other problems, in one run', () => {
    const problems = problemsOfProcess({ PORT: '70000' }, 'web');
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(/PORT="70000"/);
    expect(problems.join('\n')).toMatch(/REDIS_URL is missing: swapbot web runs beside other processes/);
    expect(problems.join('\n')).toMatch(/LAYERSWAP_API_KEY is missing/);
    expect(problemsOfProcess({ REDIS_CLUSTER_NODES: '10.0.0.1:6379', LAYERSWAP_API_KEY: 'key' }, 'web')).toEqual([]);
    // The real service without a key: reads are public, so the bot runs (quotes only), never the sandbox.
    expect(problemsOfProcess({ REDIS_URL: 'redis://127.0.0.1:6379', LAYERSWAP_API_URL: 'https://api.layerswap.io' }, 'web')).toEqual([]);
    const keyless = loadConfig({ LAYERSWAP_API_URL: 'https://api.layerswap.io' });
    expect([keyless.useSandbox, keyless.LAYERSWAP_API_KEY]).toEqual([false, undefined]);
    // One-process starts run their own Redis and sandbox.
    expect(problemsOfProcess({}, 'start')).toEqual([]);
  });

  it('refuses a Redis database that is not a number instead of using database 0', () => {
    expect(problemsOf({ REDIS_URL: 'redis://127.0.0.1:6379/notadb' })).toEqual([
      expect.stringMatching(
        /^REDIS_URL=\(hidden\): the path after the host is the database number, such as redis:\/\/127.0.0.1:6379\/0 \(got "notadb"\)/,
      ),
    ]);
    expect(problemsOf({ REDIS_URL: 'redis://:pw@127.0.0.1:6379/1/2' })).toHaveLength(1);
    expect(problemsOf({ REDIS_URL: 'redis://127.0.0.1:6379/99999999999' })).toEqual([
      expect.stringMatching(/database number 99999999999 is out of range/),
    ]);
    expect(problemsOf({ REDIS_URL: 'unix:///tmp/redis.sock?db=x' })).toEqual([
      expect.stringMatching(/\?db= of a unix:\/\/ URL is the database number/),
    ]);
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/3' }).REDIS_URL).toBe('redis://127.0.0.1:6379/3');
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/' }).REDIS_URL).toBe('redis://127.0.0.1:6379');
  });
});
