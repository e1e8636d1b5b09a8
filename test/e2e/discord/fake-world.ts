import { randomBytes } from 'node:crypto';
import type { Json } from '../../fakes/bodies.js';

/**
 * The state of the fake Discord: users, guilds with roles and channels, DM channels, messages
 * (with the interaction that made them), interactions and registered commands. Pure data and
 * the API shapes built from it; the HTTP and WebSocket halves live beside it.
 */
export interface FakeUser {
  id: string;
  username: string;
  globalName?: string;
  /** Discord answers 50007 to any DM to this user. */
  dmClosed?: boolean;
  /** The language of the user's Discord client, sent as each interaction's `locale` (default en-US). */
  locale?: string;
}

export interface FakeRole {
  id: string;
  name: string;
  permissions: bigint;
}

export interface FakeChannel {
  id: string;
  type: 0 | 1;
  name?: string;
  guildId?: string;
  recipientId?: string;
  /** Discord answers 50001 Missing Access to messages here. */
  missingAccess?: boolean;
}

export interface FakeGuild {
  id: string;
  name: string;
  ownerId: string;
  roles: FakeRole[];
  channelIds: string[];
  /** user id -> role ids (besides @everyone). */
  members: Map<string, string[]>;
}

export interface StoredMessage {
  id: string;
  channelId: string;
  guildId?: string;
  body: Json;
  attachments: Array<{ id: string; filename: string; size: number; bytes: Buffer; description?: string }>;
  ephemeral: boolean;
  /** A deferred "thinking..." message not yet resolved. */
  loading: boolean;
  deleted: boolean;
  interactionId?: string;
  /** Every body this message has shown, oldest first. */
  history: Json[];
  /** The bot's own reactions (unicode emoji). */
  reactions: string[];
}

export interface InteractionState {
  id: string;
  token: string;
  type: number;
  userId: string;
  channelId: string;
  guildId?: string;
  payload: Json;
  callbacks: Array<{ type: number; data?: Json }>;
  /** The message @original stands for, once there is one. */
  originalId?: string;
  /** The message the pressed component (or the modal's button) belongs to. */
  componentMessageId?: string;
  followupIds: string[];
  modal?: Json;
  choices?: Json[];
}

export const Permission = { Administrator: 1n << 3n, ManageChannels: 1n << 4n, SendMessages: 1n << 11n, ViewChannel: 1n << 10n } as const;

const DISCORD_EPOCH = 1420070400000n;

export class World {
  readonly users = new Map<string, FakeUser>();
  readonly guilds = new Map<string, FakeGuild>();
  readonly channels = new Map<string, FakeChannel>();
  readonly messages = new Map<string, StoredMessage>();
  readonly interactions = new Map<string, InteractionState>();
  readonly byToken = new Map<string, InteractionState>();
  /** Registered commands: key 'global' or a guild id. */
  readonly commands = new Map<string, Map<string, Json>>();
  private counter = 0n;

  constructor(
    readonly token: string,
    readonly applicationId: string,
    readonly bot: FakeUser,
  ) {
    this.users.set(bot.id, bot);
  }

  snowflake(): string {
    return String(((BigInt(Date.now()) - DISCORD_EPOCH) << 22n) + (this.counter++ % 4194304n));
  }

  interactionToken(): string {
    return `aW50ZXJhY3Rpb24${randomBytes(24).toString('base64url')}`;
  }

  addUser(user: FakeUser): FakeUser {
    this.users.set(user.id, user);
    return user;
  }

  /** `withBot: false`: a server that never added the bot (its members may have installed the app themselves). */
  addGuild(opts: {
    name: string;
    ownerId: string;
    channels: string[];
    roles?: Array<{ name: string; permissions: bigint }>;
    withBot?: boolean;
  }): FakeGuild {
    const id = this.snowflake();
    const everyone: FakeRole = { id, name: '@everyone', permissions: Permission.ViewChannel | Permission.SendMessages };
    const guild: FakeGuild = {
      id,
      name: opts.name,
      ownerId: opts.ownerId,
      roles: [everyone, ...(opts.roles ?? []).map((r) => ({ id: this.snowflake(), ...r }))],
      channelIds: [],
      members: new Map(opts.withBot === false ? [] : [[this.bot.id, []]]),
    };
    for (const name of opts.channels) {
      const channel: FakeChannel = { id: this.snowflake(), type: 0, name, guildId: id };
      this.channels.set(channel.id, channel);
      guild.channelIds.push(channel.id);
    }
    this.guilds.set(id, guild);
    return guild;
  }

  addMember(guild: FakeGuild, userId: string, roleNames: string[] = []): void {
    const ids = roleNames.map((n) => {
      const role = guild.roles.find((r) => r.name === n);
      if (!role) throw new Error(`fake: no role ${n}`);
      return role.id;
    });
    guild.members.set(userId, ids);
  }

  /** Opens (or returns) the DM channel between the bot and a user. */
  dmChannel(userId: string): FakeChannel {
    for (const c of this.channels.values()) if (c.type === 1 && c.recipientId === userId) return c;
    const channel: FakeChannel = { id: this.snowflake(), type: 1, recipientId: userId };
    this.channels.set(channel.id, channel);
    return channel;
  }

