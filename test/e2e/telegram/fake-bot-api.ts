import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallbackQuery, Chat, Message, Update, User, UserFromGetMe } from 'grammy/types';
import { err, ok, type TelegramResult } from '../../fakes/answers.js';
import { telegramPayload, type Json } from '../../fakes/bodies.js';
import { listen, readBody, sendJson, type Listening } from '../../fakes/http.js';
import { EphemeralStore, type EphemeralMessage } from './fake-ephemeral.js';
import { GuestQueries } from './fake-guest.js';
import { MessageStore } from './fake-messages.js';
import { checkMarkup, TELEGRAM_REACTIONS, type StoredMessage } from './fake-rules.js';
import { parseTelegramHtml } from './telegram-html.js';

/**
 * A Telegram Bot API stand-in on 127.0.0.1 (real HTTP; grammY points its apiRoot here). It keeps
 * chats and messages, long-polls getUpdates for real, validates HTML and keyboards as Telegram
 * does, answers scripted errors, refuses to DM users who never opened a private chat, and records
 * every call. Tests drive users through sendText / press.
 */

export interface ApiCall {
  method: string;
  payload: Json;
  /** Date.now() when the request arrived. */
  at: number;
  ok: boolean;
  errorCode?: number;
  description?: string;
  /** sendPhoto: bytes of the uploaded file. */
  photoBytes?: Uint8Array;
  /** Date.now() when the answer went out (unset while held or pending). */
  doneAt?: number;
  /** Never answered (a hanging Telegram). */
  held?: boolean;
}

/** Which requests a hanging Telegram never answers: all, or one method (for one chat). */
export interface HoldRule {
  method?: string;
  chatId?: number;
}

export interface ScriptedError {
  method: string;
  /** Only calls for this chat id. */
  chatId?: number;
  /** Only calls that ask for an ephemeral message (a refusal of those must not hit an ordinary send). */
  ephemeral?: boolean;
  /** How many matching calls get it (default 1). */
  times?: number;
  code: number;
  description: string;
  retryAfter?: number;
}

export class FakeBotApi {
  readonly calls: ApiCall[] = [];
  readonly bot: UserFromGetMe;
  readonly token: string;
  webhook: { url: string; secret?: string; maxConnections?: number } | undefined;
  commands: Array<{ scope: unknown; commands: unknown }> = [];
  private http!: Listening;
  private nextUpdateId = 1000;
  private pending: Update[] = [];
  private poller: { res: ServerResponse; timer: NodeJS.Timeout; offset: number; limit: number } | undefined;
  private readonly chats = new Map<number, Chat>();
  private readonly store: MessageStore;
  private readonly dmOpen = new Set<number>();
  private readonly blocked = new Set<number>();
  /** Groups upgraded to supergroups: old id -> new id. */
  private readonly migrated = new Map<number, number>();
  private nextSupergroup = -1009000000001;
  private readonly members = new Map<string, string>();
  /** Forum topics by chat: message_thread_id -> name. */
  private readonly topics = new Map<number, Map<number, string>>();
  private readonly openQueries = new Set<string>();
  /** Who pressed each open callback query. */
  private readonly queryFrom = new Map<string, number>();
  /** Ephemeral messages (ephemeral_message_parameters), apart from the chats' messages. */
  readonly ephemeral = new EphemeralStore();
  /** Guest mode: mentions in chats the bot is not in, and their answers by guest_query_id. */
  readonly guest = new GuestQueries();
  /** allowed_updates of the last getUpdates that named them: Telegram delivers only those. */
  private allowedUpdates: string[] | undefined;
  /** Inline queries asked and not yet answered; answers by query id. */
  private readonly openInline = new Map<string, { from: User; query: string }>();
  readonly inlineAnswers = new Map<string, { results: Json[]; cache_time?: number; is_personal?: boolean }>();
  /** Messages sent through inline mode, by inline_message_id. */
  readonly inlineMessages = new Map<string, { text: string; html: string; markup?: Json; versions: number }>();
  private scripted: Array<ScriptedError & { left: number }> = [];
  private holds: HoldRule[] = [];
  private lost: Array<HoldRule & { left: number }> = [];
  /** Delay before answering every method but getUpdates (Telegram's round trip). */
  latencyMs = 0;
  private nextQuery = 1;

