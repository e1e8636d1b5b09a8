import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The two things every HTTP server here does the same way: listen on a port with a clean close, and
 * read a request body with a cap.
 */

export interface Listening {
  readonly port: number;
  /** http://host:port, with a wildcard host shown as the loopback address. */
  readonly url: string;
  /** Stops taking connections and resolves once open requests are answered. `force`: cut them. */
  close(opts?: { force?: boolean }): Promise<void>;
}

export async function listen(server: Server, opts: { port: number; host?: string }): Promise<Listening> {
  const host = opts.host ?? '0.0.0.0';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://${urlHost(host)}:${port}`,
    close: (closeOpts = {}) =>
      new Promise<void>((resolve) => {
        // Node 20's close() already drops idle keep-alive connections; `force` cuts busy ones too.
        server.close(() => resolve());
        if (closeOpts.force) server.closeAllConnections();
      }),
  };
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/** A body over the cap: answer 413 with `connection: close` (the rest is not read). */
export class BodyTooLarge extends Error {
  override name = 'BodyTooLarge';
  readonly status = 413;
  constructor(readonly maxBytes: number) {
    super(`body over ${maxBytes} bytes`);
  }
}

/** The client went away or the connection broke before the body was complete. */
export class BodyNotRead extends Error {
  override name = 'BodyNotRead';
}

/** Headers for a 413: the unread rest of the body must not be taken for the next request. */
export const CLOSE_CONNECTION = { connection: 'close' } as const;

/** A declared Content-Length over the cap: refuse before reading a byte. */
export function declaredTooLarge(req: IncomingMessage, maxBytes: number): boolean {
  return Number(req.headers['content-length'] ?? 0) > maxBytes;
}

/**
 * The whole body, at most `maxBytes`. Rejects with BodyTooLarge as soon as the declared length or
 * the bytes received pass the cap (the rest is discarded, not buffered), with BodyNotRead if the
 * request breaks off.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (declaredTooLarge(req, maxBytes)) {
      req.resume();
      return reject(new BodyTooLarge(maxBytes));
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size <= maxBytes) return void chunks.push(c);
      over = true;
      chunks.length = 0;
      req.off('data', onData);
      req.resume();
      reject(new BodyTooLarge(maxBytes));
    };
    req.on('data', onData);
    req.once('end', () => {
      if (!over) resolve(Buffer.concat(chunks));
    });
    req.once('error', (e) => reject(new BodyNotRead(`request body not read: ${e.message}`)));
    req.once('aborted', () => reject(new BodyNotRead('request body not read: the client went away')));
  });
}
