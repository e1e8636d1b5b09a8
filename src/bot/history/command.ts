import { formatTime, shortId } from '../kernel/format.js';
import { swapAgainButton } from '../swap/index.js';
import { swapRoute, swapRouteIn, swapStatusLabel } from '../status/index.js';
import { isPublic, type Ctx } from '../kernel/context.js';
import { swapsCsv } from './csv.js';
import type { Network, SwapDetails } from '../../layerswap/schemas.js';
import { asError } from '../../log.js';
import { pageArg, pageButtons, pageLine } from '../kernel/paging.js';
import { actionButton, code, deeplinkButton, line, type Line, type Reply } from '../../contracts/reply.js';
import { notice } from '../kernel/replies.js';
import { VERBS } from '../kernel/verbs.js';
import { inlineAction } from '../kernel/actions.js';
import type { Command } from '../kernel/command.js';
import { routeSummary } from '../quote/index.js';
import type { HistoryEntry } from '../kernel/stores.js';

const PAGE = 8;
/** The /start payload that opens /history in the private chat (the group fallback's button). */
export const HISTORY_PAYLOAD = 'history';
/** How many swaps of the user's own addresses one /history looks at (one service page each). */
const ADDRESS_SWAPS = 20;
/** Swaps loaded at once for the CSV export. */
const EXPORT_CONCURRENCY = 4;

/** Which swaps /history lists: only those created here ('o'), or also those to the user's addresses ('a'). */
type Scope = 'o' | 'a';

/**
 * Outside a private chat the list goes privately; when that cannot be delivered the chat gets
 * only a button to the private chat, never the list (nothing private falls back to a group).
 */
function privately(ctx: Ctx, reply: Reply): Reply {
  if (!isPublic(ctx)) return { ...reply, target: 'here' };
  return {
    ...reply,
    target: 'dm',
    mode: 'new',
    dmFallback: {
      title: ctx.t('sent.private.title'),
      tone: 'info',
      lines: [line(ctx.t('history.privateOnly'))],
      buttons: [[deeplinkButton(ctx.t('history.openButton'), HISTORY_PAYLOAD)]],
      target: 'here',
    },
  };
}

interface Row {
  swapId: string;
  createdAt: number;
  text: string;
  /** Created here by this user: Swap again is offered. */
  own?: boolean;
}

/**
 * The swaps of the addresses this user gave as destination or refund here, as rows (not created
 * here, so their route comes from the service). An address the service cannot list is skipped.
 */
async function addressRows(ctx: Ctx): Promise<Row[]> {
  const addresses = await ctx.history.addresses(ctx.incoming.platform, ctx.incoming.userId);
  const lists = await Promise.all(
    addresses.map((address) =>
      ctx.api.listSwaps({ address, page: 1 }).catch((err: unknown) => {
        ctx.logger.warn({ err: asError(err) }, 'could not list the swaps of a history address');
        return [] as SwapDetails[];
      }),
    ),
  );
  return lists
    .flatMap((l) => l.slice(0, ADDRESS_SWAPS))
    .map((d) => {
      const created = Date.parse(d.swap.created_date ?? '');
      return {
        swapId: d.swap.id,
        createdAt: Number.isNaN(created) ? 0 : created,
        text: `${swapRoute(d)} · ${swapStatusLabel(d, ctx.locale)} · ${ctx.t('history.toYourAddress')}`,
      };
    });
}

/** A swap created here, its route worded in the reader's language (older entries kept only the words). */
const rowOf =
  (ctx: Ctx, networks: readonly Network[]) =>
  (e: HistoryEntry): Row => ({
    swapId: e.swapId,
    own: true,
    createdAt: e.createdAt,
    text: e.route
      ? routeSummary(e.route, networks, ctx.locale, {
          source: ctx.catalog.peekExchanges('source') ?? [],
          destination: ctx.catalog.peekExchanges('destination') ?? [],
        })
      : e.summary,
  });

/**
 * A page of own swaps with their figures from the money model (what was sent and what arrived,
 * the phase's one name), as every other message says them; a swap that cannot be loaded now
 * keeps its recorded summary.
 */
async function liveRows(ctx: Ctx, entries: readonly HistoryEntry[], entryRow: (e: HistoryEntry) => Row): Promise<Row[]> {
  return Promise.all(
    entries.map(async (e) => {
      const d = await ctx.api.getSwap(e.swapId, { exclude_deposit_actions: true }).catch(() => undefined);
      return d ? { ...entryRow(e), text: `${swapRouteIn(d, ctx.locale)} · ${swapStatusLabel(d, ctx.locale)}` } : entryRow(e);
    }),
  );
}

