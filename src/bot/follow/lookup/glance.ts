import { actionButton, deeplinkButton, line, type Button, type Reply } from '../../../contracts/reply.js';
import { ApiError } from '../../../layerswap/errors.js';
import type { SwapDetails } from '../../../layerswap/schemas.js';
import { statusCard } from '../../status/index.js';
import type { Ctx } from '../../kernel/context.js';
import { parseSwapId } from '../../kernel/swap-id.js';
import { msg, problemOf, problemReply } from '../../kernel/problem.js';
import { notice } from '../../kernel/replies.js';
import { VERBS } from '../../kernel/verbs.js';
import { swapByHash, swapsOfAddress } from './find.js';
import { followSwap, mayManageTracking } from '../follow.js';
import { parseLookup, type LookupInput } from './shape.js';

/**
 * A swap seen in passing: the first swap id, deposit transaction hash or address in some text
 * (a message someone pointed at, a mention in a chat the bot is not in), shown as its status card
 * masked as in groups, whoever asks and wherever. What /track looks up, never more: a hash finds
 * its swap, an address its newest swap.
 */

/** The payload of a deep link that opens a swap's full card in the private chat (/start st_<hex>). */
export const STATUS_LINK_PREFIX = 'st_';
const SEPARATORS = /[\s,;()<>[\]{}"'`|/?=&#]+/;
const MAX_WORDS = 200;

/** The first recognisable lookup in free text: a swap id before a hash before an address. */
export function findLookup(text: string): LookupInput | undefined {
  const found: LookupInput[] = [];
  for (const word of text.split(SEPARATORS).slice(0, MAX_WORDS)) {
    const w = word.replace(/^[.:!*_~]+|[.:!*_~]+$/g, '');
    if (w.length < 26 || w.length > 130) continue; // nothing shorter is an id, hash or address
    const parsed = parseLookup(w);
    if (parsed.ok) found.push(parsed.value);
  }
  return found.find((f) => f.kind === 'swap') ?? found.find((f) => f.kind === 'transaction') ?? found.find((f) => f.kind === 'address');
}

const isNotFound = (err: unknown): boolean => err instanceof ApiError && (err.status === 404 || err.code === 'NOT_FOUND');

/** The swap the input names, or the reply that says why there is none. */
async function swapOf(ctx: Ctx, input: LookupInput): Promise<SwapDetails | Reply> {
  switch (input.kind) {
    case 'swap':
      try {
        return await ctx.api.getSwap(input.id, { exclude_deposit_actions: true });
      } catch (err) {
        if (!isNotFound(err)) throw err;
        return problemReply(
          ctx.locale,
          problemOf('lookup.not_found', msg('error.notFound.reason'), { hint: msg('error.notFound.hint') }),
          ctx.t('lookup.noSwap'),
        );
      }
    case 'transaction':
      return (
        (await swapByHash(ctx, input.hash)) ??
        problemReply(
          ctx.locale,
          problemOf('lookup.tx_not_found', msg('problem.lookup.txNotFound'), { hint: msg('problem.lookup.txNotFoundHint') }),
          ctx.t('lookup.noSwap'),
        )
      );
    case 'address': {
      const { swaps } = await swapsOfAddress(ctx, input.address, 0, false);
      return (
        swaps[0] ??
        problemReply(
          ctx.locale,
          problemOf('lookup.address_empty', msg('problem.lookup.noSwaps'), { hint: msg('problem.lookup.expiredHidden') }),
          ctx.t('lookup.noSwapsFound'),
        )
      );
    } // A short id names a swap only among the asker's own (short-id.ts); findLookup skips words that short.
    case 'short':
      return nothingToTrack(ctx);
  }
}

/** Nothing recognisable: what the bot looks for, never an error. */
const nothingToTrack = (ctx: Ctx): Reply =>
  notice(ctx.t('lookup.glance.none.title'), [line(ctx.t('lookup.glance.none.text')), line(ctx.t('lookup.glance.none.hint'))], 'info');

export interface Glance {
  swap?: SwapDetails;
  /** The masked card, or why there is none. */
  reply: Reply;
}

/** The masked card of the swap in `text` (no buttons: the caller adds the next actions). */
async function glance(ctx: Ctx, text: string): Promise<Glance> {
  const input = findLookup(text);
  if (!input) return { reply: nothingToTrack(ctx) };
  const found = await swapOf(ctx, input);
  if (!('swap' in found)) return { reply: found as Reply };
  const card = statusCard(found, { audience: 'public', now: ctx.now(), locale: ctx.locale });
  return { swap: found, reply: { ...card, buttons: [] } };
}

const linkPayload = (swapId: string): string => `${STATUS_LINK_PREFIX}${swapId.replace(/-/g, '')}`;

/** A guest mention's answer: the masked card and a deep link to the full card in the private chat. */
export async function guestGlance(ctx: Ctx, text: string): Promise<Glance> {
  const g = await glance(ctx, text);
  if (!g.swap) return g;
  return { ...g, reply: { ...g.reply, buttons: [[deeplinkButton(ctx.t('lookup.glance.openPrivately'), linkPayload(g.swap.swap.id))]] } };
}

/**
 * "Track this swap" on a message: the masked card for the one who asked, with the next action:
 * follow in this chat (its admins) and follow privately (anyone).
 */
export async function trackThis(ctx: Ctx, text: string): Promise<Reply[]> {
  const g = await glance(ctx, text);
  if (!g.swap) return [{ ...g.reply, target: 'ephemeral' }];
  const row: Button[] = [];
  if (ctx.incoming.chatKind !== 'private' && (await mayManageTracking(ctx)))
    row.push(actionButton(ctx.t('lookup.glance.followHere'), await ctx.codec.encode({ verb: VERBS.track, args: [g.swap.swap.id] })));
  row.push(
    actionButton(
      ctx.t(ctx.incoming.chatKind === 'private' ? 'statusCard.button.track' : 'lookup.glance.followPrivately'),
      await ctx.codec.encode({ verb: VERBS.followPrivately, args: [g.swap.swap.id] }),
    ),
  );
  return [{ ...g.reply, buttons: [row], target: 'ephemeral' }];
}

/** fp <swap id>: follows the swap in the presser's private chat, wherever the button was. */
export async function followPrivatelyButton(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const id = parseSwapId(args.length === 1 ? args[0] : '');
  if (!id.ok) return [problemReply(ctx.locale, id, ctx.t('lookup.whichSwap'))];
  const { threadId: _thread, ...incoming } = ctx.incoming;
  const mine: Ctx = { ...ctx, incoming: { ...incoming, chatId: incoming.userId, chatKind: 'private' } };
  const replies = await followSwap(mine, id.value);
  const where = ctx.incoming.chatKind === 'private' ? [] : [line(ctx.t('lookup.glance.followingPrivately'))];
  return replies.map((r) => ({ ...r, lines: [...where, ...r.lines], target: 'ephemeral' }));
}
