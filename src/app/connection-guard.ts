import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Keeps idle connections from crowding out real calls. Node's own limits miss the cheap attack: a
 * connection that never sends a byte is under no timeout (headersTimeout starts at the first
 * byte), and `server.maxConnections` refuses the *new* connection, so a few hundred idle sockets
 * from one client lock out Telegram's webhook calls and the platform's /health checks. Here:
 *
 * - a connection with no request in flight for `idleMs` (never sent one, or done with its last)
 *   is closed;
 * - one address holds at most `perAddress` connections;
 * - past either cap, an idle connection (of that address, or anyone's) makes room, and the new
 *   one is refused only when every connection is busy with a request. The victim is one that never
 *   sent a request if there is one, else one of the address holding the most, oldest first: a
 *   webhook client's kept-alive connections (it may be writing its next post on one right now)
 *   are the last to go, the flood's first.
 */
interface ConnectionCaps {
  max: number;
  perAddress: number;
  idleMs: number;
  checkIntervalMs: number;
}

interface Tracked {
  address: string;
  /** Requests in flight on this connection. */
  busy: number;
  /** When it last became idle (connected, or answered its last request). */
  idleSince: number;
  /** Requests answered on it: 0 for a connection that never sent one. */
  served: number;
}

/** Lexicographic order of two ranks (undefined: none yet, anything comes before it). */
function rankBefore(a: readonly number[], b: readonly number[] | undefined): boolean {
  if (!b) return true;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] as number) < (b[i] as number);
  return false;
}

export function guardConnections(server: Server, caps: ConnectionCaps): { stop(): void } {
  const open = new Map<Socket, Tracked>();
  const perAddress = new Map<string, number>();

  /** The idle connection to close first: never used before used, the biggest holder's before others', older before newer. */
  const oldestIdle = (address?: string): Socket | undefined => {
    let pick: Socket | undefined;
    let best: [number, number, number] | undefined;
    for (const [socket, t] of open) {
      if (t.busy > 0 || (address !== undefined && t.address !== address)) continue;
      const rank: [number, number, number] = [t.served > 0 ? 1 : 0, -(perAddress.get(t.address) ?? 0), t.idleSince];
      if (rankBefore(rank, best)) [pick, best] = [socket, rank];
    }
    return pick;
  };
  /** Room for one more under a cap: drop the oldest idle connection, or say there is none. */
  const makeRoom = (address?: string): boolean => {
    const victim = oldestIdle(address);
    if (!victim) return false;
    forget(victim);
    victim.destroy();
    return true;
  };
  const forget = (socket: Socket) => {
    const t = open.get(socket);
    if (!t) return;
    open.delete(socket);
    const n = (perAddress.get(t.address) ?? 1) - 1;
    if (n > 0) perAddress.set(t.address, n);
    else perAddress.delete(t.address);
  };

  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    if ((perAddress.get(address) ?? 0) >= caps.perAddress && !makeRoom(address)) return void socket.destroy();
    if (open.size >= caps.max && !makeRoom()) return void socket.destroy();
    open.set(socket, { address, busy: 0, idleSince: Date.now(), served: 0 });
    perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
    socket.once('close', () => forget(socket));
  });
  server.on('request', (req, res) => {
    const t = open.get(req.socket);
    if (!t) return;
    t.busy += 1;
    res.once('close', () => {
      t.busy -= 1;
      t.served += 1;
      t.idleSince = Date.now();
    });
  });

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [socket, t] of open) {
      if (t.busy === 0 && now - t.idleSince >= caps.idleMs) {
        forget(socket);
        socket.destroy();
      }
    }
  }, caps.checkIntervalMs);
  sweep.unref();
  server.once('close', () => clearInterval(sweep));
  return { stop: () => clearInterval(sweep) };
}
