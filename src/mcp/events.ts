import type { Redis } from 'ioredis';
import { McpKeys } from '../contracts/keys.js';
import type { ChatTarget, MessageRef } from '../contracts/incoming.js';
import type { Messenger } from '../contracts/messenger.js';
import type { Reply } from '../contracts/reply.js';
import type { TrackingRenderer } from '../contracts/tracking.js';
import { phaseOfSwap } from '../layerswap/phase.js';
import type { SwapDetails } from '../layerswap/schemas.js';
import type { WebhookQueue } from './webhook-queue.js';

/**
 * Tracking delivers to an agent key as it does to a chat: the key is a follower of platform 'mcp'
 * (chatId = key id), its notify jobs run the same delivery record (at least once, each moment in
 * order, none twice by the record), and this renderer and messenger turn the card and moments
 * into events instead of chat messages. Each event is published on Redis pub/sub (every process
 * serving /mcp or stdio turns it into notifications/resources/updated on swap://<id> for that key)
 * and, when the key registered a webhook, queued for signed delivery under its event id (a
 * repeated enqueue is absorbed, so the receiver gets each moment once, and drops any retry by id).
 */
export type AgentMomentKind =
  | 'deposit_seen'
  | 'confirmed'
  | 'completed'
  | 'failed'
  | 'expired'
  | 'cancelled'
  | 'pending_refund'
  | 'refunded'
  | 'stuck'
  | 'updated'
  | 'tracking_stopped';

export interface AgentEvent {
  /** Stable per key, swap and moment: the idempotency id receivers drop duplicates by. */
  id: string;
  key_id: string;
  swap_id: string;
  moment: AgentMomentKind;
  status: string;
  phase: string;
  /** The swap reached a final status: this is the last event of its follow. */
  final: boolean;
  at: string;
  resource: string;
}

const FINAL = new Set(['delivered', 'refunded', 'failed', 'expired', 'cancelled']);
const field = (reply: Reply, id: string): string =>
  reply.fields
    ?.find((f) => f.id === id)
    ?.value.map((s) => s.text)
    .join('') ?? '';

/** What tracking renders for an agent: the facts an event needs, in fields with stable ids (no words). */
export const agentRenderer: TrackingRenderer<SwapDetails> = {
  card: (details) => facts('updated', details.swap.id, details.swap.status, phaseOfSwap(details).kind, 0),
  moment: (m, { details }) => facts(m.kind, details.swap.id, details.swap.status, phaseOfSwap(details).kind, m.version),
  stopped: (_reason, swapId) => facts('tracking_stopped', swapId, 'unknown', 'unknown', 0),
};

function facts(kind: string, swapId: string, status: string, phase: string, version: number): Reply {
  const f = (id: string, v: string) => ({ id, name: id, value: [{ kind: 'text' as const, text: v }] });
  return {
    target: 'here',
    lines: [],
    fields: [f('moment', kind), f('swap', swapId), f('status', status), f('phase', phase), f('version', String(version))],
  };
}

export class AgentMessenger implements Messenger {
  readonly platform = 'mcp' as const;
  /** Sends are idempotent by event id (the webhook job id), so a send in doubt is sent again. */
  readonly idempotentSends = true;
  private readonly keys: McpKeys;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly webhooks: WebhookQueue,
    private readonly now: () => number = Date.now,
  ) {
    this.keys = new McpKeys(prefix);
  }

  async send(target: ChatTarget, reply: Reply): Promise<MessageRef> {
    await this.deliver(target.chatId, reply);
    return { platform: 'mcp', chatId: target.chatId, messageId: field(reply, 'swap') };
  }

  async edit(ref: MessageRef, reply: Reply): Promise<MessageRef> {
    await this.deliver(ref.chatId, reply);
    return ref;
  }

  /**
   * A key moment goes to the listeners and the webhook. A card (sent or edited: the swap changed)
   * only tells the listeners, except its first sight of "processing", the deposit's "confirmed".
   */
  private async deliver(keyId: string, reply: Reply): Promise<void> {
    const event = this.eventOf(keyId, reply);
    if (event.moment !== 'updated') return this.emit(event);
    if (event.phase === 'processing') return this.emit({ ...event, moment: 'confirmed', id: `${keyId}.${event.swap_id}.confirmed` });
    return this.publish(event);
  }

  private eventOf(keyId: string, reply: Reply): AgentEvent {
    const swapId = field(reply, 'swap');
    const moment = field(reply, 'moment') as AgentMomentKind;
    const phase = field(reply, 'phase');
    const version = field(reply, 'version');
    return {
      id: `${keyId}.${swapId}.${moment}.${version}`,
      key_id: keyId,
      swap_id: swapId,
      moment,
      status: field(reply, 'status'),
      phase,
      final: moment === 'tracking_stopped' || (FINAL.has(phase) && moment !== 'updated'),
      at: new Date(this.now()).toISOString(),
      resource: `swap://${swapId}`,
    };
  }

  private async emit(event: AgentEvent): Promise<void> {
    await this.webhooks.enqueue(event);
    await this.publish(event);
  }

  private async publish(event: AgentEvent): Promise<void> {
    await this.redis.publish(this.keys.events, JSON.stringify(event));
  }
}
