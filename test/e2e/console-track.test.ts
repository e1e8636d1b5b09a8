import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LayerswapClient } from '../../src/layerswap/client.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { ManualClock, type SandboxServer } from '../../src/sandbox/types.js';
import { testRedis, testRedisUrl, uniquePrefix } from '../support/redis.js';
import { WAIT_MS } from '../support/wait.js';
import { CLI } from '../support/cli.js';

/**
 * Issue 14's acceptance run through the built terminal chat: a swap created in one chat and
 * deposited by the sandbox is found by its deposit hash in a fresh chat (another deployment's
 * state: nothing shared but the swap service) and followed live; its destination address lists
 * it; and "I've sent it" with the hash shows confirmations before the swap's status moves. The
 * sandbox runs on a clock the test moves, so every step happens when the test says.
 */
const DEST = '0x1111111111111111111111111111111111111111';

class Chat {
  out = '';
  err = '';
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcessWithoutNullStreams;
  constructor(env: Record<string, string>) {
    this.child = spawn(process.execPath, [CLI, 'console'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout.on('data', (d: Buffer) => (this.out += d.toString()));
    this.child.stderr.on('data', (d: Buffer) => (this.err += d.toString()));
    this.exited = new Promise((resolve) => this.child.on('exit', resolve));
  }
  send(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }
  /** Waits until the output after `from` matches; returns where the match starts. */
  async waitFor(re: RegExp, from = 0): Promise<number> {
    return vi.waitFor(
      () => {
        const i = this.out.slice(from).search(re);
        if (i < 0) throw new Error(`no ${String(re)} in:\n${this.out.slice(from)}\nstderr:\n${this.err}`);
        return from + i;
      },
      { timeout: WAIT_MS, interval: 50 },
    );
  }
  /** Presses the button with this label in the last reply that showed it. */
  press(label: string): void {
    const all = [...this.out.matchAll(new RegExp(`\\[(#?\\d+)\\] ${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'g'))];
    const n = all.at(-1)?.[1];
    if (!n) throw new Error(`no button ${label} in:\n${this.out}`);
    this.send(n);
  }
  end(): void {
    this.child.stdin.end();
  }
  kill(): void {
    this.child.kill('SIGKILL');
  }
}

describe('track anything through the terminal chat (built CLI, sandbox over HTTP, real Redis)', () => {
  const prefixA = uniquePrefix('track-a');
  const prefixB = uniquePrefix('track-b');
  testRedis(prefixA);
  testRedis(prefixB);
  const clock = new ManualClock(Date.now());
  let sandbox: SandboxServer;
  let api: LayerswapClient;
  const chats: Chat[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({
      clock,
      timings: { depositDelayMs: 'off', confirmationIntervalMs: 10_000, payoutDelayMs: 5_000, completionLagMs: 0 },
    });
    api = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, maxRetries: 0 });
  });
  afterAll(async () => {
    for (const c of chats) c.kill();
    await api.close();
    await sandbox.close();
  });

  const env = (prefix: string) => ({
    REDIS_URL: testRedisUrl(),
    REDIS_PREFIX: prefix,
    LAYERSWAP_API_URL: sandbox.url,
    LAYERSWAP_API_KEY: sandbox.apiKey,
    POLL_FAST_MS: '300',
    POLL_SLOW_MS: '500',
    // The sandbox's catalogue names public mainnet RPC nodes, which this offline test cannot reach.
    CHAIN_WATCH: 'off',
  });

  it('finds a deposited swap by its hash in a fresh chat and follows it live; lists it by address; "I\'ve sent it" shows confirmations first', async () => {
    // Chat A creates the swap.
    const a = new Chat(env(prefixA));
    chats.push(a);
    // Buttons are numbered on from one card to the next: the recommended refund address is #2, Skip #3, No refuel 6, Confirm 8.
    for (const l of ['/swap 100 USDC from arbitrum to base', DEST, '#3', '6', '8']) a.send(l);
    await a.waitFor(/Send exactly 100 USDC on Arbitrum One/);
    const id = /Swap id: ([0-9a-f-]{36})/.exec(a.out)?.[1] as string;
    expect(id).toBeDefined();
    // The deposit card carries "I've sent it".
    await a.waitFor(/\[\d+\] I've sent it/);
    a.press("I've sent it");
    await a.waitFor(/› Deposit transaction hash/);

    // The sandbox deposits; two of three confirmations pass, and the swap's status has not moved.
    sandbox.deposit(id);
    clock.advance(20_000);
    const details = await api.getSwap(id);
    expect(details.swap.status).toBe('user_transfer_pending');
    const hash = details.swap.transactions.find((t) => t.type === 'input')?.transaction_hash as string;
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    const before = a.out.length;
    a.send(hash);
    await a.waitFor(/We see your transaction: 2\/3 confirmations/, before);

    // Chat B, fresh: the hash finds the swap and follows it; its live card follows.
    const b = new Chat(env(prefixB));
    chats.push(b);
    b.send(`/track ${hash}`);
    await b.waitFor(new RegExp(`Found swap ${id.slice(0, 8)}`));
    await b.waitFor(/Following this swap/);
    await b.waitFor(new RegExp(`── update ──\\n⏳ Swap ${id.slice(0, 8)}: Deposit seen, confirming 2/3`));
    // The destination address lists it, with a Follow button.
    b.send(`/track ${DEST}`);
    const list = await b.waitFor(/Swaps of this address/);
    await b.waitFor(new RegExp(`100 USDC Arbitrum One → USDC Base · Deposit seen, confirming 2/3 · ${id}`), list);
    await b.waitFor(new RegExp(`\\[\\d+\\] Follow ${id.slice(0, 8)}`), list);
    // Bad input gets specific words.
    b.send(`/track 0x${'ab'.repeat(20)}ab`);
    await b.waitFor(/42 hex digits after 0x/);
    b.send(`/track 0x${'cd'.repeat(32)}`);
    await b.waitFor(/No swap with that deposit transaction yet: if you sent it minutes ago, it may still be confirming\./);

    // The swap completes; both chats see it live and exit once their followed swaps are done.
    a.end();
    b.end();
    clock.advance(60_000);
    const [codeA, codeB] = await Promise.all([a.exited, b.exited]);
    expect(codeA, a.err).toBe(0);
    expect(codeB, b.err).toBe(0);
    for (const c of [a, b]) expect(c.out).toMatch(/Swap completed/);
    // Confirmations were shown before the swap's status moved on.
    expect(a.out.indexOf('We see your transaction: 2/3')).toBeLessThan(a.out.search(/Deposit confirmed, sending|Swap completed/));
    expect(a.err + b.err).not.toMatch(/error/i);
  });
});
