import { asError, silentLogger } from '../log.js';
import { ActionCodec } from './kernel/actions.js';
import { welcomeBack } from './follow/away.js';
import type { CoreDeps, Ctx } from './kernel/context.js';
import type { BotCore } from './core.js';
import { RedisDraftStore } from './swap/drafts.js';
import { errorReply, isServiceError } from './kernel/errors-text.js';
import { fitReply } from './kernel/fit.js';
import { RedisHistoryStore } from './history/store.js';
import { RedisAddressBook } from './addresses/book.js';
import { RedisAskStore } from './follow/lookup/asks.js';
import { isPlatform, type Incoming } from '../contracts/incoming.js';
import { RateLimiter } from './kernel/rate-limit.js';
import { line, type Reply } from '../contracts/reply.js';
import { notice } from './kernel/replies.js';
import { commandName, dispatch } from './dispatch.js';
import { suggest } from './catalog/suggest.js';
import { inlineQuote } from './quote/inline.js';
import { findLookup, guestGlance, trackThis } from './follow/lookup/glance.js';
import { shortId } from './kernel/format.js';
import { replyText } from '../contracts/reply.js';
import type { InlineAnswer, InlineQuery, InlineResult } from './core.js';
import { defaultLocale, formatDuration, resolveLocale, translator, type Locale, type Translate } from '../i18n/index.js';
import { chooseLocale, LanguageStore } from '../i18n/store.js';
import { readRouteTimes } from '../tracking/route-times.js';
import { HandoffStore } from './kernel/handoffs.js';

export type { CoreDeps } from './kernel/context.js';

const CHAT_KINDS = new Set(['private', 'group', 'channel']);

function validIncoming(i: Incoming): boolean {
  return (
    typeof i === 'object' &&
    i !== null &&
    isPlatform(i.platform) &&
    CHAT_KINDS.has(i.chatKind) &&
    typeof i.userId === 'string' &&
    i.userId !== '' &&
    i.userId.length <= 128 &&
    typeof i.chatId === 'string' &&
    i.chatId !== '' &&
    i.chatId.length <= 128
  );
}

/**
 * One request's context over the core's stores, in the reader's language: what every handler
 * gets. Exported for the agent surface (src/mcp), which runs the same checks and stores without a chat.
 */
export function contextFactory(deps: CoreDeps): (incoming: Incoming, locale: Locale, t: Translate) => Ctx {
  const logger = deps.logger ?? silentLogger;
  const now = deps.now ?? Date.now;
  const codec = new ActionCodec(deps.redis, deps.keyPrefix);
  const drafts = new RedisDraftStore(deps.redis, deps.keyPrefix, deps.limits.draftTtlSeconds, deps.limits.depositCardLeaseMs);
  const history = new RedisHistoryStore(deps.redis, deps.keyPrefix);
  const asks = new RedisAskStore(deps.redis, deps.keyPrefix);
  const addressBook = new RedisAddressBook(deps.redis, deps.keyPrefix);
  const languages = new LanguageStore(deps.redis, deps.keyPrefix);
  const routeTimes = (id: string) => readRouteTimes(deps.redis, deps.keyPrefix, id, now());
  const handoffs = new HandoffStore(deps.redis, deps.keyPrefix);
  return (incoming, locale, t) => ({
    incoming,
    api: deps.api,
    catalog: deps.catalog,
    tracking: deps.tracking,
    codec,
    drafts,
    history,
    asks,
    addressBook,
    logger,
    now,
    locale,
    t,
    languages,
    routeTimes,
    ...(deps.payLinks ? { payLinks: deps.payLinks } : {}),
    handoffs,
  });
}

/**
 * The platform-neutral core: rate limit, dispatch, handle, fit. handle() never throws: service
 * failures become plain-word replies and anything unexpected is logged (no user text, no
 * secrets) and answered politely. Every reply is cut to the strictest platform's limits.
 */
