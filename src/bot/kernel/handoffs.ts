import type { Redis } from 'ioredis';
import { McpKeys } from '../../contracts/keys.js';
import type { Route } from './route.js';

/**
 * Hand-offs from an agent (src/mcp) to a person's private chat, opened by the deep link
 * `ag_<token>` (bot/handoff.ts answers it): a swap the agent created, or one to approve. Stored
 * here, in the kernel, since the context carries the store and the agent surface writes it.
 */
export const HANDOFF_PREFIX = 'ag_';
const HANDOFF_TTL_S = 7 * 86_400;

export type Handoff =
  | { kind: 'swap'; keyId: string; swapId: string; route: Route; refund: string | null; createdAt: number }
  | {
      kind: 'approve';
      keyId: string;
      /** The draft id (8 characters, as every draft's) the wizard creates with: the created swap is found by it (DraftStore.createdSwap). */
      draftId: string;
      route: Route;
      destinationAddress: string;
      refundAddress?: string;
      /** What the agent asked about refuel: the person is not asked again. */
      refuel: boolean;
      createdAt: number;
    };

export class HandoffStore {
  private readonly keys: McpKeys;
  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.keys = new McpKeys(prefix);
  }

  async put(token: string, h: Handoff): Promise<void> {
    await this.redis.set(this.keys.handoff(token), JSON.stringify(h), 'EX', HANDOFF_TTL_S);
  }

  async get(token: string): Promise<Handoff | undefined> {
    const raw = await this.redis.get(this.keys.handoff(token));
    return raw ? (JSON.parse(raw) as Handoff) : undefined;
  }

  /** The first opener owns the link; true for them (again on later opens), false for anyone else. */
  async claim(token: string, owner: string): Promise<boolean> {
    const k = `${this.keys.handoff(token)}:owner`;
    const set = await this.redis.set(k, owner, 'EX', HANDOFF_TTL_S, 'NX');
    return set === 'OK' || (await this.redis.get(k)) === owner;
  }
}
