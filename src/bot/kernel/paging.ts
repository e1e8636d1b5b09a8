import type { Ctx } from './context.js';
import { actionButton, line, type Button, type Line } from '../../contracts/reply.js';

/** Slices a list into pages and reports where we are. */
export function pageOf<T>(items: readonly T[], page: number, size: number): { items: T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const p = Number.isInteger(page) ? Math.min(Math.max(0, page), pages - 1) : 0;
  return { items: items.slice(p * size, (p + 1) * size), page: p, pages };
}

/** Prev / Next buttons whose actions carry the page number as the last argument. */
export async function pageButtons(ctx: Ctx, verb: string, args: string[], page: number, pages: number): Promise<Button[][]> {
  const row: Button[] = [];
  if (page > 0) row.push(actionButton(ctx.t('list.prev'), await ctx.codec.encode({ verb, args: [...args, String(page - 1)] })));
  if (page < pages - 1) row.push(actionButton(ctx.t('list.next'), await ctx.codec.encode({ verb, args: [...args, String(page + 1)] })));
  return row.length > 0 ? [row] : [];
}

/** "Page 2 of 5" under a paged list. */
export const pageLine = (ctx: Ctx, page: number, pages: number): Line => line(ctx.t('list.page', { page: page + 1, pages }));

/** A page number from an untrusted action argument. */
export function pageArg(s: string | undefined): number {
  return s !== undefined && /^\d{1,4}$/.test(s) ? Number(s) : 0;
}