  private constructor(token: string, username: string) {
    this.token = token;
    this.bot = {
      id: Number(token.split(':')[0]),
      is_bot: true,
      first_name: 'Swap Bot',
      username,
      can_join_groups: true,
      can_read_all_group_messages: false,
      supports_inline_queries: true,
      can_connect_to_business: false,
      has_main_web_app: false,
      has_topics_enabled: false,
      allows_users_to_create_topics: false,
      can_manage_bots: false,
    } as UserFromGetMe;
    this.store = new MessageStore(this.bot);
  }

  /** `port`: a fixed one (a Telegram that becomes reachable where the bot already looks). */
  static async start(opts: { token?: string; username?: string; port?: number } = {}): Promise<FakeBotApi> {
    const fake = new FakeBotApi(opts.token ?? '123456:TEST-token-abcdefghijklmnopqrstuvwxyz', opts.username ?? 'swap_test_bot');
    fake.http = await listen((req, res) => {
      fake.route(req, res).catch((e: unknown) => send(res, err(400, `Bad Request: ${(e as Error).message}`)));
    }, opts);
    return fake;
  }

  get apiRoot(): string {
    return this.http.url;
  }

  async close(): Promise<void> {
    if (this.poller) this.finishPoll();
    await this.http.close();
  }

  // ---- driving users ----

  chat(c: Chat): Chat {
    this.chats.set(c.id, c);
    return c;
  }

  /** The user has pressed Start in a private chat with the bot (without a queued update). */
  openDm(u: User): Chat {
    this.dmOpen.add(u.id);
    return this.privateChat(u);
  }

  privateChat(u: User): Chat {
    return this.chat({ id: u.id, type: 'private', first_name: u.first_name });
  }

  /**
   * A topic in a forum supergroup (`is_forum`): Telegram posts a forum_topic_created service
   * message whose id becomes the topic's message_thread_id. Returns it.
   */
  createTopic(chat: Chat, name: string): number {
    if (chat.type !== 'supergroup' || !(chat as { is_forum?: boolean }).is_forum) throw new Error(`fake: chat ${chat.id} is not a forum`);
    this.chat(chat);
    const id = this.store.newId(chat.id);
    this.store.put({ message_id: id, chat, from: null, versions: [], threadId: id });
    this.topics.set(chat.id, (this.topics.get(chat.id) ?? new Map<number, string>()).set(id, name));
    return id;
  }

  /** A user (or, without `from`, a channel) writes `text` (in a forum topic: `threadId`). Returns the message, queued as an update. */
  sendText(
    chat: Chat,
    from: User | undefined,
    text: string,
    opts: { replyTo?: number; senderChat?: Chat; threadId?: number } = {},
  ): Message {
    this.chat(chat);
    if (opts.threadId !== undefined && !this.topics.get(chat.id)?.has(opts.threadId))
      throw new Error(`fake: no topic ${opts.threadId} in chat ${chat.id}`);
    if (from) this.chat({ id: from.id, type: 'private', first_name: from.first_name });
    if (from && chat.type === 'private') this.dmOpen.add(from.id);
    // Writing to the bot again means the user unblocked it (Telegram's Restart sends /start).
    if (from && chat.type === 'private') this.blocked.delete(from.id);
    const reply = opts.replyTo !== undefined ? this.store.get(chat.id, opts.replyTo) : undefined;
    const msg = {
      message_id: this.store.newId(chat.id),
      date: Math.floor(Date.now() / 1000),
      chat,
      text,
      ...(from ? { from } : {}),
      ...(opts.senderChat ? { sender_chat: opts.senderChat } : {}),
      ...(text.startsWith('/') ? { entities: [{ type: 'bot_command', offset: 0, length: text.split(/\s/)[0]!.length }] } : {}),
      ...(reply ? { reply_to_message: this.store.asMessage(reply) } : {}),
      ...(opts.threadId !== undefined ? { message_thread_id: opts.threadId, is_topic_message: true } : {}),
    } as Message;
    this.store.put({
      message_id: msg.message_id,
      chat,
      from: from ?? null,
      text,
      versions: [],
      ...(opts.threadId !== undefined ? { threadId: opts.threadId } : {}),
    });
    this.pushUpdate((chat.type === 'channel' ? { channel_post: msg } : { message: msg }) as Json);
    return msg;
  }

