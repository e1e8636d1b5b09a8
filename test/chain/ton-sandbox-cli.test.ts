import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Address, beginCell } from '@ton/core';
import { TonClient } from '@ton/ton';
import { describe, expect, it } from 'vitest';
import { LayerswapClient } from '../../src/layerswap/client.js';
import { raw } from '../sandbox/support.js';
import { WAIT_MS, waitFor } from '../support/wait.js';
import { TON_USDT_MASTER } from '../fixtures/ton.js';

/**
 * `swapbot sandbox --chain` as a developer meets its TON side (the built CLI): it prints the TON
 * RPC (toncenter's API v2 shape) and the funded wallet; a wallet library (@ton/ton's TonClient)
 * reads the chain there, the catalogue names it as TON's node_url, and the sandbox's deposit
 * control sends a TON swap's deposit as a real jetton transfer carrying the swap's comment.
 */

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

describe('swapbot sandbox --chain, TON', () => {
  it('prints the TON RPC and a funded wallet holding test USDT; the deposit control sends a real transfer with the comment', async () => {
    const child = spawn(process.execPath, [CLI, 'sandbox', '--port', '0', '--chain'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', SANDBOX_DEPOSIT_DELAY_MS: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await expect.poll(() => out, { timeout: WAIT_MS }).toMatch(/listening on/);
      const url = /^ton rpc \(toncenter API v2\): (http:\/\/127\.0\.0\.1:\d+\/api\/v2\/jsonRPC)$/m.exec(out)?.[1];
      const wallet = /^ton funded wallet \(v4r2\): (\S+), key seed [0-9a-f]{64}$/m.exec(out)?.[1];
      const api = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      expect(url, out).toBeDefined();
      expect(wallet, out).toBeDefined();
      const ton = new TonClient({ endpoint: url ?? '' });
      expect((await ton.getMasterchainInfo()).latestSeqno).toBeGreaterThan(0);
      expect(await ton.getBalance(Address.parse(wallet ?? ''))).toBeGreaterThan(0n);
      // Its USDT: the jetton master at the catalogue's address names the wallet's jetton wallet, which holds a supply.
      const owner = Address.parse(wallet ?? '');
      const jw = (
        await ton.runMethod(Address.parse(TON_USDT_MASTER), 'get_wallet_address', [
          { type: 'slice', cell: beginCell().storeAddress(owner).endCell() },
        ])
      ).stack.readAddress();
      expect((await ton.runMethod(jw, 'get_wallet_data')).stack.readBigNumber()).toBeGreaterThan(0n);

      const client = new LayerswapClient({ baseUrl: api ?? '', apiKey: 'sandbox', maxRetries: 0 });
      try {
        expect((await client.getNetworks()).find((n) => n.name === 'TON_MAINNET')?.node_url).toBe(url);
        const details = await client.createSwap({
          source_network: 'TON_MAINNET',
          source_token: 'USDT',
          destination_network: 'OPTIMISM_MAINNET',
          destination_token: 'USDT',
          destination_address: '0x4444444444444444444444444444444444444444',
          amount: 10,
        });
        const action = details.deposit_actions?.[0];
        const comment = (JSON.parse(action?.call_data ?? '{}') as { comment: string }).comment;
        const res = await raw(api ?? '', `/sandbox/swaps/${details.swap.id}/deposit`, { key: 'sandbox', method: 'POST', body: {} });
        expect(res.status).toBe(200);
        // On chain at the shared deposit address: a jetton notification of 10 USDT whose forward payload is the comment.
        const txs = await ton.getTransactions(Address.parse(action?.to_address ?? ''), { limit: 10 });
        const found = txs.some((tx) => {
          const body = tx.inMessage?.body.beginParse();
          if (!body || body.remainingBits < 32 || body.loadUint(32) !== 0x7362d09c) return false;
          body.loadUintBig(64);
          const amount = body.loadCoins();
          body.loadMaybeAddress();
          const payload = body.loadBit() ? body.loadRef().beginParse() : body;
          return amount === 10_000_000n && payload.loadUint(32) === 0 && payload.loadStringTail() === comment;
        });
        expect(found).toBe(true);
        // The sandbox's service matched it by the comment.
        await waitFor(
          async () => (await client.getSwap(details.swap.id)).swap.transactions.some((x) => x.type === 'input'),
          'the service seeing it',
        );
      } finally {
        await client.close();
      }
    } finally {
      child.kill('SIGTERM');
    }
  });
});
