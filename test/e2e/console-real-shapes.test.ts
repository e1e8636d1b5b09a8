import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import type { SandboxServer } from '../../src/sandbox/types.js';
import { startShapeProxy, trimmedLikeLiveCapture, type ShapeProxy } from '../bot/support/shape-proxy.js';
import { runCli } from '../support/cli.js';
import { testRedis, testRedisUrl, uniquePrefix } from '../support/redis.js';

/**
 * Issue 10's acceptance run: the built terminal chat pointed (as if at the real service, with an API
 * key) at a stand-in that answers in the shapes the real service and its app were seen to send
 * (test/fixtures/layerswap): the create answer cut to {swap: {id, status}} as in the live
 * Base → Paradex capture, deposit actions only from GET /swaps/{id}/deposit_actions, typed
 * `transfer` with `amount: 0` and EVM call data "0x13e1" (app.get-swap.user_transfer_pending.json),
 * and swaps without `created_date` or token `decimals` (docs.get-swap.refunded.json). Underneath,
 * the sandbox runs the lifecycle, so the deposit is seen while the status is still
 * user_transfer_pending, as on the real service.
 */

function stripDecimals(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripDecimals);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (k !== 'decimals' && k !== 'created_date') out[k] = stripDecimals(x);
    return out;
  }
  return v;
}

/** ERC-20 and depository actions as the real service sends them: amount 0, the swap's call data. */
function realShapedActions(actions: unknown): unknown {
  return (actions as Record<string, unknown>[]).map((a) => ({
    ...a,
    type: 'transfer',
    amount: 0,
    amount_in_base_units: '0',
    call_data: '0x13e1',
  }));
}

/** Deposit actions with real shapes, swaps without created_date or token decimals; the rest as it is. */
function realShapes(label: string, data: unknown): unknown {
  if (/^GET \/api\/v2\/swaps\/[^/]+\/deposit_actions$/.test(label)) return realShapedActions(data);
  if (/^GET \/api\/v2\/swaps\/[^/]+$/.test(label)) {
    const swap = stripDecimals(data) as Record<string, unknown>;
    if (swap.deposit_actions) swap.deposit_actions = realShapedActions(swap.deposit_actions);
    return swap;
  }
  return data;
}

describe('the terminal chat against answers shaped like the real service', () => {
  const prefix = uniquePrefix('shapes');
  testRedis(prefix);
  let sandbox: SandboxServer;
  let stand: ShapeProxy;

  beforeAll(async () => {
    // The deposit comes once the chat has shown the deposit card (below), not after a time: on a
    // loaded machine a timed one landed first, and the chat rightly showed no "Send" card at all.
    sandbox = await startSandbox({ speed: 4, timings: { depositDelayMs: 'off', confirmationIntervalMs: 10_000 } });
    stand = await startShapeProxy(sandbox.url);
    stand.createShape = (data) => ({ swap: (trimmedLikeLiveCapture(data) as { swap: unknown }).swap });
    stand.answerShape = realShapes;
  });
  afterAll(async () => {
    await stand.close();
    await sandbox.close();
  });

  it('shows the swap id, the address from deposit_actions, no memo, never "send 0", and never "send" once the deposit is seen', async () => {
    const script = [
      '/swap 100 USDC from arbitrum to base',
      '0x1111111111111111111111111111111111111111', // destination address
      '#3', // skip the refund address (buttons are numbered on: Cancel is #1, the recommended address #2)
      '6', // no refuel
      '8', // Confirm
      '/history',
    ].join('\n');
    let deposited = false;
    const { code, stdout, stderr } = await runCli(
      ['console'],
      `${script}\n`,
      {
        REDIS_URL: testRedisUrl(),
        REDIS_PREFIX: prefix,
        LAYERSWAP_API_URL: stand.url,
        LAYERSWAP_API_KEY: sandbox.apiKey,
        POLL_FAST_MS: '500',
        POLL_SLOW_MS: '1000',
      },
      undefined,
      undefined,
      (out) => {
        const shown = /Deposit for swap[\s\S]*Swap id: ([0-9a-f-]{36})/.exec(out)?.[1];
        if (shown && !deposited) {
          deposited = true;
          sandbox.deposit(shown);
        }
      },
    );
    expect(code, stderr).toBe(0);
    expect(stdout).not.toContain('SANDBOX'); // it took the stand-in for the real service

    // The cut-down create answer still yields the swap, its id and a history entry.
    const id = /Swap id: ([0-9a-f-]{36})/.exec(stdout)?.[1];
    expect(id).toBeDefined();
    expect(stdout).not.toMatch(/did not answer in time|could not confirm/i);
    expect(stand.requests.filter((r) => r.startsWith(`GET /api/v2/swaps/${id!}`)).length).toBeGreaterThan(0);

    // The deposit card: the address the service gave, the requested amount, no memo from call data.
    const actions = (await (
      await fetch(`${sandbox.url}/api/v2/swaps/${id!}/deposit_actions`, { headers: { 'X-LS-APIKEY': sandbox.apiKey } })
    ).json()) as { data: { to_address: string }[] };
    const address = actions.data[0]!.to_address;
    const card = stdout.slice(stdout.indexOf('Deposit for swap'));
    expect(card).toContain('Send exactly 100 USDC on Arbitrum One');
    expect(card).toContain(address);
    expect(stdout).not.toMatch(/Send exactly 0\b/);
    expect(stdout).not.toMatch(/memo/i);
    expect(stdout).not.toContain('0x13e1');
    expect(stdout).not.toMatch(/undefined|NaN|\[object Object\]/);

    // Once the deposit is seen (status still user_transfer_pending), nothing says to send.
    // The creator's status card is there from the start ("Waiting for your deposit"); once tracking
    // has seen the deposit (the deposit card or the status card updated to it), nothing says send.
    const seen = stdout.search(/updated: \S* ?Swap [0-9a-f]{8}: (deposit seen|Deposit seen)/);
    expect(seen).toBeGreaterThan(0);
    expect(stdout.slice(seen)).not.toMatch(/send exactly|send the (exact )?amount|waiting for your deposit/i);
    expect(stdout).toMatch(/Swap [0-9a-f]{8}: Completed/);
  });
});
