import { line, type Line, type Reply, type Tone } from '../../contracts/reply.js';
import type { Translate } from '../../i18n/index.js';

/** Small replies used across handlers, so wording stays consistent. */
export function notice(title: string, lines: Line[], tone: Tone = 'info'): Reply {
  return { title, tone, lines, target: 'here' };
}

/**
 * For the sender alone where the chat is public (an input error, an admin-only refusal): an
 * ephemeral reply that a platform refusing ephemeral messages shows in the chat as before.
 */
export const forSender = (ctx: { incoming: { chatKind: string } }, r: Reply): Reply =>
  ctx.incoming.chatKind === 'private' ? r : { ...r, target: 'ephemeral', ephemeralFallback: 'here' };

/** The answer to a button that is stale, forged or someone else's: for the presser only. */
export const expired = (ctx: { t: Translate }): Reply => ({
  ...notice(ctx.t('core.expired.title'), [line(ctx.t('core.expired.text'))], 'warning'),
  target: 'ephemeral',
});
