import { ApiError } from '../../../layerswap/errors.js';
import type { SwapDetails } from '../../../layerswap/schemas.js';
import type { Ctx } from '../../kernel/context.js';

/** The service pages GET /swaps?address= by this many (pages count from 1). */
const SERVICE_PAGE = 20;
/** Rows per chat page: a divisor of SERVICE_PAGE, so a chat page never spans two service pages. */
const LIST_PAGE = 5;

const isNotFound = (err: unknown): boolean => err instanceof ApiError && (err.status === 404 || err.code === 'NOT_FOUND');

/** The swap a transaction belongs to; undefined when the service knows none (yet). */
export async function swapByHash(ctx: Ctx, hash: string): Promise<SwapDetails | undefined> {
  try {
    return await ctx.api.getSwapByTransactionHash(hash);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/**
 * One chat page of an address's swaps (newest first, as the service lists them), and whether a
 * next page may exist. A 404 counts as no swaps.
 */
export async function swapsOfAddress(
  ctx: Ctx,
  address: string,
  page: number,
  includeExpired: boolean,
): Promise<{ swaps: SwapDetails[]; more: boolean }> {
  const perService = SERVICE_PAGE / LIST_PAGE;
  const servicePage = Math.floor(page / perService) + 1;
  let all: SwapDetails[];
  try {
    all = await ctx.api.listSwaps({ address, page: servicePage, include_expired: includeExpired });
  } catch (err) {
    if (isNotFound(err)) return { swaps: [], more: false };
    throw err;
  }
  const start = (page % perService) * LIST_PAGE;
  const swaps = all.slice(start, start + LIST_PAGE);
  // A full service page may have a successor; within one, more rows after this slice mean more.
  return { swaps, more: all.length > start + LIST_PAGE || all.length >= SERVICE_PAGE };
}
