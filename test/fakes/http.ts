import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The HTTP side every fake platform shares (the end-to-end fakes in test/e2e and the benchmark's
 * sinks in bench/sinks): a loopback server, a whole request body, a JSON answer.
 */

export interface Listening {
  readonly server: http.Server;
  readonly port: number;
  /** http://127.0.0.1:<port> */
  readonly url: string;
  /** Drops open connections (long polls, keep-alive) and stops listening. */
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1: a free port, or `port` (a platform that comes up where the bot already looks). */
export async function listen(handler: http.RequestListener, opts: { port?: number } = {}): Promise<Listening> {
  const server = http.createServer({ keepAliveTimeout: 30_000 }, handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Answers JSON; a no-op once the client is gone (a long poll cut short, a held request). */
export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.writableEnded || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}
