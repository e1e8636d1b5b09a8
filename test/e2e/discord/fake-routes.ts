import type { HttpAnswer } from '../../fakes/answers.js';
import type { FileRecord, Json } from '../../fakes/bodies.js';
import { apiError, type RouteRequest } from './fake-http.js';
import { deleteCommand, listCommands, patchCommand, postCommand, putCommands } from './fake-commands.js';
import { IS_COMPONENTS_V2, validateChoices, validateMessage, validateModal } from './fake-validate.js';
import type { InteractionState, StoredMessage, World } from './fake-world.js';

/**
 * The REST routes the bot uses, with Discord's semantics where they matter to a bot:
 * - one callback per interaction (40060 otherwise); webhook routes need one first (10015);
 * - type 5 leaves a loading message; the first follow-up while it loads takes its place and its
 *   visibility (Discord's documented backwards-compatible behaviour), later ones choose their own;
 * - DMs to users who closed them: 50007; unknown channel 10003; missing access 50001; unknown
 *   message 10008; invalid payloads 50035 with the reasons;
 * - a channel message may set only the flags Discord lets a sender set (SUPPRESS_EMBEDS,
 *   SUPPRESS_NOTIFICATIONS, IS_VOICE_MESSAGE, IS_COMPONENTS_V2);
 * - the bot's own reaction: PUT …/reactions/{emoji}/@me with the emoji URL-encoded (a unicode
 *   emoji, or name:id of a custom one: unknown ones 10014), 204, idempotent.
 */
const ok = (body: unknown): HttpAnswer => ({ status: 200, body });
const noContent: HttpAnswer = { status: 204 };

type P = [string, string, string];
type Handler = (w: World, r: RouteRequest, p: P, baseUrl: string) => HttpAnswer;

const routes: Array<[string, RegExp, Handler]> = [
  ['GET', /^\/gateway\/bot$/, () => ok(undefined)], // answered by FakeDiscord (it knows its URL)
  ['GET', /^\/users\/@me$/, (w) => ok(w.apiUser(w.bot))],
  ['POST', /^\/users\/@me\/channels$/, createDm],
  ['GET', /^\/applications\/(\d+)\/commands$/, (w, r, p) => listCommands(w, r, p[0], 'global')],
  ['GET', /^\/applications\/(\d+)\/guilds\/(\d+)\/commands$/, (w, r, p) => listCommands(w, r, p[0], p[1])],
  ['PUT', /^\/applications\/(\d+)\/commands$/, (w, r, p) => putCommands(w, r, p[0], 'global')],
  ['PUT', /^\/applications\/(\d+)\/guilds\/(\d+)\/commands$/, (w, r, p) => putCommands(w, r, p[0], p[1])],
  ['POST', /^\/applications\/(\d+)\/commands$/, (w, r, p) => postCommand(w, r, p[0], 'global')],
  ['POST', /^\/applications\/(\d+)\/guilds\/(\d+)\/commands$/, (w, r, p) => postCommand(w, r, p[0], p[1])],
  ['PATCH', /^\/applications\/(\d+)\/commands\/(\d+)$/, (w, r, p) => patchCommand(w, r, p[0], 'global', p[1])],
  ['PATCH', /^\/applications\/(\d+)\/guilds\/(\d+)\/commands\/(\d+)$/, (w, r, p) => patchCommand(w, r, p[0], p[1], p[2])],
  ['DELETE', /^\/applications\/(\d+)\/commands\/(\d+)$/, (w, r, p) => deleteCommand(w, p[0], 'global', p[1])],
  ['DELETE', /^\/applications\/(\d+)\/guilds\/(\d+)\/commands\/(\d+)$/, (w, r, p) => deleteCommand(w, p[0], p[1], p[2])],
  ['POST', /^\/interactions\/(\d+)\/([^/]+)\/callback$/, callback],
  ['POST', /^\/webhooks\/(\d+)\/([^/]+)$/, followup],
  [
    'GET',
    /^\/webhooks\/(\d+)\/([^/]+)\/messages\/(@original|\d+)$/,
    (w, r, p, base) => withWebhookMessage(w, p, base, (msg) => ok(w.apiMessage(msg, base))),
  ],
  ['PATCH', /^\/webhooks\/(\d+)\/([^/]+)\/messages\/(@original|\d+)$/, editWebhookMessage],
  [
    'DELETE',
    /^\/webhooks\/(\d+)\/([^/]+)\/messages\/(@original|\d+)$/,
    (w, r, p, base) => withWebhookMessage(w, p, base, (msg) => ((msg.deleted = true), noContent)),
  ],
  ['POST', /^\/channels\/(\d+)\/messages$/, createChannelMessage],
  ['PATCH', /^\/channels\/(\d+)\/messages\/(\d+)$/, editChannelMessage],
  ['PUT', /^\/channels\/(\d+)\/messages\/(\d+)\/reactions\/([^/]+)\/@me$/, addOwnReaction],
  ['GET', /^\/guilds\/(\d+)\/roles$/, guildRoles],
];

/** SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_VOICE_MESSAGE | IS_COMPONENTS_V2. */
const SETTABLE_FLAGS = (1 << 2) | (1 << 12) | (1 << 13) | (1 << 15);

export function route(w: World, r: RouteRequest, baseUrl: string): HttpAnswer {
  for (const [method, pattern, handler] of routes) {
    const m = r.path.match(pattern);
    if (!m || method !== r.method) continue;
    const p: P = [m[1] ?? '', m[2] ?? '', m[3] ?? ''];
    const needsBotAuth = !r.path.startsWith('/interactions/') && !r.path.startsWith('/webhooks/');
    if (needsBotAuth && !r.authorized) return apiError(401, 0, '401: Unauthorized');
    return handler(w, r, p, baseUrl);
  }
  return apiError(404, 0, '404: Not Found');
}

// ---- messages ----

function newMessage(w: World, channelId: string, body: Json, files: FileRecord[], opts: Partial<StoredMessage> = {}): StoredMessage {
  const channel = w.channels.get(channelId);
  const m: StoredMessage = {
    id: w.snowflake(),
    channelId,
    guildId: channel?.guildId,
    body: {},
    attachments: [],
    ephemeral: false,
    loading: false,
    deleted: false,
    history: [],
    reactions: [],
    ...opts,
  };
  applyBody(w, m, body, files);
  w.messages.set(m.id, m);
  return m;
}

/** Applies a create/edit body: attachments replaced when the body lists them, kept otherwise. */
function applyBody(w: World, m: StoredMessage, body: Json, files: FileRecord[]): void {
  const { attachments, ...rest } = body;
  m.body = { ...m.body, ...rest };
  if (Array.isArray(attachments)) {
    m.attachments = (attachments as Json[]).flatMap((a) => {
      const file = files.find((f) => f.field === `files[${String(a.id)}]`);
      if (file)
        return [
          {
            id: w.snowflake(),
            filename: String(a.filename ?? file.filename),
            size: file.bytes.length,
            bytes: file.bytes,
            description: a.description as string | undefined,
          },
        ];
      const kept = m.attachments.find((old) => old.id === a.id);
      return kept ? [kept] : [];
    });
  }
  m.loading = false;
  m.history.push(structuredClone(m.body));
}

function invalid(body: Json, files: FileRecord[], m?: StoredMessage): HttpAnswer | undefined {
  const names = [...files.map((f) => f.filename), ...(m?.attachments.map((a) => a.filename) ?? [])];
  const merged = m ? { ...m.body, ...body } : body;
  const problems = validateMessage(merged, names);
  // Discord: once sent with IS_COMPONENTS_V2 a message keeps it; an edit cannot remove the flag.
  if (
    m &&
    (Number(m.body.flags ?? 0) & IS_COMPONENTS_V2) !== 0 &&
    body.flags !== undefined &&
    (Number(body.flags) & IS_COMPONENTS_V2) === 0
  )
    problems.push('flags: IS_COMPONENTS_V2 cannot be removed from a message');
  return problems.length ? apiError(400, 50035, 'Invalid Form Body', problems) : undefined;
}

function createDm(w: World, r: RouteRequest): HttpAnswer {
  const recipient = String((r.body as Json | undefined)?.recipient_id ?? '');
  if (!w.users.has(recipient)) return apiError(404, 10013, 'Unknown User');
  return ok(w.apiChannel(w.dmChannel(recipient)));
}

