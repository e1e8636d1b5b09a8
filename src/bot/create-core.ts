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
import { commandName, dispatch, dropsQuestion } from './dispatch.js';
import { Admission, type Admitted } from './kernel/admission.js';
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
export function contextFactory(
  deps: CoreDeps,
): (incoming: Incoming, locale: Locale, t: Translate, sender?: { locale: Locale; t: Translate }) => Ctx {
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
  return (incoming, locale, t, sender) => ({
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
    ...(sender && sender.locale !== locale ? { sender } : {}),
    languages,
    routeTimes,
    ...(deps.payLinks ? { payLinks: deps.payLinks } : {}),
    handoffs,
  });
}

/** What the core's entry points share: built once by createCore. */
interface CoreParts {
  deps: CoreDeps;
  logger: NonNullable<CoreDeps['logger']>;
  now: () => number;
  languages: LanguageStore;
  drafts: RedisDraftStore;
  /** One request's context: the stores and services every handler may use, in the reader's language. */
  contextFor: (incoming: Incoming, locale: Locale, t: Translate, sender?: { locale: Locale; t: Translate }) => Ctx;
  limiter: RateLimiter;
  /** An update's first round trip: rate, language, open question, welcome-back record (kernel/admission.ts). */
  admission: Admission;
  /**
   * Inline queries arrive as the user types: a bucket of their own at the same rate, so typing
   * one query does not use up the commands the user sends next.
   */
  inlineLimiter: RateLimiter;
}

function coreParts(deps: CoreDeps): CoreParts {
  return {
    deps,
    logger: deps.logger ?? silentLogger,
    now: deps.now ?? Date.now,
    languages: new LanguageStore(deps.redis, deps.keyPrefix),
    drafts: new RedisDraftStore(deps.redis, deps.keyPrefix, deps.limits.draftTtlSeconds),
    contextFor: contextFactory(deps),
    limiter: new RateLimiter(deps.redis, deps.keyPrefix, deps.limits.commandsPerMinute),
    admission: new Admission(deps.redis, deps.keyPrefix, deps.limits.commandsPerMinute, deps.tracking),
    inlineLimiter: new RateLimiter(deps.redis, deps.keyPrefix, deps.limits.commandsPerMinute, 'inline'),
  };
}

function validInlineQuery(q: InlineQuery): boolean {
  return (
    typeof q === 'object' &&
    q !== null &&
    isPlatform(q.platform) &&
    typeof q.userId === 'string' &&
    q.userId !== '' &&
    q.userId.length <= 128
  );
}

/** An inline or guest query has no chat yet: the card may land in any chat, so it is built as for a public one. */
function publicIncoming(q: InlineQuery): Incoming {
  return {
    platform: q.platform,
    userId: q.userId,
    userName: typeof q.userName === 'string' ? q.userName : '',
    chatId: q.userId,
    chatKind: 'group',
  };
}

/** The one result of an inline query over its rate: how long to wait. */
function slowInlineResult(t: Translate, locale: Locale, retryAfterMs: number): InlineResult {
  const wait = t('core.slowInline', { wait: formatDuration(locale, retryAfterMs) });
  return {
    id: 'slow',
    kind: 'slow',
    title: t('core.slowTitle'),
    description: wait,
    reply: notice(t('core.slowTitle'), [line(wait)], 'warning'),
  };
}

/** The answer to a command over its rate, to the sender only. */
function slowCommandReply(t: Translate, locale: Locale, retryAfterMs: number): Reply {
  return {
    ...notice(t('core.slowTitle'), [line(t('core.slowCommands', { wait: formatDuration(locale, retryAfterMs) }))], 'warning'),
    target: 'ephemeral',
  };
}

/** An inline or guest query that failed: logged (a service error as a warning), answered with the error's card. */
function failedQueryResult(parts: CoreParts, q: InlineQuery, err: unknown, locale: Locale, what: 'inline' | 'guest'): InlineResult {
  if (isServiceError(err))
    parts.logger.warn(
      { platform: q?.platform, err: asError(err) },
      `swap service error while answering ${what === 'inline' ? 'an inline' : 'a guest'} query`,
    );
  else parts.logger.error({ platform: q?.platform, err: asError(err) }, `${what} query failed`);
  const r = errorReply(err, locale);
  return {
    id: 'error',
    kind: 'problem',
    title: r.title ?? translator(locale)('error.bug.title'),
    description: translator(locale)('core.tryAgainMoment'),
    reply: fitReply(r, locale),
  };
}

