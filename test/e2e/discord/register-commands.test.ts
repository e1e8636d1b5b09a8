import { REST } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS, type CommandSpec } from '../../../src/bot/command-list.js';
import { loadConfig } from '../../../src/config.js';
import { registerDiscordCommands, TRACK_THIS_NAME } from '../../../src/platforms/discord/commands.js';
import { registerDiscordMenus } from '../../../src/platforms/discord/adapter.js';
import { discordSettings } from '../../../src/app/platform-settings.js';
import { FakeDiscord } from './fake-discord.js';
import type { Json } from '../../fakes/bodies.js';
import type { FakeGuild } from './fake-world.js';

/** `swapbot register-commands` against the fake: writes only what changed. */
let fake: FakeDiscord;
let rest: REST;
let guild: FakeGuild;
const applicationId = '1100000000000000007';

beforeAll(async () => {
  fake = await FakeDiscord.start({ token: 'MTEw.register.token', applicationId });
  const owner = fake.world.addUser({ id: '2300000000000000001', username: 'owner' });
  guild = fake.world.addGuild({ name: 'Dev', ownerId: owner.id, channels: ['general'] });
  rest = new REST({ api: fake.apiUrl }).setToken('MTEw.register.token');
});
afterAll(async () => fake?.close());

const writesSince = (n: number) =>
  fake.requests
    .slice(n)
    .filter((r) => r.method !== 'GET')
    .map((r) => `${r.method} ${r.path.replace(/\d{15,}/g, ':id')}`);

