import http, { type ServerResponse } from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { serveHttp, type HttpLimits, type RequestHandler, type WebServer } from '../../src/app/http-server.js';
import { waitFor } from '../support/wait.js';

/**
 * Idle connections against the web server's connection cap, over real sockets. All loopback is
 * 127.0.0.1 by default; Linux routes all of 127/8 to lo, so distinct clients connect *from*
 * 127.0.0.2, 127.0.0.3, ... (localAddress) to the server on 127.0.0.1.
 */
let servers: WebServer[] = [];
let sockets: net.Socket[] = [];
afterEach(async () => {
  for (const s of sockets) s.destroy();
  sockets = [];
  for (const res of pending.splice(0)) res.end();
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

const hook: RequestHandler = (req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
};
/** Answers only when the test ends it: a request in flight. */
const pending: ServerResponse[] = [];
const hold: RequestHandler = (req, res) => {
  req.resume();
  pending.push(res);
};

async function start(limits: Partial<HttpLimits>): Promise<WebServer> {
  const server = await serveHttp(
    new Map([
      ['/hook', hook],
      ['/hold', hold],
    ]),
    { port: 0, host: '127.0.0.1', health: async () => true, limits: { checkIntervalMs: 50, ...limits } },
  );
  servers.push(server);
  return server;
}

/** A connection that sends nothing, from `from`; tells whether it has been closed. */
function idle(port: number, from: string): Promise<{ socket: net.Socket; closed: () => boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
    sockets.push(socket);
    let closed = false;
    socket.on('close', () => (closed = true));
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve({ socket, closed: () => closed }));
    socket.once('error', reject);
  });
}

/** A genuine request on its own connection: the status, or the error that stopped it. */
function call(port: number, path: string, from = '127.0.0.1', method = 'GET'): Promise<number | string> {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, localAddress: from, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    req.end(method === 'POST' ? '{"update_id":1}' : undefined);
  });
}

describe('idle connections and the connection cap', () => {
  it('many idle connections from one client leave webhook calls and /health working', async () => {
    const server = await start({ maxConnections: 40, maxConnectionsPerAddress: 10, idleTimeoutMs: 60_000 });
    const flood = await Promise.all(Array.from({ length: 60 }, () => idle(server.port, '127.0.0.2')));
    // The client keeps at most its share: everything past 10 is closed.
    await waitFor(() => flood.filter((c) => c.closed()).length >= 50, 'the flood past the per-address cap to be closed');
    expect(flood.filter((c) => !c.closed())).toHaveLength(10);
    const answers: Array<number | string> = [];
    for (let i = 0; i < 10; i++)
      answers.push(await call(server.port, '/hook', '127.0.0.1', 'POST'), await call(server.port, '/health', '127.0.0.3'));
    expect(answers).toEqual(Array.from({ length: 20 }, () => 200));
  });

  it('when idle connections from many clients fill the cap, the oldest makes room and /health answers', async () => {
    const server = await start({ maxConnections: 40, maxConnectionsPerAddress: 10, idleTimeoutMs: 60_000 });
    const held: Array<{ closed: () => boolean }> = [];
    for (const from of ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'])
      held.push(...(await Promise.all(Array.from({ length: 10 }, () => idle(server.port, from)))));
    expect(await call(server.port, '/health')).toBe(200);
    expect(await call(server.port, '/hook', '127.0.0.6', 'POST')).toBe(200);
    await waitFor(() => held.some((c) => c.closed()), 'an idle connection to make room');
  });

  it('closes a connection that never sends a byte', async () => {
    const server = await start({ idleTimeoutMs: 200 });
    const c = await idle(server.port, '127.0.0.2');
    await waitFor(() => c.closed(), 'the idle connection to be closed');
    expect(await call(server.port, '/health')).toBe(200);
  });

  it('keeps connections busy with a request; past the cap a new one is refused until one finishes', async () => {
    const server = await start({ maxConnections: 3, idleTimeoutMs: 60_000 });
    const busy = [call(server.port, '/hold'), call(server.port, '/hold', '127.0.0.2'), call(server.port, '/hold', '127.0.0.3')];
    await waitFor(() => pending.length === 3, 'three requests in flight');
    expect(typeof (await call(server.port, '/health', '127.0.0.4'))).toBe('string'); // refused: all three are busy
    for (const res of pending.splice(0)) res.writeHead(200).end('done');
    expect(await Promise.all(busy)).toEqual([200, 200, 200]);
    expect(await call(server.port, '/health', '127.0.0.4')).toBe(200);
  });

  it('600 idle keep-alive connections from many clients: every webhook post on a kept-alive connection succeeds', async () => {
    const server = await start({ idleTimeoutMs: 60_000, keepAliveTimeoutMs: 60_000 });
    // Telegram's side: one keep-alive agent, its connections reused post after post.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const post = () =>
      new Promise<number | string>((resolve) => {
        const req = http.request({ host: '127.0.0.1', port: server.port, path: '/hook', method: 'POST', agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
        req.end('{"update_id":1}');
      });
    const answers: Array<number | string> = [await post()];
    // The flood: 600 connections from 6 addresses, each sends one request and then idles, kept
    // alive, arriving while the webhook posts go on.
    const flooders = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6', '127.0.0.7'];
    const flood = (async () => {
      for (let round = 0; round < 20; round++)
        await Promise.all(
          flooders.flatMap((from) =>
            Array.from({ length: 5 }, async () => {
              const { socket } = await idle(server.port, from).catch(() => ({ socket: undefined }));
              socket?.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
            }),
          ),
        );
    })();
    const posts = (async () => {
      for (let i = 0; i < 40; i++) answers.push(await post());
    })();
    await Promise.all([flood, posts]);
    agent.destroy();
    expect(answers).toHaveLength(41);
    expect(answers.filter((a) => a !== 200)).toEqual([]);
  });

  it("past the cap, a flood's never-used connections make room before a webhook client's kept-alive one", async () => {
    const server = await start({ maxConnections: 40, maxConnectionsPerAddress: 40, idleTimeoutMs: 60_000, keepAliveTimeoutMs: 60_000 });
    // The webhook client: one request answered, its connection kept for the next post (the oldest idle one).
    const client = await idle(server.port, '127.0.0.1');
    const answered = new Promise<void>((resolve) => client.socket.once('data', () => resolve()));
    client.socket.write('POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}');
    await answered;
    const flood = await Promise.all(Array.from({ length: 50 }, (_, i) => idle(server.port, `127.0.0.${2 + (i % 5)}`)));
    await waitFor(() => flood.filter((c) => c.closed()).length >= 11, 'the flood past the cap to be closed');
    expect(client.closed()).toBe(false);
  });
});
