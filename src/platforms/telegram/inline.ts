import { Composer, type Context } from 'grammy';
import type { InlineKeyboardMarkup, InlineQueryResultArticle } from 'grammy/types';
import type { InlineResult } from '../../bot/core.js';
import { forUpdate, type HandlerDeps } from './handle.js';
import { telegramError } from './errors.js';
import { isForceReply, renderReply } from './render.js';
import { userName } from './incoming.js';

/**
 * Inline mode: "@bot 500 usdc arb base" typed in any chat. The core answers with neutral results;
 * each becomes an article whose message is the rendered card (text and buttons: an inline message
 * can hold nothing else). Chosen results (BotFather /setinlinefeedback) are counted in the log.
 */

const MAX_RESULTS = 50;
const DESCRIPTION_LIMIT = 256;

/** A result as Telegram's article; undefined when it cannot be shown as one (logged by the caller). */
export function articleOf(r: InlineResult, botUsername: string): { article?: InlineQueryResultArticle; problems: string[] } {
  const rendered = renderReply({ ...r.reply, target: 'here', mode: 'new' }, { botUsername });
  const main = rendered.messages[rendered.main];
  if (!main || main.kind !== 'text' || rendered.messages.length !== 1)
    return { problems: [...rendered.problems, `inline result ${r.id}: not a single text message`] };
  const keyboard: InlineKeyboardMarkup | undefined = isForceReply(main.markup) ? undefined : main.markup;
  return {
    article: {
      type: 'article',
      id: r.id,
      title: r.title.slice(0, 256) || 'Quote',
      description: r.description.slice(0, DESCRIPTION_LIMIT),
      input_message_content: { message_text: main.html, parse_mode: 'HTML', link_preview_options: { is_disabled: true } },
      ...(keyboard ? { reply_markup: keyboard } : {}),
    },
    problems: rendered.problems,
  };
}

export function inlineMode(shared: HandlerDeps): Composer<Context> {
  const c = new Composer<Context>();
  let chosen = 0;

  c.on('inline_query', async (ctx) => {
    const deps = forUpdate(shared, ctx);
    const q = ctx.inlineQuery;
    const answer = await deps.core.inlineQuote({
      platform: 'telegram',
      userId: String(q.from.id),
      userName: userName(q.from),
      text: q.query,
      ...(q.from.language_code ? { locale: q.from.language_code } : {}),
    });
    const articles: InlineQueryResultArticle[] = [];
    for (const r of answer.results.slice(0, MAX_RESULTS)) {
      const { article, problems } = articleOf(r, ctx.me.username);
      if (problems.length > 0) deps.logger.warn({ problems, kind: r.kind }, 'telegram: inline result rendered with problems');
      if (article) articles.push(article);
    }
    try {
      await ctx.api.answerInlineQuery(q.id, articles, { cache_time: answer.cacheSeconds, is_personal: answer.personal });
    } catch (err) {
      // A query answered too late is gone; the user types again.
      deps.logger.warn({ err: telegramError(err, deps.token), results: articles.length }, 'telegram: could not answer an inline query');
    }
  });

  c.on('chosen_inline_result', (ctx) => {
    const r = ctx.chosenInlineResult;
    chosen += 1;
    // The kind only: the query is the user's text and stays out of the log.
    const kind = r.result_id.split(':')[0]?.slice(0, 16) ?? 'unknown';
    forUpdate(shared, ctx).logger.info(
      { event: 'inline_chosen', kind, chosenSinceStart: chosen, inlineMessage: r.inline_message_id !== undefined },
      'telegram: inline result chosen',
    );
  });
  return c;
}
