import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server on 127.0.0.1 that misbehaves on cue: each test scripts the answers in
 * order (500, then success; a hung response; a reset socket; HTML from a "proxy") and reads
 * back what arrived, so attempts are counted where the service would count them.
 */

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  /** The client's port: one value across requests means one kept-alive connection. */
  remotePort: number | undefined;
}

export type Step = (req: IncomingMessage, res: ServerResponse, recorded: RecordedRequest) => void;

export interface FaultServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Requests with this method (and path, when given) so far. */
  count(method: string, path?: string): number;
  /** Answers for the next requests, in order; once used up, `fallback` answers. */
  script(...steps: Step[]): void;
  close(): Promise<void>;
}

export async function startFaultServer(options: { port?: number; fallback?: Step } = {}): Promise<FaultServer> {
  const queue: Step[] = [];
  const requests: RecordedRequest[] = [];
  const fallback = options.fallback ?? json(500, { data: null, error: { code: 'UNSCRIPTED', message: 'no step scripted' } });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const recorded = {
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        remotePort: req.socket.remotePort,
      };
      requests.push(recorded);
      (queue.shift() ?? fallback)(req, res, recorded);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    count: (method, path) => requests.filter((r) => r.method === method && (path === undefined || r.path === path)).length,
    script: (...steps) => void queue.push(...steps),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A free port with nothing listening on it (connections are refused). */
export async function closedPort(): Promise<number> {
  const s = await startFaultServer();
  await s.close();
  return s.port;
}

// ---- steps ----

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Step {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  };
}

export function ok(data: unknown, headers: Record<string, string> = {}): Step {
  return json(200, { data, error: null }, headers);
}

export function apiError(
  status: number,
  code: string,
  message: string,
  metadata: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Step {
  return json(status, { data: null, error: { code, message, metadata } }, headers);
}

export function raw(status: number, text: string, contentType: string, headers: Record<string, string> = {}): Step {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': contentType, ...headers });
    res.end(text);
  };
}

/** Headers and body never come; the client's deadline has to end it. */
export function hang(): Step {
  return () => undefined;
}

/** The request (body included) was read, then the socket is torn down without an answer. */
export function reset(): Step {
  return (req) => {
    req.socket.destroy();
  };
}

/** Another step, answered after a pause (a slow but healthy service). */
export function delayed(ms: number, step: Step): Step {
  return (req, res, recorded) => void setTimeout(() => step(req, res, recorded), ms);
}
