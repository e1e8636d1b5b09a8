import type { LayerswapApi, RequestOptions } from './api.js';
import { ApiError } from './errors.js';
import type { DepositAction } from './schemas.js';

export interface LoadDepositActionsOptions extends RequestOptions {
  /** Requests at most. Default 4 (the first and three more). */
  attempts?: number;
  /** Pause between requests. Default 1000 ms: about 3 s in all. */
  intervalMs?: number;
  /** Tests record the pauses instead of sleeping. */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * A new swap's deposit actions when the create answer carried none. Right after POST /swaps the
 * service may still answer an empty list or 404 NOT_FOUND, so this asks again briefly (each
 * request with the client's usual retries). Resolves to [] when there are still none: the caller
 * then says where to check instead of showing deposit details it does not have. Other errors
 * reject as they are.
 */
export async function loadDepositActions(
  api: LayerswapApi,
  swapId: string,
  params: { source_address?: string } = {},
  options: LoadDepositActionsOptions = {},
): Promise<DepositAction[]> {
  const { attempts = 4, intervalMs = 1000, sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms)), ...request } = options;
  for (let attempt = 1; ; attempt++) {
    try {
      const actions = await api.getDepositActions(swapId, params, request);
      if (actions.length > 0 || attempt >= attempts) return actions;
    } catch (err) {
      const notYet = err instanceof ApiError && (err.status === 404 || err.code === 'NOT_FOUND');
      if (!notYet) throw err;
      if (attempt >= attempts) return [];
    }
    request.signal?.throwIfAborted();
    await sleep(intervalMs);
  }
}
