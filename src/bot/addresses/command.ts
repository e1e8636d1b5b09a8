import { actionButton, code, line, text, type Button, type Line, type Reply } from '../../contracts/reply.js';
import { inlineAction } from '../kernel/actions.js';
import { isSavedId, MAX_SAVED, savedLabel } from './book.js';
import type { Command } from '../kernel/command.js';
import { isPublic, type Ctx } from '../kernel/context.js';
import { notice } from '../kernel/replies.js';
import { VERBS } from '../kernel/verbs.js';
import type { SavedAddress } from '../kernel/stores.js';

/**
 * /addresses: the destinations this user saved (each swap's destination is saved when it is
 * created; offered at the next address step of its family). Lists them, `rename <n> <label>`,
 * `remove <n>` (and a Remove button each), `watch <n>` / `unwatch <n>` (new swaps to or from it,
 * made in any app, followed in the private chat). Private chats only: in a group nothing is listed.
 */

const USAGE = '/addresses [rename <n> <label> | remove <n> | watch <n> | unwatch <n>]';
/** Remove buttons for the first few only: Discord allows 5 rows of buttons (the rest by number). */
const REMOVE_BUTTONS = 8;

function privateOnly(ctx: Ctx): Reply[] {
  return [notice(ctx.t('addresses.title'), [line(ctx.t('addresses.privateOnly'))])];
}

function listReply(ctx: Ctx, list: readonly SavedAddress[], note?: string): Reply {
  const lines: Line[] = note ? [line(note)] : [];
  if (list.length === 0) lines.push(line(ctx.t('addresses.empty')));
  list.forEach((e, i) => {
    const label = e.label ? `${e.label} · ` : '';
    lines.push(
      line(
        text(`${i + 1}. ${label}${e.family.toUpperCase()} · `),
        code(e.address),
        ...(e.watched ? [text(` · ${ctx.t('addresses.watchedMark')}`)] : []),
      ),
    );
  });
  if (list.length > 0) lines.push(line(ctx.t('addresses.howTo', { max: MAX_SAVED })));
  const buttons: Button[] = list
    .slice(0, REMOVE_BUTTONS)
    .map((e, i) => actionButton(ctx.t('addresses.remove', { n: i + 1, label: savedLabel(e) }), inlineAction(VERBS.removeAddress, e.id)));
  const rows: Button[][] = [];
  for (let i = 0; i < buttons.length; i += 2) rows.push(buttons.slice(i, i + 2));
  return {
    title: ctx.t('addresses.title'),
    tone: 'info',
    lines,
    ...(rows.length ? { buttons: rows } : {}),
    target: 'here',
    mode: ctx.incoming.action ? 'edit' : 'new',
  };
}

const privateChat = (ctx: Ctx) => ({ platform: ctx.incoming.platform, chatId: ctx.incoming.userId, chatKind: 'private' as const });

/** Removes a saved address, and stops watching it. */
async function forget(ctx: Ctx, entry: SavedAddress): Promise<boolean> {
  if (entry.watched) await ctx.tracking.watchAddress?.(entry.address, privateChat(ctx), { userId: ctx.incoming.userId }, false);
  return ctx.addressBook.remove(ctx.incoming.platform, ctx.incoming.userId, entry.id);
}

async function addresses(ctx: Ctx, args: string): Promise<Reply[]> {
  if (isPublic(ctx)) return privateOnly(ctx);
  const { platform, userId } = ctx.incoming;
  const list = await ctx.addressBook.list(platform, userId);
  const [verb, n, ...rest] = args.trim().split(/\s+/).filter(Boolean);
  if (!verb) return [listReply(ctx, list)];
  const entry = /^\d{1,2}$/.test(n ?? '') ? list[Number(n) - 1] : undefined;
  const which = (v: string) => [
    notice(ctx.t('addresses.title'), [line(ctx.t('addresses.whichOne', { usage: USAGE, total: list.length, verb: v }))], 'warning'),
  ];
  if (/^rename$/i.test(verb)) {
    if (!entry) return which('rename');
    await ctx.addressBook.rename(platform, userId, entry.id, rest.join(' '));
    return [listReply(ctx, await ctx.addressBook.list(platform, userId), ctx.t('addresses.renamed'))];
  }
  if (/^(watch|unwatch)$/i.test(verb)) {
    const on = verb.toLowerCase() === 'watch';
    if (!entry) return which(on ? 'watch' : 'unwatch');
    if (!ctx.tracking.watchAddress) return [notice(ctx.t('addresses.title'), [line(ctx.t('addresses.watchUnavailable'))], 'warning')];
    await ctx.tracking.watchAddress(entry.address, privateChat(ctx), { userId, locale: ctx.locale }, on);
    await ctx.addressBook.setWatched(platform, userId, entry.id, on);
    return [listReply(ctx, await ctx.addressBook.list(platform, userId), ctx.t(on ? 'addresses.watching' : 'addresses.unwatched'))];
  }
  if (/^(remove|delete|rm)$/i.test(verb)) {
    if (!entry) return which('remove');
    await forget(ctx, entry);
    return [listReply(ctx, await ctx.addressBook.list(platform, userId), ctx.t('addresses.removed'))];
  }
  return [notice(ctx.t('addresses.title'), [line(ctx.t('addresses.usage', { usage: USAGE }))], 'warning')];
}

/** ar <saved id>: Remove on the list (edits it). */
export async function removeAddressButton(ctx: Ctx, args: string[]): Promise<Reply[]> {
  if (isPublic(ctx)) return privateOnly(ctx);
  const { platform, userId } = ctx.incoming;
  const entry = isSavedId(args[0]) ? (await ctx.addressBook.list(platform, userId)).find((e) => e.id === args[0]) : undefined;
  const removed = entry !== undefined && (await forget(ctx, entry));
  return [listReply(ctx, await ctx.addressBook.list(platform, userId), removed ? ctx.t('addresses.removed') : undefined)];
}

export const addressesCommand: Command = {
  name: 'addresses',
  description: 'Your saved destination addresses: list, rename, remove, watch',
  inGroups: false,
  // Discord passes the rest of the line as this option.
  options: [{ name: 'edit', description: 'Optional: rename 2 My wallet, remove 2, watch 2 or unwatch 2', type: 'string', required: false }],
  usage: USAGE,
  run: addresses,
};
