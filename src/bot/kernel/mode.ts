import type { Ctx } from './context.js';

/** Replies to a pressed button replace the message it was on. */
export const modeOf = (ctx: Ctx): 'edit' | 'new' => (ctx.incoming.action && ctx.incoming.messageRef ? 'edit' : 'new');