  /** A user presses a button (any data: tests forge some) on a message. Returns the query id. */
  press(from: User, chatId: number, messageId: number, data: string): string {
    const stored = this.store.get(chatId, messageId);
    if (!stored) throw new Error(`no message ${messageId} in chat ${chatId}`);
    const id = `q${this.nextQuery++}`;
    this.openQueries.add(id);
    this.queryFrom.set(id, from.id);
    const query: CallbackQuery = { id, from, chat_instance: `ci${chatId}`, data, message: this.store.asMessage(stored) } as CallbackQuery;
    this.pushUpdate({ callback_query: query });
    return id;
  }

  /** The receiver presses a button on an ephemeral message (message_id 0, its ephemeral id). Returns the query id. */
  pressEphemeral(m: EphemeralMessage, data: string): string {
    const chat = this.chats.get(m.chatId);
    if (!chat) throw new Error(`fake: no chat ${m.chatId}`);
    const id = `q${this.nextQuery++}`;
    this.openQueries.add(id);
    this.queryFrom.set(id, m.receiverId);
    const from = { id: m.receiverId, is_bot: false, first_name: 'user' };
    const message = {
      message_id: 0,
      ephemeral_message_id: m.ephemeralId,
      receiver_user: from,
      date: Math.floor(Date.now() / 1000),
      chat,
      from: this.bot,
      text: m.text,
      ...(m.markup ? { reply_markup: m.markup } : {}),
    };
    this.pushUpdate({ callback_query: { id, from, chat_instance: `ci${m.chatId}`, data, message } } as Json);
    return id;
  }

  /** A user types `@bot <query>` in some chat. Returns the inline query id. */
  inlineQuery(from: User, query: string): string {
    const id = `iq${this.nextQuery++}`;
    this.openInline.set(id, { from, query });
    this.pushUpdate({ inline_query: { id, from, query, offset: '', chat_type: 'supergroup' } } as Json);
    return id;
  }

  /**
   * The user picks a result of an answered query: Telegram sends its message into the chat (an
   * inline message: the bot is not in that chat) and reports the choice (BotFather
   * /setinlinefeedback). Returns the inline_message_id (set only when the message has buttons).
   */
  chooseInline(from: User, queryId: string, resultId: string): string | undefined {
    const answer = this.inlineAnswers.get(queryId);
    const result = answer?.results.find((r) => r.id === resultId);
    if (!result) throw new Error(`fake: no result ${resultId} for inline query ${queryId}`);
    const content = result.input_message_content as Json;
    const html = String(content.message_text);
    const parsed = parseTelegramHtml(html);
    if (!parsed.ok) throw new Error(parsed.error);
    const inlineId = result.reply_markup ? `im${this.nextQuery++}` : undefined;
    if (inlineId) this.inlineMessages.set(inlineId, { text: parsed.text, html, markup: result.reply_markup as Json, versions: 0 });
    this.pushUpdate({
      chosen_inline_result: { result_id: resultId, from, query: 'hidden', ...(inlineId ? { inline_message_id: inlineId } : {}) },
    } as Json);
    return inlineId;
  }