// eslint-disable-next-line max-lines-per-function -- 240 lines: to be cut into named steps (issue 39)
export function createCore(deps: CoreDeps): BotCore {
  const logger = deps.logger ?? silentLogger;
  const now = deps.now ?? Date.now;
  const languages = new LanguageStore(deps.redis, deps.keyPrefix);
  const drafts = new RedisDraftStore(deps.redis, deps.keyPrefix, deps.limits.draftTtlSeconds);
  /** One request's context: the stores and services every handler may use, in the reader's language. */
  const contextFor = contextFactory(deps);
  const limiter = new RateLimiter(deps.redis, deps.keyPrefix, deps.limits.commandsPerMinute);
  // Inline queries arrive as the user types: a bucket of their own at the same rate, so typing
  // one query does not use up the commands the user sends next.
  const inlineLimiter = new RateLimiter(deps.redis, deps.keyPrefix, deps.limits.commandsPerMinute, 'inline');

  async function inline(q: InlineQuery): Promise<InlineAnswer> {
    // The card may land in any chat: it is in the language of the one who typed it (their choice, else their platform's).
    let locale = defaultLocale();
    try {
      if (
        typeof q !== 'object' ||
        q === null ||
        !isPlatform(q.platform) ||
        typeof q.userId !== 'string' ||
        q.userId === '' ||
        q.userId.length > 128
      )
        return { results: [], personal: true, cacheSeconds: 0 };
      locale = (await languages.get('user', q.platform, q.userId)) ?? resolveLocale(q.locale);
      const t = translator(locale);
      const decision = await inlineLimiter.take(q.platform, q.userId, now());
      if (!decision.allowed) {
        const wait = t('core.slowInline', { wait: formatDuration(locale, decision.retryAfterMs) });
        return {
          results: [
            {
              id: 'slow',
              kind: 'slow',
              title: t('core.slowTitle'),
              description: wait,
              reply: { ...notice(t('core.slowTitle'), [line(wait)], 'warning') },
            },
          ],
          personal: true,
          cacheSeconds: 0,
        };
      }
      // No chat yet: the card may land in any chat, so it is built as for a public one.
      const incoming: Incoming = {
        platform: q.platform,
        userId: q.userId,
        userName: typeof q.userName === 'string' ? q.userName : '',
        chatId: q.userId,
        chatKind: 'group',
      };
      const ctx = contextFor(incoming, locale, t);
      const answer = await inlineQuote(ctx, typeof q.text === 'string' ? q.text : '');
      return { ...answer, results: answer.results.map((r) => ({ ...r, reply: fitReply(r.reply, locale) })) };
    } catch (err) {
      if (isServiceError(err))
        logger.warn({ platform: q?.platform, err: asError(err) }, 'swap service error while answering an inline query');
      else logger.error({ platform: q?.platform, err: asError(err) }, 'inline query failed');
      const r = errorReply(err, locale);
      return {
        results: [
          {
            id: 'error',
            kind: 'problem',
            title: r.title ?? translator(locale)('error.bug.title'),
            description: translator(locale)('core.tryAgainMoment'),
            reply: fitReply(r, locale),
          },
        ],
        personal: true,
        cacheSeconds: 0,
      };
    }
  }

  /** Guest mode: one result for a mention; the same bucket as inline queries. */
  async function guest(q: InlineQuery): Promise<InlineResult> {
    let locale = defaultLocale();
    try {
      if (
        typeof q !== 'object' ||
        q === null ||
        !isPlatform(q.platform) ||
        typeof q.userId !== 'string' ||
        q.userId === '' ||
        q.userId.length > 128
      )
        throw new Error('invalid guest query');
      locale = (await languages.get('user', q.platform, q.userId)) ?? resolveLocale(q.locale);
      const t = translator(locale);
      const decision = await inlineLimiter.take(q.platform, q.userId, now());
      if (!decision.allowed) {
        const wait = t('core.slowInline', { wait: formatDuration(locale, decision.retryAfterMs) });
        return {
          id: 'slow',
          kind: 'slow',
          title: t('core.slowTitle'),
          description: wait,
          reply: notice(t('core.slowTitle'), [line(wait)], 'warning'),
        };
      }
      // The answer lands in a chat the bot is not in: built as for a public one.
      const incoming: Incoming = {
        platform: q.platform,
        userId: q.userId,
        userName: typeof q.userName === 'string' ? q.userName : '',
        chatId: q.userId,
        chatKind: 'group',
      };
      const ctx = contextFor(incoming, locale, t);
      const text = typeof q.text === 'string' ? q.text.slice(0, 1024) : '';
      if (findLookup(text)) {
        const g = await guestGlance(ctx, text);
        const reply = fitReply(g.reply, locale);
        const [, ...rest] = replyText(reply).split('\n');
        return {
          id: g.swap ? `status:${shortId(g.swap.swap.id)}` : 'status:none',
          kind: g.swap ? 'status' : 'problem',
          title: reply.title ?? t('lookup.noSwap'),
          description: rest.join(' ').slice(0, 200),
          reply,
        };
      }
      const answer = await inlineQuote(ctx, text);
      const order: InlineResult['kind'][] = ['quote', 'fix', 'problem', 'help', 'route'];
      const best = order.map((k) => answer.results.find((r) => r.kind === k)).find((r) => r !== undefined) ?? answer.results[0];
      if (!best) throw new Error('no inline result');
      return { ...best, reply: fitReply(best.reply, locale) };
    } catch (err) {
      if (isServiceError(err))
        logger.warn({ platform: q?.platform, err: asError(err) }, 'swap service error while answering a guest query');
      else logger.error({ platform: q?.platform, err: asError(err) }, 'guest query failed');
      const r = errorReply(err, locale);
      return {
        id: 'error',
        kind: 'problem',
        title: r.title ?? translator(locale)('error.bug.title'),
        description: translator(locale)('core.tryAgainMoment'),
        reply: fitReply(r, locale),
      };
    }
  }

  /** "Track this swap" on a message: rate limited like a command. */
  async function trackThisMessage(incoming: Incoming, text: string): Promise<Reply[]> {
    let locale = defaultLocale();
    try {
      if (!validIncoming(incoming)) return [];
      locale = await chooseLocale(languages, incoming);
      const t = translator(locale);
      const decision = await limiter.take(incoming.platform, incoming.userId, now());
      if (!decision.allowed)
        return [
          {
            ...notice(
              t('core.slowTitle'),
              [line(t('core.slowCommands', { wait: formatDuration(locale, decision.retryAfterMs) }))],
              'warning',
            ),
            target: 'ephemeral',
          },
        ];
      const ctx = contextFor(incoming, locale, t);
      return (await trackThis(ctx, typeof text === 'string' ? text.slice(0, 4000) : '')).map((r) => fitReply(r, locale));
    } catch (err) {
      if (isServiceError(err)) logger.warn({ platform: incoming?.platform, err: asError(err) }, 'swap service error on Track this swap');
      else logger.error({ platform: incoming?.platform, err: asError(err) }, 'Track this swap failed');
      return [{ ...fitReply(errorReply(err, locale), locale), target: 'ephemeral' }];
    }
  }

  async function handle(incoming: Incoming): Promise<Reply[]> {
    let replies: Reply[];
    let locale = defaultLocale();
    try {
      if (!validIncoming(incoming)) return [];
      locale = await chooseLocale(languages, incoming);
      const t = translator(locale);
      // Group chatter that is not a command, a button or an answer to the sender's open question is
      // none of the bot's business: no reply, and it does not count against the rate limit.
      const text = incoming.text?.trim() ?? '';
      if (incoming.action === undefined && !text.startsWith('/') && incoming.chatKind !== 'private') {
        const draft = await drafts.get(incoming.platform, incoming.userId);
        if (!draft || draft.chatId !== incoming.chatId || !draft.awaiting) return [];
      }
      const decision = await limiter.take(incoming.platform, incoming.userId, now());
      if (!decision.allowed) {
        replies = [
          {
            ...notice(
              t('core.slowTitle'),
              [line(t('core.slowCommands', { wait: formatDuration(locale, decision.retryAfterMs) }))],
              'warning',
            ),
            target: 'ephemeral',
          },
        ];
      } else {
        const ctx = contextFor(incoming, locale, t);
        replies = await dispatch(ctx);
        // Back after blocking the bot: what stopped being followed meanwhile, before the answer.
        const back = await welcomeBack(ctx).catch(
          (err: unknown) => void logger.warn({ err: asError(err) }, 'could not read the swaps dropped while a user was away'),
        );
        if (back) replies = [back, ...replies];
      }
    } catch (err) {
      const where = { platform: incoming?.platform, command: commandName(incoming?.text), button: incoming?.action !== undefined };
      const e = asError(err, { stack: !isServiceError(err) });
      if (isServiceError(err)) logger.warn({ ...where, err: e }, 'swap service error while handling a message');
      else logger.error({ ...where, err: e }, 'handler failed');
      replies = [errorReply(err, locale)];
    }
    return replies.map((r) => fitReply(r, locale));
  }

  return {
    handle,
    inlineQuote: inline,
    async chatMoved(platform, fromChatId, toChatId) {
      try {
        const moved = (await deps.tracking.moveChat?.(platform, fromChatId, toChatId)) ?? 0;
        logger.info({ platform, moved }, 'chat upgraded (new id): its follows, settings and language moved');
      } catch (err) {
        logger.error({ platform, err: asError(err) }, "could not move an upgraded chat's follows");
      }
    },
    guestQuery: guest,
    trackThis: trackThisMessage,
    async depositCardSent(swapId, chat, ref) {
      try {
        if (chat.chatKind !== 'private') return;
        await drafts.depositCardDelivered(swapId, chat.platform, chat.chatId);
        await deps.tracking.depositCardSent?.(swapId, chat, ref);
      } catch (err) {
        // The card stays as sent; the status card then comes with the swap's first change.
        logger.warn({ platform: chat.platform, swapId, err: asError(err) }, "could not keep the deposit card's message for tracking");
      }
    },
    async localeOf(who) {
      try {
        return await chooseLocale(languages, who);
      } catch {
        return resolveLocale(who.chatKind === 'private' ? who.locale : who.chatLocale);
      }
    },
    suggest: (field, partial, context) => {
      try {
        return Promise.resolve(suggest(deps.catalog, field, typeof partial === 'string' ? partial : '', context));
      } catch (err) {
        logger.error({ err: asError(err) }, 'suggest failed');
        return Promise.resolve([]);
      }
    },
  };
}
