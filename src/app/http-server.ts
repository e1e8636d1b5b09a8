import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { CLOSE_CONNECTION, declaredTooLarge, listen } from '../http.js';
import { metricsPage } from '../metrics.js';
import { guardConnections } from './connection-guard.js';

/**
 * The one HTTP server of the web process (and the worker's, without routes): /health for the
 * platform's checks, /metrics for Prometheus, plus whatever webhook endpoints are configured
 * (Telegram updates, Layerswap status notifications), mounted by path.
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
  /** A connection with no request in flight closes after this (ms), one that never sent a byte too. */
  idleTimeoutMs: number;
  /** Open connections at most; past it the oldest idle one makes room, or the new one is refused. */
  maxConnections: number;
  /** Open connections from one address at most (Telegram opens up to 100 to a webhook). */
  maxConnectionsPerAddress: number;
  /** A declared body above this gets 413 before it is read (handlers cap streamed bodies too). */
  maxBodyBytes: number;
  /** How often Node checks the timeouts above (ms). */
  checkIntervalMs: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 15_000,
  keepAliveTimeoutMs: 2_000,
  idleTimeoutMs: 2_000,
  maxConnections: 512,
  maxConnectionsPerAddress: 128,
  maxBodyBytes: 1_048_576,
  checkIntervalMs: 1_000,
};

export async function serveHttp(
  routes: ReadonlyMap<string, RequestHandler>,
  opts: {
    port: number;
    host?: string;
    health: () => Promise<boolean>;
    limits?: Partial<HttpLimits>;
    /** When set, GET /metrics needs `Authorization: Bearer <token>` (the web port is public). */
    metricsToken?: string | undefined;
    /** Handlers of a whole path prefix (the pay page under /pay), tried after the exact routes. */
    prefixes?: ReadonlyMap<string, RequestHandler>;
  },
): Promise<WebServer> {
  const limits = { ...DEFAULT_HTTP_LIMITS, ...opts.limits };
  const server = http.createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
    (req, res) => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      if (declaredTooLarge(req, limits.maxBodyBytes)) {
        // Not read: the connection closes after the answer rather than draining a large body.
        res
          .writeHead(413, { 'content-type': 'application/json', ...CLOSE_CONNECTION })
          .end(JSON.stringify({ ok: false, error: `body over ${limits.maxBodyBytes} bytes` }));
        return;
      }
      const handler = routes.get(path) ?? [...(opts.prefixes ?? [])].find(([p]) => path === p || path.startsWith(`${p}/`))?.[1];
      if (handler) return handler(req, res);
      req.resume();
      if (path === '/health' && (req.method === 'GET' || req.method === 'HEAD')) {
        opts.health().then(
          (ok) => res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify({ ok })),
          () => res.writeHead(503, { 'content-type': 'application/json' }).end('{"ok":false}'),
        );
        return;
      }
      if (path === '/metrics' && req.method === 'GET') {
        if (opts.metricsToken && !bearerMatches(req.headers.authorization, opts.metricsToken)) {
          res
            .writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' })
            .end('{"ok":false,"error":"GET /metrics needs Authorization: Bearer <METRICS_TOKEN>"}');
          return;
        }
        metricsPage().then(
          (page) => res.writeHead(200, { 'content-type': page.contentType }).end(page.body),
          () => res.writeHead(500, { 'content-type': 'application/json' }).end('{"ok":false,"error":"metrics could not be collected"}'),
        );
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"ok":false,"error":"not found"}');
    },
  );
  guardConnections(server, {
    max: limits.maxConnections,
    perAddress: limits.maxConnectionsPerAddress,
    idleMs: limits.idleTimeoutMs,
    checkIntervalMs: limits.checkIntervalMs,
  });
  const listening = await listen(server, { port: opts.port, ...(opts.host ? { host: opts.host } : {}) });
  return { port: listening.port, close: () => listening.close() };
}

/** Constant-time comparison, so the token cannot be guessed byte by byte from response times. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '');
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}
