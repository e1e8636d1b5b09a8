import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';

/**
 * A local stand-in for WalletConnect's relay (wss://relay.walletconnect.org), so the pay page and a
 * wallet in the test process pair and talk with no network. It speaks the relay's JSON-RPC as
 * @walletconnect/core 2.25.0 calls it (read from its source: controllers/relayer.ts, subscriber.ts,
 * publisher.ts, and sign-client's engine.ts):
 * - irn_subscribe {topic} and irn_batchSubscribe {topics}: the socket's client is subscribed; what
 *   the topic holds (its mailbox) is pushed to it at once;
 * - irn_unsubscribe {topic, id}, irn_batchUnsubscribe;
 * - irn_publish {topic, message, ttl, tag…}: kept for its ttl and pushed to every other client
 *   subscribed to the topic;
 * - wc_proposeSession {pairingTopic, sessionProposal}: the dapp is subscribed to the pairing topic
 *   (its client creates the pairing with skipSubscribe), then the proposal is published there;
 * - wc_approveSession {sessionTopic, pairingTopic, sessionProposalResponse, sessionSettlementRequest}:
 *   the wallet is subscribed to the session topic (its client subscribes with skipSubscribe, trusting
 *   the relay to do it), then both messages are published;
 * - irn_batchFetchMessages {topics} (this version of the library no longer calls it): the mailbox.
 * Pushes are irn_subscription {id, data: {topic, message, publishedAt, tag}}; the client's
 * acknowledgements are taken and ignored. A client is known by its JWT's `iss` (the `auth` query
 * parameter), so a reconnected client is not sent its own messages.
 *
 * It proves only what it was written to believe: that the library works against a relay that
 * behaves as this reading of its calls says. The real relay's rate limits, its auth checks (the
 * JWT's signature, the project id), its TTL rules, its push webhooks and its exact mailbox
 * semantics are not modelled; WalletConnect against the real relay is not tested here.
 */

interface Stored {
  topic: string;
  message: string;
  publishedAt: number;
  tag: number;
  from: string;
  expires: number;
}

interface Rpc {
  id: string | number;
  method?: string;
  params?: Record<string, unknown>;
}

export interface FakeRelay {
  /** ws://127.0.0.1:<port>: the WALLETCONNECT_RELAY_URL of a test. */
  url: string;
  /** The project ids the clients connected with (from their URL). */
  projectIds: string[];
  /** Every method the clients called, in order. */
  calls: string[];
  /** Every message published and every push, in order: `publish <client> <tag> <topic…>` / `push <client> <tag> <topic…>`. */
  traffic: string[];
  close(): Promise<void>;
}