  /** A user presses a button on an inline message. Returns the callback query id. */
  pressInline(from: User, inlineMessageId: string, data: string): string {
    const id = `q${this.nextQuery++}`;
    this.openQueries.add(id);
    this.pushUpdate({ callback_query: { id, from, chat_instance: '-77001', inline_message_id: inlineMessageId, data } } as Json);
    return id;
  }

  /**
   * A user mentions the bot in a chat it is not a member of (guest mode). Returns the
   * guest_query_id, answered through fake.guest.answers.
   */
  guestMention(from: User, chat: Chat, text: string): string {
    const id = this.guest.newQuery();
    const message = { message_id: 700 + Number(id.slice(2)), date: Math.floor(Date.now() / 1000), chat, from, text, guest_query_id: id };
    this.pushUpdate({ guest_message: message } as Json);
    return id;
  }

  /** Queues an update; returns its update_id. `update_id` given: a redelivery. */
  pushUpdate(body: Json & { update_id?: number }): number {
    const update = { ...body, update_id: body.update_id ?? this.nextUpdateId++ } as Update;
    if (this.deliverable(update)) this.pending.push(update);
    if (this.poller) this.finishPoll();
    return update.update_id;
  }

  private deliverable(u: Update): boolean {
    const kind = Object.keys(u).find((k) => k !== 'update_id');
    return this.allowedUpdates === undefined || (kind !== undefined && this.allowedUpdates.includes(kind));
  }

  setMember(chatId: number, userId: number, status: 'creator' | 'administrator' | 'member' | 'left'): void {
    this.members.set(`${chatId}:${userId}`, status);
  }

  blockBy(userId: number): void {
    this.blocked.add(userId);
  }

  /**
   * A group becomes a supergroup with a new id, as Telegram does: sends to the old id get 400
   * "group chat was upgraded to a supergroup chat" with parameters.migrate_to_chat_id, members
   * keep their status, and (with `announce`) the service messages arrive: migrate_to_chat_id in
   * the old group, migrate_from_chat_id in the new supergroup. Returns the supergroup.
   */
  upgradeGroup(group: Chat, by: User, opts: { announce: boolean }): Chat {
    if (group.type !== 'group') throw new Error(`fake: chat ${group.id} is not a basic group`);
    const supergroup = this.chat({ id: this.nextSupergroup--, type: 'supergroup', title: (group as { title: string }).title } as Chat);
    this.migrated.set(group.id, supergroup.id);
    for (const [key, status] of [...this.members])
      if (key.startsWith(`${group.id}:`)) this.members.set(`${supergroup.id}:${key.split(':')[1]}`, status);
    if (opts.announce) {
      const date = Math.floor(Date.now() / 1000);
      this.pushUpdate({
        message: { message_id: this.store.newId(group.id), date, chat: group, from: by, migrate_to_chat_id: supergroup.id },
      } as Json);
      this.pushUpdate({
        message: { message_id: this.store.newId(supergroup.id), date, chat: supergroup, from: by, migrate_from_chat_id: group.id },
      } as Json);
    }
    return supergroup;
  }

  /** From now on, matching requests hang (no answer until the connection closes). */
  hold(rule: HoldRule = {}): void {
    this.holds.push(rule);
  }

  /**
   * The next `times` matching requests are carried out (a message is sent) but their answers are
   * lost: the connection stays open with no reply, as when Telegram's answer never comes back.
   */
  loseAnswers(rule: HoldRule & { times?: number } = {}): void {
    this.lost.push({ ...rule, left: rule.times ?? 1 });
  }

  /** Answers again from now on (requests already held stay unanswered). */
  releaseHolds(): void {
    this.holds = [];
  }

  failNext(e: ScriptedError): void {
    this.scripted.push({ ...e, left: e.times ?? 1 });
  }

  // ---- inspection ----

