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

export async function serveHttp(routes: ReadonlyMap<string, RequestHandler>, opts: { port: number; host?: string; health: () => Promise<boolean> }): Promise<WebServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
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
  });
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
