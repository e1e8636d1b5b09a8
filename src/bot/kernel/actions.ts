import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { CoreKeys } from '../../contracts/keys.js';

/**
 * Button actions: short strings, at most 64 UTF-8 bytes (Telegram's callback_data limit; Discord
 * allows 100). An action is a verb and string arguments. Small ones travel inline
 * ("st:<swap id>"); anything longer is stashed in Redis under a short random id ("~<id>") so the
 * limit holds for any input. Actions come back untrusted: decoding never throws, and anything
 * forged, garbled or expired decodes to a failure dispatch turns into "this button has expired".
 */
export interface Action {
  verb: string;
  args: string[];
}

export const MAX_ACTION_BYTES = 64;
const VERB = /^[a-z]{1,6}$/;
const STASH = /^~[A-Za-z0-9_-]{12}$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const utf8Length = (s: string): number => Buffer.byteLength(s, 'utf8');

const escapeArg = (a: string): string => a.replace(/%/g, '%25').replace(/:/g, '%3A');
const unescapeArg = (a: string): string => a.replace(/%(25|3A)/g, (m) => (m === '%25' ? '%' : ':'));

/** The inline form, or undefined when it would not fit (or cannot travel as UTF-8). Pure. */
export function encodeInline(action: Action): string | undefined {
  if (!VERB.test(action.verb)) return undefined;
  if (action.args.some((a) => LONE_SURROGATE.test(a))) return undefined;
  const s = [action.verb, ...action.args.map(escapeArg)].join(':');
  return utf8Length(s) <= MAX_ACTION_BYTES ? s : undefined;
}

/** Parses an inline action; undefined for anything that is not one (stash ids included). Pure. */
export function decodeInline(s: string): Action | undefined {
  if (typeof s !== 'string' || s.length === 0 || utf8Length(s) > MAX_ACTION_BYTES) return undefined;
  const [verb, ...rest] = s.split(':');
  if (verb === undefined || !VERB.test(verb)) return undefined;
  if (rest.some((a) => /%(?!25|3A)/.test(a))) return undefined;
  return { verb, args: rest.map(unescapeArg) };
}

/** An inline action that must fit (fixed verbs with ids): throws only on a programming error. */
export function inlineAction(verb: string, ...args: string[]): string {
  const s = encodeInline({ verb, args });
  if (s === undefined) throw new Error(`action ${verb} does not fit inline`);
  return s;
}

export type DecodedAction = { ok: true; action: Action } | { ok: false };

export class ActionCodec {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly ttlSeconds = 3 * 86_400,
  ) {}

  private key(id: string): string {
    return new CoreKeys(this.keyPrefix).action(id);
  }

  /** Always returns an action of at most 64 bytes: inline when it fits, else stashed. */
  async encode(action: Action): Promise<string> {
    const inline = encodeInline(action);
    if (inline !== undefined) return inline;
    if (!VERB.test(action.verb)) throw new Error(`bad action verb ${JSON.stringify(action.verb)}`);
    const id = randomBytes(9).toString('base64url');
    await this.redis.set(this.key(id), JSON.stringify({ verb: action.verb, args: action.args }), 'EX', this.ttlSeconds);
    return `~${id}`;
  }

  /**
   * A stashed action for a link (a deep-link payload: only A-Z a-z 0-9 _ -), returning its bare
   * id; decode(`~${id}`) reads it back. The id comes from the action itself, so an inline query
   * typed again reuses its key (and renews it) instead of adding one per keystroke.
   */
  async link(action: Action): Promise<string> {
    if (!VERB.test(action.verb)) throw new Error(`bad action verb ${JSON.stringify(action.verb)}`);
    const json = JSON.stringify({ verb: action.verb, args: action.args });
    const id = createHash('sha256').update(json).digest('base64url').slice(0, 12);
    await this.redis.set(this.key(id), json, 'EX', this.ttlSeconds);
    return id;
  }

  async decode(s: unknown): Promise<DecodedAction> {
    if (typeof s !== 'string') return { ok: false };
    if (!STASH.test(s)) {
      const action = decodeInline(s);
      return action ? { ok: true, action } : { ok: false };
    }
    const raw = await this.redis.get(this.key(s.slice(1)));
    if (raw === null) return { ok: false };
    try {
      const v: unknown = JSON.parse(raw);
      if (
        v &&
        typeof v === 'object' &&
        'verb' in v &&
        'args' in v &&
        typeof v.verb === 'string' &&
        VERB.test(v.verb) &&
        Array.isArray(v.args) &&
        v.args.every((a) => typeof a === 'string')
      ) {
        return { ok: true, action: { verb: v.verb, args: v.args as string[] } };
      }
    } catch {
      // Fall through: a stash we cannot read is as good as expired.
    }
    return { ok: false };
  }
}
