import type { RESTOptions } from 'discord.js';
import { MessageFlags } from 'discord.js';

/**
 * Interactions over HTTP (DISCORD_INTERACTIONS=http): Discord takes the first response to an
 * interaction as the answer to its POST, not as a call to /interactions/{id}/{token}/callback.
 * The same discord.js code serves both paths: this wraps the REST client's makeRequest and turns
 * that callback into the HTTP answer, so reply(), deferReply(), update(), showModal() and
 * respond() work unchanged. Everything after the first response (edits of @original, follow-ups,
 * DMs) goes over REST as it does on the gateway path.
 *
 * - The first callback of an interaction this process is answering becomes the HTTP answer; the
 *   REST call resolves once that answer is written, so an edit or follow-up never overtakes it.
 * - A message with files cannot ride in the answer: it is deferred (same visibility) and the
 *   message, files and all, becomes the edit of @original.
 * - When nothing answered within the deadline, the deadline answers: a deferral (ephemeral, so
 *   nothing private can end up in the channel), an unchanged component message, or no choices.
 *   A later reply or update then edits @original; a later deferral is a no-op; a modal or
 *   autocomplete answer fails as Discord would fail it (40060).
 * The waiting map holds only interactions whose POST is open on this replica: nothing to share.
 */

/** An interaction response as Discord reads it in the HTTP answer. */
export interface InteractionAnswer {
  type: number;
  data?: Record<string, unknown>;
}

/** The raw interaction fields this file reads. */
export interface RawInteraction {
  id: string;
  type: number;
  message?: unknown;
}

type MakeRequest = NonNullable<RESTOptions['makeRequest']>;
type RequestInit = Parameters<MakeRequest>[1];
type ResponseLike = Awaited<ReturnType<MakeRequest>>;

const CALLBACK = /^(.*)\/interactions\/(\d+)\/([^/?]+)\/callback(?:\?.*)?$/;

/** Interaction response types (Discord's numbering). */
const Respond = { Message: 4, Deferred: 5, DeferredUpdate: 6, Update: 7, Choices: 8 } as const;

interface Waiting {
  /** Writes the HTTP answer (once); resolves when it is on the wire. */
  answer(a: InteractionAnswer): Promise<void>;
}

export class HttpCallbacks {
  private readonly waiting = new Map<string, Waiting>();

  constructor(
    private readonly base: MakeRequest,
    private readonly applicationId: string,
  ) {}

  /** The makeRequest for discord.js's REST client. */
  readonly makeRequest: MakeRequest = (url, init) => {
    const m = CALLBACK.exec(url);
    return m ? this.intercept(m[1] ?? '', m[2] ?? '', m[3] ?? '', init) : this.base(url, init);
  };

  /**
   * One interaction that arrived as a POST: `dispatch` hands it to the handlers, `write` writes
   * the HTTP answer. Within `deadlineMs` the first response the handlers make is the answer, or
   * the deadline's own (see above).
   */
  receive(payload: RawInteraction, write: (a: InteractionAnswer) => Promise<void>, dispatch: () => void, deadlineMs: number): void {
    const timer = setTimeout(() => {
      if (this.waiting.get(payload.id) === waiting) void waiting.answer(deadlineAnswer(payload)).catch(() => undefined);
    }, deadlineMs);
    const waiting: Waiting = {
      answer: (a) => {
        clearTimeout(timer);
        this.waiting.delete(payload.id);
        return write(a);
      },
    };
    this.waiting.set(payload.id, waiting);
    try {
      dispatch();
    } catch (error) {
      void waiting.answer(deadlineAnswer(payload)).catch(() => undefined);
      throw error;
    }
  }

  private async intercept(root: string, id: string, token: string, init: RequestInit): Promise<ResponseLike> {
    const { answer, files } = await readCallback(init.body);
    const waiting = this.waiting.get(id);
    if (waiting) {
      if (files.length === 0) {
        await waiting.answer(answer);
        return noContent();
      }
      const ephemeral = Number(answer.data?.flags ?? 0) & MessageFlags.Ephemeral;
      await waiting.answer(
        answer.type === Respond.Update
          ? { type: Respond.DeferredUpdate }
          : { type: Respond.Deferred, ...(ephemeral ? { data: { flags: ephemeral } } : {}) },
      );
      return this.editOriginal(root, token, answer.data ?? {}, files, init);
    }
    // Answered already (by the deadline): what can still be said edits @original.
    switch (answer.type) {
      case Respond.Message:
      case Respond.Update:
        return this.editOriginal(root, token, answer.data ?? {}, files, init);
      case Respond.Deferred:
      case Respond.DeferredUpdate:
        return noContent();
      default:
        return jsonResponse(400, { code: 40060, message: 'Interaction has already been acknowledged.' });
    }
  }

  /** PATCH /webhooks/{app}/{token}/messages/@original with this message (visibility is the first response's). */
  private editOriginal(root: string, token: string, data: Record<string, unknown>, files: File[], init: RequestInit) {
    const flags = Number(data.flags ?? 0) & ~MessageFlags.Ephemeral;
    const body = { ...data, ...(data.flags !== undefined ? { flags } : {}) };
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries((init.headers ?? {}) as Record<string, string>))
      if (!/^content-(type|length)$/i.test(k)) headers[k] = v;
    let payload: string | FormData;
    if (files.length) {
      payload = new FormData();
      for (const f of files) payload.append(f.key, f.file, f.file.name);
      payload.append('payload_json', JSON.stringify(body));
    } else {
      payload = JSON.stringify(body);
      headers['Content-Type'] = 'application/json';
    }
    const url = `${root}/webhooks/${this.applicationId}/${token}/messages/@original`;
    return this.base(url, { ...init, method: 'PATCH', headers, body: payload });
  }
}

interface File {
  key: string;
  file: Blob & { name: string };
}

/** The callback body discord.js built: JSON, or multipart (payload_json and files[n]). */
async function readCallback(body: RequestInit['body']): Promise<{ answer: InteractionAnswer; files: File[] }> {
  if (typeof body === 'string') return { answer: JSON.parse(body) as InteractionAnswer, files: [] };
  if (body instanceof FormData) {
    const files: File[] = [];
    let answer: InteractionAnswer = { type: 0 };
    for (const [key, value] of body.entries()) {
      if (typeof value === 'string') {
        if (key === 'payload_json') answer = JSON.parse(value) as InteractionAnswer;
      } else files.push({ key, file: value as Blob & { name: string } });
    }
    return { answer, files };
  }
  throw new Error('discord: an interaction response in an unexpected shape');
}

/** What the deadline answers for an interaction nobody answered in time. */
function deadlineAnswer(payload: RawInteraction): InteractionAnswer {
  if (payload.type === 4) return { type: Respond.Choices, data: { choices: [] } };
  // A component, or a form sent from a message's button: the message stays as it is.
  if (payload.type === 3 || (payload.type === 5 && payload.message)) return { type: Respond.DeferredUpdate };
  return { type: Respond.Deferred, data: { flags: MessageFlags.Ephemeral } };
}

function noContent(): ResponseLike {
  return new Response(null, { status: 204 });
}

function jsonResponse(status: number, body: unknown): ResponseLike {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
