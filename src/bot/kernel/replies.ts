import { line, type Line, type Reply, type Tone } from '../../contracts/reply.js';
import type { Locale, Translate } from '../../i18n/index.js';

/** Small replies used across handlers, so wording stays consistent. */
export function notice(title: string, lines: Line[], tone: Tone = 'info'): Reply {
  return { title, tone, lines, target: 'here' };
}

/**
 * For the sender alone where the chat is public (an input error, an admin-only refusal): an
 * ephemeral reply with nothing private in it. Build it in senderWords(ctx): the member's language.
 */
export const forSender = (ctx: { incoming: { chatKind: string } }, r: Reply): Reply =>
  ctx.incoming.chatKind === 'private' ? r : { ...r, target: 'ephemeral', ephemeralFallback: 'notPrivate' };

/** A wizard question for the sender alone that, where it cannot be, is asked in the chat as before. */
export const forSenderHere = (ctx: { incoming: { chatKind: string } }, r: Reply): Reply =>
  ctx.incoming.chatKind === 'private' ? r : { ...r, target: 'ephemeral', ephemeralFallback: 'here' };

/**
 * The words of what the sender alone sees (a refusal in a group): their own language (their
 * /language choice, else their platform's tag), not the group's.
 */
export const senderWords = (ctx: { locale: Locale; t: Translate; sender?: { locale: Locale; t: Translate } }) =>
  ctx.sender ?? { locale: ctx.locale, t: ctx.t };

/** The answer to a button that is stale, forged or someone else's: for the presser only, in their language. */
export const expired = (ctx: { locale: Locale; t: Translate; sender?: { locale: Locale; t: Translate } }): Reply => {
  const { t } = senderWords(ctx);
  return { ...notice(t('core.expired.title'), [line(t('core.expired.text'))], 'warning'), target: 'ephemeral' };
};
