import { Base64, hexToByteArray, SessionCrypto } from '@tonconnect/protocol';
import { decodeTelegramUrlParameters } from '@tonconnect/sdk';
import type { TonTestWallet } from './ton-wallet.js';

/**
 * A TON wallet app on "another device", reached through TON Connect's HTTP bridge (the fake one,
 * test/support/tonconnect-bridge.ts, over its plain http address), as the protocol describes the
 * wallet's side: it reads the universal link the page shows (`id`: the page's session public key,
 * `r`: the connect request; in a t.me link both are packed into `startapp`), makes its own session
 * keypair (SessionCrypto: tweetnacl's box), listens on the bridge for its own client id, and answers
 * the connect request with a ConnectEvent (ton_addr of `wallet`, the same V4R2 test contract on the
 * sandbox's TON emulator the injected wallet uses). Then each sendTransaction the page posts is
 * decrypted and handed to `wallet` (which signs and sends it on the emulator, or declines when told
 * to), and its answer (the BOC, or code 300) is encrypted and posted back.
 */
export interface BridgeWallet {
  /** The connect request the link carried (manifestUrl, items). */
  request?: { manifestUrl: string; items: Array<{ name: string }> };
  /** The methods the page asked over the bridge, in order. */
  methods: string[];
  close(): void;
}

/** The link's protocol parameters: from its query, or from a t.me link's `startapp`. */
export function linkParams(link: string): URLSearchParams {
  const url = new URL(link);
  const startapp = url.searchParams.get('startapp');
  if (url.hostname === 't.me' && startapp?.startsWith('tonconnect-'))
    return new URLSearchParams(decodeTelegramUrlParameters(startapp.slice('tonconnect-'.length)));
  return url.searchParams;
}

export async function bridgeWallet(bridgeUrl: string, link: string, wallet: TonTestWallet): Promise<BridgeWallet> {
  const params = linkParams(link);
  const dapp = params.get('id') ?? '';
  if (params.get('v') !== '2' || !/^[0-9a-f]{64}$/.test(dapp)) throw new Error(`not a TON Connect v2 link: ${link}`);
  const session = new SessionCrypto();
  const state: BridgeWallet = { methods: [], close: () => abort.abort() };
  state.request = JSON.parse(params.get('r') ?? '{}') as BridgeWallet['request'];

  async function post(message: unknown): Promise<void> {
    const body = Base64.encode(session.encrypt(JSON.stringify(message), hexToByteArray(dapp)));
    const url = `${bridgeUrl}/message?client_id=${session.sessionId}&to=${dapp}&ttl=300`;
    const res = await fetch(url, { method: 'POST', body });
    if (!res.ok) throw new Error(`the bridge refused the wallet's message: ${res.status}`);
  }

  async function received(data: string): Promise<void> {
    const { from, message } = JSON.parse(data) as { from: string; message: string };
    if (from !== dapp) return;
    const request = JSON.parse(session.decrypt(Base64.decode(message).toUint8Array(), hexToByteArray(from))) as {
      method: string;
      params: string[];
      id: string;
    };
    state.methods.push(request.method);
    if (request.method === 'disconnect') return post({ result: {}, id: request.id });
    await post(await wallet.handle('send', [request]));
  }

  // Listen first, then answer: the page's reply comes to this client id.
  const abort = new AbortController();
  const events = await fetch(`${bridgeUrl}/events?client_id=${session.sessionId}`, { signal: abort.signal });
  if (!events.ok || !events.body) throw new Error(`the bridge refused the wallet's event stream: ${events.status}`);
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of events.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block
            .split('\n')
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n');
          if (data && data !== 'heartbeat') await received(data);
        }
      }
    } catch {
      // Closed by the test.
    }
  })();

  const connect = (await wallet.handle('connect', [2, state.request])) as { payload: unknown };
  // Wallet events are numbered from 1 (the SDK drops one not above the last it saw); a connect is the first.
  await post({ event: 'connect', id: 1, payload: connect.payload });
  return state;
}
