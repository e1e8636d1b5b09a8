import type { Platform } from './incoming.js';

/**
 * How an id from outside (a user or chat id, a platform's update id) becomes part of a Redis key,
 * the same way in every area: percent-encoded, so no id can add a ':' separator or a '{' hash tag
 * of its own (Redis Cluster places a key by the text between its first '{' and '}').
 */
export function keyPart(id: string): string {
  return encodeURIComponent(id);
}

/**
 * The one registry of Redis keys: every key the process writes is named here, under the
 * deployment's prefix (BullMQ's own keys under TrackingKeys.queuePrefix, one hash tag per queue). CoreKeys: the command core's and
 * the adapters'; TrackingKeys: the tracking engine's. Here, in the neutral contracts, since each
 * area reads some of the others' (tracking reads the language keys, the app the queue prefix).
 * Ids from outside are escaped with keyPart. A key used only by single-key commands needs no hash
 * tag; keys one script touches together share one ({...}), so it all runs on Redis Cluster.
 */
export class CoreKeys {
  constructor(readonly prefix: string) {}
  /** A user's unfinished /swap. */
  draft(platform: Platform, userId: string): string {
    return this.user('draft', platform, userId);
  }
  /** Held while a draft creates its swap (Confirm exactly once). */
  draftLock(draftId: string): string {
    return `${this.prefix}:draft-lock:${keyPart(draftId)}`;
  }
  /** The swap a draft created. */
  draftDone(draftId: string): string {
    return `${this.prefix}:draft-done:${keyPart(draftId)}`;
  }
  /** Claimed by the one Confirm press that sends a swap's deposit card to a chat (once per swap and chat). */
  depositCard(swapId: string, platform: Platform, chatId: string): string {
    return `${this.prefix}:dep-card:${platform}:${keyPart(chatId)}:${keyPart(swapId)}`;
  }
  /** A user's command rate bucket; inline queries (typed as the user types) have their own. */
  rate(platform: Platform, userId: string, bucket: 'commands' | 'inline' = 'commands'): string {
    return bucket === 'inline' ? `${this.prefix}:inline:rate:${platform}:${keyPart(userId)}` : this.user('rate', platform, userId);
  }
  /** A button's action stashed because it does not fit in the platform's callback data (bot/kernel/actions.ts). */
  action(id: string): string {
    return `${this.prefix}:action:${keyPart(id)}`;
  }
  /**
   * A Telegram update handled or in hand (platforms/telegram/dedup.ts), the bot's in-flight zset
   * and their data: one hash tag per bot, since one script touches all three.
   */
  telegramUpdate(botId: number, updateId: number | string): string {
    return `${this.telegramUpdatePrefix(botId)}${updateId}`;
  }
  /** What telegramUpdate puts before the update id (the take-over script builds the keys itself). */
  telegramUpdatePrefix(botId: number): string {
    return `${this.prefix}:tg:{${botId}}:update:`;
  }
  telegramInFlight(botId: number): string {
    return `${this.prefix}:tg:{${botId}}:inflight`;
  }
  telegramInFlightData(botId: number): string {
    return `${this.prefix}:tg:{${botId}}:inflight:data`;
  }
  /** Whether a Telegram user is an admin of a group, cached for a minute (platforms/telegram/admin.ts). */
  telegramAdmin(chatId: number, userId: number): string {
    return `${this.prefix}:tg:admin:${chatId}:${userId}`;
  }
  /** A question the bot asked a user and awaits an answer to. */
  ask(platform: Platform, userId: string): string {
    return this.user('ask', platform, userId);
  }
  /** The swaps a user created. */
  history(platform: Platform, userId: string): string {
    return this.user('history', platform, userId);
  }
  /** The destination addresses a user saved (bot/addresses/book.ts). */
  addressBook(platform: Platform, userId: string): string {
    return this.user('addr-book', platform, userId);
  }
  /**
   * The language a user chose with /language (scope 'user'), or admins chose for a group or
   * channel (scope 'chat'): read by the core for replies and by tracking for pushed updates.
   */
  language(scope: 'user' | 'chat', platform: Platform, id: string): string {
    return `${this.prefix}:lang:${scope}:${platform}:${keyPart(id)}`;
  }
  private user(kind: string, platform: Platform, userId: string): string {
    return `${this.prefix}:${kind}:${platform}:${keyPart(userId)}`;
  }
}

