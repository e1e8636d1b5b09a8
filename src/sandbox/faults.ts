import type { SandboxFault } from './types.js';

/**
 * Injected failures, consumed in order by matching requests: an outage, a rate limit, a proxy that
 * answers HTML. The sandbox's own /sandbox/ endpoints are never faulted, so tests can still drive it.
 */
export class FaultBox {
  private readonly queue: { fault: SandboxFault; remaining: number }[] = [];

  add(fault: SandboxFault): void {
    if (!Number.isInteger(fault.status) || fault.status < 100 || fault.status > 599) {
      throw new Error(`sandbox: fault status must be an HTTP status from 100 to 599 (got ${String(fault.status)})`);
    }
    if (!Number.isInteger(fault.count) || fault.count < 1) {
      throw new Error(`sandbox: fault count must be a whole number of 1 or more (got ${String(fault.count)})`);
    }
    this.queue.push({ fault, remaining: fault.count });
  }

  /** The fault for this request, if any; counts it down. */
  take(path: string): SandboxFault | undefined {
    const entry = this.queue.find((e) => e.remaining > 0 && (!e.fault.pathPrefix || path.startsWith(e.fault.pathPrefix)));
    if (!entry) return undefined;
    entry.remaining--;
    if (entry.remaining === 0) this.queue.splice(this.queue.indexOf(entry), 1);
    return entry.fault;
  }
}

const CODES: Readonly<Record<number, string>> = {
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

/**
 * The error envelope, except 502 (a proxy in front of the service answers with its own HTML page)
 * and a 400 without a code (Layerswap refuses malformed parameters with no body at all).
 */
export function faultBody(status: number, code?: string): { contentType: string; body: string } {
  if (status === 400 && !code) return { contentType: 'text/plain', body: '' };
  if (status === 502) {
    return {
      contentType: 'text/html; charset=utf-8',
      body: '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
    };
  }
  code ??= CODES[status] ?? `HTTP_${status}`;
  const message =
    status === 429 ? 'Too many requests. Slow down and retry later.' : `The service answered ${status} (injected by the sandbox).`;
  return { contentType: 'application/json; charset=utf-8', body: JSON.stringify({ data: null, error: { code, message, metadata: {} } }) };
}
