import { actionButton, code, line, type Reply } from '../../../contracts/reply.js';
import { chatTarget, isPublic, type Ctx } from '../../kernel/context.js';
import { msg, problemOf, problemReply } from '../../kernel/problem.js';
import { notice } from '../../kernel/replies.js';

/**
 * A short swap id ("13a8b6b4", as every card shows it) made whole, among the swaps the asker
 * knows: their history, the swaps they follow, and the swaps this chat follows. Nothing is asked
 * of the swap service: a prefix names a swap only for someone who has seen it. One match is that
 * swap; several ask which (a button each, pressing `verb` with the whole id); none says what to send.
 */
export type Known = 'mine' | 'followed';

const CHOICES = 6;

/** The swap ids known here, newest first: `followed` only those this chat follows (what /untrack can stop). */
async function knownIds(ctx: Ctx, known: Known): Promise<string[]> {
  const { platform, userId } = ctx.incoming;
  const lists = await Promise.all([
    ctx.tracking.listFollowed(chatTarget(ctx)).then((l) => l.map((f) => f.swapId)),
    known === 'mine' && isPublic(ctx)
      ? ctx.tracking.listFollowed({ platform, chatId: userId, chatKind: 'private' }).then((l) => l.map((f) => f.swapId))
      : Promise.resolve([]),
    known === 'mine' ? ctx.history.all(platform, userId).then((l) => l.map((e) => e.swapId)) : Promise.resolve([]),
  ]);
  return [...new Set(lists.flat())];
}

/** The known swap ids that start with these digits (dashes aside). */
async function matchShortId(ctx: Ctx, prefix: string, known: Known): Promise<string[]> {
  return (await knownIds(ctx, known)).filter((id) => id.replace(/-/g, '').startsWith(prefix));
}

/** Answers a short id: the one swap it names (`onSwap`), a choice, or what to send instead. */
export async function shortIdReplies(
  ctx: Ctx,
  prefix: string,
  opts: { verb: string; known: Known },
  onSwap: (swapId: string) => Promise<Reply[]>,
): Promise<Reply[]> {
  const ids = await matchShortId(ctx, prefix, opts.known);
  if (ids.length === 1) return onSwap(ids[0] as string);
  const shown = prefix.slice(0, 31);
  if (ids.length === 0) {
    const p = problemOf(
      'swap_id.unknown_prefix',
      msg(opts.known === 'followed' ? 'problem.swapId.prefixNotFollowed' : 'problem.swapId.prefixUnknown', { prefix: shown }),
      {
        hint: msg(opts.known === 'followed' ? 'problem.swapId.prefixNotFollowedHint' : 'problem.swapId.prefixUnknownHint'),
      },
    );
    return [problemReply(ctx.locale, p, ctx.t('lookup.noSwap'))];
  }
  const buttons = await Promise.all(
    ids.slice(0, CHOICES).map(async (id) => [actionButton(id, await ctx.codec.encode({ verb: opts.verb, args: [id] }))]),
  );
  return [
    {
      ...notice(
        ctx.t('lookup.whichSwap'),
        [line(ctx.t('lookup.prefixChoice'), ' ', code(shown)), ...(ids.length > CHOICES ? [line(ctx.t('lookup.prefixLonger'))] : [])],
        'warning',
      ),
      buttons,
      // In a group the choice may list the asker's own private swaps: only they see it.
      ...(opts.known === 'mine' && isPublic(ctx) ? { target: 'ephemeral' as const } : {}),
    },
  ];
}
