import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';

/**
 * The gateway half of the fake Discord: HELLO (op 10), IDENTIFY (op 2) -> READY + one
 * GUILD_CREATE per guild, HEARTBEAT (op 1) -> ACK (op 11), RESUME (op 6) -> RESUMED, and
 * dispatches (op 0) with a sequence number. JSON encoding only, no compression: the client is
 * expected to connect with ?v=10&encoding=json and no compress parameter.
 */
export interface GatewayStats {
  connections: number;
  identifies: Array<{ intents: number; token: string }>;
  heartbeats: number;
  acks: number;
  resumes: number;
  queries: string[];
}

interface Session {
  id: string;
  seq: number;
  socket: WebSocket;
  ready: boolean;
}

export interface GatewayWorld {
  token: string;
  readyPayload(sessionId: string, resumeUrl: string): Record<string, unknown>;
  guildCreates(): Array<Record<string, unknown>>;
}

export class FakeGateway {
  readonly stats: GatewayStats = { connections: 0, identifies: [], heartbeats: 0, acks: 0, resumes: 0, queries: [] };
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly sessions = new Map<string, Session>();
  private readonly live = new Set<Session>();

  constructor(
    private readonly world: GatewayWorld,
    private readonly url: () => string,
    private readonly heartbeatIntervalMs: number,
  ) {}

  /** Hooked to the HTTP server's 'upgrade' event for the /gateway path. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const query = new URL(req.url ?? '/', 'http://x').searchParams;
    this.stats.queries.push(query.toString());
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      if (query.get('encoding') !== 'json' || query.has('compress')) {
        ws.close(4002, 'this fake speaks json without compression');
        return;
      }
      this.stats.connections++;
      this.attach(ws);
    });
  }

  private attach(ws: WebSocket): void {
    let session: Session | undefined;
    ws.send(JSON.stringify({ op: 10, d: { heartbeat_interval: this.heartbeatIntervalMs }, s: null, t: null }));
    ws.on('message', (raw) => {
      let msg: { op: number; d: unknown };
      try {
        msg = JSON.parse(String(raw)) as { op: number; d: unknown };
      } catch {
        ws.close(4002, 'Error while decoding payload.');
        return;
      }
      if (msg.op === 1) {
        this.stats.heartbeats++;
        this.stats.acks++;
        ws.send(JSON.stringify({ op: 11, d: null, s: null, t: null }));
      } else if (msg.op === 2) {
        const d = msg.d as { token: string; intents: number };
        this.stats.identifies.push({ intents: d.intents, token: d.token === this.world.token ? 'ok' : 'bad' });
        if (d.token !== this.world.token) return ws.close(4004, 'Authentication failed.');
        session = { id: randomBytes(8).toString('hex'), seq: 0, socket: ws, ready: true };
        this.sessions.set(session.id, session);
        this.live.add(session);
        this.dispatchTo(session, 'READY', this.world.readyPayload(session.id, this.url()));
        for (const guild of this.world.guildCreates()) this.dispatchTo(session, 'GUILD_CREATE', guild);
      } else if (msg.op === 6) {
        const d = msg.d as { token: string; session_id: string; seq: number };
        const known = this.sessions.get(d.session_id);
        if (!known || d.token !== this.world.token) {
          ws.send(JSON.stringify({ op: 9, d: false, s: null, t: null }));
          return;
        }
        this.stats.resumes++;
        known.socket = ws;
        session = known;
        this.live.add(known);
        this.dispatchTo(known, 'RESUMED', null);
      }
    });
    ws.on('close', () => {
      if (session) this.live.delete(session);
    });
  }

  private dispatchTo(session: Session, t: string, d: unknown): void {
    session.seq++;
    session.socket.send(JSON.stringify({ op: 0, t, s: session.seq, d }));
  }

  /** Sends an event to every connected session (the bot has one shard). */
  dispatch(t: string, d: unknown): void {
    if (this.live.size === 0) throw new Error(`fake gateway: no connected session to send ${t} to`);
    for (const s of this.live) this.dispatchTo(s, t, d);
  }

  get connected(): boolean {
    return this.live.size > 0;
  }

  /** Drops every connection with a resumable close code, as Discord does on a server restart. */
  dropConnections(code = 4000): void {
    for (const s of this.live) s.socket.close(code, 'fake: connection dropped');
  }

  close(): void {
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
  }
}