/** The inline query's language: the typer's choice, else their platform's (the card may land in any chat). */
async function queryLocale(parts: CoreParts, q: InlineQuery): Promise<Locale> {
  return (await parts.languages.get('user', q.platform, q.userId)) ?? resolveLocale(q.locale);
}

async function answerInline(parts: CoreParts, q: InlineQuery): Promise<InlineAnswer> {
  let locale = defaultLocale();
  try {
    if (!validInlineQuery(q)) return { results: [], personal: true, cacheSeconds: 0 };
    locale = await queryLocale(parts, q);
    const t = translator(locale);
    const decision = await parts.inlineLimiter.take(q.platform, q.userId, parts.now());
    if (!decision.allowed) return { results: [slowInlineResult(t, locale, decision.retryAfterMs)], personal: true, cacheSeconds: 0 };
    const ctx = parts.contextFor(publicIncoming(q), locale, t);
    const answer = await inlineQuote(ctx, typeof q.text === 'string' ? q.text : '');
    return { ...answer, results: answer.results.map((r) => ({ ...r, reply: fitReply(r.reply, locale) })) };
  } catch (err) {
    return { results: [failedQueryResult(parts, q, err, locale, 'inline')], personal: true, cacheSeconds: 0 };
  }
}

/** A swap looked up from a guest mention: its status card as the one result. */
async function guestStatus(ctx: Ctx, text: string, locale: Locale, t: Translate): Promise<InlineResult> {
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

/** Guest mode: one result for a mention; the same bucket as inline queries. */
async function answerGuest(parts: CoreParts, q: InlineQuery): Promise<InlineResult> {
  let locale = defaultLocale();
  try {
    if (!validInlineQuery(q)) throw new Error('invalid guest query');
    locale = await queryLocale(parts, q);
    const t = translator(locale);
    const decision = await parts.inlineLimiter.take(q.platform, q.userId, parts.now());
    if (!decision.allowed) return slowInlineResult(t, locale, decision.retryAfterMs);
    // The answer lands in a chat the bot is not in: built as for a public one.
    const ctx = parts.contextFor(publicIncoming(q), locale, t);
    const text = typeof q.text === 'string' ? q.text.slice(0, 1024) : '';
    if (findLookup(text)) return await guestStatus(ctx, text, locale, t);
    const answer = await inlineQuote(ctx, text);
    const order: InlineResult['kind'][] = ['quote', 'fix', 'problem', 'help', 'route'];
    const best = order.map((k) => answer.results.find((r) => r.kind === k)).find((r) => r !== undefined) ?? answer.results[0];
    if (!best) throw new Error('no inline result');
    return { ...best, reply: fitReply(best.reply, locale) };
  } catch (err) {
    return failedQueryResult(parts, q, err, locale, 'guest');
  }
}

/** "Track this swap" on a message: rate limited like a command. */
async function trackThisMessage(parts: CoreParts, incoming: Incoming, text: string): Promise<Reply[]> {
  let locale = defaultLocale();
  try {
    if (!validIncoming(incoming)) return [];
    locale = await chooseLocale(parts.languages, incoming);
    const t = translator(locale);
    const decision = await parts.limiter.take(incoming.platform, incoming.userId, parts.now());
    if (!decision.allowed) return [slowCommandReply(t, locale, decision.retryAfterMs)];
    const ctx = parts.contextFor(incoming, locale, t);
    return (await trackThis(ctx, typeof text === 'string' ? text.slice(0, 4000) : '')).map((r) => fitReply(r, locale));
  } catch (err) {
    if (isServiceError(err))
      parts.logger.warn({ platform: incoming?.platform, err: asError(err) }, 'swap service error on Track this swap');
    else parts.logger.error({ platform: incoming?.platform, err: asError(err) }, 'Track this swap failed');
    return [{ ...fitReply(errorReply(err, locale), locale), target: 'ephemeral' }];
  }
}

/** Whether isChatter would read the draft: only then is the rate taken after a look, not in the first round trip. */
function mayBeChatter(incoming: Incoming): boolean {
  return incoming.action === undefined && !(incoming.text?.trim() ?? '').startsWith('/') && incoming.chatKind !== 'private';
}

/**
 * Group chatter that is not a command, a button or an answer to the sender's open question is
 * none of the bot's business: no reply, and it does not count against the rate limit.
 */
async function isChatter(parts: CoreParts, incoming: Incoming): Promise<boolean> {
  if (!mayBeChatter(incoming)) return false;
  const draft = await parts.drafts.get(incoming.platform, incoming.userId);
  return !draft || draft.chatId !== incoming.chatId || !draft.awaiting;
}

/**
 * The command's replies, after what stopped being followed while the user had blocked the bot.
 * `admitted`: what the first round trip found (the question already dropped; no welcome-back record, nothing to ask).
 */
async function dispatchWithWelcome(parts: CoreParts, ctx: Ctx, admitted?: Admitted): Promise<Reply[]> {
  const replies = await dispatch(ctx, admitted?.questionDropped);
  if (admitted?.away === false) return replies;
  const back = await welcomeBack(ctx).catch(
    (err: unknown) => void parts.logger.warn({ err: asError(err) }, 'could not read the swaps dropped while a user was away'),
  );
  return back ? [back, ...replies] : replies;
}

/** In a public chat, the sender's own language (what only they see is in it); undefined when it is the chat's. */
async function senderLocale(parts: CoreParts, incoming: Incoming, chat: Locale): Promise<{ locale: Locale; t: Translate } | undefined> {
  if (incoming.chatKind === 'private') return undefined;
  const own = await chooseLocale(parts.languages, { ...incoming, chatKind: 'private' }).catch(() => chat);
  return own === chat ? undefined : { locale: own, t: translator(own) };
}

async function handleMessage(parts: CoreParts, incoming: Incoming): Promise<Reply[]> {
  let replies: Reply[];
  let locale = defaultLocale();
  try {
    if (!validIncoming(incoming)) return [];
    // One round trip where it can (a single Redis, and not what may be group chatter); else step by step.
    const admitted = mayBeChatter(incoming) ? undefined : await parts.admission.admit(incoming, dropsQuestion(incoming), parts.now());
    locale = admitted?.locale ?? (await chooseLocale(parts.languages, incoming));
    const t = translator(locale);
    if (!admitted && (await isChatter(parts, incoming))) return [];
    const decision = admitted?.decision ?? (await parts.limiter.take(incoming.platform, incoming.userId, parts.now()));
    replies = decision.allowed
      ? await dispatchWithWelcome(parts, parts.contextFor(incoming, locale, t, await senderLocale(parts, incoming, locale)), admitted)
      : [slowCommandReply(t, locale, decision.retryAfterMs)];
  } catch (err) {
    const where = { platform: incoming?.platform, command: commandName(incoming?.text), button: incoming?.action !== undefined };
    const e = asError(err, { stack: !isServiceError(err) });
    if (isServiceError(err)) parts.logger.warn({ ...where, err: e }, 'swap service error while handling a message');
    else parts.logger.error({ ...where, err: e }, 'handler failed');
    replies = [errorReply(err, locale)];
  }
  return replies.map((r) => fitReply(r, locale));
}

/**
 * The platform-neutral core: rate limit, dispatch, handle, fit. handle() never throws: service
 * failures become plain-word replies and anything unexpected is logged (no user text, no
 * secrets) and answered politely. Every reply is cut to the strictest platform's limits.
 */
export function createCore(deps: CoreDeps): BotCore {
  const parts = coreParts(deps);
  const { logger, languages, drafts } = parts;
  return {
    handle: (incoming) => handleMessage(parts, incoming),
    inlineQuote: (q) => answerInline(parts, q),
    async chatMoved(platform, fromChatId, toChatId) {
      try {
        const moved = (await deps.tracking.moveChat?.(platform, fromChatId, toChatId)) ?? 0;
        logger.info({ platform, moved }, 'chat upgraded (new id): its follows, settings and language moved');
      } catch (err) {
        logger.error({ platform, err: asError(err) }, "could not move an upgraded chat's follows");
      }
    },
    guestQuery: (q) => answerGuest(parts, q),
    trackThis: (incoming, text) => trackThisMessage(parts, incoming, text),
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
