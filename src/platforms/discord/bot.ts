import type { BaseInteraction, ChatInputCommandInteraction, Message, RESTOptions } from 'discord.js';
import { Client, DefaultRestOptions, Events, GatewayIntentBits, MessageFlags } from 'discord.js';
import type { BotCore } from '../../bot/core.js';
import type { Incoming } from '../../contracts/incoming.js';
import { line, urlButton, type Reply } from '../../contracts/reply.js';
import type { Translate } from '../../i18n/index.js';
import { silentLogger, type Logger } from '../../log.js';
import { answerAutocomplete } from './autocomplete.js';
import { TRACK_THIS_NAME } from './commands.js';
import { MODAL_INPUT_ID, parseOwnId } from './custom-ids.js';
import { loggableError } from './errors.js';
import { codeSpan } from './markdown.js';
import { buildModal } from './modal.js';
import { HttpCallbacks, type InteractionAnswer, type RawInteraction } from './http-callbacks.js';
import { httpClient } from './http-client.js';
import { incomingBasis, messageRefOf, slashCommandText } from './incoming.js';
import { interactionOptions } from './payload.js';
import { renderIn } from './render.js';
import { InteractionResponder, type RepliableInteraction } from './deliver.js';
import { DM_ONLY_WHERE_NOT_MEMBER, interactionOnly } from './user-install.js';
import { adapterWords } from '../words.js';

/**
 * The Discord edge: interactions in (from the gateway, or over HTTP through `receive`), the
 * core's replies out. Handlers never see discord.js; this file only translates. Every command,
 * button and modal is answered within Discord's 3 s: the core gets `ackBudgetMs` to answer
 * outright (so a prompt can still open a modal), after which the interaction is deferred and the
 * answer follows. Nothing thrown here reaches the client: users get a polite ephemeral error and
 * the log gets the cause.
 */
export interface DiscordBotOptions {
  token: string;
  applicationId: string;
  core: BotCore;
  logger?: Logger;
  /** DISCORD_API_URL (default https://discord.com/api). */
  restApi?: string;
  /** DISCORD_GATEWAY_URL: overrides the URL that GET /gateway/bot returns. */
  gatewayUrl?: string;
  /** DISCORD_TRACK_ROLE: a role id or name that may use /track and /untrack besides Manage Channels. */
  trackRole?: string;
  /** How long the core may take before the interaction is deferred (default 1500 ms). */
  ackBudgetMs?: number;
  /**
   * DISCORD_INTERACTIONS: 'gateway' (default) connects to the gateway; 'http' connects nothing and
   * takes interactions from `receive` (POST /discord/interactions, see http-endpoint.ts).
   */
  interactions?: 'gateway' | 'http';
  /** Over HTTP: when nothing has answered by then, the interaction is deferred (default 2500 ms, within Discord's 3 s). */
  httpDeadlineMs?: number;
}

export interface DiscordBot {
  client: Client;
  start(): Promise<void>;
  stop(): Promise<void>;
  /**
   * Over HTTP only: one verified interaction, handled exactly as a gateway one; `write` gets its
   * first response (the answer to Discord's POST).
   */
  receive?(payload: RawInteraction, write: (a: InteractionAnswer) => Promise<void>): void;
}

const TIMED_OUT = Symbol('timed out');

/** A short ephemeral note from the adapter itself (nothing the core said). */
const notice = (content: string) => ({ content, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] as [] } }) as const;