export class TrackingKeys {
  constructor(readonly prefix: string) {}
  /**
   * BullMQ's key prefix of one queue: each queue its own hash tag (BullMQ's advice for a Redis
   * Cluster), so the poll queue and each platform's notify queue can live on different masters.
   * A queue's keys are `<this>:<queue name>:…` (its names must not contain ':').
   */
  queuePrefix(queue: string): string {
    return `${this.prefix}:{${queue}}`;
  }
  /**
   * hash: everything about one followed swap (swap-store.ts lists the fields): state, card data,
   * key moments, and per chat its follower entry and delivery record.
   */
  swap(swapId: string): string {
    return `${this.prefix}:trk:{${swapId}}`;
  }
  /**
   * hash: one party of a conversation, a chat or a user, named by its targetKey (a user's is the
   * key of their private chat, so a private chat and its user share one hash):
   * `s:<swapId>` -> since, for every swap the chat follows (listing); `c` -> swaps the chat follows
   * that are not final yet (the per-chat cap); `u` -> follows the user started, in any chat, of
   * swaps not final yet (the per-user cap).
   */
  party(tk: string): string {
    return `${this.prefix}:trk:party:{${tk}}`;
  }
  /**
   * string (JSON) with TTL: the swaps a private chat stopped following because its user blocked
   * the bot, and whether they were told on their return (chat-moves.ts).
   */
  away(tk: string): string {
    return `${this.prefix}:trk:away:{${tk}}`;
  }
  /** set of swapIds with at least one follower and no final status: reconciled into poll jobs. */
  get activeSwaps(): string {
    return `${this.prefix}:trk:active-swaps`;
  }
  /**
   * zset: watched addresses (`<targetKey>|<address>`) by the time of their next check (address-watch.ts).
   * One hash tag with watchState: a checked entry goes back to both in one script.
   */
  get watchDue(): string {
    return `${this.prefix}:trk:{watch}:due`;
  }
  /** hash: each watched address's state (its user, interval and the swaps already seen), by the same member. */
  get watchState(): string {
    return `${this.prefix}:trk:{watch}:state`;
  }
  /** The untagged keys of watchDue and watchState before 2026-11 (moved at a worker's first tick: address-watch.ts). */
  get watchLegacy(): { due: string; state: string } {
    return { due: `${this.prefix}:trk:watch-due`, state: `${this.prefix}:trk:watch-state` };
  }
  /** string with TTL: checks of watched addresses in one budget window, over every worker (address-watch.ts). */
  watchBudget(window: number): string {
    return `${this.prefix}:trk:watch-budget:${window}`;
  }
  /** set: the swaps whose deposit address is watched on this network (tracking/chain-share.ts; its watch job reads it). */
  chainNetwork(network: string): string {
    return `${this.prefix}:trk:chain-net:{${keyPart(network)}}`;
  }
  /** string with TTL: this network's RPC is down (said by its watcher): polls are not spaced out. */
  chainDown(network: string): string {
    return `${this.prefix}:trk:chain-net:{${keyPart(network)}}:down`;
  }
  /** zset: swaps that expired (score: when), watched a while longer to tell a late transfer (chain-watch.ts). */
  get chainLate(): string {
    return `${this.prefix}:trk:chain-late`;
  }
  /**
   * hash: swapId -> the creator's follow of a swap just created (JSON), written with the creation
   * and removed once the follow is done: what a Redis restart or a crash between the two left
   * undone is followed at the next start or reconcile (tracking-service.ts).
   */
  get pendingFollows(): string {
    return `${this.prefix}:trk:pending-follows`;
  }
  /** Consecutive failed API polls (all swaps): drives the outage back-off. */
  get outage(): string {
    return `${this.prefix}:trk:outage`;
  }
  /** zset of send times for one chat (per-group pacing on Telegram). */
  pace(tk: string): string {
    return `${this.prefix}:trk:chat:{${tk}}:pace`;
  }
  /** hash: a route's recent durations (contracts/route-times.ts, scripts/routeTime-1.lua). */
  routeTimes(routeId: string): string {
    return `${this.prefix}:trk:route:{${routeId}}`;
  }
  /** string: when a platform's next send slot frees, in ms (GCRA, scripts/bookSend-1.lua). */
  platformRate(platform: Platform): string {
    return `${this.prefix}:trk:platform:{${platform}}:rate`;
  }
  /** string with TTL: the platform asked to wait before writing to this chat again (a per-chat 429). */
  chatHold(tk: string): string {
    return `${this.prefix}:trk:chat:{${tk}}:hold`;
  }
  /** string with TTL: a webhook message id already accepted. */
  webhookSeen(id: string): string {
    return `${this.prefix}:trk:webhook:${id}`;
  }
}

/** The pay page's keys (src/pay): spent link nonces, page sessions, and one payment per swap. */
export class PayKeys {
  constructor(readonly prefix: string) {}
  /** string with TTL: a signed link's nonce, once used. */
  linkUsed(nonce: string): string {
    return `${this.prefix}:pay:link:${keyPart(nonce)}`;
  }
  /** string with TTL: a page session (who, which swap). */
  session(id: string): string {
    return `${this.prefix}:pay:session:${keyPart(id)}`;
  }
  /** string with TTL: the one payment of a swap in flight or sent (which session, its hash). */
  payment(swapId: string): string {
    return `${this.prefix}:pay:payment:${keyPart(swapId)}`;
  }
}

/**
 * The agent surface's keys (src/mcp): bearer keys stored by the sha-256 of their secret (never the
 * secret), each key's swaps and daily count, and the hand-offs that open a person's chat on a swap.
 */
export class McpKeys {
  constructor(readonly prefix: string) {}
  /** hash: one key's record, by the sha-256 (hex) of its secret. */
  key(hash: string): string {
    return `${this.prefix}:mcp:key:${hash}`;
  }
  /** hash: key id -> secret hash, for list and revoke by id. */
  get ids(): string {
    return `${this.prefix}:mcp:key-ids`;
  }
  /** zset: the swaps one key created or found as its own (score: when), the only ones it may see. */
  swaps(keyId: string): string {
    return `${this.prefix}:mcp:swaps:${keyPart(keyId)}`;
  }
  /** counter with TTL: swaps one key created on one UTC day (the swaps/day cap). */
  day(keyId: string, day: string): string {
    return `${this.prefix}:mcp:day:${keyPart(keyId)}:${day}`;
  }
  /** string (JSON) with TTL: a hand-off (a swap to show, or a swap to approve) by its token. */
  handoff(token: string): string {
    return `${this.prefix}:mcp:handoff:${keyPart(token)}`;
  }
  /** Pub/sub channel: tracking's moments for agents, to every process serving /mcp or stdio. */
  get events(): string {
    return `${this.prefix}:mcp:events`;
  }
}