function sendable(w: World, channelId: string): HttpAnswer | undefined {
  const channel = w.channels.get(channelId);
  if (!channel) return apiError(404, 10003, 'Unknown Channel');
  if (channel.missingAccess || !w.botIn(channel)) return apiError(403, 50001, 'Missing Access');
  if (channel.type === 1 && w.users.get(channel.recipientId ?? '')?.dmClosed)
    return apiError(403, 50007, 'Cannot send messages to this user');
  return undefined;
}

function createChannelMessage(w: World, r: RouteRequest, p: P, base: string): HttpAnswer {
  const refused = sendable(w, p[0]);
  if (refused) return refused;
  const body = (r.body ?? {}) as Json;
  const flags = Number(body.flags ?? 0);
  if (!Number.isInteger(flags) || (flags & ~SETTABLE_FLAGS) !== 0)
    return apiError(400, 50035, 'Invalid Form Body', [
      'flags: only SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, IS_VOICE_MESSAGE and IS_COMPONENTS_V2 can be set',
    ]);
  const bad = invalid(body, r.files);
  if (bad) return bad;
  return ok(w.apiMessage(newMessage(w, p[0], body, r.files), base));
}

function editChannelMessage(w: World, r: RouteRequest, p: P, base: string): HttpAnswer {
  const refused = sendable(w, p[0]);
  if (refused) return refused;
  const msg = w.messages.get(p[1]);
  if (!msg || msg.deleted || msg.ephemeral || msg.channelId !== p[0]) return apiError(404, 10008, 'Unknown Message');
  const body = (r.body ?? {}) as Json;
  const bad = invalid(body, r.files, msg);
  if (bad) return bad;
  applyBody(w, msg, body, r.files);
  return ok(w.apiMessage(msg, base));
}

function addOwnReaction(w: World, r: RouteRequest, p: P): HttpAnswer {
  const refused = sendable(w, p[0]);
  if (refused) return refused;
  const msg = w.messages.get(p[1]);
  if (!msg || msg.deleted || msg.ephemeral || msg.channelId !== p[0]) return apiError(404, 10008, 'Unknown Message');
  // The path arrives decoded: a unicode emoji has no ASCII letters; a custom one is name:id (none exist here).
  if (/^[ -~]*$/.test(p[2]) || p[2].includes(':')) return apiError(400, 10014, 'Unknown Emoji');
  if (!msg.reactions.includes(p[2])) msg.reactions.push(p[2]);
  return noContent;
}

/** A server's roles, for a bot that is a member (Unknown Guild otherwise). */
function guildRoles(w: World, r: RouteRequest, p: P): HttpAnswer {
  const guild = w.guilds.get(p[0]);
  if (!guild || !guild.members.has(w.bot.id)) return apiError(404, 10004, 'Unknown Guild');
  return ok(w.guildCreate(guild).roles);
}

// ---- interactions ----

function interactionFor(w: World, token: string): InteractionState | undefined {
  return w.byToken.get(token);
}

