import { randomBytes } from 'node:crypto';
import { REST } from 'discord.js';
import type { BotCore, InlineAnswer, Suggestion } from '../../../src/bot/core.js';
import type { Incoming } from '../../../src/contracts/incoming.js';
import type { Reply } from '../../../src/contracts/reply.js';
import { createDiscordBot, type DiscordBot, type DiscordBotOptions } from '../../../src/platforms/discord/bot.js';
import { registerDiscordCommands } from '../../../src/platforms/discord/commands.js';
import { DiscordMessenger } from '../../../src/platforms/discord/messenger.js';
import { FakeDiscord, type Where } from './fake-discord.js';
import type { Json } from '../../fakes/bodies.js';
import { memoryLogger } from '../../support/log.js';
import { setUp } from '../../support/set-up.js';
import { waitFor } from '../../support/wait.js';
import { startLiveStack, type LiveStack } from '../live-stack.js';
import { Permission, type FakeGuild, type InteractionState, type StoredMessage } from './fake-world.js';

/** A core that answers from a script and remembers what it was asked (adapter-only checks). */
export class ScriptedCore implements BotCore {
  readonly seen: Incoming[] = [];
  constructor(
    private readonly script: (i: Incoming) => Reply[] | Promise<Reply[]>,
    private readonly suggestions: Suggestion[] = [],
  ) {}
  async handle(incoming: Incoming): Promise<Reply[]> {
    this.seen.push(incoming);
    return this.script(incoming);
  }
  async suggest(): Promise<Suggestion[]> {
    return this.suggestions;
  }
  async inlineQuote(): Promise<InlineAnswer> {
    return { results: [], personal: false, cacheSeconds: 0 };
  }
}

const TRACK_ROLE = 'Swap Trackers';

export interface DiscordWorld {
  fake: FakeDiscord;
  token: string;
  applicationId: string;
  guild: FakeGuild;
  /** A plain member: no roles, DMs open. */
  alice: Where;
  /** A member whose DMs are closed. */
  bob: Where;
  /** Has the configured tracking role (by name), not Manage Channels. */
  tracker: Where;
  /** Has Manage Channels. */
  mod: Where;
  /** Alice in her DM with the bot. */
  aliceDm: Where;
}

/** The fake Discord with one server and its members, and our commands registered there. */
export async function startDiscordWorld(): Promise<DiscordWorld> {
  const token = `MTEw.fake.${randomBytes(12).toString('hex')}`;
  const applicationId = '1100000000000000001';
  const fake = await FakeDiscord.start({ token, applicationId, heartbeatIntervalMs: 500 });
  const w = fake.world;
  const alice = w.addUser({ id: '2100000000000000001', username: 'alice', globalName: 'Alice' });
  const bob = w.addUser({ id: '2100000000000000002', username: 'bob', dmClosed: true });
  const tracker = w.addUser({ id: '2100000000000000003', username: 'tracy' });
  const mod = w.addUser({ id: '2100000000000000004', username: 'mod' });
  const owner = w.addUser({ id: '2100000000000000005', username: 'owner' });
  const guild = w.addGuild({
    name: 'Swappers',
    ownerId: owner.id,
    channels: ['general', 'swaps'],
    roles: [
      { name: TRACK_ROLE, permissions: 0n },
      { name: 'Moderators', permissions: Permission.ManageChannels },
    ],
  });
  w.addMember(guild, owner.id);
  w.addMember(guild, alice.id);
  w.addMember(guild, bob.id);
  w.addMember(guild, tracker.id, [TRACK_ROLE]);
  w.addMember(guild, mod.id, ['Moderators']);
  // Registered globally, as in production: usable in the server and in DMs (each as its contexts allow).
  await registerDiscordCommands({ rest: new REST({ api: fake.apiUrl }).setToken(token), applicationId });
  return {
    fake,
    token,
    applicationId,
    guild,
    alice: { user: alice, guild },
    bob: { user: bob, guild },
    tracker: { user: tracker, guild },
    mod: { user: mod, guild },
    aliceDm: { user: alice },
  };
}

export interface DiscordHarness extends DiscordWorld {
  bot: DiscordBot;
  logLines: string[];
  close(): Promise<void>;
}

/** Connects the real bot (discord.js over the fake's REST and gateway) with this core. */
export async function connectBot(world: DiscordWorld, core: BotCore, opts: Partial<DiscordBotOptions> = {}): Promise<DiscordHarness> {
  const { logger, lines } = memoryLogger();
  const bot = createDiscordBot({
    token: world.token,
    applicationId: world.applicationId,
    core,
    logger,
    restApi: world.fake.apiUrl,
    trackRole: TRACK_ROLE,
    ...opts,
  });
  await bot.start();
  return {
    ...world,
    bot,
    logLines: lines,
    async close() {
      await bot.stop();
      await world.fake.close();
    },
  };
}

