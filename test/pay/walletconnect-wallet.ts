import { randomUUID } from 'node:crypto';
import SignClient from '@walletconnect/sign-client';
import type { Hex } from 'viem';
import type { testWallet } from './browser.js';

/**
 * A person's WalletConnect wallet in the test process: @walletconnect/sign-client on the wallet's
 * side (pair, approve, respond: what Reown's WalletKit wraps), with the test wallet's key on the
 * local EVM node behind it. It pairs with the URI the page shows, approves a session for the
 * account on the chains asked for, and answers each request as `answer` decides (by default: the
 * test wallet sends the transaction and the hash goes back).
 */
type Client = Awaited<ReturnType<typeof SignClient.init>>;
type Session = Awaited<ReturnType<Awaited<ReturnType<Client['approve']>>['acknowledged']>>;

export interface WcWallet {
  /** The requests the page sent, as the wallet received them. */
  requests: Array<{ method: string; params: unknown[]; chainId: string }>;
  /** The next request is declined as a person would (WalletConnect's USER_REJECTED, 5000). */
  rejectNext: boolean;
  pair(uri: string): Promise<Session>;
  close(): Promise<void>;
  /** What the wallet's client holds: requests pending and its request queue (a failure's report). */
  inside(): unknown;
}

export async function wcWallet(opts: {
  relayUrl: string;
  projectId: string;
  wallet: ReturnType<typeof testWallet>;
  /** The chain id the wallet says it is on (the swap's, by default: whatever the page asks). */
  chainId?: number;
}): Promise<WcWallet> {
  const data = new Map<string, unknown>();
  const client = await SignClient.init({
    projectId: opts.projectId,
    relayUrl: opts.relayUrl,
    // Its own core: the library keeps one per storage prefix in a global, which two clients in one process would share.
    customStoragePrefix: `test-wallet-${randomUUID()}`,
    telemetryEnabled: false,
    // Each request at once, as a person's wallet shows it. The library's queue (sign-client 2.25)
    // can hold a request behind one already answered: after a decline, the next request waited
    // there for good when the wallet's storage was slow (a loaded machine; reproduced with a 1.5 s
    // setItem: the page's "Pay" again never reached the wallet).
    signConfig: { disableRequestQueue: true },
    logger: 'silent',
    metadata: {
      name: 'Test WC Wallet',
      description: 'a wallet in the test process',
      url: 'https://wallet.test',
      icons: [],
      // Its universal link: the page offers it while a request waits in the wallet.
      redirect: { universal: 'https://wallet.test/wc' },
    },
    storage: {
      getKeys: () => Promise.resolve([...data.keys()]),
      getEntries: <T>() => Promise.resolve([...data.entries()] as Array<[string, T]>),
      getItem: <T>(k: string) => Promise.resolve(data.get(k) as T | undefined),
      setItem: <T>(k: string, v: T) => Promise.resolve(void data.set(k, v)),
      removeItem: (k: string) => Promise.resolve(void data.delete(k)),
    },
  });
  const state: WcWallet = {
    requests: [],
    rejectNext: false,
    async pair(uri) {
      const proposal = new Promise<Parameters<Parameters<typeof client.once<'session_proposal'>>[1]>[0]>((resolve) =>
        client.once('session_proposal', resolve),
      );
      await client.pair({ uri });
      const { id, params } = await proposal;
      const asked = { ...params.optionalNamespaces, ...params.requiredNamespaces }.eip155;
      const chains = opts.chainId ? [`eip155:${opts.chainId}`] : (asked?.chains ?? []);
      const { acknowledged } = await client.approve({
        id,
        namespaces: {
          eip155: {
            chains,
            methods: asked?.methods ?? [],
            events: asked?.events ?? [],
            accounts: chains.map((c) => `${c}:${opts.wallet.address}`),
          },
        },
      });
      return acknowledged();
    },
    close: () => client.core.relayer.transportClose(),
    inside: () => {
      const queue = (client.engine as unknown as { sessionRequestQueue?: { state: string; queue: Array<{ id: number }> } })
        .sessionRequestQueue;
      return {
        pending: client.pendingRequest.getAll().map((r) => r.id),
        queue: queue ? { state: queue.state, ids: queue.queue.map((r) => r.id) } : null,
        connected: client.core.relayer.connected,
      };
    },
  };
  client.on('session_request', (event) => {
    const { method, params } = event.params.request as { method: string; params: unknown[] };
    state.requests.push({ method, params, chainId: event.params.chainId });
    void (async () => {
      if (state.rejectNext) {
        state.rejectNext = false;
        await client.respond({
          topic: event.topic,
          response: { id: event.id, jsonrpc: '2.0', error: { code: 5000, message: 'User rejected.' } },
        });
        return;
      }
      try {
        const result = (await opts.wallet.handle(method, params)) as Hex;
        await client.respond({ topic: event.topic, response: { id: event.id, jsonrpc: '2.0', result } });
      } catch (err) {
        await client.respond({
          topic: event.topic,
          response: { id: event.id, jsonrpc: '2.0', error: { code: -32000, message: (err as Error).message } },
        });
      }
    })();
  });
  return state;
}
