import type { BaseInteraction, ChatInputCommandInteraction } from 'discord.js';
import { GuildMember, PermissionFlagsBits } from 'discord.js';
import { COMMANDS } from '../../bot/command-list.js';
import type { Incoming, MessageRef } from '../../contracts/incoming.js';
import { commandLine, type OptionValue } from './command-line.js';

/**
 * Discord interactions as the neutral Incoming. Guild channels are 'group' chats (chatId: the
 * channel id); DMs are 'private' (chatId: the user id, as the Messenger expects).
 */
type Basis = Omit<Incoming, 'text' | 'action' | 'messageRef'>;

export function incomingBasis(i: BaseInteraction, trackRole?: string): Basis {
  const inGuild = i.inGuild();
  const member = i.member;
  const userName =
    member instanceof GuildMember ? member.displayName : (member?.nick ?? i.user.globalName ?? i.user.username);
  return {
    platform: 'discord',
    userId: i.user.id,
    userName,
    chatId: inGuild ? (i.channelId ?? i.guildId) : i.user.id,
    chatKind: inGuild ? 'group' : 'private',
    isChatAdmin: () => isChatAdmin(i, trackRole),
  };
}

/**
 * Manage Channels in this channel (Administrator implies it), or the configured role, given as a
 * role id or a role name (case-insensitive). In a DM the user is the only member: admin.
 */
export async function isChatAdmin(i: BaseInteraction, trackRole?: string): Promise<boolean> {
  if (!i.inGuild()) return true;
  if (i.memberPermissions?.has(PermissionFlagsBits.ManageChannels)) return true;
  if (!trackRole) return false;
  const member = i.member;
  const roleIds: string[] = member instanceof GuildMember ? [...member.roles.cache.keys()] : (member?.roles ?? []);
  if (roleIds.includes(trackRole)) return true;
  const wanted = trackRole.trim().toLowerCase();
  return roleIds.some((id) => i.guild?.roles.cache.get(id)?.name.toLowerCase() === wanted);
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
