import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { BodyTooLarge, readBody } from '../http.js';
import { SandboxHttpError, validation } from './http-error.js';

/** The sandbox's HTTP in and out: a JSON body read within its limit, the {data, error} envelope sent. */

const MAX_BODY_BYTES = 64 * 1024;

export async function readJsonBody(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  let raw: Buffer;
  try {
    raw = await readBody(req, MAX_BODY_BYTES);
  } catch (e) {
    if (e instanceof BodyTooLarge)
      throw new SandboxHttpError('PAYLOAD_TOO_LARGE', `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
    throw e;
  }
  const text = raw.toString('utf8').trim();
  if (!text) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw validation('The request body is not valid JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw validation('The request body must be a JSON object.');
  return parsed as Record<string, unknown>;
}

/**
 * With --chain, the catalogue's EVM networks name the sandbox's chain as their node_url and its
 * chain id: a bot pointed at this sandbox (CHAIN_WATCH=auto) watches the chain its deposits land
 * on, not the public mainnet nodes the catalogue lists otherwise, and its check of the RPC's
 * eth_chainId against the catalogue passes.
 */
export function localNodeUrl(
  url: string,
  chainId: number,
  /** Other families' local RPCs by network type (TON: the sandbox's toncenter-shaped jsonRPC). */
  others: Readonly<Record<string, string>> = {},
): (this: unknown, key: string, value: unknown) => unknown {
  return function (this: unknown, key, value) {
    const type = (this as { type?: unknown }).type;
    if (typeof type === 'string' && type !== 'evm' && others[type] !== undefined) return key === 'node_url' ? others[type] : value;
    if (type !== 'evm') return value;
    return key === 'node_url' ? url : key === 'chain_id' && typeof value === 'string' ? String(chainId) : value;
  };
}

export function send(
  res: http.ServerResponse,
  status: number,
  payload: unknown,
  replacer?: (this: unknown, key: string, value: unknown) => unknown,
): void {
  const body = JSON.stringify(payload, replacer);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'x-request-id': randomUUID(),
  });
  res.end(body);
}

export function envelopeError(code: string, message: string, metadata: Record<string, unknown> = {}) {
  return { data: null, error: { code, message, metadata } };
}

export function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
