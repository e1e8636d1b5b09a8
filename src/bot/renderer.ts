import type { TrackingRenderer } from '../contracts/tracking.js';
import type { SwapDetails } from '../layerswap/schemas.js';
import { watchLimitReply } from './addresses/book.js';
import { depositCardAfter } from './deposit/index.js';
import { fitReply } from './kernel/fit.js';
import { statusCard } from './status/card.js';
import { renderMoment, renderTrackingStopped } from './status/moments.js';

/**
 * What the tracking engine is given of the core (its port, as core.ts is the adapters'): the status
 * card, key moments, "tracking stopped", the deposit card's later state and the watch-limit notice,
 * every reply fitted.
 */
export const trackingRenderer: TrackingRenderer<SwapDetails> = {
  card: (details, _target, view, locale, audience) => statusCard(details, { audience, locale, ...(view ? { followed: view } : {}) }),
  moment: (moment, ctx) => fitReply(renderMoment(moment, ctx), ctx.locale),
  stopped: (reason, swapId, locale) => fitReply(renderTrackingStopped(reason, swapId, locale), locale),
  depositCard: (details, locale, notes) => depositCardAfter(details, Date.now(), locale, notes),
  watchLimit: (notice, locale) => fitReply(watchLimitReply(notice, locale), locale),
};
