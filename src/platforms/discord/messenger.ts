import { REST } from './rest.js';
import { Routes } from 'discord-api-types/v10';
import type { ChatTarget, MessageRef } from '../../contracts/incoming.js';
import type { Messenger, SendOptions } from '../../contracts/messenger.js';
import type { Reply } from '../../contracts/reply.js';
import { toDeliveryError } from './errors.js';
import { restMessage } from './payload.js';
import { renderReply } from './render.js';

/**
 * Pushes cards to Discord through REST alone (the tracking worker has no gateway connection).
 * - chatKind group/channel: chatId is the channel id. chatKind private: chatId is the USER id, and
 *   the DM channel is opened (POST /users/@me/channels, idempotent on Discord's side) and cached.
 * - MessageRef.chatId is always the Discord channel id the message lives in, so edit() needs no lookup.
 * - 429s are not waited out here: @discordjs/rest rejects them (rejectOnRateLimit) and they come
 *   back as DeliveryError 'rate_limited' with the wait, so the tracking queue owns every delay.
 *   Likewise no 5xx retries here: 'transient' goes back to the queue's backoff.
 */
export interface DiscordMessengerOptions {
  token: string;
  /** DISCORD_API_URL, e.g. https://discord.com/api (the REST client adds /v10). */
  api?: string;
  /** Per-request timeout (ms). */
  timeoutMs?: number;
}

const DM_CACHE_MAX = 10_000;
const SUPPRESS_NOTIFICATIONS = 1 << 12;

export class DiscordMessenger implements Messenger {
  readonly platform = 'discord' as const;
  /** The idempotency key goes out as the message nonce with enforce_nonce (deduplicated by Discord). */
  readonly idempotentSends = true;
  readonly rest: REST;
  private readonly dmChannels = new Map<string, string>();

  constructor(opts: DiscordMessengerOptions) {
    this.rest = new REST({
      ...(opts.api ? { api: opts.api } : {}),
      rejectOnRateLimit: () => true,
      retries: 0,
      offset: 0,
      timeout: opts.timeoutMs ?? 15_000,
    }).setToken(opts.token);
  }

  async send(target: ChatTarget, reply: Reply, options: SendOptions = {}): Promise<MessageRef> {
    try {
      const channelId = target.chatKind === 'private' ? await this.dmChannel(target.chatId) : target.chatId;
      const { body, files } = restMessage(renderReply(reply));
      const key = options.idempotencyKey?.slice(0, 25);
      const flags = (body as { flags?: number }).flags ?? 0;
      // SUPPRESS_NOTIFICATIONS (1 << 12): delivered, without a push or sound (quiet hours, muted swaps).
      const quiet = options.silent ? { flags: flags | SUPPRESS_NOTIFICATIONS } : {};
      const payload = key ? { ...(body as object), ...quiet, nonce: key, enforce_nonce: true } : { ...(body as object), ...quiet };
      const sent = (await this.rest.post(Routes.channelMessages(channelId), { body: payload, files })) as { id: string };
      return { platform: 'discord', chatId: channelId, messageId: sent.id };
    } catch (error) {
      throw toDeliveryError(error);
    }
  }

  async edit(ref: MessageRef, reply: Reply): Promise<MessageRef> {
    try {
      const { body, files } = restMessage(renderReply(reply));
      await this.rest.patch(Routes.channelMessage(ref.chatId, ref.messageId), { body, files });
      return ref;
    } catch (error) {
      throw toDeliveryError(error);
    }
  }

  /** Adds the bot's own reaction (PUT …/reactions/{emoji}/@me: idempotent). */
  async react(ref: MessageRef, emoji: string): Promise<void> {
    try {
      await this.rest.put(Routes.channelMessageOwnReaction(ref.chatId, ref.messageId, encodeURIComponent(emoji)));
    } catch (error) {
      throw toDeliveryError(error);
    }
  }

  private async dmChannel(userId: string): Promise<string> {
    const cached = this.dmChannels.get(userId);
    if (cached) return cached;
    const channel = (await this.rest.post(Routes.userChannels(), { body: { recipient_id: userId } })) as { id: string };
    if (this.dmChannels.size >= DM_CACHE_MAX) this.dmChannels.delete(this.dmChannels.keys().next().value as string);
    this.dmChannels.set(userId, channel.id);
    return channel.id;
  }
}

/** The Messenger for the tracking worker (REST only): here, not in adapter.ts, so a worker loads neither discord.js nor the gateway client. */
export function discordMessenger(settings: { token: string; apiUrl?: string }): DiscordMessenger {
  return new DiscordMessenger({ token: settings.token, ...(settings.apiUrl ? { api: settings.apiUrl } : {}) });
}
