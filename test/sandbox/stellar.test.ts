import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { ManualClock } from '../../src/sandbox/types.js';
import { ADDR, raw } from './support.js';

/** The sandbox's Stellar (Layerswap PR #2156: G-addresses and memos), over real sockets. */
type Obj = Record<string, unknown>;
let open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.reverse()) await o.close();
  open = [];
});
const G = 'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ';

describe('sandbox: Stellar', () => {
  it('lists STELLAR_MAINNET, checks G... addresses, and gives a shared deposit account with the memo in both flows', async () => {
    const sandbox = await startSandbox({ clock: new ManualClock(), timings: { depositDelayMs: 'off' } });
    open.push(sandbox);
    const networks = (await raw(sandbox.url, '/api/v2/networks')).json.data as Obj[];
    const stellar = networks.find((n) => n.name === 'STELLAR_MAINNET');
    expect(stellar).toMatchObject({ type: 'stellar', account_explorer_template: 'https://stellar.expert/explorer/public/account/{0}' });
    const toStellar = {
      source_network: 'BASE_MAINNET',
      source_token: 'USDC',
      destination_network: 'STELLAR_MAINNET',
      destination_token: 'USDC',
      amount: 50,
    };
    const bad = await raw(sandbox.url, '/api/v2/swaps', {
      method: 'POST',
      body: { ...toStellar, destination_address: `${G.slice(0, -1)}A` },
    });
    expect(bad.json.error).toMatchObject({ code: 'INVALID_ADDRESS_ERROR' });
    const good = await raw(sandbox.url, '/api/v2/swaps', { method: 'POST', body: { ...toStellar, destination_address: G } });
    expect(good.json.error).toBeNull();
    const fromStellar = {
      source_network: 'STELLAR_MAINNET',
      source_token: 'USDC',
      destination_network: 'BASE_MAINNET',
      destination_token: 'USDC',
      destination_address: ADDR.evm,
      amount: 50,
    };
    const actionsOf = async (body: Obj) => {
      const created = (await raw(sandbox.url, '/api/v2/swaps', { method: 'POST', body })).json.data as Obj;
      return (created.deposit_actions as Obj[])[0] as Obj;
    };
    const a = await actionsOf({ ...fromStellar, use_deposit_address: true });
    const b = await actionsOf({ ...fromStellar, use_deposit_address: true });
    const wallet = await actionsOf({ ...fromStellar, use_deposit_address: false });
    expect(a).toMatchObject({ type: 'manual_transfer', call_data: expect.stringMatching(/^\d+$/) });
    expect(String(a.to_address)).toMatch(/^G[A-Z2-7]{55}$/);
    expect(b.to_address).toBe(a.to_address);
    expect(b.call_data).not.toBe(a.call_data);
    expect(wallet).toMatchObject({ type: 'transfer', to_address: a.to_address, call_data: expect.stringMatching(/^\d+$/) });
  });
});
