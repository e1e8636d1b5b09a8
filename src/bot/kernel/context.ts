import type { Redis } from 'ioredis';
import type { CatalogCache } from '../../layerswap/catalog-cache.js';
import type { LayerswapApi } from '../../layerswap/api.js';
import type { Logger } from '../../log.js';
import type { TrackingService } from '../../contracts/tracking.js';
import type { ActionCodec } from './actions.js';
import type { ChatTarget, Incoming } from '../../contracts/incoming.js';
import type { Locale, Translate } from '../../i18n/index.js';
import type { LanguageStore } from '../../i18n/store.js';
import type { RouteTimes } from '../../contracts/route-times.js';
import type { PayLinks } from '../../contracts/pay.js';
import type { AddressBook, AskStore, DraftStore, HistoryStore } from './stores.js';
import type { HandoffStore } from './handoffs.js';

/** The catalogue reads the core makes (CatalogCache provides them). */
export type Catalog = Pick<
  CatalogCache,
  'networks' | 'destinations' | 'peekNetworks' | 'limits' | 'exchanges' | 'exchangeNetworks' | 'peekExchanges'
>;

/** What createCore needs. The lead wires the real parts; tests pass the sandbox client. */
export interface CoreDeps {
  api: LayerswapApi;
  catalog: Catalog;
  redis: Redis;
  /** Prefix of every Redis key the core writes (e.g. "swapbot"). */
  keyPrefix: string;
  tracking: TrackingService;
  /** depositCardLeaseMs: how long a deposit card may be on its way before a redelivered Confirm sends it again (default 5 s). */
  limits: { commandsPerMinute: number; draftTtlSeconds: number; depositCardLeaseMs?: number };
  logger?: Logger;
  /** Clock for rate limits and cards (tests pass the sandbox's ManualClock). */
  now?: () => number;
  /** The pay-from-wallet page's links, when it is configured (src/pay). */
  payLinks?: PayLinks;
}

/** Everything a handler may use for one incoming message. */
export interface Ctx {
  readonly incoming: Incoming;
  readonly api: LayerswapApi;
  readonly catalog: Catalog;
  readonly tracking: TrackingService;
  readonly codec: ActionCodec;
  readonly drafts: DraftStore;
  readonly history: HistoryStore;
  /** Saved destination addresses (private chats only). */
  readonly addressBook: AddressBook;
  /** The free-text question a lookup button asked (the next plain message answers it). */
  readonly asks: AskStore;
  readonly logger: Logger;
  /** The language of this chat's replies (see i18n/index.ts): the chosen, then the platform's. */
  readonly locale: Locale;
  /** A catalog string in `locale`: ctx.t('key', { vars }). */
  readonly t: Translate;
  /**
   * In a public chat, the sender's own language (their /language choice, else their platform's
   * tag): what only they see (a refusal) is in it (kernel/replies.ts senderWords). Absent: `locale`.
   */
  readonly sender?: { readonly locale: Locale; readonly t: Translate };
  readonly languages: LanguageStore;
  /** A route's observed arrival times (contracts/route-times.ts); absent: the service's estimate only. */
  readonly routeTimes?: (routeId: string) => Promise<RouteTimes>;
  /** The pay page's links (absent: not configured, no Pay button). */
  readonly payLinks?: PayLinks;
  /** Agents' hand-offs to a person's chat (bot/handoff.ts); absent where no agent surface is wired. */
  readonly handoffs?: HandoffStore;
  now(): number;
}

/** Whether replies in this chat must treat it as public (groups and channels). */
export const isPublic = (ctx: Ctx): boolean => ctx.incoming.chatKind !== 'private';

/** This chat, with the forum topic the message came from (tracking posts the cards there). */
export const chatTarget = (ctx: Ctx): ChatTarget => ({
  platform: ctx.incoming.platform,
  chatId: ctx.incoming.chatId,
  chatKind: ctx.incoming.chatKind,
  ...(ctx.incoming.threadId ? { threadId: ctx.incoming.threadId } : {}),
});
