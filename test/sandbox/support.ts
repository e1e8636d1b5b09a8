import { ApiError } from '../../src/layerswap/errors.js';

/** Real addresses of each family, valid under the sandbox's checks (and the real service's). */
export const ADDR = {
  evm: '0x5f4025Cb72997D971e101a8FEf19422e696b4162',
  evm2: '0x1111111111111111111111111111111111111111',
  solana: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  starknet: '0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7',
  ton: 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs',
  tron: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  bitcoin: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
} as const;

/** The ApiError a call rejects with; fails the test when it resolves or throws something else. */
export async function apiError(call: Promise<unknown>): Promise<ApiError> {
  try {
    await call;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected the call to fail with an ApiError, but it succeeded');
}

export const TIMESPAN = /^(\d+):(\d{1,2}):(\d{1,2})(\.\d+)?$/;
export const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/;

/** Raw HTTP against the sandbox, for what the client hides (headers, bodies, status codes). */
export async function raw(
  baseUrl: string,
  path: string,
  init: { method?: string; key?: string | null; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{
  status: number;
  headers: Headers;
  text: string;
  json: { data: unknown; error: { code: string; message: string; metadata: Record<string, unknown> } | null };
}> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key !== null) headers['x-ls-apikey'] = init.key ?? 'sandbox';
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(baseUrl + path, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = { data: null, error: null };
  }
  return { status: res.status, headers: res.headers, text, json };
}
