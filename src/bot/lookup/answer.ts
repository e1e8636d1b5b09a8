import { actionButton, code, line, type Reply } from '../../contracts/reply.js';
import type { SwapDetails } from '../../layerswap/schemas.js';
import { shortId } from '../cards/format.js';
import { swapListCard } from '../cards/swap-list.js';
import { isPublic, type Ctx } from '../context.js';
import { pageArg } from '../paging.js';
import { problemOf, problemReply } from '../problem.js';
import { notice } from '../replies.js';
import { VERBS } from '../verbs.js';
import { swapByHash, swapsOfAddress } from './find.js';
import { parseLookup, type LookupInput } from './shape.js';

/**
 * What /track, /status and "Where is my swap?" do with a swap id, a deposit transaction hash or a
 * wallet address. The command decides what a found swap becomes (`onSwap`: follow it, its status
 * card, the where-card); a hash finds its swap, an address lists its swaps. Nothing is sent
 * anywhere before the input has the shape of one of the three.
 */
export type OnSwap = (swapId: string, found?: SwapDetails) => Promise<Reply[]>;

export async function lookupReplies(ctx: Ctx, raw: string | undefined, onSwap: OnSwap): Promise<Reply[]> {
  const parsed = parseLookup(raw);
  if (!parsed.ok) return [problemReply(parsed, 'Which swap?')];
  return answerLookup(ctx, parsed.value, onSwap);
}

export async function answerLookup(ctx: Ctx, input: LookupInput, onSwap: OnSwap): Promise<Reply[]> {
  switch (input.kind) {
    case 'swap':
      return onSwap(input.id);
    case 'transaction': {
      const found = await swapByHash(ctx, input.hash);
      if (!found) return [await transactionNotFound(ctx, input.hash, input.orAddress === true)];
      const head = notice(`Found swap ${shortId(found.swap.id)}`, [line('Your transaction belongs to swap ', code(found.swap.id), '.')], 'success');
      return [head, ...(await onSwap(found.swap.id, found))];
    }
    case 'address':
      return [await addressPage(ctx, input.address, 0, false)];
  }
}

/** The service knows no swap with this transaction: say so, and why that may be fine. */
async function transactionNotFound(ctx: Ctx, hash: string, orAddress: boolean): Promise<Reply> {
  const reply = problemReply(problemOf('lookup.tx_not_found', 'No swap with that deposit transaction yet: if you sent it minutes ago, it may still be confirming.', {
    hint: 'Check again in a few minutes, or send the swap id if you have it.',
  }), 'No swap found');
  if (!orAddress) return reply;
  // 0x + 63/64 hex is also the shape of a Starknet address: offer that reading.
  const list = await ctx.codec.encode({ verb: VERBS.addressPage, args: [hash, '0', '0'] });
  return { ...reply, tone: 'warning', lines: [...reply.lines, line('If it is a Starknet wallet address instead, I can list its swaps.')], buttons: [[actionButton('It is an address: list its swaps', list)]] };
}

/** One page of an address's swaps, or a clear "none" with the expired toggle. */
export async function addressPage(ctx: Ctx, address: string, page: number, includeExpired: boolean): Promise<Reply> {
  const { swaps, more } = await swapsOfAddress(ctx, address, page, includeExpired);
  const flag = includeExpired ? '1' : '0';
  const toggle = await ctx.codec.encode({ verb: VERBS.addressPage, args: [address, includeExpired ? '0' : '1', '0'] });
  const mode = ctx.incoming.action ? 'edit' as const : 'new' as const;
  if (swaps.length === 0) {
    const reply = problemReply(problemOf(page > 0 ? 'lookup.address_page_empty' : 'lookup.address_empty', page > 0 ? 'No more swaps for that address.' : 'No swaps for that address.', {
      hint: includeExpired ? 'Check that it is the address you sent from or to.' : 'Expired swaps are hidden; press Show expired to include them.',
    }), 'No swaps found');
    return { ...reply, tone: 'info', buttons: [[actionButton(includeExpired ? 'Hide expired' : 'Show expired', toggle)]], mode };
  }
  const prev = page > 0 ? await ctx.codec.encode({ verb: VERBS.addressPage, args: [address, flag, String(page - 1)] }) : undefined;
  const next = more ? await ctx.codec.encode({ verb: VERBS.addressPage, args: [address, flag, String(page + 1)] }) : undefined;
  const card = swapListCard({ address, swaps, page, includeExpired, audience: isPublic(ctx) ? 'public' : 'private', now: ctx.now(), toggle, ...(prev ? { prev } : {}), ...(next ? { next } : {}) });
  return { ...card, mode };
}

/** as <address> <expired 0|1> <page>: the list's page, toggle and "list this address" buttons. */
export async function addressPageButton(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const [raw, flag, page] = args;
  const parsed = parseLookup(raw);
  const address = parsed.ok ? (parsed.value.kind === 'address' ? parsed.value.address : parsed.value.kind === 'transaction' && parsed.value.orAddress ? parsed.value.hash : undefined) : undefined;
  if (args.length !== 3 || address === undefined || (flag !== '0' && flag !== '1')) return [problemReply({ reason: 'That button is broken.' })];
  return [await addressPage(ctx, address, pageArg(page), flag === '1')];
}
