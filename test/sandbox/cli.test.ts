import { describe, expect, it } from 'vitest';
import { parseSandboxArgs, runSandboxCli } from '../../src/sandbox/cli.js';
import { raw } from './support.js';

/** The standalone sandbox: one line out (two when its clock runs faster), real requests served, closed by a signal. */

async function runUntilListening(argv: string[], env: Record<string, string | undefined>) {
  const lines: string[] = [];
  const stop = new AbortController();
  let listening!: (line: string) => void;
  const firstLine = new Promise<string>((resolve) => (listening = resolve));
  const done = runSandboxCli(argv, env, {
    out: (line) => {
      lines.push(line);
      listening(line);
    },
    signal: stop.signal,
  });
  const line = await Promise.race([
    firstLine,
    done.then(() => {
      throw new Error('the CLI returned before listening');
    }),
  ]);
  const url = /(http:\/\/[^\s)]+)/.exec(line)?.[1] ?? '';
  return {
    line,
    url,
    lines,
    stop: async () => {
      stop.abort();
      await done;
    },
  };
}

describe('sandbox CLI', () => {
  it('serves the API on the given port with the key from the environment, and prints its lines without the key', async () => {
    const cli = await runUntilListening(['--port', '0', '--host', '127.0.0.1', '--speed', '60'], {
      SANDBOX_API_KEY: 's3cret-key',
      SANDBOX_DEPOSIT_DELAY_MS: 'off',
    });
    try {
      // The listening line, then (at a speed above 1) the clock line for the bot's processes.
      expect(cli.lines).toHaveLength(2);
      expect(cli.lines[1]).toMatch(/^clock: start the bot with SANDBOX_CLOCK=\d{13}@60 /);
      expect(cli.lines.join('\n')).not.toContain('s3cret-key');
      expect(cli.line).toContain('SANDBOX_API_KEY');
      expect(cli.line).toContain('deposits off');
      expect(cli.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const ok = await raw(cli.url, '/api/v2/networks?network_types=bitcoin', { key: 's3cret-key' });
      expect(ok.status).toBe(200);
      expect((ok.json.data as { name: string }[]).map((n) => n.name)).toEqual(['BITCOIN_MAINNET']);
      expect((await raw(cli.url, '/api/v2/networks', { key: 'sandbox' })).status).toBe(403);
    } finally {
      await cli.stop();
    }
    await expect(fetch(`${cli.url}/health`)).rejects.toThrow();
  });

  it('shows the default key, which is no secret', async () => {
    const cli = await runUntilListening(['--port=0'], {});
    try {
      expect(cli.line).toContain('X-LS-APIKEY: sandbox');
      expect(cli.line).toContain('after 4000 ms');
      expect((await raw(cli.url, '/api/v2/networks', { key: 'sandbox' })).status).toBe(200);
    } finally {
      await cli.stop();
    }
  });

  it('prefers --api-key over the environment and explains bad values', () => {
    expect(parseSandboxArgs(['--api-key', 'flag-key'], { SANDBOX_API_KEY: 'env-key' })).toMatchObject({
      apiKey: 'flag-key',
      keySource: '--api-key',
      port: 8787,
    });
    expect(() => parseSandboxArgs(['--port', 'eighty'], {})).toThrow(/--port must be a whole number/);
    expect(() => parseSandboxArgs(['--speed', '0'], {})).toThrow(/--speed/);
    expect(() => parseSandboxArgs(['--colour'], {})).toThrow(/Unknown option '--colour'/);
    expect(() => parseSandboxArgs(['--host'], {})).toThrow(/--host needs a value/);
    expect(() => parseSandboxArgs([], { SANDBOX_DEPOSIT_DELAY_MS: 'soon' })).toThrow(/SANDBOX_DEPOSIT_DELAY_MS/);
    expect(parseSandboxArgs([], { SANDBOX_DEPOSIT_DELAY_MS: 'OFF', SANDBOX_SPEED: '10' })).toMatchObject({
      depositDelayMs: 'off',
      speed: 10,
    });
  });

  it('turns webhooks on only with both SANDBOX_WEBHOOK_URL and SANDBOX_WEBHOOK_SECRET, never echoing the secret', () => {
    expect(parseSandboxArgs([], {}).webhook).toBeUndefined();
    const env = { SANDBOX_WEBHOOK_URL: 'http://127.0.0.1:3000/webhooks/layerswap', SANDBOX_WEBHOOK_SECRET: 'whsec_c2VjcmV0LXNlY3JldA==' };
    expect(parseSandboxArgs([], env).webhook).toEqual({ url: env.SANDBOX_WEBHOOK_URL, secret: env.SANDBOX_WEBHOOK_SECRET });
    let message = '';
    try {
      parseSandboxArgs([], { SANDBOX_WEBHOOK_SECRET: env.SANDBOX_WEBHOOK_SECRET });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/SANDBOX_WEBHOOK_URL and SANDBOX_WEBHOOK_SECRET go together/);
    expect(message).not.toContain('c2VjcmV0');
  });

  it('prints usage for --help without starting a server', async () => {
    const lines: string[] = [];
    await runSandboxCli(['--help'], {}, { out: (l) => lines.push(l) });
    expect(lines.join('\n')).toMatch(/Usage: swapbot sandbox/);
  });
});
