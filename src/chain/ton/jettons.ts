import { Address, beginCell } from '@ton/core';
import type { TonClient } from '@ton/ton';

/**
 * Whether a jetton wallet that notified a deposit address is really that address's wallet of a
 * jetton, and of which: anyone can deploy a contract that sends a `transfer_notification` of any
 * amount. The wallet's get_wallet_data names its owner and master; the master's
 * get_wallet_address(owner) must give that very wallet back. Two get-method calls per jetton
 * wallet, once (the answer never changes); null: not a real jetton wallet of this owner.
 */
export class JettonWallets {
  private readonly known = new Map<string, Promise<Address | null>>();

  constructor(private readonly call: (run: (client: TonClient) => Promise<Address | null>) => Promise<Address | null>) {}

  /** The jetton master of `wallet` (the notifier) for `owner`, or null when it is not one. */
  masterOf(wallet: Address, owner: Address): Promise<Address | null> {
    const key = `${wallet.toRawString()}|${owner.toRawString()}`;
    let p = this.known.get(key);
    if (!p) {
      p = this.check(wallet, owner);
      // A failed read (the RPC) is asked again next time; an answer is kept.
      p.catch(() => this.known.delete(key));
      this.known.set(key, p);
    }
    return p;
  }

  private async check(wallet: Address, owner: Address): Promise<Address | null> {
    const data = await this.call(async (client) => {
      const r = await client.runMethodWithError(wallet, 'get_wallet_data');
      if (r.exit_code !== 0) return null;
      r.stack.readBigNumber(); // balance
      const walletOwner = r.stack.readAddress();
      const master = r.stack.readAddress();
      return walletOwner.equals(owner) ? master : null;
    });
    if (!data) return null;
    const master = data;
    return this.call(async (client) => {
      const r = await client.runMethodWithError(master, 'get_wallet_address', [
        { type: 'slice', cell: beginCell().storeAddress(owner).endCell() },
      ]);
      if (r.exit_code !== 0) return null;
      return r.stack.readAddress().equals(wallet) ? master : null;
    });
  }
}
