import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A node:http server on 127.0.0.1 with a free port; resolves with its base URL. */
export async function listen(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer({ keepAliveTimeout: 30_000 }, handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * The JSON fields of a request: a JSON body, or the text parts of multipart/form-data (photos),
 * where Discord puts the message under payload_json.
 */
export function parseFields(body: string, contentType: string | undefined): Record<string, unknown> {
  if (!body) return {};
  if (contentType?.startsWith('multipart/form-data')) {
    const fields: Record<string, unknown> = {};
    for (const m of body.matchAll(/name="([^"]+)"\r\n(?:Content-Type: [^\r\n]*\r\n)?\r\n([\s\S]*?)\r\n--/g)) {
      const [, name, value] = m;
      if (!name || value === undefined || value.length > 100_000) continue;
      if (name === 'payload_json') {
        try {
          Object.assign(fields, JSON.parse(value) as Record<string, unknown>);
        } catch {
          // not JSON: ignored
        }
      } else fields[name] = value;
    }
    return fields;
  }
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return Object.fromEntries(new URLSearchParams(body));
  }
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}