export async function startDiscordHarness(core: BotCore, opts: Partial<DiscordBotOptions> = {}): Promise<DiscordHarness> {
  return connectBot(await startDiscordWorld(), core, opts);
}

export interface LiveDiscord extends DiscordHarness {
  live: LiveStack;
}

/**
 * The real product behind the fake Discord for one test file (the live stack delivering through
 * DiscordMessenger, the real bot connected): started before its tests, closed after them.
 */
export function useLiveDiscord(name: string, opts: Parameters<typeof startLiveStack>[2] = {}): LiveDiscord {
  return setUp(async () => {
    const world = await startDiscordWorld();
    const live = await startLiveStack(name, { discord: new DiscordMessenger({ token: world.token, api: world.fake.apiUrl }) }, opts);
    const h = await connectBot(world, live.core);
    return {
      ...h,
      live,
      async close() {
        await h.close();
        await live.close();
      },
    };
  });
}

/** The message an interaction answered with (its reply, or the message it edited), once it is no longer loading. */
export async function answerOf(fake: FakeDiscord, it: InteractionState): Promise<StoredMessage> {
  const id = await waitFor(() => {
    if (!it.callbacks[0] || !it.originalId) return undefined;
    const m = fake.message(it.originalId);
    return m.loading ? undefined : m.id;
  }, `the answer to interaction ${it.id}`);
  return fake.message(id);
}

/**
 * The message a component press (or a modal sent from one) leaves behind: the same message once
 * it was updated (at once, or after a deferral), or the reply the interaction made.
 */
export async function afterPress(
  fake: FakeDiscord,
  it: InteractionState,
  message: StoredMessage,
  versionsBefore: number,
): Promise<StoredMessage> {
  await waitFor(() => it.callbacks[0], `an answer to interaction ${it.id}`);
  return waitFor(() => {
    if (message.history.length > versionsBefore) return message;
    const other = it.originalId && it.originalId !== message.id ? fake.message(it.originalId) : undefined;
    return other && !other.loading ? other : undefined;
  }, 'the wizard to move on');
}

/** Every component of a message, depth first: action rows, or a Components V2 tree. */
export function componentsOf(message: StoredMessage): Json[] {
  const out: Json[] = [];
  const walk = (c: Json) => {
    out.push(c);
    for (const k of (c.components ?? []) as Json[]) walk(k);
    if (c.accessory) walk(c.accessory as Json);
  };
  for (const c of (message.body.components ?? []) as Json[]) walk(c);
  return out;
}

/** Whether the message is a Components V2 card. */
export const isV2 = (message: StoredMessage): boolean => (Number(message.body.flags ?? 0) & (1 << 15)) !== 0;

/** The custom_id of the button with this label on a stored message. */
export function buttonId(message: StoredMessage, label: string): string {
  for (const c of componentsOf(message)) if (c.label === label && typeof c.custom_id === 'string') return c.custom_id;
  throw new Error(`no button "${label}" on message ${message.id}: ${JSON.stringify(message.body.components)}`);
}

/** Button labels (and select placeholders) of a stored message in reading order; link buttons of V2 sections excluded. */
export function buttonLabels(message: StoredMessage): string[] {
  const rows = componentsOf(message).filter((c) => c.type === 1);
  return rows.flatMap((row) => ((row.components ?? []) as Json[]).map((c) => String(c.label ?? c.placeholder ?? '')));
}

/** The first embed of a stored message. */
export function embedOf(message: StoredMessage): Json {
  const e = ((message.body.embeds ?? []) as Json[])[0];
  if (!e) throw new Error(`message ${message.id} has no embed`);
  return e;
}

/** The title: the first embed's, or a V2 card's heading; '' when there is none. */
export function titleOf(message: StoredMessage): string {
  if (isV2(message)) return /^### (.*)$/m.exec(embedText(message))?.[1] ?? '';
  return String(((message.body.embeds ?? []) as Json[])[0]?.title ?? '');
}

/** Title + description + fields of the first embed (or a V2 card's text displays), as one string (escapes kept). */
export function embedText(message: StoredMessage): string {
  if (isV2(message))
    return componentsOf(message)
      .filter((c) => c.type === 10)
      .map((c) => String(c.content))
      .join('\n');
  const e = ((message.body.embeds ?? []) as Json[])[0] ?? {};
  const fields = ((e.fields ?? []) as Json[]).map((f) => `${String(f.name)}: ${String(f.value)}`);
  return [e.title, e.description, ...fields].filter(Boolean).join('\n');
}

/** Discord's reading of escaped markdown: a backslash before punctuation is just that character. */
export const unescape = (s: string): string => s.replace(/\\([!-/:-@[-`{-~])/g, '$1');