  /** Whether the bot is a member of the server a channel belongs to (DMs: always). */
  botIn(channel: FakeChannel): boolean {
    const guild = channel.guildId ? this.guilds.get(channel.guildId) : undefined;
    return !guild || guild.members.has(this.bot.id);
  }

  memberPermissions(guild: FakeGuild, userId: string): bigint {
    if (guild.ownerId === userId) return (1n << 53n) - 1n;
    const roles = [guild.id, ...(guild.members.get(userId) ?? [])];
    const bits = guild.roles.filter((r) => roles.includes(r.id)).reduce((acc, r) => acc | r.permissions, 0n);
    return bits & Permission.Administrator ? (1n << 53n) - 1n : bits;
  }

  apiUser(user: FakeUser): Json {
    return {
      id: user.id,
      username: user.username,
      global_name: user.globalName ?? null,
      discriminator: '0',
      avatar: null,
      bot: user.id === this.bot.id,
    };
  }

  apiMember(guild: FakeGuild, userId: string, withPermissions: boolean): Json {
    const user = this.users.get(userId);
    if (!user) throw new Error(`fake: unknown user ${userId}`);
    return {
      user: this.apiUser(user),
      roles: guild.members.get(userId) ?? [],
      joined_at: new Date(Date.UTC(2025, 0, 1)).toISOString(),
      deaf: false,
      mute: false,
      flags: 0,
      nick: null,
      ...(withPermissions ? { permissions: String(this.memberPermissions(guild, userId)) } : {}),
    };
  }

  apiChannel(channel: FakeChannel): Json {
    if (channel.type === 1) {
      const user = this.users.get(channel.recipientId ?? '');
      return { id: channel.id, type: 1, recipients: user ? [this.apiUser(user)] : [], last_message_id: null };
    }
    return {
      id: channel.id,
      type: 0,
      name: channel.name,
      guild_id: channel.guildId,
      position: 0,
      permission_overwrites: [],
      nsfw: false,
      topic: null,
      parent_id: null,
    };
  }

  guildCreate(guild: FakeGuild): Json {
    return {
      id: guild.id,
      name: guild.name,
      icon: null,
      owner_id: guild.ownerId,
      unavailable: false,
      large: false,
      member_count: guild.members.size,
      features: [],
      emojis: [],
      stickers: [],
      roles: guild.roles.map((r, i) => ({
        id: r.id,
        name: r.name,
        permissions: String(r.permissions),
        position: i,
        color: 0,
        hoist: false,
        managed: false,
        mentionable: false,
        flags: 0,
      })),
      channels: guild.channelIds.map((id) => this.apiChannel(this.channels.get(id) as FakeChannel)),
      members: [...guild.members.keys()].map((uid) => this.apiMember(guild, uid, false)),
      threads: [],
      voice_states: [],
      presences: [],
      stage_instances: [],
      guild_scheduled_events: [],
      joined_at: new Date(Date.UTC(2025, 0, 1)).toISOString(),
      preferred_locale: 'en-US',
      system_channel_flags: 0,
      verification_level: 0,
      default_message_notifications: 0,
      explicit_content_filter: 0,
      mfa_level: 0,
      nsfw_level: 0,
      premium_tier: 0,
      afk_timeout: 300,
    };
  }

  /** A stored message as the API returns it (attachment:// image references resolved). */
  apiMessage(m: StoredMessage, baseUrl: string): Json {
    const attachments = m.attachments.map((a) => ({
      id: a.id,
      filename: a.filename,
      size: a.size,
      url: `${baseUrl}/attachments/${m.channelId}/${a.id}/${a.filename}`,
      proxy_url: `${baseUrl}/attachments/${m.channelId}/${a.id}/${a.filename}`,
      content_type: 'image/png',
      description: a.description,
    }));
    const embeds = ((m.body.embeds ?? []) as Json[]).map((e) => {
      const image = e.image as Json | undefined;
      const url = String(image?.url ?? '');
      if (!url.startsWith('attachment://')) return e;
      const found = attachments.find((a) => a.filename === url.slice(13));
      return { ...e, image: { url: found?.url ?? url } };
    });
    return {
      id: m.id,
      type: m.interactionId ? 20 : 0,
      channel_id: m.channelId,
      ...(m.guildId ? { guild_id: m.guildId } : {}),
      author: this.apiUser(this.bot),
      content: m.loading ? '' : String(m.body.content ?? ''),
      embeds: m.loading ? [] : embeds,
      components: m.loading ? [] : (m.body.components ?? []),
      attachments,
      mentions: [],
      mention_roles: [],
      mention_everyone: false,
      pinned: false,
      tts: false,
      timestamp: new Date().toISOString(),
      edited_timestamp: m.history.length > 1 ? new Date().toISOString() : null,
      flags: (m.ephemeral ? 64 : 0) | (m.loading ? 128 : 0) | (Number(m.body.flags ?? 0) & ~(64 | 128)),
      ...(m.reactions.length
        ? {
            reactions: m.reactions.map((name) => ({
              count: 1,
              count_details: { burst: 0, normal: 1 },
              me: true,
              me_burst: false,
              burst_colors: [],
              emoji: { id: null, name },
            })),
          }
        : {}),
      ...(m.interactionId ? { webhook_id: this.applicationId, application_id: this.applicationId } : {}),
    };
  }
}
