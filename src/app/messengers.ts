import type { ChatTarget, MessageRef, Platform } from '../contracts/incoming.js';
import { DeliveryError, type Messenger } from '../contracts/messenger.js';
import type { Reply } from '../contracts/reply.js';
import type { Config } from '../config.js';
import { discordMessengerFromConfig } from '../platforms/discord/from-config.js';
import { createTelegramMessenger } from '../platforms/telegram/run.js';

/**
 * One Messenger per configured platform: what the tracking worker pushes cards through, over each
 * platform's HTTP API alone (no update loop), so `worker` processes need only tokens.
 */
export function buildMessengers(config: Config, opts: { console: boolean }): { byPlatform: Partial<Record<Platform, Messenger>>; console: LateMessenger | undefined } {
  const byPlatform: Partial<Record<Platform, Messenger>> = {};
  if (config.TELEGRAM_BOT_TOKEN) byPlatform.telegram = createTelegramMessenger(config);
  if (config.DISCORD_TOKEN) byPlatform.discord = discordMessengerFromConfig(config);
  let console: LateMessenger | undefined;
  if (opts.console) byPlatform.console = console = new LateMessenger('console');
  return { byPlatform, console };
}

/**
 * A Messenger whose real one arrives later: the terminal chat's printer exists only once the core
 * does, and the core needs tracking, which needs its messengers. Until then deliveries fail as
 * transient and the notify queue retries them.
 */
export class LateMessenger implements Messenger {
  private target: Messenger | undefined;
  constructor(readonly platform: Platform) {}
  attach(messenger: Messenger): void {
    this.target = messenger;
  }
  send(target: ChatTarget, reply: Reply): Promise<MessageRef> {
    return this.ready().send(target, reply);
  }
  edit(ref: MessageRef, reply: Reply): Promise<MessageRef> {
    return this.ready().edit(ref, reply);
  }
  private ready(): Messenger {
    if (!this.target) throw new DeliveryError(this.platform, 'transient', `the ${this.platform} messenger is not ready yet`);
    return this.target;
  }
}