export function createDiscordBot(opts: DiscordBotOptions): DiscordBot {
  const log = opts.logger ?? silentLogger;
  const ackBudgetMs = opts.ackBudgetMs ?? 1_500;
  const overHttp = opts.interactions === 'http';
  const callbacks = overHttp ? new HttpCallbacks(DefaultRestOptions.makeRequest, opts.applicationId) : undefined;
  const rest: Partial<RESTOptions> = {
    ...(opts.restApi ? { api: opts.restApi } : {}),
    ...(callbacks ? { makeRequest: callbacks.makeRequest } : gatewayOverride(opts.gatewayUrl)),
  };
  const client = new Client({ intents: [GatewayIntentBits.Guilds], allowedMentions: { parse: [] }, rest });
  // Over HTTP the client never logs in: REST (DMs, edits, follow-ups) needs the token all the same.
  if (overHttp) client.rest.setToken(opts.token);
  const overRest = overHttp ? httpClient(client) : undefined;

  /** The adapter's own words to the person interacting (everything it says itself is ephemeral). */
  const wordsFor = (i: BaseInteraction) => (): Promise<Translate> =>
    adapterWords(opts.core.localeOf?.bind(opts.core), {
      platform: 'discord',
      userId: i.user.id,
      chatId: i.user.id,
      chatKind: 'private',
      locale: i.locale,
    });
  const say = async (
    i: BaseInteraction,
    key:
      'platform.discord.commandGone' | 'platform.discord.messageCommandGone' | 'platform.discord.buttonGone' | 'platform.discord.formGone',
  ) => notice((await wordsFor(i)())(key));

  client.on(Events.InteractionCreate, (interaction) => {
    const ilog = interactionLogger(log, interaction);
    void onInteraction(interaction, ilog).catch((error: unknown) =>
      ilog.error({ err: loggableError(error) }, 'discord interaction failed'),
    );
  });
  client.on(Events.Error, (error) => log.error({ err: loggableError(error) }, 'discord client error'));
  client.on(Events.ShardError, (error, shard) => log.warn({ err: loggableError(error), shard }, 'discord gateway error'));

  async function onInteraction(i: BaseInteraction, ilog: Logger): Promise<void> {
    if (i.applicationId !== opts.applicationId) return;
    if (i.isAutocomplete()) return answerAutocomplete(i, opts.core, ilog);
    if (i.isChatInputCommand()) {
      const text = slashCommandText(i);
      if (text && interactionOnly(i) && DM_ONLY_WHERE_NOT_MEMBER.has(i.commandName)) return continueInDm(i, text, ilog);
      if (text) return run(i, { ...incomingBasis(i, opts.trackRole), text }, ilog);
      return void (await i.reply(await say(i, 'platform.discord.commandGone')));
    }
    if (i.isMessageContextMenuCommand()) {
      if (i.commandName !== TRACK_THIS_NAME || !opts.core.trackThis)
        return void (await i.reply(await say(i, 'platform.discord.messageCommandGone')));
      const incoming = incomingBasis(i, opts.trackRole);
      const text = messageText(i.targetMessage);
      return run(i, incoming, ilog, () => opts.core.trackThis!(incoming, text));
    }
    if (i.isButton() || i.isStringSelectMenu()) {
      const own = parseOwnId(i.customId);
      if (own?.kind === 'prompt')
        return void (await i.showModal(
          buildModal(own.prompt, undefined, own.prompt.label.trim() ? undefined : (await wordsFor(i)())('platform.discord.yourAnswer')),
        ));
      if (own?.kind === 'copy') {
        return void (await i.reply({
          content: codeSpan(own.text) || '\u200b',
          flags: MessageFlags.Ephemeral,
          allowedMentions: { parse: [] },
        }));
      }
      const action = own?.kind === 'select' && i.isStringSelectMenu() ? i.values[0] : own ? undefined : i.customId;
      if (!action) return void (await i.reply(await say(i, 'platform.discord.buttonGone')));
      return run(i, { ...incomingBasis(i, opts.trackRole), action, messageRef: messageRefOf(i.message) }, ilog);
    }
    if (i.isModalSubmit()) {
      if (parseOwnId(i.customId)?.kind !== 'modal') return void (await i.reply(await say(i, 'platform.discord.formGone')));
      const text = i.fields.getTextInputValue(MODAL_INPUT_ID).trim();
      return run(i, { ...incomingBasis(i, opts.trackRole), text, messageRef: messageRefOf(i.message) }, ilog);
    }
  }

  async function run(
    i: RepliableInteraction,
    incoming: Incoming,
    ilog: Logger,
    answer: () => Promise<Reply[]> = () => opts.core.handle(incoming),
  ): Promise<void> {
    const core = opts.core;
    const responder = new InteractionResponder(i, wordsFor(i), core.depositCardSent ? core.depositCardSent.bind(core) : undefined);
    try {
      const work = answer();
      let replies: readonly Reply[] | typeof TIMED_OUT = await within(work, ackBudgetMs);
      if (replies === TIMED_OUT) {
        await responder.ack();
        replies = await work;
      }
      await responder.deliver(replies);
    } catch (error) {
      ilog.error({ err: loggableError(error) }, 'could not answer an interaction');
      await responder.fail();
    }
  }

  /**
   * /swap (and tracking) where the bot can only answer the interaction: the command runs in the
   * bot DM, as if typed there, and the interaction is answered, only to this person, with a button
   * to that DM. Nothing is posted to the channel, and nothing follows it.
   */
  async function continueInDm(i: ChatInputCommandInteraction, text: string, ilog: Logger): Promise<void> {
    await i.deferReply({ flags: MessageFlags.Ephemeral });
    const answer = async (reply: Reply) => i.editReply(interactionOptions(await renderIn(reply, wordsFor(i))));
    try {
      const dm = await i.user.createDM();
      const replies = await opts.core.handle({
        platform: 'discord',
        userId: i.user.id,
        userName: i.user.globalName ?? i.user.username,
        chatId: i.user.id,
        chatKind: 'private',
        text,
        isChatAdmin: () => Promise.resolve(true),
      });
      for (const reply of replies) await dm.send(interactionOptions(await renderIn(reply, wordsFor(i))));
      const t = await wordsFor(i)();
      await answer({
        tone: 'info',
        lines: [line(t('platform.discord.continuedInDm'))],
        buttons: [[urlButton(t('platform.discord.continueInDm'), `https://discord.com/channels/@me/${dm.id}`)]],
        target: 'ephemeral',
      });
    } catch (error) {
      ilog.warn({ err: loggableError(error) }, 'could not continue a command in the DM');
      const t = await wordsFor(i)();
      await answer({
        tone: 'warning',
        lines: [line(t('platform.discord.dmUnreachable'))],
        target: 'ephemeral',
      }).catch(() => undefined);
    }
  }

  return {
    client,
    ...(callbacks && overRest
      ? {
          receive: (payload: RawInteraction, write: (a: InteractionAnswer) => Promise<void>) => {
            // The bot's own user first (known after start; fetched here if start has not got it yet).
            const dispatch = () =>
              void overRest
                .knowSelf()
                .catch((error: unknown) => log.warn({ err: loggableError(error) }, 'discord: who am I? (DMs may fail)'))
                .then(() => overRest.emit(payload))
                .catch((error: unknown) => log.error({ err: loggableError(error) }, 'discord: an interaction could not be dispatched'));
            callbacks.receive(payload, write, dispatch, opts.httpDeadlineMs ?? 2_500);
          },
        }
      : {}),
    async start() {
      if (overRest) {
        // No gateway: the token is checked over REST, so a refused one shows at start as it would on login.
        await overRest.knowSelf();
        log.info({ user: client.user?.tag }, 'discord: interactions over HTTP (no gateway connection)');
        return;
      }
      const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
      try {
        await client.login(opts.token);
      } catch (error) {
        await client.destroy();
        throw error;
      }
      await ready;
      log.info({ user: client.user?.tag, guilds: client.guilds.cache.size }, 'discord connected');
    },
    async stop() {
      await client.destroy();
    },
  };
}

