import type { IncomingMessage, ServerResponse } from 'node:http';
import { discordRateLimited, type HttpAnswer } from '../../fakes/answers.js';
import { discordBody, type FileRecord, type Json } from '../../fakes/bodies.js';
import { listen, readBody, type Listening } from '../../fakes/http.js';
import { FakeGateway } from './fake-gateway.js';
import { HttpInteractions } from './fake-interactions-http.js';
import { route } from './fake-routes.js';
import { World, type FakeGuild, type FakeUser, type InteractionState, type StoredMessage } from './fake-world.js';
import { waitFor } from '../../support/wait.js';

/**
 * A fake Discord on loopback for the real discord.js client: REST under /api/v10 (see
 * fake-routes.ts) and the gateway at /gateway (fake-gateway.ts), with every request recorded,
 * scripted faults (429 with Discord's headers and body, error codes), and helpers that play a
 * user: slash commands, autocomplete, button presses, select menus and modal submits.
 */
export interface RecordedRequest {
  method: string;
  path: string;
  query: string;
  body: Json | Json[] | undefined;
  files: FileRecord[];
  status: number;
}

export interface Fault {
  method?: string;
  path: RegExp;
  status: number;
  code?: number;
  message?: string;
  /** For 429: seconds, sent as retry_after and Retry-After / X-RateLimit-Reset-After. */
  retryAfter?: number;
  global?: boolean;
  times?: number;
}

export interface Where {
  user: FakeUser;
  /** Omitted: the user's DM with the bot. */
  guild?: FakeGuild;
  channelId?: string;
  /** The user installed the app on their account and uses it here (the server did not add the bot). */
  userInstall?: boolean;
}

export class FakeDiscord {
  readonly world: World;
  readonly requests: RecordedRequest[] = [];
  readonly gateway: FakeGateway;
  private readonly faults: Array<Fault & { left: number }> = [];
  private http!: Listening;
  /** What GET /gateway/bot advertises; tests may point it elsewhere to check DISCORD_GATEWAY_URL. */
  advertisedGateway?: string;
  /** Set by deliverOverHttp: interactions are POSTed, signed, to the bot's endpoint instead of the gateway. */
  overHttp?: HttpInteractions;

  private constructor(opts: { token: string; applicationId: string; heartbeatIntervalMs: number }) {
    this.world = new World(opts.token, opts.applicationId, { id: opts.applicationId, username: 'swapbot' });
    this.gateway = new FakeGateway(
      {
        token: opts.token,
        readyPayload: (sessionId, resumeUrl) => ({
          v: 10,
          user: { ...this.world.apiUser(this.world.bot), verified: true, mfa_enabled: false, flags: 0 },
          guilds: [...this.world.guilds.keys()].map((id) => ({ id, unavailable: true })),
          session_id: sessionId,
          resume_gateway_url: resumeUrl,
          shard: [0, 1],
          application: { id: opts.applicationId, flags: 0 },
          private_channels: [],
          relationships: [],
          presences: [],
          guild_join_requests: [],
          geo_ordered_rtc_regions: [],
        }),
        guildCreates: () =>
          [...this.world.guilds.values()].filter((g) => g.members.has(this.world.bot.id)).map((g) => this.world.guildCreate(g)),
      },
      () => this.gatewayUrl,
      opts.heartbeatIntervalMs,
    );
  }

  static async start(opts: { token: string; applicationId: string; heartbeatIntervalMs?: number }): Promise<FakeDiscord> {
    const fake = new FakeDiscord({ heartbeatIntervalMs: 1_000, ...opts });
    fake.http = await listen((req, res) => void fake.onRequest(req, res));
    fake.http.server.on('upgrade', (req, socket, head) => {
      if (new URL(req.url ?? '/', 'http://x').pathname === '/gateway') fake.gateway.handleUpgrade(req, socket, head);
      else socket.destroy();
    });
    return fake;
  }

