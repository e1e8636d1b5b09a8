import type { z } from 'zod';
import { scrub } from '../log.js';
import { ApiError, ResponseShapeError } from './errors.js';
import { ApiErrorBodySchema } from './schemas.js';
import type { RawResponse } from './transport.js';

/**
 * Turns one HTTP answer into data or an error. The service wraps everything in {data, error};
 * proxies in front of it may answer HTML, and a new API version may change a field: each of
 * those ends as a specific error, never as a JSON parse crash.
 */

export function readEnvelope<T>(res: RawResponse, schema: z.ZodType<T>, label: string, secrets: readonly string[]): T {
  return checkData(readEnvelopeData(res, label, secrets), schema, label);
}

/**
 * The `data` of a successful answer, parsed once and not yet checked: the body's error envelope,
 * a non-2xx status or a body that is not JSON end here as errors, exactly as readEnvelope reports
 * them. checkData then validates it, once or (pollSwap) in two steps.
 */
export function readEnvelopeData(res: RawResponse, label: string, secrets: readonly string[]): unknown {
  const ok = res.status >= 200 && res.status < 300;
  const common = { status: res.status, request: label, requestId: requestIdOf(res.headers), retryAfterMs: retryAfterMs(res.headers) };

  // Layerswap answers malformed parameters with a 400 and no body (a snake_case `statuses`, a bad
  // enum): a refusal like any other 4xx, never "the service is not answering" and never "may exist".
  if (res.text.trim().length === 0 && res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) {
    return fail(new ApiError({ ...common, code: 'EMPTY_REFUSAL', message: `HTTP ${res.status} with an empty body` }));
  }

  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    const type = header(res.headers, 'content-type')?.split(';')[0]?.trim() || 'no content type';
    const what = res.text.trim().length === 0 ? 'an empty body' : `a body that is not JSON (${type})`;
    return fail(
      new ApiError({
        ...common,
        code: 'NON_JSON_RESPONSE',
        message: `the swap service (or a proxy in front of it) answered HTTP ${res.status} with ${what}`,
      }),
    );
  }

  const envelope = isRecord(body) ? body : undefined;
  const errorBody = envelope && envelope.error != null ? ApiErrorBodySchema.safeParse(envelope.error) : undefined;
  if (errorBody?.success) {
    const { code, message, metadata } = errorBody.data;
    return fail(new ApiError({ ...common, code, message: scrub(message, secrets), metadata: scrubRecord(metadata, secrets) }));
  }
  if (!ok) {
    const code = res.status === 429 ? 'RATE_LIMITED' : 'HTTP_ERROR';
    return fail(new ApiError({ ...common, code, message: `HTTP ${res.status} without a readable error in the body` }));
  }
  if (!envelope) return fail(new ResponseShapeError(label, '', 'expected an object {data, error}'));
  return envelope.data;
}

/** `data` checked against a schema; a mismatch is a ResponseShapeError naming the first bad path. */
export function checkData<T>(data: unknown, schema: z.ZodType<T>, label: string): T {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  return fail(new ResponseShapeError(label, formatPath(['data', ...(first?.path ?? [])]), first?.message ?? 'does not match the schema'));
}

function fail(err: Error): never {
  throw err;
}

/** ["data", "tokens", 0, "decimals"] → "data.tokens[0].decimals". */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

/** Retry-After in ms: retry-after-ms, then Retry-After as seconds or as an HTTP date. */
function retryAfterMs(headers: RawResponse['headers'], now = Date.now()): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.ceil(Number(ms));
  const value = header(headers, 'retry-after');
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function requestIdOf(headers: RawResponse['headers']): string | undefined {
  return header(headers, 'x-request-id') ?? header(headers, 'request-id') ?? header(headers, 'x-ls-request-id');
}

function header(headers: RawResponse['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The service echoing our key back in an error must not carry it into a chat or a log. */
function scrubRecord(
  metadata: Record<string, unknown> | null | undefined,
  secrets: readonly string[],
): Record<string, unknown> | undefined {
  if (!metadata) return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(metadata)) out[k] = typeof v === 'string' ? scrub(v, secrets) : v;
  return out;
}
