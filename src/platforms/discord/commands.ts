import type {
  APIApplicationCommandOption,
  REST,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
  RESTPostAPIContextMenuApplicationCommandsJSONBody,
} from 'discord.js';
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ApplicationIntegrationType,
  InteractionContextType,
  Routes,
} from 'discord.js';
import { COMMANDS, type CommandOption, type CommandSpec } from '../../bot/command-list.js';
import { DISCORD_LOCALES, menuText } from '../../i18n/index.js';

/**
 * Discord's description_localizations: the catalog's text per Discord locale. Command and option
 * names stay English: they are what /help, the docs and typed command lines use.
 */
function localizations(key: string, english: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [locale, names] of Object.entries(DISCORD_LOCALES)) {
    const text = menuText(locale as keyof typeof DISCORD_LOCALES, key, english).slice(0, 100);
    if (text !== english.slice(0, 100)) for (const n of names) out[n] = text;
  }
  return out;
}

/**
 * Slash-command definitions from the one command list, and their registration: to one server
 * (DISCORD_GUILD_ID: instant, for development) or globally, writing only what changed, because
 * Discord allows 200 command creates per day per server.
 */

/** Discord's min_value is inclusive; "above zero" becomes this, and the core rejects what is still too small. */
export const TINY_POSITIVE = 0.000000001;

export type CommandBody = RESTPostAPIChatInputApplicationCommandsJSONBody;

function optionBody(o: CommandOption): APIApplicationCommandOption {
  const base = {
    name: o.name,
    description: o.description.slice(0, 100),
    description_localizations: localizations(`option.${o.name}`, o.description),
    required: o.required,
  };
  if (o.type === 'number') {
    const min = o.greaterThan === undefined ? undefined : o.greaterThan + TINY_POSITIVE;
    return { ...base, type: ApplicationCommandOptionType.Number, ...(min === undefined ? {} : { min_value: min }) };
  }
  return { ...base, type: ApplicationCommandOptionType.String, ...(o.autocomplete ? { autocomplete: true } : {}) };
}

/**
 * One command's body. `contexts` and `integration_types` are documented as global-only, so a
 * server (guild) registration leaves them out: there the command exists in that server alone.
 * Globally the app is user-installable too: group-friendly commands work in servers, the bot DM
 * and private channels (also where the bot is not a member: see user-install.ts); the rest only
 * in the bot DM.
 */
export function commandBody(spec: CommandSpec, scope: 'guild' | 'global' = 'global'): CommandBody {
  // Discord wants required options first; the command line keeps COMMANDS order regardless.
  const options = [...spec.options.filter((o) => o.required), ...spec.options.filter((o) => !o.required)].map(optionBody);
  const body: CommandBody = {
    type: ApplicationCommandType.ChatInput,
    name: spec.name,
    description: spec.description.slice(0, 100),
    description_localizations: localizations(`command.${spec.name}.description`, spec.description),
    options,
  };
  if (scope === 'guild') return body;
  return {
    ...body,
    integration_types: [ApplicationIntegrationType.GuildInstall, ApplicationIntegrationType.UserInstall],
    contexts: spec.inGroups
      ? [InteractionContextType.Guild, InteractionContextType.BotDM, InteractionContextType.PrivateChannel]
      : [InteractionContextType.BotDM],
  };
}

/** The "Track this swap" message command (context menu, type 3): English name, localized names, no description. */
export const TRACK_THIS_NAME = 'Track this swap';

function nameLocalizations(key: string, english: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [locale, names] of Object.entries(DISCORD_LOCALES)) {
    const text = menuText(locale as keyof typeof DISCORD_LOCALES, key, english).slice(0, 32);
    if (text !== english) for (const n of names) out[n] = text;
  }
  return out;
}

export type MessageCommandBody = RESTPostAPIContextMenuApplicationCommandsJSONBody;

/** Message commands must have an empty description and no options (Discord's rule). */
function trackThisCommandBody(scope: 'guild' | 'global' = 'global'): MessageCommandBody {
  const body: MessageCommandBody = {
    type: ApplicationCommandType.Message,
    name: TRACK_THIS_NAME,
    name_localizations: nameLocalizations('command.trackThis.name', TRACK_THIS_NAME),
  };
  if (scope === 'guild') return body;
  // Anyone may look a swap up anywhere; following stays with the core's admin rule.
  return {
    ...body,
    integration_types: [ApplicationIntegrationType.GuildInstall, ApplicationIntegrationType.UserInstall],
    contexts: [InteractionContextType.Guild, InteractionContextType.BotDM, InteractionContextType.PrivateChannel],
  };
}

