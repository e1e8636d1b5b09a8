import { Composer, type Context } from 'grammy';
import { forUpdate, type HandlerDeps } from './handle.js';
import { telegramError } from './errors.js';
import { articleOf } from './inline.js';
import { userName } from './incoming.js';

/**
 * Guest mode (Bot API 10.0): someone mentions the bot in a chat it is not a member of and Telegram
 * sends a `guest_message`. The bot cannot write to that chat; it answers once with
 * answerGuestQuery and ONE inline result (a swap's masked card with a deep link to the full card
 * in the private chat, a quote, or a how-to). Never an error: the core always has a result.
 */
export function guestMode(shared: HandlerDeps): Composer<Context> {
  const c = new Composer<Context>();
  c.on('guest_message', async (ctx) => {
    const deps = forUpdate(shared, ctx);
    const m = ctx.update.guest_message;
    const queryId = m?.guest_query_id;
    if (!m || !queryId || !m.from || !deps.core.guestQuery) return;
    // The mention itself is not part of the question.
    const text = (m.text ?? m.caption ?? '').replace(new RegExp(`@${ctx.me.username}\\b`, 'gi'), ' ').trim();
    const result = await deps.core.guestQuery({
      platform: 'telegram',
      userId: String(m.from.id),
      userName: userName(m.from),
      text,
      ...(m.from.language_code ? { locale: m.from.language_code } : {}),
    });
    const { article, problems } = articleOf(result, ctx.me.username);
    if (problems.length > 0) deps.logger.warn({ problems, kind: result.kind }, 'telegram: guest result rendered with problems');
    if (!article) return;
    try {
      await ctx.api.answerGuestQuery(queryId, article);
    } catch (err) {
      // Answered too late or twice: the user mentions the bot again.
      deps.logger.warn({ err: telegramError(err, deps.token), kind: result.kind }, 'telegram: could not answer a guest query');
    }
  });
  return c;
}
