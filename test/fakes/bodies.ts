/**
 * Request bodies as the platforms read them, for every fake platform (test/e2e and bench/sinks):
 * JSON, or multipart/form-data when a message carries a file. One multipart reader serves both.
 */

export type Json = Record<string, unknown>;

/** A file part of a Discord upload (files[n]). */
export interface FileRecord {
  field: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
}

interface FormPart {
  name: string;
  filename?: string;
  contentType?: string;
  body: Buffer;
}

const isJson = (type: string) => type.startsWith('application/json');
const isMultipart = (type: string) => type.startsWith('multipart/form-data');

/**
 * Telegram: JSON, or multipart (grammY uploads an InputFile that way) with JSON-looking fields
 * decoded and each file under the field that points at it with attach://<id>. Bad JSON throws.
 */
export function telegramPayload(body: Buffer, contentType = ''): { payload: Json; files: Record<string, Uint8Array> } {
  if (body.length === 0) return { payload: {}, files: {} };
  if (isJson(contentType)) return { payload: JSON.parse(body.toString('utf8')) as Json, files: {} };
  if (!isMultipart(contentType)) return { payload: {}, files: {} };
  const payload: Json = {};
  const blobs: Record<string, Uint8Array> = {};
  for (const part of multipartParts(body, contentType)) {
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
  const files: Record<string, Uint8Array> = {};
  for (const [k, v] of Object.entries(payload)) {
    // editMessageMedia: the file is named inside the media object ({"media": "attach://…"}).
    const ref =
      typeof v === 'string'
        ? v
        : v && typeof v === 'object' && typeof (v as Json).media === 'string'
          ? ((v as Json).media as string)
          : undefined;
    if (ref?.startsWith('attach://')) {
      const blob = blobs[ref.slice('attach://'.length)];
      if (blob) files[k] = blob;
    }
  }
  return { payload, files };
}

/** Discord: JSON, or multipart with the message under payload_json and files[n]. Bad JSON throws. */
export function discordBody(body: Buffer, contentType = ''): { body: Json | Json[] | undefined; files: FileRecord[] } {
  if (body.length === 0) return { body: undefined, files: [] };
  if (isJson(contentType)) return { body: JSON.parse(body.toString('utf8')) as Json, files: [] };
  if (!isMultipart(contentType)) return { body: undefined, files: [] };
  let json: Json | undefined;
  const files: FileRecord[] = [];
  for (const part of multipartParts(body, contentType)) {
    if (part.filename !== undefined)
      files.push({ field: part.name, filename: part.filename, contentType: part.contentType ?? '', bytes: part.body });
    else if (part.name === 'payload_json') json = JSON.parse(part.body.toString('utf8')) as Json;
  }
  return { body: json, files };
}

/**
 * A small multipart/form-data reader. grammY writes headers as `content-disposition:form-data;name="x"`
 * and `filename=qr.png` unquoted, which undici's strict FormData parser refuses (Telegram accepts);
 * undici's own FormData (discord.js, the Discord messenger) writes them quoted with a space.
 */
function multipartParts(body: Buffer, contentType: string): FormPart[] {
  const boundary = /boundary=("?)([^";]+)\1/i.exec(contentType)?.[2];
  if (!boundary) return [];
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: FormPart[] = [];
  let pos = body.indexOf(delimiter);
  while (pos !== -1) {
    const start = pos + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    const raw = body.subarray(start + 2, next - 2); // skip the CRLF after the delimiter and before the next
    const split = raw.indexOf('\r\n\r\n');
    pos = next;
    if (split === -1) continue;
    const headers = raw.subarray(0, split).toString('utf8');
    const name = /(?:^|[;\s])name="([^"]*)"/i.exec(headers)?.[1];
    const filename = /filename="?([^";\r\n]+)"?/i.exec(headers)?.[1];
    const type = /^content-type:\s*([^\r\n]+)/im.exec(headers)?.[1]?.trim();
    if (name !== undefined)
      parts.push({
        name,
        ...(filename !== undefined ? { filename } : {}),
        ...(type !== undefined ? { contentType: type } : {}),
        body: raw.subarray(split + 4),
      });
  }
  return parts;
}
