import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { startSandbox } from '../../src/sandbox/server.js';
import type { SandboxServer } from '../../src/sandbox/types.js';
import { runCli } from '../support/cli.js';
import { testRedis, testRedisUrl, uniquePrefix } from '../support/redis.js';

/**
 * Issue 34: a warning while the terminal chat runs (here a retried quote) is kept out of the chat:
 * it goes to DATA_DIR/swapbot.log, and stderr stays for errors.
 */
describe('the terminal chat keeps log lines out of the chat (built CLI)', () => {
  const prefix = uniquePrefix('console-logfile');
  testRedis(prefix);
  let sandbox: SandboxServer;
  let dataDir: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ timings: { depositDelayMs: 'off' } });
    dataDir = mkdtempSync(join(tmpdir(), 'swapbot-logfile-'));
  });
  afterAll(async () => {
    await sandbox?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('a retried quote: the answer in the chat, the warning in DATA_DIR/swapbot.log only', async () => {
    // The quote's first attempt fails: the client retries, and the retry is what logs a warning.
    sandbox.injectFault({ status: 502, count: 1, pathPrefix: '/api/v2/quote' });
    const { code, stdout, stderr } = await runCli(['console'], '/quote 100 usdc arbitrum base\n', {
      REDIS_URL: testRedisUrl(),
      REDIS_PREFIX: prefix,
      LAYERSWAP_API_URL: sandbox.url,
      LAYERSWAP_API_KEY: sandbox.apiKey,
      CHAIN_WATCH: 'off',
      DATA_DIR: dataDir,
    });
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('You send: 100 USDC on Arbitrum One');
    expect(stdout).not.toContain('WARN');
    expect(stderr).toBe('');
    const log = readFileSync(join(dataDir, 'swapbot.log'), 'utf8');
    expect(log).toMatch(/^\d\d:\d\d:\d\d WARN {2}layerswap request failed; retrying .*\/api\/v2\/quote/m);
    expect(log).not.toContain(sandbox.apiKey);
  });
});

describe("the terminal chat's logger", () => {
  it('writes every line to its file and only errors to stderr too', () => {
    let file = '';
    let stderr = '';
    const logger = createLogger({
      level: 'warn',
      format: 'line',
      destination: { write: (s: string) => (file += s) },
      errorsTo: { write: (s: string) => (stderr += s) },
    });
    logger.warn('a warning');
    logger.error('an error');
    expect(file).toMatch(/WARN {2}a warning\n.*ERROR {2}an error\n$/);
    expect(stderr).toMatch(/^\d\d:\d\d:\d\d ERROR {2}an error\n$/);
  });
});
