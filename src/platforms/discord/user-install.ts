import type { BaseInteraction } from 'discord.js';
import { InteractionContextType } from 'discord.js';

/**
 * A user-installed app is used where the bot itself may not be: a server that never added it, a
 * group DM, a DM between two people. There it can only answer the interaction (a reply and at
 * most five follow-ups within 15 minutes), never post to the channel, and nothing may be followed
 * there (the tracking worker would have to post). Commands that make swaps or follow them continue
 * in the bot DM instead.
 */

/** Commands that move to the bot DM when used where the bot can only answer the interaction. */
export const DM_ONLY_WHERE_NOT_MEMBER: ReadonlySet<string> = new Set(['swap', 'track', 'untrack', 'tracking', 'history']);

/** Discord's limit on follow-ups of one interaction in a user-install context. */
export const USER_INSTALL_FOLLOWUPS = 5;

/** Whether the bot can only answer this interaction: not its own DM, and not a server that installed it. */
export function interactionOnly(i: BaseInteraction): boolean {
  if (i.context === InteractionContextType.BotDM) return false;
  if (i.context === InteractionContextType.PrivateChannel) return true;
  const owners = i.authorizingIntegrationOwners;
  if (i.inGuild()) {
    // A server install names the server; a user install alone means the bot was not added there.
    if (owners.guildId !== null) return false;
    if (owners.userId !== null) return true;
    // No owners given (older payloads): the guild cache says, which only a gateway client has.
    return i.client.isReady() && !i.client.guilds.cache.has(i.guildId);
  }
  // Outside a server with no context given (older payloads): the bot's own DM.
  return false;
}
