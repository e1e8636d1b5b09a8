import { describe, expect, it } from 'vitest';
import { LayerswapClient } from '../../src/layerswap/client.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { CONSOLE_SWAP_SCRIPT, runCli } from '../support/cli.js';
import { testRedisUrl, testRedis, uniquePrefix } from '../support/redis.js';
import { quoteRequest } from '../support/swaps.js';

/** What a sandbox quotes for 100 USDC Arbitrum One -> Base (fees are not proportional), as the bot prints it. */
async function sandboxReceiveFor100Usdc(): Promise<string> {
  const sandbox = await startSandbox();
  const api = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
  try {
    const { quote } = await api.getQuote(quoteRequest());
    return String(quote.receive_amount);
  } finally {
    await api.close();
    await sandbox.close();
  }
}

describe('the terminal chat over a pipe (the built CLI, the in-process sandbox, real Redis)', () => {
  const prefix = uniquePrefix('console');
  testRedis(prefix);
  const env = {
    REDIS_URL: testRedisUrl(),
    REDIS_PREFIX: prefix,
    // 2 s of real time at speed 4: the deposit card is shown before the sandbox deposits by itself (a card asked
    // for after the deposit rightly shows no address any more).
    SANDBOX_DEPOSIT_DELAY_MS: '8000',
    SANDBOX_SPEED: '4',
  };

  it('quotes, creates a swap to its deposit card, then follows it to completed and exits 0', async () => {
    const script = CONSOLE_SWAP_SCRIPT;
    const receive = await sandboxReceiveFor100Usdc();
    expect(Number(receive)).toBeLessThan(100);
    const { code, stdout, stderr } = await runCli(['console'], `${script}\n`, env);
    expect(stderr).not.toMatch(/error/i);
    expect(code).toBe(0);
    expect(stdout).toContain('SANDBOX');
    expect(stdout).toContain(`You receive: ${receive} USDC on Base`);
    expect(stdout).toMatch(/\[1\] Swap this/);
    const deposit = stdout.indexOf('Send exactly 100 USDC on Arbitrum One');
    expect(deposit).toBeGreaterThan(0);
    expect(stdout).toMatch(/Swap id: [0-9a-f-]{36}/);
    // Pushed updates arrive after the deposit card and end with completion.
    const completed = stdout.indexOf('Swap completed');
    expect(completed).toBeGreaterThan(deposit);
    expect(stdout).toContain(`Received ${receive} USDC on Base`);
  });

  it('refuses a bad configuration with every problem listed, before starting anything', async () => {
    const { code, stderr } = await runCli(['console'], '', { ...env, PORT: 'x', SANDBOX_SPEED: '-1' });
    expect(code).toBe(2);
    expect(stderr).toContain('PORT="x": must be a whole number');
    expect(stderr).toContain('SANDBOX_SPEED="-1": must be a plain decimal number');
  });

  it('answers bad input with a specific message and keeps running', async () => {
    const { code, stdout } = await runCli(
      ['console'],
      '/quote abc USDC arbitrum base\n/status not-a-uuid\n/frobnicate\n/quote 100 USDC arbitum base\n',
      env,
    );
    expect(code).toBe(0);
    expect(stdout).toContain('"abc" is not a number');
    // What was entered is kept: the route is remembered while the amount is asked again.
    expect(stdout).toContain('So far: USDC on Arbitrum One → USDC on Base');
    expect(stdout).toContain('That is not a swap id');
    expect(stdout).toContain('I do not know /frobnicate');
    expect(stdout).toContain('There is no network called "arbitum". Did you mean Arbitrum One?');
  });
});
