import { Pool } from 'undici';
import { ConnectionError, ResponseShapeError, TimeoutError } from './errors.js';

/**
 * One HTTP attempt over a keep-alive undici Pool: undici's own deadlines for headers and body, and
 * socket failures sorted by whether the request may have reached the service. No retries and no
 * parsing here: client.ts decides those.
 */

export interface RawResponse {
  status: number;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  text: string;
}

export interface Attempt {
  method: 'GET' | 'POST';
  /** Path below the base URL's own path, query string included: "/api/v2/quote?amount=1". */
  path: string;
  /** "GET /api/v2/quote": what errors and logs may show. Never the query string or headers. */
  label: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

/** A body past this is not an API answer; stop reading instead of filling memory. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

/**
 * Failures that happen before a connection exists, so the service cannot have seen the request.
 * Only these let createSwap try again.
 */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_DESTROYED',
  'UND_ERR_CLOSED',
]);

export class Transport {
  private readonly pool: Pool;
  private readonly basePath: string;
  private closed = false;

  constructor(baseUrl: URL) {
    // The Pool owns keep-alive connections to this one origin. Deadlines are undici's own, set per
    // request (below): no AbortController, timer or signal listener per request on the poll path.
    this.pool = new Pool(baseUrl.origin, {
      connections: 16,
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 60_000,
    });
    this.basePath = baseUrl.pathname.replace(/\/+$/, '');
  }

  /**
   * One attempt. `timeoutMs` bounds the wait for the answer's headers once the request is
   * written, and then every pause in its body (undici's headersTimeout and bodyTimeout); a
   * connection that cannot be made fails on undici's connect timeout as not sent. A caller's
   * signal is passed to undici as it is.
   */
  async send(a: Attempt): Promise<RawResponse> {
    if (this.closed) throw new ConnectionError(a.label, Object.assign(new Error('client closed'), { code: 'CLIENT_CLOSED' }), true);
    a.signal?.throwIfAborted();
    try {
      const res = await this.pool.request({
        method: a.method,
        path: this.basePath + a.path,
        headers: a.headers,
        body: a.body ?? null,
        headersTimeout: a.timeoutMs,
        bodyTimeout: a.timeoutMs,
        ...(a.signal ? { signal: a.signal } : {}),
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          res.body.destroy();
          throw new ResponseShapeError(a.label, '', `response body larger than ${MAX_BODY_BYTES} bytes`);
        }
        chunks.push(chunk);
      }
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
      return { status: res.statusCode, headers: res.headers, text: body.toString('utf8') };
    } catch (err) {
      if (err instanceof ResponseShapeError) throw err;
      if (a.signal?.aborted) throw a.signal.reason;
      if (isTimeout(err)) throw new TimeoutError(a.label, a.timeoutMs);
      throw new ConnectionError(a.label, err, notSent(err));
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Graceful: requests in flight (a createSwap!) finish; their deadlines bound how long that takes.
    await this.pool.close();
  }
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function isTimeout(err: unknown): boolean {
  const code = err && typeof err === 'object' && 'code' in err ? err.code : undefined;
  return typeof code === 'string' && TIMEOUT_CODES.has(code);
}

function notSent(err: unknown): boolean {
  // Happy-eyeballs connects may fail with an AggregateError of per-address failures.
  if (err instanceof AggregateError && err.errors.length > 0) return err.errors.every(notSent);
  const code = err && typeof err === 'object' && 'code' in err ? err.code : undefined;
  return typeof code === 'string' && NOT_SENT_CODES.has(code);
}