describe.each([
  ['a development server (DISCORD_GUILD_ID)', true],
  ['everywhere (global)', false],
])('registering to %s', (_label, inGuild) => {
  const target = () => ({ rest, applicationId, ...(inGuild ? { guildId: guild.id } : {}) });
  const registered = () => [...(fake.world.commands.get(inGuild ? guild.id : 'global')?.values() ?? [])];

  it('creates every command with typed options on the first run', async () => {
    const n = fake.requests.length;
    const result = await registerDiscordCommands(target());
    expect(result.created.sort()).toEqual([...COMMANDS.map((c) => c.name), TRACK_THIS_NAME].sort());
    // "Track this swap": a message command (type 3), no description, its name localized.
    expect(registered().find((c) => c.name === TRACK_THIS_NAME)).toMatchObject({
      type: 3,
      description: '',
      name_localizations: {
        ru: 'Отслеживать обмен',
        'es-ES': 'Seguir este intercambio',
        'zh-CN': '跟踪此兑换',
        'pt-BR': 'Acompanhar esta troca',
      },
    });
    expect(writesSince(n)).toHaveLength(1); // one bulk PUT
    const quote = registered().find((c) => c.name === 'quote') as Json;
    const options = quote.options as Json[];
    expect(options.find((o) => o.name === 'amount')).toMatchObject({ type: 10, required: true });
    expect(Number(options.find((o) => o.name === 'amount')?.min_value)).toBeGreaterThan(0);
    expect(options.find((o) => o.name === 'from')).toMatchObject({ type: 3, autocomplete: true, required: true });
    expect(options.find((o) => o.name === 'to_token')).toMatchObject({ type: 3, autocomplete: true });
    // Required options come first, as Discord demands.
    const firstOptional = options.findIndex((o) => !o.required);
    expect(options.slice(firstOptional).filter((o) => o.required)).toEqual([]);
    if (!inGuild) expect((registered().find((c) => c.name === 'history') as Json).contexts).toEqual([1]);
    // Globally the app is user-installable: /quote works in servers, the bot DM and private channels.
    if (!inGuild) expect(registered().find((c) => c.name === 'quote')).toMatchObject({ integration_types: [0, 1], contexts: [0, 1, 2] });
    // contexts and integration_types are documented as global-only: a server registration leaves them out.
    const bodies = fake.requests
      .slice(n)
      .filter((r) => r.method === 'PUT')
      .flatMap((r) => r.body as Json[]);
    expect(bodies).toHaveLength(COMMANDS.length + 1);
    for (const body of bodies) {
      if (!inGuild) expect(body.integration_types, `${String(body.name)} integration_types`).toEqual([0, 1]);
      expect('contexts' in body, `${String(body.name)} contexts`).toBe(!inGuild);
      expect('integration_types' in body, `${String(body.name)} integration_types`).toBe(!inGuild);
    }
  });

  it('writes nothing when nothing changed (the second run of two)', async () => {
    // Like Discord, the fake lists commands without their localizations unless asked for them.
    const list = inGuild ? `/applications/${applicationId}/guilds/${guild.id}/commands` : `/applications/${applicationId}/commands`;
    const plain = (await rest.get(list as `/${string}`)) as Json[];
    expect(plain.find((c) => c.name === 'quote')).not.toHaveProperty('description_localizations');
    const n = fake.requests.length;
    const result = await registerDiscordCommands(target());
    expect(writesSince(n)).toEqual([]);
    expect(result.unchanged).toHaveLength(COMMANDS.length + 1);
  });

  it('writes the message command alone when only its localized name changed', async () => {
    const current = registered().find((c) => c.name === TRACK_THIS_NAME) as Json;
    current.name_localizations = { ru: 'Старое имя' };
    const n = fake.requests.length;
    const result = await registerDiscordCommands(target());
    expect(result.updated).toEqual([TRACK_THIS_NAME]);
    expect(writesSince(n)).toHaveLength(1);
    expect((registered().find((c) => c.name === TRACK_THIS_NAME) as Json).name_localizations).toMatchObject({ ru: 'Отслеживать обмен' });
  });

  it('patches a changed command, posts a new one and deletes a dropped one, nothing else', async () => {
    const changed: CommandSpec[] = COMMANDS.filter((c) => c.name !== 'cancel').map((c) =>
      c.name === 'status' ? { ...c, description: 'Show where a swap is' } : c,
    );
    changed.push({ name: 'about', description: 'About this bot', inGroups: true, options: [], usage: '/about' });
    const n = fake.requests.length;
    const result = await registerDiscordCommands({ ...target(), commands: changed });
    expect(result).toMatchObject({ updated: ['status'], created: ['about'], deleted: ['cancel'] });
    expect(writesSince(n).sort()).toEqual(
      [
        `POST ${inGuild ? '/applications/:id/guilds/:id/commands' : '/applications/:id/commands'}`,
        `PATCH ${inGuild ? '/applications/:id/guilds/:id/commands/:id' : '/applications/:id/commands/:id'}`,
        `DELETE ${inGuild ? '/applications/:id/guilds/:id/commands/:id' : '/applications/:id/commands/:id'}`,
      ].sort(),
    );
    expect((registered().find((c) => c.name === 'status') as Json).description).toBe('Show where a swap is');
    // And back: the next run with the real list restores it, then is quiet again.
    await registerDiscordCommands(target());
    const m = fake.requests.length;
    await registerDiscordCommands(target());
    expect(writesSince(m)).toEqual([]);
  });
});

describe('swapbot register-commands', () => {
  it('reads the token, application, server and API URL from the configuration', async () => {
    const other = await FakeDiscord.start({ token: 'MTEw.config.token', applicationId: '1100000000000000008' });
    try {
      const owner = other.world.addUser({ id: '2300000000000000002', username: 'owner' });
      const dev = other.world.addGuild({ name: 'Dev', ownerId: owner.id, channels: ['general'] });
      const config = loadConfig({
        DISCORD_TOKEN: 'MTEw.config.token',
        DISCORD_APPLICATION_ID: '1100000000000000008',
        DISCORD_GUILD_ID: dev.id,
        DISCORD_API_URL: other.apiUrl,
      });
      expect((await registerDiscordMenus(discordSettings(config))).scope).toBe('guild');
      expect(other.world.commands.get(dev.id)?.size).toBe(COMMANDS.length + 1);
      expect((await registerDiscordMenus(discordSettings(config))).unchanged).toHaveLength(COMMANDS.length + 1);
      expect(() => discordSettings(loadConfig({ DISCORD_API_URL: other.apiUrl }))).toThrow(/DISCORD_TOKEN/);
    } finally {
      await other.close();
    }
  });
});
