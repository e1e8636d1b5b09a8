import type { IncomingMessage } from 'node:http';
import type { FileRecord, Json } from './fake-world.js';

export interface RouteRequest {
  method: string;
  /** Path after /api/v10. */
  path: string;
  query: URLSearchParams;
  body: Json | Json[] | undefined;
  files: FileRecord[];
  authorized: boolean;
}

export interface RouteResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export const apiError = (status: number, code: number, message: string, errors?: string[]): RouteResponse => ({
  status,
  body: { code, message, ...(errors ? { errors: { _errors: errors.map((e) => ({ code: 'BASE_TYPE_INVALID', message: e })) } } : {}) },
});

/** Request bodies as Discord receives them: JSON, or multipart with payload_json and files[n]. */
export async function parseBody(req: IncomingMessage, raw: Buffer, url: URL): Promise<{ body: Json | Json[] | undefined; files: FileRecord[] }> {
  const type = req.headers['content-type'] ?? '';
  if (raw.length === 0) return { body: undefined, files: [] };
  if (type.startsWith('application/json')) return { body: JSON.parse(raw.toString('utf8')) as Json, files: [] };
  if (type.startsWith('multipart/form-data')) {
    const form = await new Request(url, { method: 'POST', headers: { 'content-type': type }, body: raw }).formData();
    const files: FileRecord[] = [];
    let body: Json | undefined;
    for (const [field, value] of form.entries()) {
      if (field === 'payload_json') body = JSON.parse(typeof value === 'string' ? value : await value.text()) as Json;
      else if (typeof value !== 'string') files.push({ field, filename: value.name, contentType: value.type, bytes: Buffer.from(await value.arrayBuffer()) });
    }
    return { body, files };
  }
  return { body: undefined, files: [] };
}