export function discordCommandDefinitions(
  commands: readonly CommandSpec[] = COMMANDS,
  scope: 'guild' | 'global' = 'global',
): CommandBody[] {
  return commands.map((c) => commandBody(c, scope));
}

/** Discord returns null for none; ours may be {}: both mean none. Keys sorted. */
function sameLocalizations(v: unknown): Record<string, unknown> | null {
  if (typeof v !== 'object' || v === null || Object.keys(v).length === 0) return null;
  return Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)));
}

/** The fields we set, in a canonical form, so a registered command compares equal to ours. */
export function normalizeCommand(c: Record<string, unknown>, scope: 'guild' | 'global'): string {
  const options = (Array.isArray(c.options) ? c.options : []) as Array<Record<string, unknown>>;
  const out: Record<string, unknown> = {
    type: c.type ?? ApplicationCommandType.ChatInput,
    name: c.name,
    name_localizations: sameLocalizations(c.name_localizations),
    description: c.description ?? '',
    description_localizations: sameLocalizations(c.description_localizations),
    default_member_permissions: c.default_member_permissions ?? null,
    nsfw: c.nsfw ?? false,
    options: options.map((o) => ({
      type: o.type,
      name: o.name,
      description: o.description,
      description_localizations: sameLocalizations(o.description_localizations),
      required: o.required ?? false,
      autocomplete: o.autocomplete ?? false,
      min_value: o.min_value ?? null,
      max_value: o.max_value ?? null,
      choices: o.choices ?? null,
    })),
  };
  // contexts and integration_types only mean something for global commands.
  if (scope === 'global') {
    out.contexts = Array.isArray(c.contexts) ? [...(c.contexts as number[])].sort() : null;
    out.integration_types = Array.isArray(c.integration_types)
      ? [...(c.integration_types as number[])].sort()
      : [ApplicationIntegrationType.GuildInstall];
  }
  return JSON.stringify(out);
}

export interface RegisterResult {
  scope: 'guild' | 'global';
  created: string[];
  updated: string[];
  deleted: string[];
  unchanged: string[];
}

/**
 * Makes the registered commands match ours: GET what is there, then POST new ones, PATCH changed
 * ones, DELETE stale ones (one bulk PUT when nothing is registered yet). Identical: no write.
 */
export async function registerDiscordCommands(opts: {
  rest: REST;
  applicationId: string;
  guildId?: string;
  commands?: readonly CommandSpec[];
}): Promise<RegisterResult> {
  const scope = opts.guildId ? 'guild' : 'global';
  const list = opts.guildId
    ? Routes.applicationGuildCommands(opts.applicationId, opts.guildId)
    : Routes.applicationCommands(opts.applicationId);
  const one = (id: string) =>
    opts.guildId ? Routes.applicationGuildCommand(opts.applicationId, opts.guildId, id) : Routes.applicationCommand(opts.applicationId, id);
  const wanted: Array<CommandBody | MessageCommandBody> = [...discordCommandDefinitions(opts.commands, scope), trackThisCommandBody(scope)];
  // Without with_localizations Discord leaves the localizations out, and every command would
  // compare as changed: a PATCH each, counted against the daily command-write limit.
  const existing = (await opts.rest.get(list, { query: new URLSearchParams({ with_localizations: 'true' }) })) as Array<
    Record<string, unknown>
  >;
  const result: RegisterResult = { scope, created: [], updated: [], deleted: [], unchanged: [] };

  if (existing.length === 0) {
    await opts.rest.put(list, { body: wanted });
    result.created = wanted.map((c) => c.name);
    return result;
  }
  // Slash and message commands may share a name: each is known by its type and name.
  const keyOf = (c: { type?: unknown; name?: unknown }) => `${Number(c.type ?? ApplicationCommandType.ChatInput)}:${String(c.name)}`;
  const byName = new Map(existing.map((c) => [keyOf(c), c]));
  for (const body of wanted) {
    const current = byName.get(keyOf(body));
    byName.delete(keyOf(body));
    if (!current) {
      await opts.rest.post(list, { body });
      result.created.push(body.name);
    } else if (normalizeCommand(current, scope) !== normalizeCommand(body as unknown as Record<string, unknown>, scope)) {
      await opts.rest.patch(one(String(current.id)), { body });
      result.updated.push(body.name);
    } else result.unchanged.push(body.name);
  }
  for (const stale of byName.values()) {
    await opts.rest.delete(one(String(stale.id)));
    result.deleted.push(String(stale.name));
  }
  return result;
}
