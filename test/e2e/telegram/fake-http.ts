import type { IncomingMessage } from 'node:http';
import type { Json } from './fake-rules.js';

/** Request bodies as the fake Bot API reads them. */

/** JSON or multipart/form-data (grammY uploads InputFile that way); JSON-looking fields decoded. */
export async function readPayload(req: IncomingMessage): Promise<{ payload: Json; files: Record<string, Uint8Array> }> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = Buffer.concat(chunks);
  const type = req.headers['content-type'] ?? '';
  if (body.length === 0) return { payload: {}, files: {} };
  if (type.startsWith('application/json')) return { payload: JSON.parse(body.toString('utf8')) as Json, files: {} };
  if (!type.startsWith('multipart/form-data')) return { payload: {}, files: {} };
  const payload: Json = {};
  const blobs: Record<string, Uint8Array> = {};
  for (const part of multipartParts(body, type)) {
    if (part.filename !== undefined) {
      blobs[part.name] = new Uint8Array(part.body);
      continue;
    }
    const v = part.body.toString('utf8');
    try {
      payload[part.name] = /^[[{]/.test(v) ? (JSON.parse(v) as unknown) : v;
    } catch {
      payload[part.name] = v;
    }
  }
  // Fields point at their file part with attach://<id>.
  const files: Record<string, Uint8Array> = {};
  for (const [k, v] of Object.entries(payload)) {
    if (typeof v === 'string' && v.startsWith('attach://')) {
      const blob = blobs[v.slice('attach://'.length)];
      if (blob) files[k] = blob;
    }
  }
  return { payload, files };
}

/**
 * A small multipart/form-data reader. grammY writes headers as `content-disposition:form-data;name="x"`
 * and `filename=qr.png` unquoted, which undici's strict FormData parser refuses (Telegram accepts).
 */
function multipartParts(body: Buffer, contentType: string): Array<{ name: string; filename?: string; body: Buffer }> {
  const boundary = /boundary=("?)([^";]+)\1/i.exec(contentType)?.[2];
  if (!boundary) return [];
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Array<{ name: string; filename?: string; body: Buffer }> = [];
  let pos = body.indexOf(delimiter);
  while (pos !== -1) {
    const start = pos + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    const raw = body.subarray(start + 2, next - 2); // skip the CRLF after the delimiter and before the next
    const split = raw.indexOf('\r\n\r\n');
    const headers = raw.subarray(0, split).toString('utf8');
    const name = /(?:^|[;\s])name="([^"]*)"/i.exec(headers)?.[1];
    const filename = /filename="?([^";\r\n]+)"?/i.exec(headers)?.[1];
    if (name !== undefined) parts.push({ name, ...(filename !== undefined ? { filename } : {}), body: raw.subarray(split + 4) });
    pos = next;
  }
  return parts;
}