  get url(): string {
    return this.http.url;
  }
  /** Give this to discord.js as rest.api and to DiscordMessenger as api. */
  get apiUrl(): string {
    return `${this.url}/api`;
  }
  get gatewayUrl(): string {
    return `ws://127.0.0.1:${this.http.port}/gateway`;
  }

  /** From now on, interactions go to an Interactions Endpoint URL (set `endpoint` on the result). */
  deliverOverHttp(): HttpInteractions {
    this.overHttp = new HttpInteractions((state, answer) => {
      // The answer to the POST is the first response: recorded and applied as the callback route.
      const path = `/interactions/${state.id}/${state.token}/callback`;
      const recorded: RecordedRequest = { method: 'POST', path, query: '', body: answer, files: [], status: 0 };
      this.requests.push(recorded);
      const query = new URLSearchParams();
      recorded.status = route(this.world, { method: 'POST', path, query, body: answer, files: [], authorized: false }, this.url).status;
    });
    return this.overHttp;
  }

  fail(fault: Fault): void {
    this.faults.push({ ...fault, left: fault.times ?? 1 });
  }

  async close(): Promise<void> {
    this.gateway.close();
    await this.http.close();
  }

  // ---- HTTP ----

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', this.url);
    const path = decodeURIComponent(url.pathname).replace(/^\/api\/v10/, '');
    await this.overHttp?.settled(path);
    const { body, files } = discordBody(raw, req.headers['content-type']);
    const recorded: RecordedRequest = { method: req.method ?? 'GET', path, query: url.search, body, files, status: 0 };
    this.requests.push(recorded);
    let answer: HttpAnswer;
    if (!url.pathname.startsWith('/api/v10/')) answer = { status: 404, body: { code: 0, message: '404: Not Found' } };
    else {
      const authorized = req.headers.authorization === `Bot ${this.world.token}`;
      answer =
        this.fault(recorded) ??
        this.gatewayBot(recorded, authorized) ??
        route(this.world, { method: recorded.method, path, query: url.searchParams, body, files, authorized }, this.url);
    }
    recorded.status = answer.status;
    res.writeHead(answer.status, { ...(answer.body === undefined ? {} : { 'content-type': 'application/json' }), ...answer.headers });
    res.end(answer.body === undefined ? undefined : JSON.stringify(answer.body));
  }

  private gatewayBot(r: RecordedRequest, authorized: boolean): HttpAnswer | undefined {
    if (r.method !== 'GET' || r.path !== '/gateway/bot') return undefined;
    if (!authorized) return { status: 401, body: { code: 0, message: '401: Unauthorized' } };
    return {
      status: 200,
      body: {
        url: this.advertisedGateway ?? this.gatewayUrl,
        shards: 1,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
      },
    };
  }

  private fault(r: RecordedRequest): HttpAnswer | undefined {
    const f = this.faults.find((x) => x.left > 0 && x.path.test(r.path) && (!x.method || x.method === r.method));
    if (!f) return undefined;
    f.left--;
    if (f.status === 429) return discordRateLimited(f.retryAfter ?? 1, { global: Boolean(f.global), ...(f.code ? { code: f.code } : {}) });
    return { status: f.status, body: { code: f.code ?? 0, message: f.message ?? `fake error ${f.status}` } };
  }

  // ---- playing a user ----

  private base(type: number, where: Where): { state: InteractionState; payload: Json } {
    const { user, guild } = where;
    const channelId = where.channelId ?? (guild ? (guild.channelIds[0] ?? '') : this.world.dmChannel(user.id).id);
    const channel = this.world.channels.get(channelId);
    if (!channel) throw new Error(`fake: no channel ${channelId}`);
    if (guild && !guild.members.has(user.id)) throw new Error(`fake: ${user.username} is not a member of ${guild.name}`);
    const state: InteractionState = {
      id: this.world.snowflake(),
      token: this.world.interactionToken(),
      type,
      userId: user.id,
      channelId,
      guildId: guild?.id,
      payload: {},
      callbacks: [],
      followupIds: [],
    };
    const payload: Json = {
      id: state.id,
      application_id: this.world.applicationId,
      type,
      token: state.token,
      version: 1,
      locale: user.locale ?? 'en-US',
      entitlements: [],
      app_permissions: String((1n << 53n) - 1n),
      attachment_size_limit: 26_214_400,
      channel: this.world.apiChannel(channel),
      channel_id: channelId,
      ...(guild
        ? {
            guild_id: guild.id,
            guild_locale: 'en-US',
            member: this.world.apiMember(guild, user.id, true),
            context: 0,
            authorizing_integration_owners: where.userInstall ? { '1': user.id } : { '0': guild.id },
          }
        : { user: this.world.apiUser(user), context: 1, authorizing_integration_owners: { '0': user.id } }),
    };
    return { state, payload };
  }

  private send(state: InteractionState, payload: Json): InteractionState {
    state.payload = payload;
    this.world.interactions.set(state.id, state);
    this.world.byToken.set(state.token, state);
    if (this.overHttp) this.overHttp.deliver(state, payload);
    else this.gateway.dispatch('INTERACTION_CREATE', payload);
    return state;
  }

  private registered(where: Where, name: string): Json {
    const scopes = [...(where.guild ? [where.guild.id] : []), 'global'];
    for (const s of scopes)
      for (const c of this.world.commands.get(s)?.values() ?? []) {
        if (c.name !== name) continue;
        const contexts = c.contexts as number[] | null | undefined;
        const installs = c.integration_types as number[] | null | undefined;
        if (where.userInstall && (s !== 'global' || !Array.isArray(installs) || !installs.includes(1)))
          throw new Error(`fake: /${name} is not offered to user installs`);
        if (s === 'global' && Array.isArray(contexts) && !contexts.includes(where.guild ? 0 : 1))
          throw new Error(`fake: /${name} is not offered in ${where.guild ? 'servers' : 'DMs'}`);
        return c;
      }
    throw new Error(`fake: /${name} is not registered for this ${where.guild ? 'server' : 'DM'}`);
  }

  private commandData(where: Where, name: string, values: Record<string, string | number>, focused?: string): Json {
    const command = this.registered(where, name);
    const defs = (command.options ?? []) as Json[];
    const options = Object.entries(values).map(([key, value]) => {
      const def = defs.find((d) => d.name === key);
      if (!def) throw new Error(`fake: /${name} has no option ${key}`);
      if (key === focused) return { name: key, type: def.type, value: String(value), focused: true };
      if (def.type === 10 && (typeof value !== 'number' || (def.min_value !== undefined && value < Number(def.min_value))))
        throw new Error(`fake: Discord would not send ${key}=${value} (min_value ${String(def.min_value)})`);
      return { name: key, type: def.type, value };
    });
    if (!focused)
      for (const d of defs) if (d.required && !(String(d.name) in values)) throw new Error(`fake: Discord requires ${String(d.name)}`);
    return { id: command.id, name, type: 1, options, ...(where.guild ? { guild_id: where.guild.id } : {}) };
  }

  slashCommand(where: Where, name: string, values: Record<string, string | number> = {}): InteractionState {
    const { state, payload } = this.base(2, where);
    return this.send(state, { ...payload, data: this.commandData(where, name, values) });
  }

  /**
   * A message command (context menu, type 3) on a message `author` wrote here: data carries
   * target_id and resolved.messages, as Discord sends them.
   */
  messageCommand(
    where: Where,
    name: string,
    target: { author: FakeUser; content: string; components?: Json[]; flags?: number },
  ): InteractionState {
    const command = this.registered(where, name);
    if (command.type !== 3) throw new Error(`fake: "${name}" is not a message command`);
    const { state, payload } = this.base(2, where);
    const id = this.world.snowflake();
    const message = {
      id,
      type: 0,
      channel_id: payload.channel_id,
      author: this.world.apiUser(target.author),
      content: target.content,
      embeds: [],
      components: target.components ?? [],
      attachments: [],
      mentions: [],
      mention_roles: [],
      mention_everyone: false,
      pinned: false,
      tts: false,
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      flags: target.flags ?? 0,
    };
    return this.send(state, {
      ...payload,
      data: {
        id: command.id,
        name,
        type: 3,
        target_id: id,
        resolved: { messages: { [id]: message } },
        ...(where.guild ? { guild_id: where.guild.id } : {}),
      },
    });
  }

  /** Types into an autocomplete option; resolves with the choices the bot answered. */
  async autocomplete(where: Where, name: string, values: Record<string, string | number>, focused: string): Promise<Json[]> {
    if (!(focused in values)) throw new Error(`fake: the focused option ${focused} needs the partial text typed so far`);
    const { state, payload } = this.base(4, where);
    this.send(state, { ...payload, data: this.commandData(where, name, values, focused) });
    await waitFor(() => state.callbacks[0], `autocomplete answer for ${focused}`);
    return state.choices ?? [];
  }

  private component(where: Where, message: StoredMessage, customId: string, data: Json): InteractionState {
    if (message.deleted) throw new Error('fake: that message was deleted');
    // Rows, or a Components V2 tree (rows inside a container, buttons as a section's accessory).
    const has = (c: Json): boolean =>
      c.custom_id === customId || ((c.components ?? []) as Json[]).some(has) || (c.accessory !== undefined && has(c.accessory as Json));
    const found = ((message.body.components ?? []) as Json[]).some(has);
    if (!found) throw new Error(`fake: no component ${customId} on message ${message.id}`);
    const { state, payload } = this.base(3, { ...where, channelId: message.channelId });
    state.componentMessageId = message.id;
    return this.send(state, { ...payload, message: this.world.apiMessage(message, this.url), data: { custom_id: customId, ...data } });
  }

  pressButton(where: Where, message: StoredMessage, customId: string): InteractionState {
    return this.component(where, message, customId, { component_type: 2 });
  }

  selectOption(where: Where, message: StoredMessage, customId: string, value: string): InteractionState {
    return this.component(where, message, customId, { component_type: 3, values: [value] });
  }

  /** Fills in and submits the modal the bot showed in answer to `shownBy`. */
  submitModal(where: Where, shownBy: InteractionState, value: string): InteractionState {
    const modal = shownBy.modal;
    if (!modal) throw new Error('fake: no modal was shown for that interaction');
    const components = ((modal.components ?? []) as Json[])
      .filter((c) => c.type === 18)
      .map((label, n) => {
        const input = label.component as Json;
        const max = Number(input.max_length ?? 4000);
        if (value.length > max || value.length < Number(input.min_length ?? 0))
          throw new Error(`fake: Discord would not accept ${value.length} characters`);
        return { type: 18, id: n * 2 + 1, component: { type: 4, id: n * 2 + 2, custom_id: input.custom_id, value } };
      });
    const { state, payload } = this.base(5, { ...where, channelId: shownBy.channelId });
    const message = shownBy.componentMessageId ? this.world.messages.get(shownBy.componentMessageId) : undefined;
    state.componentMessageId = message?.id;
    return this.send(state, {
      ...payload,
      ...(message ? { message: this.world.apiMessage(message, this.url) } : {}),
      data: { custom_id: modal.custom_id, components },
    });
  }

  // ---- reading what happened ----

  message(id: string | undefined): StoredMessage {
    const m = id ? this.world.messages.get(id) : undefined;
    if (!m) throw new Error(`fake: no message ${id}`);
    return m;
  }

  /** Messages (not deleted) in a channel, oldest first. */
  messagesIn(channelId: string): StoredMessage[] {
    return [...this.world.messages.values()].filter((m) => m.channelId === channelId && !m.deleted);
  }

  /** Every request that created or edited a message. */
  messageWrites(): RecordedRequest[] {
    return this.requests.filter((r) => {
      if (r.status >= 400) return false;
      if (/^\/channels\/\d+\/messages/.test(r.path) || /^\/webhooks\//.test(r.path)) return r.method === 'POST' || r.method === 'PATCH';
      if (/^\/interactions\//.test(r.path)) return [4, 7].includes(Number((r.body as Json | undefined)?.type));
      return false;
    });
  }
}