/** /history: the swaps this user created through the bot (and, toggled on, those to their addresses), newest first, paged. */
async function historyPage(ctx: Ctx, page: number, scope: Scope): Promise<Reply[]> {
  let rows: Row[];
  let total: number;
  // Network names for the rows' routes (cached; without the list, the rows show the API names).
  const networks = await ctx.catalog.networks().catch(() => ctx.catalog.peekNetworks() ?? []);
  const entryRow = rowOf(ctx, networks);
  if (scope === 'o') {
    const p = await ctx.history.page(ctx.incoming.platform, ctx.incoming.userId, page, PAGE);
    rows = await liveRows(ctx, p.entries, entryRow);
    total = p.total;
  } else {
    const [own, others] = await Promise.all([ctx.history.all(ctx.incoming.platform, ctx.incoming.userId), addressRows(ctx)]);
    const seen = new Set(own.map((e) => e.swapId));
    const all = [
      ...own.map(entryRow),
      ...others.filter((r) => !seen.has(r.swapId) && !seen.has(r.swapId) && Boolean(seen.add(r.swapId))),
    ].sort((a, b) => b.createdAt - a.createdAt);
    total = all.length;
    rows = all.slice(Math.max(0, page) * PAGE, (Math.max(0, page) + 1) * PAGE);
  }
  const toggle = actionButton(
    ctx.t(scope === 'o' ? 'history.includeAddresses' : 'history.onlyHere'),
    inlineAction(VERBS.historyPage, scope === 'o' ? 'a' : 'o', '0'),
  );
  if (total === 0) {
    const empty = notice(ctx.t('history.empty.title'), [line(ctx.t(scope === 'o' ? 'history.empty.own' : 'history.empty.all'))]);
    return [privately(ctx, { ...empty, buttons: [[toggle]], mode: ctx.incoming.action ? 'edit' : 'new' })];
  }
  const pages = Math.max(1, Math.ceil(total / PAGE));
  const p = Math.min(Math.max(0, page), pages - 1);
  const lines: Line[] = rows.map((r) => line(`${formatTime(r.createdAt, ctx.now(), ctx.locale)} · ${r.text} · `, code(r.swapId)));
  if (rows.length === 0) lines.push(line(ctx.t('history.emptyPage')));
  lines.push(line(ctx.t('history.checkOne')));
  if (pages > 1) lines.push(pageLine(ctx, p, pages));
  // One Swap again per row created here, two to a row of buttons (the list is always private).
  const again = rows
    .filter((r) => r.own)
    .map((r) => swapAgainButton(r.swapId, ctx.locale, ctx.t('swapAgain.row', { id: shortId(r.swapId) })));
  const againRows = again.map((_, i) => again.slice(i, i + 2)).filter((_, i) => i % 2 === 0);
  const buttons = [
    ...againRows,
    ...(await pageButtons(ctx, VERBS.historyPage, [scope], p, pages)),
    [toggle, actionButton(ctx.t('history.exportButton'), inlineAction(VERBS.historyExport))],
  ];
  return [
    privately(ctx, {
      title: ctx.t(scope === 'o' ? 'history.title' : 'history.titleAll', { total }),
      tone: 'info',
      lines,
      buttons,
      target: 'here',
      mode: ctx.incoming.action ? 'edit' : 'new',
    }),
  ];
}

export const history = (ctx: Ctx): Promise<Reply[]> => historyPage(ctx, 0, 'o');
/** hs [scope] <page>: pages and the scope toggle (older buttons carry only the page). */
export const historyButton = (ctx: Ctx, args: string[]): Promise<Reply[]> =>
  historyPage(ctx, pageArg(args[args.length - 1]), args.length === 2 && args[0] === 'a' ? 'a' : 'o');

/** hx: the CSV export of the user's swaps, sent privately as a file. */
export async function historyExportButton(ctx: Ctx): Promise<Reply[]> {
  const entries = await ctx.history.all(ctx.incoming.platform, ctx.incoming.userId);
  if (entries.length === 0) return [privately(ctx, notice(ctx.t('history.empty.title'), [line(ctx.t('history.export.empty'))]))];
  const rows: Array<{ entry: HistoryEntry; details: SwapDetails | undefined }> = [];
  for (let i = 0; i < entries.length; i += EXPORT_CONCURRENCY) {
    const batch = entries.slice(i, i + EXPORT_CONCURRENCY);
    rows.push(
      ...(await Promise.all(
        batch.map(async (entry) => ({
          entry,
          details: await ctx.api.getSwap(entry.swapId, { exclude_deposit_actions: true }).catch((err: unknown) => {
            ctx.logger.warn({ err: asError(err), swapId: entry.swapId }, 'could not load a swap for the CSV export');
            return undefined;
          }),
        })),
      )),
    );
  }
  const missing = rows.filter((r) => !r.details).length;
  const date = new Date(ctx.now()).toISOString().slice(0, 10);
  const reply: Reply = {
    title: ctx.t('history.export.title', { total: rows.length }),
    tone: 'info',
    lines: [line(ctx.t('history.export.text')), ...(missing > 0 ? [line(ctx.t('history.export.missing', { count: missing }))] : [])],
    attachment: { data: new TextEncoder().encode(swapsCsv(rows)), filename: `swapbot-swaps-${date}.csv`, mimeType: 'text/csv' },
    target: 'here',
  };
  return [{ ...privately(ctx, reply), mode: 'new' }];
}

export const historyCommand: Command = {
  name: 'history',
  description: 'Your swaps created through this bot',
  inGroups: false,
  options: [],
  usage: '/history',
  run: history,
};
