import { asError, silentLogger } from '../log.js';
import { ActionCodec } from './actions.js';
import type { CoreDeps, Ctx } from './context.js';
import type { BotCore } from './core.js';
import { DraftStore } from './wizard/drafts.js';
import { errorReply, isServiceError } from './errors-text.js';
import { fitReply } from './fit.js';
import { HistoryStore } from './history.js';
import type { Incoming } from '../contracts/incoming.js';
import { RateLimiter, waitWords } from './rate-limit.js';
import { line, type Reply } from '../contracts/reply.js';
import { notice } from './replies.js';
import { commandName, route } from './router.js';
import { suggest } from './suggest.js';

export type { CoreDeps } from './context.js';

const PLATFORMS = new Set(['telegram', 'discord', 'console']);
const CHAT_KINDS = new Set(['private', 'group', 'channel']);

function validIncoming(i: Incoming): boolean {
  return (
    typeof i === 'object' && i !== null && PLATFORMS.has(i.platform) && CHAT_KINDS.has(i.chatKind) &&
    typeof i.userId === 'string' && i.userId !== '' && i.userId.length <= 128 && typeof i.chatId === 'string' && i.chatId !== '' && i.chatId.length <= 128
  );
}

/**
 * The platform-neutral core: rate limit, route, handle, fit. handle() never throws: service
 * failures become plain-word replies and anything unexpected is logged (no user text, no
 * secrets) and answered politely. Every reply is cut to the strictest platform's limits.
 */
export function createCore(deps: CoreDeps): BotCore {
  const logger = deps.logger ?? silentLogger;
  const now = deps.now ?? Date.now;
  const codec = new ActionCodec(deps.redis, deps.keyPrefix);
  const drafts = new DraftStore(deps.redis, deps.keyPrefix, deps.limits.draftTtlSeconds);
  const history = new HistoryStore(deps.redis, deps.keyPrefix);
  const limiter = new RateLimiter(deps.redis, deps.keyPrefix, deps.limits.commandsPerMinute);

  async function handle(incoming: Incoming): Promise<Reply[]> {
    let replies: Reply[];
    try {
      if (!validIncoming(incoming)) return [];
      // Group chatter that is not a command, a button or an answer to the sender's open question is
      // none of the bot's business: no reply, and it does not count against the rate limit.
      const text = incoming.text?.trim() ?? '';
      if (incoming.action === undefined && !text.startsWith('/') && incoming.chatKind !== 'private') {
        const draft = await drafts.get(incoming.platform, incoming.userId);
        if (!draft || draft.chatId !== incoming.chatId || !draft.awaiting) return [];
      }
      const decision = await limiter.take(incoming.platform, incoming.userId, now());
      if (!decision.allowed) {
        replies = [{ ...notice('Slow down a little', [line(`You are sending commands too fast. Please wait ${waitWords(decision.retryAfterMs)} and try again.`)], 'warning'), target: 'ephemeral' }];
      } else {
        const ctx: Ctx = { incoming, api: deps.api, catalog: deps.catalog, tracking: deps.tracking, codec, drafts, history, logger, now };
        replies = await route(ctx);
      }
    } catch (err) {
      const where = { platform: incoming?.platform, command: commandName(incoming?.text), button: incoming?.action !== undefined };
      const e = err instanceof Error ? { type: err.name, message: err.message, ...(isServiceError(err) ? {} : { stack: err.stack }) } : { message: String(err) };
      if (isServiceError(err)) logger.warn({ ...where, err: e }, 'swap service error while handling a message');
      else logger.error({ ...where, err: e }, 'handler failed');
      replies = [errorReply(err)];
    }
    return replies.map(fitReply);
  }

  return {
    handle,
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