/** What a pointed-at message says: its text and its cards' text (embeds, Components V2 text displays). */
function messageText(m: Message): string {
  const parts = [m.content];
  for (const e of m.embeds) parts.push(e.title ?? '', e.description ?? '', ...e.fields.map((f) => `${f.name} ${f.value}`));
  type Node = { type?: number; content?: string; components?: Node[] };
  const texts = (n: Node): string[] => [
    ...(n.type === 10 && typeof n.content === 'string' ? [n.content] : []),
    ...(n.components ?? []).flatMap(texts),
  ];
  for (const c of m.components) parts.push(...texts(c.toJSON() as Node));
  return parts.join('\n');
}

function within<T>(work: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** GET /gateway/bot answers with the gateway to connect to; DISCORD_GATEWAY_URL replaces it. */
function gatewayOverride(gatewayUrl: string | undefined): Partial<RESTOptions> {
  if (!gatewayUrl) return {};
  const base = DefaultRestOptions.makeRequest;
  return {
    makeRequest: async (url, init) => {
      const res = await base(url, init);
      if (!res.ok || !/\/gateway\/bot(?:\?|$)/.test(url)) return res;
      const data = (await res.json()) as Record<string, unknown>;
      return new Response(JSON.stringify({ ...data, url: gatewayUrl }), {
        status: res.status,
        headers: { 'content-type': 'application/json' },
      });
    },
  };
}

/** The logger of one interaction: every line carries its id, the channel (chat) and the user. */
function interactionLogger(log: Logger, i: BaseInteraction): Logger {
  return log.child({
    interactionId: i.id,
    chatId: i.channelId ?? undefined,
    userId: i.user.id,
    ...(i.guildId ? { guildId: i.guildId } : {}),
  });
}
