import SignClient from '@walletconnect/sign-client';
import { qrDataUrl } from './qr.js';
import type { Eip1193 } from './wallet.js';

/**
 * An EVM wallet on another device or in another app, through WalletConnect (its Sign protocol,
 * @walletconnect/sign-client: no modal, no wallet registry; the page draws its own QR and link).
 * Loaded only when the person taps "WalletConnect" (its own chunk, walletconnect.js). It proposes a
 * session for the swap's one chain, shows the pairing URI, and once the wallet approves answers as
 * an EIP-1193 provider, so main.ts sends exactly what it sends to an injected wallet.
 *
 * The relay is the only other origin the page talks to (the CSP's connect-src names it). The
 * library's other services are not used: telemetry is off, and Verify (an iframe from its own
 * origin, which the CSP refuses) is skipped rather than waited 5 s for. Keys are kept in memory:
 * closing the page ends the pairing on this side.
 */

export interface WalletConnectSetup {
  projectId: string;
  relayUrl: string;
  chainId: number;
}

export interface Pairing {
  /** The `wc:` URI a wallet scans or opens. */
  uri: string;
  /** The URI as a QR code (an SVG data URL, which the CSP's img-src allows). */
  qr: string;
  /** Resolves once the wallet approved the session: an EIP-1193 provider on it. */
  approved: Promise<WalletConnectWallet>;
  /** Gives up the pairing (the person closed the QR). */
  cancel(): void;
}

export interface WalletConnectWallet {
  provider: Eip1193;
  address: `0x${string}`;
  /** The wallet's name, and its own link (to bring it forward when a request waits there). */
  name: string;
  link?: string;
}

/** What the session asks for: sending the deposit, or signing a gasless authorization. */
const METHODS = ['eth_sendTransaction', 'eth_signTypedData_v4'];

/** WalletConnect's "user rejected" codes (5000-5002), read as EIP-1193's 4001 by main.ts. */
const REJECTED = new Set([4001, 5000, 5001, 5002]);

/** Reused across pairings on the page (one relay connection). */
let client: Promise<InstanceType<typeof SignClient>> | undefined;

function clientFor(setup: WalletConnectSetup): Promise<InstanceType<typeof SignClient>> {
  client ??= SignClient.init({
    projectId: setup.projectId,
    relayUrl: setup.relayUrl,
    telemetryEnabled: false,
    logger: 'silent',
    metadata: {
      name: 'swapbot',
      description: 'Pay a Layerswap swap from your wallet',
      url: location.origin,
      icons: [`${location.origin}/pay/icon.png`],
    },
    storage: memoryStorage(),
  }).then((c) => {
    // The CSP refuses Verify's iframe: answer at once that there is no attestation.
    c.core.verify.register = () => Promise.resolve('');
    return c;
  });
  return client;
}

export async function pairWalletConnect(setup: WalletConnectSetup): Promise<Pairing> {
  const sign = await clientFor(setup);
  const chain = `eip155:${setup.chainId}`;
  const { uri, approval } = await sign.connect({
    optionalNamespaces: { eip155: { chains: [chain], methods: METHODS, events: ['chainChanged', 'accountsChanged'] } },
  });
  if (!uri) throw new Error('WalletConnect gave no pairing URI');
  const qr = await qrDataUrl(uri);
  let cancelled = false;
  const approved = approval().then((session) => {
    if (cancelled) throw new Error('cancelled');
    const accounts = Object.values(session.namespaces).flatMap((n) => n.accounts);
    // The account on the swap's chain if the wallet gave one, else its first EVM account (main.ts then says "wrong network").
    const account = accounts.find((a) => a.startsWith(`${chain}:`)) ?? accounts.find((a) => a.startsWith('eip155:'));
    if (!account) throw new Error('the wallet approved no EVM account');
    const [, chainRef, address] = account.split(':') as [string, string, `0x${string}`];
    const peer = session.peer.metadata;
    const link = peer.redirect?.universal || peer.redirect?.native || undefined;
    return {
      provider: sessionProvider(sign, session.topic, Number(chainRef), address),
      address,
      name: peer.name || 'WalletConnect',
      ...(link ? { link } : {}),
    };
  });
  return {
    uri,
    qr,
    approved,
    cancel() {
      cancelled = true;
    },
  };
}

/**
 * The session as an EIP-1193 provider: the account and chain the wallet approved, and the requests
 * it allows sent to it over the relay. Reads (balances, gas price) are not the wallet's to answer
 * over WalletConnect: they are refused (4200), and main.ts skips its balance check (the wallet
 * shows its own).
 */
function sessionProvider(sign: InstanceType<typeof SignClient>, topic: string, chainId: number, address: `0x${string}`): Eip1193 {
  return {
    async request({ method, params }) {
      switch (method) {
        case 'eth_requestAccounts':
        case 'eth_accounts':
          return [address];
        case 'eth_chainId':
          return `0x${chainId.toString(16)}`;
        case 'wallet_switchEthereumChain':
          throw Object.assign(new Error('wallet_switchEthereumChain is not asked of a WalletConnect wallet'), { code: 4200 });
      }
      if (!METHODS.includes(method)) throw Object.assign(new Error(`${method} is not asked of a WalletConnect wallet`), { code: 4200 });
      try {
        return await sign.request({ topic, chainId: `eip155:${chainId}`, request: { method, params: params ?? [] } });
      } catch (err) {
        const code = (err as { code?: unknown } | null)?.code;
        if (typeof code === 'number' && REJECTED.has(code))
          throw Object.assign(new Error((err as { message?: string }).message ?? 'rejected'), { code: 4001 });
        throw err instanceof Error ? err : Object.assign(new Error(String((err as { message?: unknown })?.message ?? err)), { code });
      }
    },
  };
}

/** The library's key-value storage, in memory only. */
function memoryStorage() {
  const data = new Map<string, unknown>();
  return {
    getKeys: () => Promise.resolve([...data.keys()]),
    getEntries: <T>() => Promise.resolve([...data.entries()] as Array<[string, T]>),
    getItem: <T>(key: string) => Promise.resolve(data.get(key) as T | undefined),
    setItem: <T>(key: string, value: T) => {
      data.set(key, value);
      return Promise.resolve();
    },
    removeItem: (key: string) => {
      data.delete(key);
      return Promise.resolve();
    },
  };
}
