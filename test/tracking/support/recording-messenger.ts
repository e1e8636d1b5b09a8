import type { ChatTarget, MessageRef, Platform } from '../../../src/contracts/incoming.js';
import {
  DeliveryError,
  type DeliveryFailure,
  type Messenger,
  type RateLimitScope,
  type SendOptions,
} from '../../../src/contracts/messenger.js';
import type { Reply } from '../../../src/contracts/reply.js';

/**
 * A Messenger test double that records every message it "delivers", in order, and can be told to
 * answer like a platform in trouble: 429 with a wait, or a chat that is gone (403).
 */

export interface Recorded {
  op: 'send' | 'edit' | 'react';
  platform: Platform;
  chatId: string;
  messageId: string;
  reply: Reply;
  /** Real time of the delivery. */
  at: number;
  /** Sent without sound (quiet hours, a muted swap). */
  silent?: boolean;
  /** The forum topic it went to. */
  threadId?: string;
  /** For op 'react': the emoji. */
  emoji?: string;
}

export interface Fault {
  failure: DeliveryFailure;
  retryAfterMs?: number;
  /** For rate_limited: a per-chat limit (default) or the platform's global one. */
  scope?: RateLimitScope;
  /** Only for this chat; any chat when absent. */
  chatId?: string;
  /** How many calls get it; forever when absent. */
  count?: number;
  /** Only for this kind of call (e.g. a chat that refuses reactions); any when absent. */
  op?: Recorded['op'];
}

export class RecordingMessenger implements Messenger {
  readonly log: Recorded[] = [];
  /** Refused calls: when and why (for asserting waits were obeyed). */
  readonly refusals: Array<{ chatId: string; failure: DeliveryFailure; at: number; retryAfterMs?: number }> = [];
  /** When each call started (a held call is recorded only once released). */
  readonly started: Array<{ chatId: string; at: number }> = [];
  /** While set, every call waits for it: a delivery caught in flight, without a timer. */
  private gate: Promise<void> | undefined;
  private readonly faults: Fault[] = [];
  private next = 1;

  constructor(readonly platform: Platform) {}

  fail(fault: Fault): void {
    this.faults.push({ ...fault });
  }

  private check(chatId: string, op: Recorded['op']): void {
    const f = this.faults.find(
      (x) => (x.count === undefined || x.count > 0) && (!x.chatId || x.chatId === chatId) && (!x.op || x.op === op),
    );
    if (!f) return;
    if (f.count !== undefined) f.count--;
    this.refusals.push({
      chatId,
      failure: f.failure,
      at: Date.now(),
      ...(f.retryAfterMs !== undefined ? { retryAfterMs: f.retryAfterMs } : {}),
    });
    throw new DeliveryError(this.platform, f.failure, `test platform says ${f.failure}`, {
      ...(f.retryAfterMs !== undefined ? { retryAfterMs: f.retryAfterMs } : {}),
      ...(f.scope ? { scope: f.scope } : {}),
    });
  }

  /** Holds every call from now until the returned release() is called. */
  hold(): () => void {
    let release = (): void => undefined;
    this.gate = new Promise<void>((r) => (release = r));
    return () => {
      this.gate = undefined;
      release();
    };
  }

  /** The platform is back: every fault still pending is dropped. */
  heal(): void {
    this.faults.length = 0;
  }

  private async begin(chatId: string, op: Recorded['op']): Promise<void> {
    this.started.push({ chatId, at: Date.now() });
    if (this.gate) await this.gate;
    this.check(chatId, op);
  }

  async send(target: ChatTarget, reply: Reply, options: SendOptions = {}): Promise<MessageRef> {
    await this.begin(target.chatId, 'send');
    const messageId = String(this.next++);
    this.log.push({
      op: 'send',
      platform: target.platform,
      chatId: target.chatId,
      messageId,
      reply,
      at: Date.now(),
      ...(options.silent ? { silent: true } : {}),
      ...(target.threadId ? { threadId: target.threadId } : {}),
    });
    return { platform: target.platform, chatId: target.chatId, messageId };
  }

  async edit(ref: MessageRef, reply: Reply): Promise<MessageRef> {
    await this.begin(ref.chatId, 'edit');
    this.log.push({ op: 'edit', platform: ref.platform, chatId: ref.chatId, messageId: ref.messageId, reply, at: Date.now() });
    return ref;
  }

  async react(ref: MessageRef, emoji: string): Promise<void> {
    await this.begin(ref.chatId, 'react');
    this.log.push({
      op: 'react',
      platform: ref.platform,
      chatId: ref.chatId,
      messageId: ref.messageId,
      reply: { lines: [], target: 'here' },
      at: Date.now(),
      emoji,
    });
  }

  forChat(chatId: string): Recorded[] {
    return this.log.filter((r) => r.chatId === chatId);
  }
}
