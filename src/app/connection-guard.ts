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
 * - past either cap, the oldest idle connection (of that address, or anyone's) makes room, and
 *   the new one is refused only when every connection is busy with a request.
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
}

export function guardConnections(server: Server, caps: ConnectionCaps): { stop(): void } {
  const open = new Map<Socket, Tracked>();
  const perAddress = new Map<string, number>();

  const oldestIdle = (address?: string): Socket | undefined => {
    let pick: Socket | undefined;
    let since = Infinity;
    for (const [socket, t] of open) {
      if (t.busy === 0 && t.idleSince < since && (address === undefined || t.address === address)) [pick, since] = [socket, t.idleSince];
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
    open.set(socket, { address, busy: 0, idleSince: Date.now() });
    perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
    socket.once('close', () => forget(socket));
  });
  server.on('request', (req, res) => {
    const t = open.get(req.socket);
    if (!t) return;
    t.busy += 1;
    res.once('close', () => {
      t.busy -= 1;
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