function callback(w: World, r: RouteRequest, p: P, base: string): HttpAnswer {
  const it = interactionFor(w, p[1]);
  if (!it || it.id !== p[0]) return apiError(404, 10062, 'Unknown interaction');
  if (it.callbacks.length) return apiError(400, 40060, 'Interaction has already been acknowledged.');
  const { type, data } = (r.body ?? {}) as { type: number; data?: Json };
  const flags = Number(data?.flags ?? 0);
  const component = it.type === 3 || (it.type === 5 && it.componentMessageId);
  switch (type) {
    case 4: {
      const bad = invalid(data ?? {}, r.files);
      if (bad) return bad;
      it.originalId = newMessage(w, it.channelId, data ?? {}, r.files, { ephemeral: (flags & 64) !== 0, interactionId: it.id }).id;
      break;
    }
    case 5:
      if (it.type !== 2 && it.type !== 5 && it.type !== 3)
        return apiError(400, 50035, 'Invalid Form Body', ['type: not valid for this interaction']);
      it.originalId = newMessage(w, it.channelId, {}, [], { ephemeral: (flags & 64) !== 0, interactionId: it.id, loading: true }).id;
      (w.messages.get(it.originalId) as StoredMessage).loading = true;
      break;
    case 6:
    case 7: {
      if (!component) return apiError(400, 50035, 'Invalid Form Body', ['type: only for component interactions']);
      it.originalId = it.componentMessageId;
      if (type === 7) {
        const msg = w.messages.get(it.componentMessageId as string) as StoredMessage;
        const bad = invalid(data ?? {}, r.files, msg);
        if (bad) return bad;
        applyBody(w, msg, data ?? {}, r.files);
      }
      break;
    }
    case 8: {
      if (it.type !== 4) return apiError(400, 50035, 'Invalid Form Body', ['type: only for autocomplete']);
      const choices = (data?.choices ?? []) as Json[];
      const problems = validateChoices(choices);
      if (problems.length) return apiError(400, 50035, 'Invalid Form Body', problems);
      it.choices = choices;
      break;
    }
    case 9: {
      if (it.type === 5 || it.type === 4)
        return apiError(400, 50035, 'Invalid Form Body', ['type: a modal cannot answer this interaction']);
      const problems = validateModal(data ?? {});
      if (problems.length) return apiError(400, 50035, 'Invalid Form Body', problems);
      it.modal = data;
      break;
    }
    default:
      return apiError(400, 50035, 'Invalid Form Body', [`type: ${type} unsupported`]);
  }
  it.callbacks.push({ type, ...(data ? { data } : {}) });
  if (r.query.get('with_response') === 'true') {
    const msg = it.originalId ? w.messages.get(it.originalId) : undefined;
    return ok({ interaction: { id: it.id, type: it.type }, resource: { type, ...(msg ? { message: w.apiMessage(msg, base) } : {}) } });
  }
  return noContent;
}

function webhookInteraction(w: World, app: string, token: string): InteractionState | HttpAnswer {
  const it = interactionFor(w, token);
  if (!it || app !== w.applicationId || it.callbacks.length === 0 || [8, 9].includes(it.callbacks[0]?.type ?? 0))
    return apiError(404, 10015, 'Unknown Webhook');
  return it;
}

function withWebhookMessage(w: World, p: P, base: string, act: (msg: StoredMessage, it: InteractionState) => HttpAnswer): HttpAnswer {
  const it = webhookInteraction(w, p[0], p[1]);
  if (!('token' in it)) return it;
  const id = p[2] === '@original' ? it.originalId : p[2];
  const msg = id ? w.messages.get(id) : undefined;
  const ours = msg && (msg.id === it.originalId || it.followupIds.includes(msg.id));
  if (!msg || msg.deleted || !ours) return apiError(404, 10008, 'Unknown Message');
  return act(msg, it);
}

function editWebhookMessage(w: World, r: RouteRequest, p: P, base: string): HttpAnswer {
  return withWebhookMessage(w, p, base, (msg) => {
    const body = { ...((r.body ?? {}) as Json) };
    delete body.flags; // visibility is fixed by the first response
    const bad = invalid(body, r.files, msg);
    if (bad) return bad;
    applyBody(w, msg, body, r.files);
    return ok(w.apiMessage(msg, base));
  });
}

function followup(w: World, r: RouteRequest, p: P, base: string): HttpAnswer {
  const it = webhookInteraction(w, p[0], p[1]);
  if (!('token' in it)) return it;
  const body = { ...((r.body ?? {}) as Json) };
  const original = it.originalId ? w.messages.get(it.originalId) : undefined;
  if (original?.loading && !original.deleted) {
    // Discord: a follow-up sent while the deferred response still loads resolves it, keeping its visibility.
    delete body.flags;
    const bad = invalid(body, r.files, original);
    if (bad) return bad;
    applyBody(w, original, body, r.files);
    return ok(w.apiMessage(original, base));
  }
  const bad = invalid(body, r.files);
  if (bad) return bad;
  const msg = newMessage(w, it.channelId, body, r.files, { ephemeral: (Number(body.flags ?? 0) & 64) !== 0, interactionId: it.id });
  it.followupIds.push(msg.id);
  return ok(w.apiMessage(msg, base));
}
