import { actionButton, code, line, type Reply } from '../../../contracts/reply.js';
import type { SwapDetails } from '../../../layerswap/schemas.js';
import { shortId } from '../../kernel/format.js';
import { swapListCard } from '../../status/index.js';
import { isPublic, type Ctx } from '../../kernel/context.js';
import { pageArg } from '../../kernel/paging.js';
import { msg, problemOf, problemReply } from '../../kernel/problem.js';
import { forSender, notice, senderWords } from '../../kernel/replies.js';
import { VERBS } from '../../kernel/verbs.js';
import { swapByHash, swapsOfAddress } from './find.js';
import { parseLookup, type LookupInput } from './shape.js';
import { shortIdReplies } from './short-id.js';

/**
 * What /track, /status and "Where is my swap?" do with a swap id, a deposit transaction hash or a
 * wallet address. The command decides what a found swap becomes (`onSwap`: follow it, its status
 * card, the where-card); a hash finds its swap, an address lists its swaps. Nothing is sent
 * anywhere before the input has the shape of one of the three.
 */
export type OnSwap = (swapId: string, found?: SwapDetails) => Promise<Reply[]>;

/**
 * `pickVerb`: the button verb (taking a whole swap id) that answers for one swap when a short id
 * names several the asker knows: the status card unless the command says otherwise.
 */
export async function lookupReplies(
  ctx: Ctx,
  raw: string | undefined,
  onSwap: OnSwap,
  pickVerb: string = VERBS.refreshStatus,
): Promise<Reply[]> {
  const parsed = parseLookup(raw);
  // An input error, like /track's: for the sender alone in a group.
  if (!parsed.ok) return [forSender(ctx, problemReply(senderWords(ctx).locale, parsed, senderWords(ctx).t('lookup.whichSwap')))];
  return answerLookup(ctx, parsed.value, onSwap, pickVerb);
}

export async function answerLookup(ctx: Ctx, input: LookupInput, onSwap: OnSwap, pickVerb: string = VERBS.refreshStatus): Promise<Reply[]> {
  switch (input.kind) {
    case 'swap':
      return onSwap(input.id);
    case 'short':
      return shortIdReplies(ctx, input.prefix, { verb: pickVerb, known: 'mine' }, (id) => onSwap(id));
    case 'transaction': {
      const found = await swapByHash(ctx, input.hash);
      if (!found) return [await transactionNotFound(ctx, input.hash, input.orAddress === true)];
      const head = notice(
        ctx.t('lookup.found.title', { id: shortId(found.swap.id) }),
        [line(ctx.t('lookup.found.text'), ' ', code(found.swap.id))],
        'success',
      );
      return [head, ...(await onSwap(found.swap.id, found))];
    }
    case 'address':
      return [await addressPage(ctx, input.address, 0, false)];
  }
}

/** The service knows no swap with this transaction: say so, and why that may be fine. */
async function transactionNotFound(ctx: Ctx, hash: string, orAddress: boolean): Promise<Reply> {
  const reply = problemReply(
    ctx.locale,
    problemOf('lookup.tx_not_found', msg('problem.lookup.txNotFound'), {
      hint: msg('problem.lookup.txNotFoundHint'),
    }),
    ctx.t('lookup.noSwap'),
  );
  if (!orAddress) return reply;
  // A hash that can also be a Starknet address (below 2^251): offer that reading.
  const list = await ctx.codec.encode({ verb: VERBS.addressPage, args: [hash, '0', '0'] });
  return {
    ...reply,
    tone: 'warning',
    lines: [...reply.lines, line(ctx.t('lookup.starknetAddress'))],
    buttons: [[actionButton(ctx.t('lookup.listAsAddress'), list)]],
  };
}

/** One page of an address's swaps, or a clear "none" with the expired toggle. */
async function addressPage(ctx: Ctx, address: string, page: number, includeExpired: boolean): Promise<Reply> {
  const { swaps, more } = await swapsOfAddress(ctx, address, page, includeExpired);
  const flag = includeExpired ? '1' : '0';
  const toggle = await ctx.codec.encode({ verb: VERBS.addressPage, args: [address, includeExpired ? '0' : '1', '0'] });
  const mode = ctx.incoming.action ? ('edit' as const) : ('new' as const);
  if (swaps.length === 0) {
    const reply = problemReply(
      ctx.locale,
      problemOf(
        page > 0 ? 'lookup.address_page_empty' : 'lookup.address_empty',
        msg(page > 0 ? 'problem.lookup.noMoreSwaps' : 'problem.lookup.noSwaps'),
        {
          hint: msg(includeExpired ? 'problem.lookup.checkAddress' : 'problem.lookup.expiredHidden'),
        },
      ),
      ctx.t('lookup.noSwapsFound'),
    );
    return {
      ...reply,
      tone: 'info',
      buttons: [[actionButton(ctx.t(includeExpired ? 'lookup.hideExpired' : 'lookup.showExpired'), toggle)]],
      mode,
    };
  }
  const prev = page > 0 ? await ctx.codec.encode({ verb: VERBS.addressPage, args: [address, flag, String(page - 1)] }) : undefined;
  const next = more ? await ctx.codec.encode({ verb: VERBS.addressPage, args: [address, flag, String(page + 1)] }) : undefined;
  const card = swapListCard({
    address,
    swaps,
    page,
    includeExpired,
    audience: isPublic(ctx) ? 'public' : 'private',
    now: ctx.now(),
    locale: ctx.locale,
    toggle,
    ...(prev ? { prev } : {}),
    ...(next ? { next } : {}),
  });
  return { ...card, mode };
}

/** as <address> <expired 0|1> <page>: the list's page, toggle and "list this address" buttons. */
export async function addressPageButton(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const [raw, flag, page] = args;
  const parsed = parseLookup(raw);
  const address = parsed.ok
    ? parsed.value.kind === 'address'
      ? parsed.value.address
      : parsed.value.kind === 'transaction' && parsed.value.orAddress
        ? parsed.value.hash
        : undefined
    : undefined;
  if (args.length !== 3 || address === undefined || (flag !== '0' && flag !== '1'))
    return [problemReply(ctx.locale, { reason: msg('problem.brokenButton') })];
  return [await addressPage(ctx, address, pageArg(page), flag === '1')];
}
