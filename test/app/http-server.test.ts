import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HTTP_LIMITS, serveHttp, type RequestHandler, type WebServer } from '../../src/app/http-server.js';

/**
 * The web process's HTTP server over real sockets: a client that trickles its body is cut off with
 * 408 within the request timeout, and a declared body over the cap gets 413 unread (connection caps:
 * connection-cap.test.ts).
 */
let server: WebServer;
const REQUEST_TIMEOUT_MS = 600;
/** Well past the timeout (so a loaded machine passes), well short of what the clients below would take without it. */
const CUT_OFF_BY_MS = 10_000;

/** Reads the whole body, as the webhook handlers do, then answers 200. */
const echo: RequestHandler = (req, res) => {
  let size = 0;
  req.on('data', (c: Buffer) => (size += c.length));
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ size })));
};

beforeAll(async () => {
  server = await serveHttp(new Map([['/hook', echo]]), {
    port: 0,
    host: '127.0.0.1',
    health: async () => true,
    limits: {
      headersTimeoutMs: REQUEST_TIMEOUT_MS,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      checkIntervalMs: 100,
      maxConnections: 4,
      maxBodyBytes: 1000,
    },
  });
});
afterAll(async () => server?.close());

/** A raw connection: what it received and when it closed. */
function connect(): Promise<{ socket: net.Socket; received: () => string; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port, '127.0.0.1');
    let data = '';
    socket.on('data', (d) => (data += d.toString()));
    const opened = Date.now();
    const closed = new Promise<number>((done) => socket.on('close', () => done(Date.now() - opened)));
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve({ socket, received: () => data, closed }));
    socket.once('error', reject);
  });
}

describe('the web server', () => {
  it('has limits well below Node defaults', () => {
    expect(DEFAULT_HTTP_LIMITS.requestTimeoutMs).toBeLessThanOrEqual(30_000);
    expect(DEFAULT_HTTP_LIMITS.headersTimeoutMs).toBeLessThanOrEqual(DEFAULT_HTTP_LIMITS.requestTimeoutMs);
    expect(DEFAULT_HTTP_LIMITS.maxConnections).toBeGreaterThan(0);
  });

  it('answers 408 and closes the connection of a client that sends its body too slowly', async () => {
    const c = await connect();
    c.socket.write('POST /hook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n');
    // One byte every 50 ms: 500 bytes would take 25 s.
    const drip = setInterval(() => c.socket.writable && c.socket.write('a'), 50);
    const elapsed = await c.closed;
    clearInterval(drip);
    expect(c.received()).toMatch(/^HTTP\/1\.1 408 /);
    // Cut off by the timeout, not by the end of the drip (25 s); the bound leaves room for a loaded machine.
    expect(elapsed).toBeLessThan(CUT_OFF_BY_MS);
  });

  it('answers 408 to a client that never finishes its headers', async () => {
    const c = await connect();
    c.socket.write('POST /hook HTTP/1.1\r\nHost: x\r\n');
    const elapsed = await c.closed;
    expect(c.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(elapsed).toBeLessThan(CUT_OFF_BY_MS);
  });

  it('refuses a declared body over the cap with 413 without reading it, and serves normal requests', async () => {
    const c = await connect();
    c.socket.write('POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: 5000000\r\n\r\n');
    await c.closed;
    expect(c.received()).toMatch(/^HTTP\/1\.1 413 /);
    expect(c.received()).toContain('{"ok":false,"error":"body over 1000 bytes"}');
    const ok = await fetch(`http://127.0.0.1:${server.port}/hook`, { method: 'POST', body: 'x'.repeat(900) });
    expect(await ok.json()).toEqual({ size: 900 });
  });
});
