import { Pool } from 'undici';
import { ConnectionError, ResponseShapeError, TimeoutError } from './errors.js';

/**
 * One HTTP attempt over a keep-alive undici Pool: a single deadline covering connect, headers and
 * body, and socket failures sorted by whether the request may have reached the service. No
 * retries and no parsing here: client.ts decides those.
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
  'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_DESTROYED', 'UND_ERR_CLOSED',
]);

export class Transport {
  private readonly pool: Pool;
  private readonly basePath: string;
  private closed = false;

  constructor(baseUrl: URL) {
    // The Pool owns keep-alive connections to this one origin; deadlines are ours (below), so
    // undici's own header/body timeouts are off rather than racing ours.
    this.pool = new Pool(baseUrl.origin, {
      connections: 16,
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 60_000,
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    this.basePath = baseUrl.pathname.replace(/\/+$/, '');
  }

  async send(a: Attempt): Promise<RawResponse> {
    if (this.closed) throw new ConnectionError(a.label, Object.assign(new Error('client closed'), { code: 'CLIENT_CLOSED' }), true);
    a.signal?.throwIfAborted();
    // A private reason object tells our deadline apart from the caller's own abort.
    const deadline = new AbortController();
    const timeoutReason = new Error('deadline');
    const timer = setTimeout(() => deadline.abort(timeoutReason), a.timeoutMs);
    const signal = a.signal ? AbortSignal.any([a.signal, deadline.signal]) : deadline.signal;
    try {
      const res = await this.pool.request({
        method: a.method,
        path: this.basePath + a.path,
        headers: a.headers,
        body: a.body ?? null,
        signal,
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
      return { status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') };
    } catch (err) {
      if (err instanceof ResponseShapeError) throw err;
      if (deadline.signal.aborted && !a.signal?.aborted) throw new TimeoutError(a.label, a.timeoutMs);
      if (a.signal?.aborted) throw a.signal.reason;
      throw new ConnectionError(a.label, err, notSent(err));
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Graceful: requests in flight (a createSwap!) finish; our deadline bounds how long that takes.
    await this.pool.close();
  }
}

function notSent(err: unknown): boolean {
  // Happy-eyeballs connects may fail with an AggregateError of per-address failures.
  if (err instanceof AggregateError && err.errors.length > 0) return err.errors.every(notSent);
  const code = err && typeof err === 'object' && 'code' in err ? err.code : undefined;
  return typeof code === 'string' && NOT_SENT_CODES.has(code);
}
