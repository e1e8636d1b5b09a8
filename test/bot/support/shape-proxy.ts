import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP proxy in front of the sandbox that reshapes chosen answers the way the real service
 * was seen to send them (test/fixtures/layerswap): e.g. POST /swaps cut down to
 * `{swap: {id, status}, deposit_actions}` as in the live Base → Paradex capture. The swap still
 * exists in the sandbox, so follow-up reads (GET /swaps/{id}, /deposit_actions) answer for real.
 */
export interface ShapeProxy {
  url: string;
  /** Rewrites the `data` of 2xx answers to `POST /api/v2/swaps`; undefined passes them through. */
  createShape: ((data: Record<string, unknown>) => unknown) | undefined;
  /** Rewrites the `data` of any other 2xx answer, given "METHOD /api/v2/..." (no query); undefined passes them through. */
  answerShape: ((label: string, data: unknown) => unknown) | undefined;
  /** Answers to fail (status 503) before reaching the sandbox, by "METHOD path-part", counted down. */
  failNext: Map<string, number>;
  /** "METHOD /api/v2/..." (no query) of every request, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startShapeProxy(target: string): Promise<ShapeProxy> {
  const proxy: ShapeProxy = {
    url: '',
    createShape: undefined,
    answerShape: undefined,
    failNext: new Map(),
    requests: [],
    close: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        const label = `${req.method ?? ''} ${path}`;
        proxy.requests.push(label);
        const fail = [...proxy.failNext.entries()].find(([k, n]) => {
          const [method, part] = k.split(' ');
          return n > 0 && req.method === method && path.includes(part ?? '');
        });
        if (fail) {
          proxy.failNext.set(fail[0], fail[1] - 1);
          res.writeHead(503, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({ data: null, error: { code: 'SERVICE_UNAVAILABLE', message: 'injected by the shape proxy', metadata: {} } }),
          );
          return;
        }
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers))
          if (typeof v === 'string' && k !== 'host' && k !== 'content-length' && k !== 'connection') headers[k] = v;
        const upstream = await fetch(target + (req.url ?? '/'), {
          method: req.method,
          headers,
          body: req.method === 'GET' ? undefined : Buffer.concat(chunks),
        });
        let text = await upstream.text();
        if (label === 'POST /api/v2/swaps' && upstream.ok && proxy.createShape) {
          const body = JSON.parse(text) as { data: Record<string, unknown> };
          text = JSON.stringify({ data: proxy.createShape(body.data), error: null });
        } else if (upstream.ok && proxy.answerShape) {
          const body = JSON.parse(text) as { data: unknown };
          text = JSON.stringify({ data: proxy.answerShape(label, body.data), error: null });
        }
        res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
        res.end(text);
      })().catch(() => {
        res.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

/** The live capture's shape (live.post-swaps.base-paradex.trimmed.json): swap cut to {id, status}. */
export function trimmedLikeLiveCapture(data: Record<string, unknown>): unknown {
  const swap = data.swap as { id: string; status: string };
  return { swap: { id: swap.id, status: swap.status }, deposit_actions: data.deposit_actions };
}
