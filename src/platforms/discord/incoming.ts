import type { BaseInteraction, ChatInputCommandInteraction } from 'discord.js';
import { GuildMember, InteractionContextType, PermissionFlagsBits, Routes } from 'discord.js';
import { COMMANDS } from '../../bot/command-list.js';
import type { Incoming, MessageRef } from '../../contracts/incoming.js';
import { commandLine, type OptionValue } from './command-line.js';
import { interactionOnly } from './user-install.js';

/**
 * Discord interactions as the neutral Incoming. Guild channels are 'group' chats (chatId: the
 * channel id); the bot DM is 'private' (chatId: the user id, as the Messenger expects). A group DM
 * or a DM between two people (a user-installed app) is a 'group': others read it.
 */
type Basis = Omit<Incoming, 'text' | 'action' | 'messageRef'>;

export function incomingBasis(i: BaseInteraction, trackRole?: string): Basis {
  const inGuild = i.inGuild();
  const shared = inGuild || i.context === InteractionContextType.PrivateChannel;
  const only = interactionOnly(i);
  const member = i.member;
  const userName = member instanceof GuildMember ? member.displayName : (member?.nick ?? i.user.globalName ?? i.user.username);
  return {
    platform: 'discord',
    userId: i.user.id,
    userName,
    chatId: inGuild ? (i.channelId ?? i.guildId) : shared ? (i.channelId ?? i.user.id) : i.user.id,
    chatKind: shared ? 'group' : 'private',
    locale: i.locale,
    ...(i.guildLocale ? { chatLocale: i.guildLocale } : {}),
    // Where the bot is not a member it cannot post, so nobody may make the chat follow a swap.
    isChatAdmin: () => (only ? Promise.resolve(false) : isChatAdmin(i, trackRole)),
  };
}

/**
 * Manage Channels in this channel (Administrator implies it), or the configured role, given as a
 * role id or a role name (case-insensitive). In a DM the user is the only member: admin.
 */
async function isChatAdmin(i: BaseInteraction, trackRole?: string): Promise<boolean> {
  if (!i.inGuild()) return true;
  if (i.memberPermissions?.has(PermissionFlagsBits.ManageChannels)) return true;
  if (!trackRole) return false;
  const member = i.member;
  const roleIds: string[] = member instanceof GuildMember ? [...member.roles.cache.keys()] : (member?.roles ?? []);
  if (roleIds.includes(trackRole)) return true;
  const wanted = trackRole.trim().toLowerCase();
  const names = i.guild ? new Map([...i.guild.roles.cache].map(([id, r]) => [id, r.name])) : await roleNames(i);
  return roleIds.some((id) => names.get(id)?.toLowerCase() === wanted);
}

/** Over HTTP there is no guild cache: the server's roles come from REST (only to match a role given by name). */
async function roleNames(i: BaseInteraction): Promise<Map<string, string>> {
  if (!i.guildId) return new Map();
  try {
    const roles = (await i.client.rest.get(Routes.guildRoles(i.guildId))) as Array<{ id: string; name: string }>;
    return new Map(roles.map((r) => [r.id, r.name]));
  } catch {
    return new Map();
  }
}

export function messageRefOf(message: { id: string; channelId: string } | null | undefined): MessageRef | undefined {
  return message ? { platform: 'discord', chatId: message.channelId, messageId: message.id } : undefined;
}

/** The command line for a slash command, or undefined when it is not one of ours. */
export function slashCommandText(i: ChatInputCommandInteraction): string | undefined {
  const spec = COMMANDS.find((c) => c.name === i.commandName);
  if (!spec) return undefined;
  const values = new Map<string, OptionValue>();
  for (const o of i.options.data) if (o.value !== undefined) values.set(o.name, o.value);
  return commandLine(spec, values);
}