export async function startFakeRelay(): Promise<FakeRelay> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  const mailbox: Stored[] = [];
  /** topic → client ids subscribed. */
  const subscribers = new Map<string, Set<string>>();
  /** client id → its open sockets. */
  const sockets = new Map<string, Set<WebSocket>>();
  const projectIds: string[] = [];
  const calls: string[] = [];
  const traffic: string[] = [];
  let pushId = 1;
  // A client in Node drops a socket the relay has not pinged for 35 s (relayer.ts' heartBeatTimeout).
  const pinger = setInterval(() => {
    for (const ws of server.clients) ws.ping();
  }, 10_000);
  pinger.unref();

  const subId = (topic: string, client: string) =>
    createHash('sha256')
      .update(topic + client)
      .digest('hex');

  const push = (client: string, m: Stored): void => {
    traffic.push(`push ${client.slice(-8)} ${m.tag} ${m.topic.slice(0, 8)} sockets=${sockets.get(client)?.size ?? 0}`);
    for (const ws of sockets.get(client) ?? []) {
      ws.send(
        JSON.stringify({
          id: pushId++,
          jsonrpc: '2.0',
          method: 'irn_subscription',
          params: { id: subId(m.topic, client), data: { topic: m.topic, message: m.message, publishedAt: m.publishedAt, tag: m.tag } },
        }),
      );
    }
  };

  const live = () => {
    const now = Date.now();
    for (let i = mailbox.length - 1; i >= 0; i--) if (mailbox[i]!.expires < now) mailbox.splice(i, 1);
    return mailbox;
  };

  const subscribe = (client: string, topic: string): string => {
    let set = subscribers.get(topic);
    if (!set) subscribers.set(topic, (set = new Set()));
    set.add(client);
    for (const m of live()) if (m.topic === topic && m.from !== client) push(client, m);
    return subId(topic, client);
  };

  const publish = (from: string, topic: string, message: string, ttl: unknown, tag: unknown): void => {
    const m: Stored = {
      topic,
      message,
      publishedAt: Date.now(),
      tag: typeof tag === 'number' ? tag : 0,
      from,
      expires: Date.now() + (typeof ttl === 'number' ? ttl : 300) * 1000,
    };
    mailbox.push(m);
    traffic.push(
      `publish ${from.slice(-8)} ${m.tag} ${topic.slice(0, 8)} to=${[...(subscribers.get(topic) ?? [])].map((c) => c.slice(-8)).join(',')}`,
    );
    for (const client of subscribers.get(topic) ?? []) if (client !== from) push(client, m);
  };

  const text = (v: unknown, name: string): string => {
    if (typeof v !== 'string' || v === '') throw new Error(`missing ${name}`);
    return v;
  };

  function answer(client: string, rpc: Rpc): unknown {
    const p = rpc.params ?? {};
    switch (rpc.method) {
      case 'irn_subscribe':
        return subscribe(client, text(p.topic, 'topic'));
      case 'irn_batchSubscribe':
        return (p.topics as string[]).map((t) => subscribe(client, text(t, 'topic')));
      case 'irn_unsubscribe':
        subscribers.get(text(p.topic, 'topic'))?.delete(client);
        return true;
      case 'irn_batchUnsubscribe':
        for (const s of (p.subscriptions as Array<{ topic: string }> | undefined) ?? []) subscribers.get(s.topic)?.delete(client);
        return true;
      case 'irn_publish':
        publish(client, text(p.topic, 'topic'), text(p.message, 'message'), p.ttl, p.tag);
        return true;
      case 'wc_proposeSession':
        // The proposer's client pairs with skipSubscribe too: the relay subscribes it to the pairing topic.
        subscribe(client, text(p.pairingTopic, 'pairingTopic'));
        publish(client, text(p.pairingTopic, 'pairingTopic'), text(p.sessionProposal, 'sessionProposal'), p.ttl, 1100);
        return true;
      case 'wc_approveSession':
        subscribe(client, text(p.sessionTopic, 'sessionTopic'));
        publish(client, text(p.pairingTopic, 'pairingTopic'), text(p.sessionProposalResponse, 'sessionProposalResponse'), p.ttl, 1101);
        publish(client, text(p.sessionTopic, 'sessionTopic'), text(p.sessionSettlementRequest, 'sessionSettlementRequest'), p.ttl, 1102);
        return true;
      case 'irn_batchFetchMessages': {
        const topics = new Set(p.topics as string[]);
        const messages = live()
          .filter((m) => topics.has(m.topic) && m.from !== client)
          .map((m) => ({ topic: m.topic, message: m.message, publishedAt: m.publishedAt, tag: m.tag }));
        return { messages, hasMore: false };
      }
      default:
        throw Object.assign(new Error(`method not found: ${rpc.method}`), { code: -32601 });
    }
  }

  server.on('connection', (ws, req) => {
    const query = new URL(req.url ?? '/', 'ws://relay').searchParams;
    projectIds.push(query.get('projectId') ?? '');
    const client = clientOf(query.get('auth')) ?? `socket-${pushId++}`;
    let set = sockets.get(client);
    if (!set) sockets.set(client, (set = new Set()));
    set.add(ws);
    traffic.push(`connect ${client.slice(-8)}`);
    ws.on('close', () => {
      set.delete(ws);
      traffic.push(`close ${client.slice(-8)}`);
    });
    ws.on('message', (data) => {
      let rpc: Rpc;
      try {
        rpc = JSON.parse(String(data)) as Rpc;
      } catch {
        return;
      }
      if (rpc.method === undefined) return; // an acknowledgement of a push
      calls.push(rpc.method);
      try {
        ws.send(JSON.stringify({ id: rpc.id, jsonrpc: '2.0', result: answer(client, rpc) }));
      } catch (err) {
        const e = err as { code?: number; message?: string };
        ws.send(JSON.stringify({ id: rpc.id, jsonrpc: '2.0', error: { code: e.code ?? -32602, message: e.message ?? String(err) } }));
      }
    });
  });

  return {
    url: `ws://127.0.0.1:${port}`,
    projectIds,
    calls,
    traffic,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(pinger);
        for (const ws of server.clients) ws.terminate();
        server.close(() => resolve());
      }),
  };
}

/** The client's did:key, from the relay JWT's payload (its signature is not checked). */
function clientOf(auth: string | null): string | undefined {
  const payload = auth?.split('.')[1];
  if (!payload) return undefined;
  try {
    const iss = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { iss?: unknown }).iss;
    return typeof iss === 'string' ? iss : undefined;
  } catch {
    return undefined;
  }
}
