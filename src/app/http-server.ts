import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The web process's one HTTP server: /health for the platform's checks, plus whatever webhook
 * endpoints are configured (Telegram updates, Layerswap status notifications), mounted by path.
 */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface WebServer {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Limits that keep slow or greedy clients from holding the process: only Telegram and Layerswap
 * call it, with small bodies, fast. Node's defaults would let a client trickle a body for 300 s.
 */
export interface HttpLimits {
  /** Headers must arrive within this (ms). */
  headersTimeoutMs: number;
  /** The whole request, body included, within this (ms); later: 408 and the connection closes. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection closes after this (ms). */
  keepAliveTimeoutMs: number;
  /** Open connections at most; more are refused at once. */
  maxConnections: number;
  /** A declared body above this gets 413 before it is read (handlers cap streamed bodies too). */
  maxBodyBytes: number;
  /** How often Node checks the timeouts above (ms). */
  checkIntervalMs: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 15_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 512,
  maxBodyBytes: 1_048_576,
  checkIntervalMs: 1_000,
};

export async function serveHttp(
  routes: ReadonlyMap<string, RequestHandler>,
  opts: { port: number; host?: string; health: () => Promise<boolean>; limits?: Partial<HttpLimits> },
): Promise<WebServer> {
  const limits = { ...DEFAULT_HTTP_LIMITS, ...opts.limits };
  const server = http.createServer(
    { headersTimeout: limits.headersTimeoutMs, requestTimeout: limits.requestTimeoutMs, keepAliveTimeout: limits.keepAliveTimeoutMs, connectionsCheckingInterval: limits.checkIntervalMs },
    (req, res) => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const declared = Number(req.headers['content-length'] ?? 0);
      if (declared > limits.maxBodyBytes) {
        // Not read: the connection closes after the answer rather than draining a large body.
        res.writeHead(413, { 'content-type': 'application/json', connection: 'close' }).end(JSON.stringify({ ok: false, error: `body over ${limits.maxBodyBytes} bytes` }));
        return;
      }
      const handler = routes.get(path);
      if (handler) return handler(req, res);
      req.resume();
      if (path === '/health' && (req.method === 'GET' || req.method === 'HEAD')) {
        opts.health().then(
          (ok) => res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify({ ok })),
          () => res.writeHead(503, { 'content-type': 'application/json' }).end('{"ok":false}'),
        );
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"ok":false,"error":"not found"}');
    },
  );
  server.maxConnections = limits.maxConnections;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '0.0.0.0', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
