import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { memoryLogger } from '../support/log.js';
import { WAIT_MS } from '../support/wait.js';
import { CLI } from '../support/cli.js';

/**
 * The chain watcher's settings as an operator meets them: CHAIN_WATCH (auto by default, off,
 * anything else listed with the other problems), CHAIN_RPC_URLS (bad entries named, the URLs'
 * keys never echoed or logged), and `swapbot sandbox --chain` printing its RPC and funded key.
 */

function problemsOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('the configuration was accepted');
}

describe('chain watcher configuration', () => {
  it('watches by default, turns off with CHAIN_WATCH=off, and lists a bad value with the other problems', () => {
    expect(loadConfig({}).CHAIN_WATCH).toBe('auto');
    expect(loadConfig({ CHAIN_WATCH: 'off' }).CHAIN_WATCH).toBe('off');
    const e = problemsOf({ CHAIN_WATCH: 'on', PORT: 'eighty' });
    expect(e.problems).toHaveLength(2);
    expect(e.message).toContain(`CHAIN_WATCH="on": must be 'auto' (watch deposit addresses on chain) or 'off'`);
    expect(e.message).toContain('PORT="eighty"');
  });

  it('reads CHAIN_RPC_URLS pairs and names each bad entry without echoing any URL', () => {
    const ok = loadConfig({
      CHAIN_RPC_URLS: 'ARBITRUM_MAINNET=https://arb.example/v2/k3y-arb-0123456789, BASE_MAINNET=http://10.0.0.5:8545',
    });
    expect(ok.CHAIN_RPC_URLS).toContain('BASE_MAINNET=http://10.0.0.5:8545');
    const e = problemsOf({
      CHAIN_RPC_URLS:
        'ARBITRUM_MAINNET=https://arb.example/v2/supersecretkey123,BASE_MAINNET=ftp://base.example/supersecretkey456,https://op.example/supersecretkey789',
      LOG_LEVEL: 'loud',
    });
    expect(e.problems).toHaveLength(2);
    expect(e.message).toContain(
      'CHAIN_RPC_URLS=(hidden): entry 2 (BASE_MAINNET: not an http(s) URL), entry 3 (no NETWORK_NAME= before the URL): must be NETWORK_NAME=url pairs',
    );
    expect(e.message).not.toContain('supersecretkey');
    expect(e.message).toContain('LOG_LEVEL');
  });

  it("keeps the RPC URLs' keys out of the logs, even when only the key's path or password is written", () => {
    const c = loadConfig({ CHAIN_RPC_URLS: 'ARBITRUM_MAINNET=https://user:pa55word@arb.example/v2/supersecretkey123' });
    const { logger, lines } = memoryLogger(c.secretValues);
    logger.warn(
      { err: new Error('POST /v2/supersecretkey123 failed: 401') },
      'rpc failed at https://user:pa55word@arb.example/v2/supersecretkey123',
    );
    logger.warn({ password: 'pa55word' }, 'auth');
    const out = lines.join('');
    expect(out).toContain('rpc failed');
    expect(out).not.toContain('supersecretkey123');
    expect(out).not.toContain('pa55word');
  });

  it('swapbot sandbox --chain prints the chain RPC and a funded key', async () => {
    const child = spawn(process.execPath, [CLI, 'sandbox', '--port', '0', '--chain'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', SANDBOX_DEPOSIT_DELAY_MS: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await expect.poll(() => out, { timeout: WAIT_MS }).toMatch(/chain funded key: /);
      const rpc = /^chain rpc: (http:\/\/127\.0\.0\.1:\d+)$/m.exec(out)?.[1];
      expect(rpc, out).toBeDefined();
      expect(out).toMatch(/^chain funded key: 0x[0-9a-f]{64}$/m);
      // A real EVM node answers there.
      const res = await fetch(rpc ?? '', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      expect(((await res.json()) as { result: string }).result).toBe('0x7a69');
    } finally {
      child.kill('SIGTERM');
    }
  });
});
