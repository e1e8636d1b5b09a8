import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { McpKeys } from '../contracts/keys.js';

/**
 * Agents' bearer keys. The secret is shown once, at creation, and stored only as its sha-256: a
 * Redis dump gives nobody a key. Each key carries its caps (USD per swap above which a person
 * approves, swaps per UTC day) and, once the agent registers one, a webhook URL and its signing
 * secret (kept, since signing needs it). A key sees only the swaps in its own set.
 */
export interface AgentKey {
  id: string;
  label: string;
  createdAt: number;
  /** Above this (USD) create_swap asks a person to approve in their chat; undefined: no threshold. */
  maxUsdPerSwap?: number;
  /** Swaps this key may create per UTC day; undefined: no cap. */
  maxSwapsPerDay?: number;
  webhookUrl?: string;
  webhookSecret?: string;
}

/** The part of a secret after which nothing is shown again: `sbk_<id>_<random>`. */
const SECRET = /^sbk_([a-f0-9]{12})_[A-Za-z0-9_-]{43}$/;

const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

const numOrUndefined = (v: string | undefined): number | undefined => (v === undefined || v === '' ? undefined : Number(v));

export class AgentKeyStore {
  readonly keys: McpKeys;
  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly now: () => number = Date.now,
  ) {
    this.keys = new McpKeys(prefix);
  }

  /** A new key; its secret is returned here and nowhere else. */
  async create(label: string, caps: { maxUsdPerSwap?: number; maxSwapsPerDay?: number }): Promise<{ key: AgentKey; secret: string }> {
    const id = randomBytes(6).toString('hex');
    const secret = `sbk_${id}_${randomBytes(32).toString('base64url')}`;
    const hash = hashSecret(secret);
    const key: AgentKey = { id, label, createdAt: this.now(), ...caps };
    await this.redis.multi().hset(this.keys.key(hash), flatten(key)).hset(this.keys.ids, id, hash).exec();
    return { key, secret };
  }

  /** The key a bearer secret names, or undefined (unknown, revoked or malformed: never said which). */
  async verify(secret: string | undefined): Promise<AgentKey | undefined> {
    if (!secret || !SECRET.test(secret)) return undefined;
    const raw = await this.redis.hgetall(this.keys.key(hashSecret(secret)));
    return raw.id ? unflatten(raw) : undefined;
  }

  async byId(id: string): Promise<AgentKey | undefined> {
    const hash = await this.redis.hget(this.keys.ids, id);
    if (!hash) return undefined;
    const raw = await this.redis.hgetall(this.keys.key(hash));
    return raw.id ? unflatten(raw) : undefined;
  }

  async list(): Promise<AgentKey[]> {
    const ids = await this.redis.hkeys(this.keys.ids);
    const all = await Promise.all(ids.map((id) => this.byId(id)));
    return all.filter((k): k is AgentKey => k !== undefined).sort((a, b) => a.createdAt - b.createdAt);
  }

  /** True when there was such a key. Its swaps stay followed by the chats that follow them. */
  async revoke(id: string): Promise<boolean> {
    const hash = await this.redis.hget(this.keys.ids, id);
    if (!hash) return false;
    await this.redis.multi().del(this.keys.key(hash)).hdel(this.keys.ids, id).exec();
    return true;
  }

  /** Changes a key's caps (`null` removes one). */
  async setCaps(id: string, caps: { maxUsdPerSwap?: number | null; maxSwapsPerDay?: number | null }): Promise<AgentKey | undefined> {
    const hash = await this.redis.hget(this.keys.ids, id);
    if (!hash) return undefined;
    for (const [field, v] of Object.entries(caps)) {
      if (v === null) await this.redis.hdel(this.keys.key(hash), field);
      else if (v !== undefined) await this.redis.hset(this.keys.key(hash), field, String(v));
    }
    return this.byId(id);
  }

  /** Registers (or replaces) the key's webhook; the new signing secret is returned once. */
  async setWebhook(id: string, url: string): Promise<string | undefined> {
    const hash = await this.redis.hget(this.keys.ids, id);
    if (!hash) return undefined;
    const webhookSecret = `whsec_${randomBytes(24).toString('base64url')}`;
    await this.redis.hset(this.keys.key(hash), { webhookUrl: url, webhookSecret });
    return webhookSecret;
  }

  /** The swap is this key's: only then may the key read, follow or be told about it. */
  async own(keyId: string, swapId: string): Promise<void> {
    await this.redis.zadd(this.keys.swaps(keyId), this.now(), swapId);
  }

  async owns(keyId: string, swapId: string): Promise<boolean> {
    return (await this.redis.zscore(this.keys.swaps(keyId), swapId)) !== null;
  }

  /** Takes one swap of today's allowance; false (and nothing taken) when the cap is reached. */
  async takeDaily(key: AgentKey): Promise<{ ok: boolean; used: number }> {
    const k = this.keys.day(key.id, utcDay(this.now()));
    const used = await this.redis.incr(k);
    if (used === 1) await this.redis.expire(k, 2 * 86_400);
    if (key.maxSwapsPerDay !== undefined && used > key.maxSwapsPerDay) {
      await this.redis.decr(k);
      return { ok: false, used: used - 1 };
    }
    return { ok: true, used };
  }

  /** Gives back a swap of today's allowance (the service refused the create). */
  async returnDaily(key: AgentKey): Promise<void> {
    await this.redis.decr(this.keys.day(key.id, utcDay(this.now())));
  }
}

const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

function flatten(k: AgentKey): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [f, v] of Object.entries(k)) if (v !== undefined) out[f] = String(v);
  return out;
}

function unflatten(raw: Record<string, string>): AgentKey {
  const maxUsd = numOrUndefined(raw.maxUsdPerSwap);
  const maxDay = numOrUndefined(raw.maxSwapsPerDay);
  return {
    id: raw.id ?? '',
    label: raw.label ?? '',
    createdAt: Number(raw.createdAt ?? 0),
    ...(maxUsd !== undefined ? { maxUsdPerSwap: maxUsd } : {}),
    ...(maxDay !== undefined ? { maxSwapsPerDay: maxDay } : {}),
    ...(raw.webhookUrl ? { webhookUrl: raw.webhookUrl } : {}),
    ...(raw.webhookSecret ? { webhookSecret: raw.webhookSecret } : {}),
  };
}