  callsTo(method: string): ApiCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** Messages the bot sent in a chat, oldest first. */
  botMessages(chatId: number): StoredMessage[] {
    return [...this.store.all.values()]
      .filter((m) => m.chat.id === chatId && m.fromBot === true)
      .sort((a, b) => a.message_id - b.message_id);
  }

  /** The user deletes a message in their chat: editing it is then "message to edit not found". */
  userDeletes(chatId: number, messageId: number): void {
    this.store.all.delete(`${chatId}:${messageId}`);
  }

  message(chatId: number, messageId: number): StoredMessage | undefined {
    return this.store.get(chatId, messageId);
  }

  // ---- the HTTP side ----

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const m = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec((req.url ?? '').split('?')[0] ?? '');
    const { payload, files } = telegramPayload(await readBody(req), req.headers['content-type']);
    if (!m || m[1] !== this.token) return send(res, err(m ? 401 : 404, m ? 'Unauthorized' : 'Not Found'));
    const method = m[2]!;
    const call: ApiCall = { method, payload, at: Date.now(), ok: true };
    if (files.photo) call.photoBytes = files.photo;
    this.calls.push(call);
    if (
      this.holds.some(
        (h) => (h.method === undefined || h.method === method) && (h.chatId === undefined || Number(payload.chat_id) === h.chatId),
      )
    ) {
      call.held = true;
      return;
    }
    if (this.latencyMs > 0 && method !== 'getUpdates') await new Promise((r) => setTimeout(r, this.latencyMs));
    const result = this.scriptedFor(method, payload) ?? this.dispatch(method, payload, files, res);
    if (result === 'held') return;
    if (!result.ok) Object.assign(call, { ok: false, errorCode: result.error_code, description: result.description });
    const lose = this.lost.find(
      (l) =>
        l.left > 0 && (l.method === undefined || l.method === method) && (l.chatId === undefined || Number(payload.chat_id) === l.chatId),
    );
    if (lose) {
      lose.left -= 1;
      call.held = true;
      return;
    }
    send(res, result);
    call.doneAt = Date.now();
  }

  private scriptedFor(method: string, p: Json): TelegramResult | undefined {
    const s = this.scripted.find(
      (e) =>
        e.left > 0 &&
        e.method === method &&
        (e.chatId === undefined || Number(p.chat_id) === e.chatId) &&
        (e.ephemeral !== true || p.ephemeral_message_parameters !== undefined),
    );
    if (!s) return undefined;
    s.left -= 1;
    return err(s.code, s.description, s.retryAfter);
  }

  private dispatch(method: string, p: Json, files: Record<string, Uint8Array>, res: ServerResponse): TelegramResult | 'held' {
    // An upgraded group takes nothing more, edits and reactions included (members are still read).
    const movedTo = p.chat_id !== undefined && method !== 'getChatMember' ? this.migrated.get(Number(p.chat_id)) : undefined;
    if (movedTo !== undefined)
      return {
        ok: false,
        error_code: 400,
        description: 'Bad Request: group chat was upgraded to a supergroup chat',
        parameters: { migrate_to_chat_id: movedTo },
      };
    switch (method) {
      case 'getMe':
        return ok(this.bot);
      case 'getUpdates':
        return this.getUpdates(p, res);
      case 'deleteWebhook':
        this.webhook = undefined;
        if (p.drop_pending_updates === true) this.pending = [];
        return ok(true);
      case 'setWebhook': {
        // Telegram takes max_connections 1-100 (default 40).
        const max = p.max_connections === undefined ? 40 : Number(p.max_connections);
        if (!Number.isInteger(max) || max < 1 || max > 100) return err(400, 'Bad Request: bad webhook: max_connections must be 1-100');
        this.webhook = {
          url: String(p.url),
          ...(typeof p.secret_token === 'string' ? { secret: p.secret_token } : {}),
          maxConnections: max,
        };
        return ok(true);
      }
      case 'setMyCommands':
        this.commands.push({ scope: p.scope, commands: p.commands });
        return ok(true);
      case 'sendChatAction':
        return ok(true);
      case 'sendMessage':
      case 'sendPhoto': {
        const chat = this.target(p);
        if ('ok' in chat) return chat;
        // message_thread_id: only a topic of a forum supergroup.
        if (p.message_thread_id !== undefined && !this.topics.get(chat.id)?.has(Number(p.message_thread_id)))
          return err(400, 'Bad Request: message thread not found');
        if (p.ephemeral_message_parameters !== undefined)
          return this.ephemeral.send(
            chat,
            p,
            (q) => (this.openQueries.has(q) ? this.queryFrom.get(q) : undefined),
            ['creator', 'administrator'].includes(this.members.get(`${chat.id}:${this.bot.id}`) ?? 'member'),
          );
        return this.store.send(chat, method, p, files);
      }
      case 'setMessageReaction':
        return this.react(p);
      case 'editMessageText':
        if (p.inline_message_id !== undefined) return this.editInline(p);
        return this.store.edit(method, p);
      case 'answerInlineQuery':
        return this.answerInline(p);
      case 'editEphemeralMessageText':
        return this.ephemeral.edit(p);
      case 'answerGuestQuery':
        return this.guest.answer(p);
      case 'editMessageCaption':
      case 'editMessageReplyMarkup':
        return this.store.edit(method, p);
      case 'editMessageMedia':
        return this.store.editMedia(p, files);
      case 'answerCallbackQuery':
        if (!this.openQueries.delete(String(p.callback_query_id)))
          return err(400, 'Bad Request: query is too old and response timeout expired or query ID is invalid');
        return ok(true);
      case 'getChatMember': {
        const chat = this.chats.get(Number(p.chat_id));
        if (!chat) return err(400, 'Bad Request: chat not found');
        const status = this.members.get(`${chat.id}:${Number(p.user_id)}`) ?? 'member';
        return ok({ status, user: { id: Number(p.user_id), is_bot: false, first_name: 'user' } });
      }
      default:
        return err(404, 'Not Found: method not found');
    }
  }

  /** setMessageReaction: a bot sets at most one reaction, from the emoji the Bot API lists. */
  private react(p: Json): TelegramResult {
    const chat = this.chats.get(Number(p.chat_id));
    if (!chat) return err(400, 'Bad Request: chat not found');
    const msg = this.store.get(chat.id, Number(p.message_id));
    if (!msg || (msg.text === undefined && msg.caption === undefined)) return err(400, 'Bad Request: message to react not found');
    const reaction = (p.reaction ?? []) as Json[];
    if (!Array.isArray(reaction)) return err(400, "Bad Request: can't parse reaction types JSON object");
    if (reaction.length > 1) return err(400, 'Bad Request: REACTIONS_TOO_MANY');
    for (const r of reaction)
      if (r.type !== 'emoji' || !TELEGRAM_REACTIONS.has(String(r.emoji))) return err(400, 'Bad Request: REACTION_INVALID');
    msg.reactions = reaction.map((r) => String(r.emoji));
    return ok(true);
  }

  /** Telegram's checks of answerInlineQuery, for the article results this bot sends. */
  private answerInline(p: Json): TelegramResult {
    const id = String(p.inline_query_id);
    if (!this.openInline.delete(id)) return err(400, 'Bad Request: query is too old and response timeout expired or query ID is invalid');
    const results = p.results as Json[] | undefined;
    if (!Array.isArray(results) || results.length > 50) return err(400, 'Bad Request: RESULTS_TOO_MUCH');
    const ids = new Set<string>();
    for (const r of results) {
      const rid = String(r.id ?? '');
      if (rid === '' || Buffer.byteLength(rid) > 64 || ids.has(rid)) return err(400, 'Bad Request: RESULT_ID_INVALID');
      ids.add(rid);
      if (r.type !== 'article' || typeof r.title !== 'string' || r.title === '') return err(400, 'Bad Request: RESULT_TITLE_EMPTY');
      const content = r.input_message_content as Json | undefined;
      const parsed = parseTelegramHtml(String(content?.message_text ?? ''));
      if (!parsed.ok) return err(400, parsed.error);
      if (parsed.text.trim() === '' || parsed.text.length > 4096) return err(400, 'Bad Request: MESSAGE_EMPTY');
      if (r.reply_markup !== undefined && (!('inline_keyboard' in (r.reply_markup as Json)) || checkMarkup(r.reply_markup)))
        return err(400, checkMarkup(r.reply_markup) ?? 'Bad Request: inline keyboard expected');
    }
    const cache = p.cache_time === undefined ? undefined : Number(p.cache_time);
    this.inlineAnswers.set(id, {
      results,
      ...(cache !== undefined ? { cache_time: cache } : {}),
      ...(typeof p.is_personal === 'boolean' ? { is_personal: p.is_personal } : {}),
    });
    return ok(true);
  }

  private editInline(p: Json): TelegramResult {
    const m = this.inlineMessages.get(String(p.inline_message_id));
    if (!m) return err(400, 'Bad Request: MESSAGE_ID_INVALID');
    const html = String(p.text ?? '');
    const parsed = parseTelegramHtml(html);
    if (!parsed.ok) return err(400, parsed.error);
    const markupError = checkMarkup(p.reply_markup);
    if (markupError) return err(400, markupError);
    if (html === m.html && JSON.stringify(p.reply_markup ?? null) === JSON.stringify(m.markup ?? null))
      return err(400, 'Bad Request: message is not modified');
    Object.assign(m, { text: parsed.text, html, markup: p.reply_markup as Json | undefined, versions: m.versions + 1 });
    return ok(true);
  }

  private getUpdates(p: Json, res: ServerResponse): TelegramResult | 'held' {
    if (this.webhook)
      return err(409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first");
    const offset = Number(p.offset ?? 0);
    const limit = Number(p.limit ?? 100);
    const timeout = Number(p.timeout ?? 0);
    if (offset) this.pending = this.pending.filter((u) => u.update_id >= offset);
    // Telegram keeps the last allowed_updates and drops the kinds it does not list.
    const allowed = typeof p.allowed_updates === 'string' ? (JSON.parse(p.allowed_updates) as unknown) : p.allowed_updates;
    if (Array.isArray(allowed) && allowed.length > 0) this.allowedUpdates = allowed.map(String);
    this.pending = this.pending.filter((u) => this.deliverable(u));
    // A newer poller ends the one waiting, as Telegram does.
    if (this.poller) {
      const old = this.poller;
      this.poller = undefined;
      clearTimeout(old.timer);
      send(old.res, err(409, 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running'));
    }
    if (this.pending.length > 0 || timeout <= 0) return ok(this.pending.slice(0, limit));
    const timer = setTimeout(() => this.finishPoll(), timeout * 1000);
    this.poller = { res, timer, offset, limit };
    res.on('close', () => {
      if (this.poller?.res === res) {
        clearTimeout(this.poller.timer);
        this.poller = undefined;
      }
    });
    return 'held';
  }

  private finishPoll(): void {
    const p = this.poller;
    if (!p) return;
    this.poller = undefined;
    clearTimeout(p.timer);
    send(p.res, ok(this.pending.slice(0, p.limit)));
  }

  private target(p: Json): Chat | TelegramResult {
    const id = Number(p.chat_id);
    const chat = this.chats.get(id);
    if (!chat) return err(400, 'Bad Request: chat not found');
    if (chat.type === 'private' && this.blocked.has(id)) return err(403, 'Forbidden: bot was blocked by the user');
    if (chat.type === 'private' && !this.dmOpen.has(id)) return err(403, "Forbidden: bot can't initiate conversation with a user");
    return chat;
  }
}

function send(res: ServerResponse, result: TelegramResult): void {
  sendJson(res, result.ok ? 200 : result.error_code, result);
}
