import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import type { Json } from '../../fakes/bodies.js';
import type { InteractionState } from './fake-world.js';

/**
 * Discord delivering interactions to an Interactions Endpoint URL (an app with
 * DISCORD_INTERACTIONS=http) instead of the gateway: each one POSTed as JSON, signed with the
 * application's Ed25519 key over X-Signature-Timestamp (unix seconds) + the raw body, and the
 * answer to the POST taken as the interaction's first response (FakeDiscord applies it as the
 * callback route would). Requests on the interaction's webhook wait until that answer is
 * applied: Discord knows the first response before it accepts edits and follow-ups.
 */
export interface PostResult {
  status: number;
  body: Json | undefined;
}

export class HttpInteractions {
  /** The application's public key as the developer portal shows it (hex): DISCORD_PUBLIC_KEY. */
  readonly publicKeyHex: string;
  /** The bot's endpoint (http://…/discord/interactions); set once the web process listens. */
  endpoint = '';
  /** The answer to each interaction's POST, by interaction id. */
  readonly answers = new Map<string, PostResult>();
  private readonly privateKey: KeyObject;
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(private readonly apply: (state: InteractionState, answer: Json) => void) {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    this.publicKeyHex = Buffer.from(String(jwk.x), 'base64url').toString('hex');
  }

  /** Discord's signature of one delivery. */
  sign(timestamp: string, body: string): string {
    return sign(null, Buffer.from(timestamp + body), this.privateKey).toString('hex');
  }

  /**
   * One POST as Discord makes it; `timestamp` defaults to now, `signature` to a good one (null
   * leaves the headers out).
   */
  async post(body: string, opts: { timestamp?: string; signature?: string | null } = {}): Promise<PostResult> {
    const timestamp = opts.timestamp ?? String(Math.floor(Date.now() / 1000));
    const signature = opts.signature === undefined ? this.sign(timestamp, body) : opts.signature;
    const res = await fetch(this.endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Discord-Interactions/1.0 (+https://discord.com)',
        ...(signature === null ? {} : { 'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp }),
      },
      body,
    });
    const text = await res.text();
    let json: Json | undefined;
    try {
      json = text ? (JSON.parse(text) as Json) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, body: json };
  }

  /** Delivers an interaction; its answer becomes the first response. */
  deliver(state: InteractionState, payload: Json): void {
    const done = this.post(JSON.stringify(payload)).then(
      (result) => {
        this.answers.set(state.id, result);
        if (result.status === 200 && result.body) this.apply(state, result.body);
      },
      (error: unknown) => {
        this.answers.set(state.id, { status: 0, body: { error: String(error) } });
      },
    );
    this.inFlight.set(state.token, done);
  }

  /** For a request on /webhooks/{app}/{token}/…: resolves once that interaction's POST was answered. */
  async settled(path: string): Promise<void> {
    const token = /^\/webhooks\/\d+\/([^/]+)/.exec(path)?.[1];
    const pending = token ? this.inFlight.get(token) : undefined;
    if (pending) await pending;
  }
}
